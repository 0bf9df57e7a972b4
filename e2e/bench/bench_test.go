package main

import (
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// The benchmarks here measure a real snapshot, named by
// SNAP_BENCH_SNAPSHOT (a folder), and skip without one:
//
//	SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench Engine -benchtime 1000x ./bench
//	SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench Memory -benchtime 1x ./bench

func snapshotDir(b *testing.B) string {
	dir := os.Getenv("SNAP_BENCH_SNAPSHOT")
	if dir == "" {
		b.Skip("SNAP_BENCH_SNAPSHOT names no snapshot folder")
	}
	return dir
}

var (
	engineOnce sync.Once
	engine     *query.Engine
	engineErr  error
)

// loadEngine loads the snapshot as snap serve does (no refs), once.
func loadEngine(b *testing.B) *query.Engine {
	dir := snapshotDir(b)
	engineOnce.Do(func() {
		s, err := snapshot.ReadDir(b.Context(), dir, snapshot.ReadOptions{SkipRefs: true, SourceFiles: true})
		if err != nil {
			engineErr = err
			return
		}
		engine, engineErr = query.Build(s)
		if engineErr == nil {
			engine.Warm() // as snap serve does, before its first swap
		}
	})
	if engineErr != nil {
		b.Fatal(engineErr)
	}
	return engine
}

// subjects are n functions and methods that have callers, outside tests,
// picked at random, the same every run: what an agent asks about.
func subjects(b *testing.B, e *query.Engine, n int) []int32 {
	var rows []int32
	for r := range int32(e.NumNodes()) {
		nd := e.Node(r)
		if (nd.Kind == schemas.KindFunction || nd.Kind == schemas.KindMethod) && !nd.IsTest && e.Degree(r, query.Calls, query.In) > 0 {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		b.Fatal("the snapshot has no called function")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([]int32, n)
	for i := range out {
		out[i] = rows[rng.IntN(len(rows))]
	}
	return out
}

// timed runs op b.N times and reports its median and 99th percentile
// latency, and the mean size of its result in unit.
func timed(b *testing.B, unit string, op func(i int) int) {
	lat := make([]time.Duration, 0, b.N)
	size := 0
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		size += op(i)
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(size)/float64(len(lat)), unit)
}

// BenchmarkEngine measures the engine's calls behind the graph tools on
// a real snapshot: callers, impact at depth 3 capped at 50 nodes, the
// shortest path between two random subjects, and search by the kinds of
// query an agent types, each with its p50 and p99.
func BenchmarkEngine(b *testing.B) {
	e := loadEngine(b)
	rows := subjects(b, e, 4096)
	b.Run("callers", func(b *testing.B) {
		timed(b, "links/op", func(i int) int { return len(e.Callers(rows[i%len(rows)])) })
	})
	b.Run("impact", func(b *testing.B) {
		opt := query.ImpactOptions{Direction: query.In, Depth: 3, MaxNodes: 50}
		timed(b, "nodes/op", func(i int) int {
			n := 0
			for _, lv := range e.Impact(rows[i%len(rows):][:1], opt).Levels {
				n += len(lv.Nodes)
			}
			return n
		})
	})
	b.Run("path", func(b *testing.B) {
		timed(b, "found/op", func(i int) int {
			if _, ok := e.Path(rows[i%len(rows)], rows[(i+1)%len(rows)], query.PathOptions{}); ok {
				return 1
			}
			return 0
		})
	})
	queries := searchQueries(e, rows[:512])
	for _, kind := range []string{"exact", "prefix", "folded", "fuzzy", "dotted"} {
		qs := queries[kind]
		b.Run("search/"+kind, func(b *testing.B) {
			timed(b, "hits/op", func(i int) int {
				return len(e.Search(qs[i%len(qs)], query.SearchOptions{Limit: 50}))
			})
		})
	}
}

// searchQueries derives queries from the subjects' names: the name, a
// prefix, in lower case, with a letter left out, and qualified by its
// package ("http.Serve").
func searchQueries(e *query.Engine, rows []int32) map[string][]string {
	q := map[string][]string{}
	for _, r := range rows {
		n := e.Node(r)
		name := n.Name
		q["exact"] = append(q["exact"], name)
		q["prefix"] = append(q["prefix"], name[:min(len(name), max(3, len(name)/2))])
		q["folded"] = append(q["folded"], strings.ToLower(name))
		if len(name) >= 5 {
			q["fuzzy"] = append(q["fuzzy"], name[:len(name)/2]+name[len(name)/2+1:])
		}
		scope := n.QualifiedName[strings.LastIndex(n.QualifiedName, "/")+1:]
		if pkg, _, ok := strings.Cut(scope, "."); ok && pkg != "" {
			q["dotted"] = append(q["dotted"], pkg+"."+name)
		}
	}
	for k, v := range q {
		if len(v) == 0 {
			delete(q, k)
		}
	}
	return q
}

// BenchmarkMemory measures the live heap a snapshot's engine holds:
// HeapAlloc after GC before loading, after loading and building the
// engine (cold), and after Engine.Warm(). "serve" loads what snap serve
// loads (all but refs, the sources kept compressed: SourceFiles); "no-sources"
// leaves out the sources table.
func BenchmarkMemory(b *testing.B) {
	dir := snapshotDir(b)
	for _, v := range []struct {
		name string
		opt  snapshot.ReadOptions
	}{
		{"serve", snapshot.ReadOptions{SkipRefs: true, SourceFiles: true}},
		{"no-sources", snapshot.ReadOptions{SkipRefs: true, SkipSources: true}},
	} {
		b.Run(v.name, func(b *testing.B) {
			var cold, warm, nodes float64
			for b.Loop() {
				before := liveHeap()
				s, err := snapshot.ReadDir(b.Context(), dir, v.opt)
				if err != nil {
					b.Fatal(err)
				}
				e, err := query.Build(s)
				if err != nil {
					b.Fatal(err)
				}
				cold = liveHeap() - before
				e.Warm()
				warm = liveHeap() - before
				nodes = float64(e.NumNodes())
				runtime.KeepAlive(e)
			}
			b.ReportMetric(nodes, "nodes")
			b.ReportMetric(cold, "cold-heap-B")
			b.ReportMetric(cold/nodes, "cold-B/node")
			b.ReportMetric(warm, "warm-heap-B")
			b.ReportMetric(warm/nodes, "warm-B/node")
		})
	}
}

func liveHeap() float64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}
