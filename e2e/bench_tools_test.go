package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	snapmcp "github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
)

// BenchmarkStdioTools is BenchmarkTools of package mcp through the real
// binary: every tool's sample call, sent by the official SDK client over
// the pipes of `snap serve`, timed from the request to the decoded
// answer. It reports each tool's median and 99th percentile round trip;
// set SNAP_BENCH_SNAPSHOT to a snapshot folder to measure a real one:
//
//	cd e2e && SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench StdioTools -benchtime 1000x
func BenchmarkStdioTools(b *testing.B) {
	dir, calls := stdioBenchCalls(b)
	sess, stderr := serve(b, dir)
	sdkRoundTrips(b, sess, stderr, calls)
}

// BenchmarkStdioReplay is BenchmarkStdioTools against a server that does
// no work: a proxy in front of the binary (replayMain) that answers each
// repeat of a call with the answer the binary gave the first. What is
// left is the SDK client's own work and the pipes: the least its round
// trip can be, whatever the server.
//
//	cd e2e && SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench StdioReplay -benchtime 1000x
func BenchmarkStdioReplay(b *testing.B) {
	dir, calls := stdioBenchCalls(b)
	sess, stderr := serveReplay(b, dir)
	sdkRoundTrips(b, sess, stderr, calls)
}

// sdkRoundTrips times every call of calls through sess, a sub-benchmark
// each, after a first call not timed.
func sdkRoundTrips(b *testing.B, sess *mcp.ClientSession, stderr *bytes.Buffer, calls []snapmcp.Call) {
	for _, c := range calls {
		b.Run(c.Tool, func(b *testing.B) {
			params := &mcp.CallToolParams{Name: c.Tool, Arguments: json.RawMessage(c.Args)}
			res, err := sess.CallTool(context.Background(), params)
			if err != nil || res.IsError {
				b.Fatalf("%s %s: %v %+v\n%s", c.Tool, c.Args, err, res, stderr)
			}
			size := len(res.Content[0].(*mcp.TextContent).Text)
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				if _, err := sess.CallTool(context.Background(), params); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			reportLatency(b, lat)
			b.ReportMetric(float64(size), "answer-bytes")
		})
	}
}

// BenchmarkStdioRaw is BenchmarkStdioTools with the least a client can
// do: it writes each request as one line to the real binary's stdin and
// reads the answer's line back, without decoding it. What it measures is
// the server and the pipes; BenchmarkStdioTools adds the SDK client's own
// work (encoding, decoding, checking the answer against its schema).
//
//	cd e2e && SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench StdioRaw -benchtime 1000x
func BenchmarkStdioRaw(b *testing.B) {
	dir, calls := stdioBenchCalls(b)
	cmd := exec.Command(snapBin, "serve", "--snapshot", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	answers := bufio.NewReaderSize(stdout, 1<<20)
	id := 0
	roundTrip := func(method string, params any) []byte {
		id++
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := stdin.Write(append(req, '\n')); err != nil {
			b.Fatalf("write: %v\n%s", err, stderr.String())
		}
		line, err := answers.ReadBytes('\n')
		if err != nil {
			b.Fatalf("read: %v\n%s", err, stderr.String())
		}
		return line
	}
	roundTrip("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "snap-bench", "version": "1"}})
	stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	for _, c := range calls {
		b.Run(c.Tool, func(b *testing.B) {
			params := map[string]any{"name": c.Tool, "arguments": json.RawMessage(c.Args)}
			var first struct {
				Result struct {
					IsError bool `json:"isError"`
				} `json:"result"`
				Error any `json:"error"`
			}
			line := roundTrip("tools/call", params)
			if err := json.Unmarshal(line, &first); err != nil || first.Error != nil || first.Result.IsError {
				b.Fatalf("%s %s: %v %s", c.Tool, c.Args, err, line)
			}
			req, _ := json.Marshal(params)
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				id++
				msg := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", id, req)
				start := time.Now()
				if _, err := stdin.Write(msg); err != nil {
					b.Fatal(err)
				}
				if _, err := answers.ReadBytes('\n'); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			reportLatency(b, lat)
			b.ReportMetric(float64(len(line)), "line-bytes")
		})
	}
}

// stdioBenchCalls returns the snapshot folder the stdio benchmarks serve,
// SNAP_BENCH_SNAPSHOT or else the Go fixture, and its sample calls.
func stdioBenchCalls(b *testing.B) (string, []snapmcp.Call) {
	dir := os.Getenv("SNAP_BENCH_SNAPSHOT")
	if dir == "" {
		dir = fixture(b, "go/shop")
	}
	return dir, sampleCalls(b, dir)
}

// sampleCalls returns every tool's sample call (mcp.SampleCalls) on the
// snapshot in dir.
func sampleCalls(tb testing.TB, dir string) []snapmcp.Call {
	tb.Helper()
	s, err := snapshot.ReadDir(tb.Context(), dir, snapshot.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	e, err := query.Build(s)
	if err != nil {
		tb.Fatal(err)
	}
	calls, err := snapmcp.SampleCalls(e)
	if err != nil {
		tb.Fatal(err)
	}
	return calls
}

// reportLatency reports the median and 99th percentile of lat.
func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}

// TestStdioEveryTool calls every tool's sample call through the real
// binary with the official SDK client: each answers without error, with
// structured content equal to its text.
func TestStdioEveryTool(t *testing.T) {
	dir := fixture(t, "go/shop")
	calls := sampleCalls(t, dir)
	sess, stderr := serve(t, dir, "--toolsets", "all")
	seen := map[string]bool{}
	for _, c := range calls {
		res, err := sess.CallTool(t.Context(), &mcp.CallToolParams{Name: c.Tool, Arguments: json.RawMessage(c.Args)})
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.Tool, err, stderr)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		structured, _ := json.Marshal(res.StructuredContent)
		var a, b any
		json.Unmarshal([]byte(text), &a)
		json.Unmarshal(structured, &b)
		if res.IsError || !reflect.DeepEqual(a, b) {
			t.Errorf("%s %s: error %v, text and structured content differ:\n%s\n%s", c.Tool, c.Args, res.IsError, text, structured)
		}
		seen[c.Tool] = true
	}
	list, err := sess.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		// The history tools need a store, the memory tools write and
		// snap_sql loads a second copy of the tables (seconds on a large
		// snapshot, which would skew the samples' timings): they have
		// tests of their own; the former names of merged tools answer as
		// the tools they became.
		former := strings.HasSuffix(tool.Title, "(former name)") || tool.Name == "snap_get_config"
		if !seen[tool.Name] && !former && !strings.Contains("snap_snapshots snap_diff snap_history snap_update_config snap_sync snap_sql", tool.Name) && !strings.Contains(tool.Name, "memor") {
			t.Errorf("%s has no sample call", tool.Name)
		}
	}
}
