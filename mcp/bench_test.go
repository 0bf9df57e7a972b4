package mcp_test

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
)

// BenchmarkTools calls every tool that reads the snapshot with the
// arguments mcp.SampleCalls picks, through the registry (what snap serve
// runs for a call, less the transport). It reports each tool's median and
// 99th percentile latency and the size of its answer; set
// SNAP_BENCH_SNAPSHOT to a snapshot folder (a GOROOT/src one, say) to
// measure a real one, otherwise it runs on the Go fixture:
//
//	SNAP_BENCH_SNAPSHOT=DIR go test ./mcp -run '^$' -bench Tools -benchtime 2000x
func BenchmarkTools(b *testing.B) {
	h := holder(b)
	if dir := os.Getenv("SNAP_BENCH_SNAPSHOT"); dir != "" {
		s, err := snapshot.ReadDir(b.Context(), dir, snapshot.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		e, err := query.Build(s)
		if err != nil {
			b.Fatal(err)
		}
		h.Store(e)
	}
	reg, err := mcp.NewRegistry(h, mcp.DefaultToolsets...)
	if err != nil {
		b.Fatal(err)
	}
	calls, err := mcp.SampleCalls(h.Load())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range calls {
		b.Run(c.Tool, func(b *testing.B) {
			out, isErr := reg.CallJSON(b.Context(), c.Tool, c.Args)
			if isErr {
				b.Fatalf("%s %s: %s", c.Tool, c.Args, out)
			}
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				reg.CallJSON(b.Context(), c.Tool, c.Args)
				lat = append(lat, time.Since(start))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
			b.ReportMetric(float64(len(out)), "answer-bytes")
		})
	}
}
