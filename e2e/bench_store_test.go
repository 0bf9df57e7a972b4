package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

// BenchmarkStoreGOROOT measures the shared store with the snapshot of
// GOROOT/src against a local versitygw: push and pull throughput, the time
// from a push landing to `snap serve --sync 1s` answering from it, and
// tool latency while that swap happens against the steady state, all in
// one run. Run it once: make bench-store, or
//
//	cd e2e && go test -run '^$' -bench StoreGOROOT -benchtime 1x
func BenchmarkStoreGOROOT(b *testing.B) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	srv := s3test.Start(b)
	url := srv.URL("bench")
	work, reader := b.TempDir(), b.TempDir()
	cache := filepath.Join(work, ".snap")
	flags := []string{"--repo", "golang/go", "--branch", "master"}

	if code, _, stderr := snapIn(b, work, nil, append(append([]string{"index", "-q", "--vendored", "--generated", "--store", cache}, flags...), src)...); code != 0 {
		b.Fatal(stderr)
	}
	push := func(args ...string) schemas.Transfer {
		code, out, stderr := snapIn(b, work, srv.Env(), append(append([]string{"push", "--store", url, "--json"}, flags...), args...)...)
		if code != 0 {
			b.Fatal(stderr)
		}
		return decode[schemas.Transfer](b, out)
	}
	mbps := func(t schemas.Transfer) float64 {
		return float64(t.Bytes) / (1 << 20) / (float64(t.DurationMS) / 1000)
	}
	first := push()
	code, out, stderr := snapIn(b, reader, srv.Env(), append([]string{"pull", "--store", url, "--json"}, flags...)...)
	if code != 0 {
		b.Fatal(stderr)
	}
	pulled := decode[schemas.Transfer](b, out)

	// A second snapshot, a child of the first: the same tables under
	// another commit, as CI would push for the next commit.
	ctx := context.Background()
	fs, err := filestore.New(cache)
	if err != nil {
		b.Fatal(err)
	}
	prefix, _ := snapshot.Prefix("golang/go", "master", first.Commit)
	s, err := snapshot.Read(ctx, fs, prefix, snapshot.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	next := "tree-00000000000000000000000000000001"
	s.Manifest.Commit, s.Manifest.Parents = next, []string{first.Commit}
	nextPrefix, _ := snapshot.Prefix("golang/go", "master", next)
	if _, err := snapshot.Write(ctx, fs, nextPrefix, s); err != nil {
		b.Fatal(err)
	}

	sess, _ := serveStore(b, reader, srv.Env(), append([]string{"--store", url, "--sync", "1s"}, flags...)...)
	waitCommit(b, sess, first.Commit, 2*time.Minute)

	// Callers of fmt.Sprintf, from 2 clients without pause: 2 s of steady
	// state, then from the push of the child until the server answers
	// from it.
	var mu sync.Mutex
	var steady, swapping []time.Duration
	phase := 0 // 0 steady, 1 swapping, 2 done
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				mu.Lock()
				p := phase
				mu.Unlock()
				if p == 2 {
					return
				}
				start := time.Now()
				res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "snap_calls",
					Arguments: map[string]any{"name": "Sprintf", "file": "fmt/print.go", "limit": 20}})
				took := time.Since(start)
				if err != nil || res.IsError {
					b.Errorf("call: %v %v", err, res)
					return
				}
				mu.Lock()
				if phase == 0 && p == 0 {
					steady = append(steady, took)
				} else if phase == 1 && p == 1 {
					swapping = append(swapping, took)
				}
				mu.Unlock()
			}
		})
	}
	time.Sleep(2 * time.Second)
	mu.Lock()
	phase = 1
	mu.Unlock()
	second := push("--commit", next)
	landed := time.Now()
	waitCommit(b, sess, next, 2*time.Minute)
	lag := time.Since(landed)
	mu.Lock()
	phase = 2
	mu.Unlock()
	wg.Wait()

	pct := func(d []time.Duration, q float64) float64 {
		if len(d) == 0 {
			return 0
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[int(q*float64(len(d)-1))].Microseconds())
	}
	b.ReportMetric(float64(first.Bytes)/(1<<20), "snapshot-MiB")
	b.ReportMetric(float64(first.DurationMS), "push-ms")
	b.ReportMetric(mbps(first), "push-MiB/s")
	b.ReportMetric(float64(pulled.DurationMS), "pull-ms")
	b.ReportMetric(mbps(pulled), "pull-MiB/s")
	b.ReportMetric(float64(second.DurationMS), "push2-ms")
	b.ReportMetric(float64(lag.Milliseconds()), "push-to-answer-ms")
	b.ReportMetric(pct(steady, .5), "steady-p50-µs")
	b.ReportMetric(pct(steady, .99), "steady-p99-µs")
	b.ReportMetric(pct(swapping, .5), "swap-p50-µs")
	b.ReportMetric(pct(swapping, .99), "swap-p99-µs")
	b.Logf("%d steady calls, %d during the swap", len(steady), len(swapping))
}
