//go:build cgo && (duckdb_use_lib || duckdb_use_static_lib || (linux && (amd64 || arm64)) || (darwin && (amd64 || arm64)) || (windows && amd64))

package snapsql

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/graphsnap/snap/snapshot"
)

// BenchmarkReachGOROOT loads a snapshot (SNAP_BENCH_SNAPSHOT, a folder:
// GOROOT/src's, say) and walks its call graph to depth 3 with recursive
// CTEs: reach from the function that calls the most others, and
// reached_by from the most called one. It reports the load's time and
// each walk's rows; ns/op is one walk of each.
//
//	snap index --store /tmp/goroot --repo golang/go --branch master "$(go env GOROOT)/src"
//	SNAP_BENCH_SNAPSHOT=/tmp/goroot/repo=golang%2Fgo/branch=master/commit=… \
//	  go test ./snapsql -run '^$' -bench ReachGOROOT -benchtime 10x
func BenchmarkReachGOROOT(b *testing.B) {
	dir := os.Getenv("SNAP_BENCH_SNAPSHOT")
	if dir == "" {
		b.Fatal("set SNAP_BENCH_SNAPSHOT to a snapshot folder (GOROOT/src's)")
	}
	ctx := context.Background()
	st, err := snapshot.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	db, err := Open(ctx, st, "", Options{Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	load := time.Since(start)
	hub := func(q string) string {
		res, err := db.Query(ctx, q)
		if err != nil || len(res.Rows) != 1 {
			b.Fatalf("%s: %v", q, err)
		}
		b.Logf("%s: %v", q, res.Rows[0])
		return Text(res.Rows[0][0])
	}
	caller := hub("SELECT src, count(DISTINCT dst) AS n FROM edges WHERE kind = 'calls' AND dst <> 0 GROUP BY src ORDER BY n DESC, src LIMIT 1")
	called := hub("SELECT dst, count(*) AS n FROM edges WHERE kind = 'calls' AND dst <> 0 GROUP BY dst ORDER BY n DESC, dst LIMIT 1")
	queries := []string{
		fmt.Sprintf("SELECT count(*), max(depth) FROM reach(%s, 3)", caller),
		fmt.Sprintf("SELECT count(*), max(depth) FROM reached_by(%s, 3)", called),
	}
	b.ResetTimer()
	for range b.N {
		for _, q := range queries {
			if _, err := db.Query(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	for _, q := range queries {
		t := time.Now()
		res, err := db.Query(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("%s: %v in %v", q, res.Rows[0], time.Since(t))
	}
	b.ReportMetric(load.Seconds(), "load-s")
}
