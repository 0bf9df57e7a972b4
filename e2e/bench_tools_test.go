package e2e

import (
	"context"
	"encoding/json"
	"os"
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
	dir := os.Getenv("SNAP_BENCH_SNAPSHOT")
	if dir == "" {
		dir = fixture(b, "go/shop")
	}
	s, err := snapshot.ReadDir(b.Context(), dir, snapshot.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	e, err := query.Build(s)
	if err != nil {
		b.Fatal(err)
	}
	calls, err := snapmcp.SampleCalls(e)
	if err != nil {
		b.Fatal(err)
	}
	sess, stderr := serve(b, dir)
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
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
			b.ReportMetric(float64(size), "answer-bytes")
		})
	}
}

// TestStdioEveryTool calls every tool's sample call through the real
// binary with the official SDK client: each answers without error, with
// structured content equal to its text.
func TestStdioEveryTool(t *testing.T) {
	dir := fixture(t, "go/shop")
	s, err := snapshot.ReadDir(t.Context(), dir, snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := snapmcp.SampleCalls(e)
	if err != nil {
		t.Fatal(err)
	}
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
		// The history tools need a store, the memory tools write: they
		// have tests of their own.
		if !seen[tool.Name] && !strings.Contains("snap_snapshots snap_diff snap_history snap_update_config snap_sync", tool.Name) && !strings.Contains(tool.Name, "memor") {
			t.Errorf("%s has no sample call", tool.Name)
		}
	}
}
