package query_test

import (
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// contextTasks returns n tasks for Context as the load test writes them
// (e2e/load_test.go), from the engine's Go functions and methods that have
// callers and callees, shuffled with a fixed seed: "change how <name>
// works in <dir>", or for every other one with a doc comment its first
// eight words. The name stays whole: Context splits it into the same
// words as the load test does.
func contextTasks(e *query.Engine, n int) []string {
	var funcs []int32
	for r := range int32(e.NumNodes()) {
		nd := e.Node(r)
		if nd.Language != "go" || nd.Kind != schemas.KindFunction && nd.Kind != schemas.KindMethod {
			continue
		}
		if res, _ := e.Callees(r); len(res) > 0 && len(e.Callers(r)) > 0 {
			funcs = append(funcs, r)
		}
	}
	if len(funcs) == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(1, 0))
	rng.Shuffle(len(funcs), func(i, j int) { funcs[i], funcs[j] = funcs[j], funcs[i] })
	tasks := make([]string, n)
	for i := range tasks {
		nd := e.Node(funcs[i%len(funcs)])
		tasks[i] = fmt.Sprintf("change how %s works in %s", nd.Name, path.Dir(nd.File))
		if doc := strings.Fields(nd.Doc); i%2 == 1 && len(doc) > 0 {
			tasks[i] = strings.Join(doc[:min(8, len(doc))], " ")
		}
	}
	return tasks
}

// BenchmarkContextTasks is Engine.Context over 1,000 load-test tasks on
// the snapshot named by SNAP_BENCH_SNAPSHOT, its index built beforehand;
// an op is one pass over all of them, and p50, p99 and max are those of
// one task:
//
//	SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench ContextTasks -benchtime 5x ./query/
func BenchmarkContextTasks(b *testing.B) {
	e, err := query.Build(benchRead(b, benchSnapshotDir(b)))
	if err != nil {
		b.Fatal(err)
	}
	e.Warm()
	tasks := contextTasks(e, 1000)
	if len(tasks) == 0 {
		b.Fatal("no Go function with callers and callees in the snapshot")
	}
	var took []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		for _, task := range tasks {
			start := time.Now()
			e.Context(task, query.ContextOptions{})
			took = append(took, time.Since(start))
		}
	}
	slices.Sort(took)
	at := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))].Nanoseconds()) }
	b.ReportMetric(at(0.5), "p50-ns")
	b.ReportMetric(at(0.99), "p99-ns")
	b.ReportMetric(at(1), "max-ns")
}
