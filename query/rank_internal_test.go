package query

import (
	"math"
	"testing"

	"github.com/graphsnap/snap/query/querytest"
)

// TestPersonalisedMatchesPowerIteration holds forward push to its bound:
// the scores differ from the fixed point that power iteration, restarting
// on the seeds, converges to by less than rankPushError in all.
func TestPersonalisedMatchesPowerIteration(t *testing.T) {
	e, err := Build(querytest.Synthetic(3000, 3))
	if err != nil {
		t.Fatal(err)
	}
	kinds := DefaultRankKinds
	n := len(e.nodes)
	outs := make([][]int32, n)
	for u := range int32(n) {
		e.each(u, kinds, Out, func(_, v int32) bool { outs[u] = append(outs[u], v); return true })
	}
	for _, seeds := range [][]int32{{7}, {100, 2000, 2000}, {int32(n - 1)}} {
		restart := make([]float64, n)
		for _, s := range seeds {
			restart[s] += 1 / float64(len(seeds))
		}
		x := append([]float64(nil), restart...)
		for range 500 {
			next := make([]float64, n)
			dangling := 0.0
			for u, vs := range outs {
				if len(vs) == 0 {
					dangling += x[u]
					continue
				}
				for _, v := range vs {
					next[v] += rankDamping * x[u] / float64(len(vs))
				}
			}
			for v := range next {
				next[v] += ((1 - rankDamping) + rankDamping*dangling) * restart[v]
			}
			x = next
		}
		st := e.personalised(seeds, kinds)
		total := 0.0
		for v := range n {
			total += math.Abs(st.p[v] - x[v])
		}
		if total > rankPushError {
			t.Errorf("seeds %v: scores off by %.2g in all, bound %.2g", seeds, total, rankPushError)
		}
		t.Logf("seeds %v: %d rows reached, off by %.2g in all", seeds, len(st.touched), total)
		pushStates.Put(st)
	}
}
