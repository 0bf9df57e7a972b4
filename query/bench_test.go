package query_test

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
)

// The benchmark graph: about 200k nodes and 1M edges.
var (
	benchOnce   sync.Once
	benchEngine *query.Engine
)

func benchGraph(b *testing.B) *query.Engine {
	b.Helper()
	benchOnce.Do(func() {
		start := time.Now()
		s := querytest.Synthetic(200_000, 1)
		generated := time.Now()
		e, err := query.Build(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("graph: %d nodes, %d edges; generated in %v, built in %v",
			e.NumNodes(), e.NumEdges(), generated.Sub(start).Round(time.Millisecond), time.Since(generated).Round(time.Millisecond))
		benchEngine = e
	})
	if benchEngine == nil {
		b.Fatal("no benchmark graph")
	}
	return benchEngine
}

// benchRows returns n node rows picked at random, the same every run.
func benchRows(e *query.Engine, n int) []int32 {
	rng := rand.New(rand.NewPCG(7, 7))
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(rng.IntN(e.NumNodes()))
	}
	return rows
}

func BenchmarkCallers(b *testing.B) {
	e := benchGraph(b)
	rows := benchRows(e, 4096)
	n := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		n += len(e.Callers(rows[i%len(rows)]))
	}
	b.ReportMetric(float64(n)/float64(b.N), "callers/op")
}

func BenchmarkImpact(b *testing.B) {
	e := benchGraph(b)
	rows := benchRows(e, 4096)
	n := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for _, lv := range e.Impact(rows[i%len(rows):][:1], query.ImpactOptions{MaxNodes: 500}).Levels {
			n += len(lv.Nodes)
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "nodes/op")
}

func BenchmarkPath(b *testing.B) {
	e := benchGraph(b)
	rows := benchRows(e, 4096)
	found := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, ok := e.Path(rows[i%len(rows)], rows[(i+1)%len(rows)], query.PathOptions{}); ok {
			found++
		}
	}
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
}

func BenchmarkSearch(b *testing.B) {
	e := benchGraph(b)
	for _, q := range []struct{ name, q string }{
		{"exact", "LoadUserConfig"},
		{"prefix", "ParseSer"},
		{"folded", "server"}, // exact ignoring case, then prefixes and words
		{"python", "load_user"},
		{"fuzzy", "RenderSesion"},
		{"dotted", "pkg0003.Get"},
	} {
		b.Run(q.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				n = len(e.Search(q.q, query.SearchOptions{Limit: 50}))
			}
			b.ReportMetric(float64(n), "hits")
		})
	}
}
