package query_test

import (
	"sync"
	"testing"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
)

// allButContains is DefaultRankKinds in another order: Rank treats it as
// custom kinds and builds the rank graph on every call.
var allButContains = []query.EdgeKind{query.Instantiates, query.Calls, query.Imports, query.Extends, query.Implements, query.References}

func BenchmarkRank(b *testing.B) {
	for _, g := range []struct {
		name string
		e    func(b *testing.B) *query.Engine
	}{
		{"fixture", func(b *testing.B) *query.Engine { return build(b) }},
		{"200k", benchGraph},
		{"400k", bigGraph},
	} {
		b.Run(g.name+"/global", func(b *testing.B) {
			e := g.e(b)
			for b.Loop() {
				e.Rank(query.RankOptions{Kinds: allButContains}) // graph build + iteration, uncached
			}
		})
		b.Run(g.name+"/seeded", func(b *testing.B) {
			e := g.e(b)
			e.Rank(query.RankOptions{}) // the cached default graph
			seeds := benchRows(e, 4)
			b.ResetTimer()
			for b.Loop() {
				e.Rank(query.RankOptions{Seeds: seeds})
			}
		})
		b.Run(g.name+"/cached", func(b *testing.B) {
			e := g.e(b)
			e.Rank(query.RankOptions{})
			b.ResetTimer()
			for b.Loop() {
				e.Rank(query.RankOptions{})
			}
		})
	}
}

// bigGraph is a graph about the size of GOROOT's: 400k nodes, 2M edges.
var (
	bigOnce   sync.Once
	bigEngine *query.Engine
)

func bigGraph(b *testing.B) *query.Engine {
	b.Helper()
	bigOnce.Do(func() {
		start := time.Now()
		e, err := query.Build(querytest.Synthetic(400_000, 2))
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("big graph: %d nodes, %d edges in %v", e.NumNodes(), e.NumEdges(), time.Since(start).Round(time.Millisecond))
		bigEngine = e
	})
	if bigEngine == nil {
		b.Fatal("no big graph")
	}
	return bigEngine
}

func BenchmarkContext(b *testing.B) {
	for _, g := range []struct {
		name string
		e    func(b *testing.B) *query.Engine
		task string
	}{
		{"fixture", func(b *testing.B) *query.Engine { return build(b) }, "add retry to the HTTP client's redirect handling"},
		{"200k", benchGraph, "update the user session cache when a request is handled"},
	} {
		b.Run(g.name, func(b *testing.B) {
			e := g.e(b)
			e.Context(g.task, query.ContextOptions{}) // the index and the rank, once
			n := 0
			b.ResetTimer()
			for b.Loop() {
				n = len(e.Context(g.task, query.ContextOptions{}).Symbols)
			}
			b.ReportMetric(float64(n), "symbols")
		})
	}
}

func BenchmarkExplore(b *testing.B) {
	e := benchGraph(b)
	rows := benchRows(e, 4096)
	for i := 0; b.Loop(); i++ {
		g := e.Explore(rows[i%len(rows):][:1], query.ExploreOptions{Depth: 2})
		e.Mermaid(g)
	}
}
