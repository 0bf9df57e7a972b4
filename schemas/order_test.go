package schemas

import (
	"cmp"
	"math/rand/v2"
	"testing"
)

// TestOrders holds CompareEdges and CompareRefs to the orders FORMAT.md
// states, written as one comparison of every column in turn, over rows
// that tie on leading columns often.
func TestOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pick := func(vals ...string) string { return vals[rng.IntN(len(vals))] }
	n := func() uint32 { return uint32(rng.IntN(3)) }
	edge := func() Edge {
		return Edge{Src: uint64(n()), Kind: pick(EdgeCalls, EdgeContains), Dst: uint64(n()), Line: n(), Col: n(),
			Target: pick("", "a", "b"), File: pick("x.go", "y.go")}
	}
	ref := func() Ref {
		return Ref{File: pick("x.go", "y.go"), Line: n(), Col: n(), Kind: pick(EdgeCalls, RefType), Target: pick("a", "b"),
			Src: uint64(n()), Expr: pick("", "e")}
	}
	for range 20000 {
		a, b := edge(), edge()
		want := cmp.Or(cmp.Compare(a.Src, b.Src), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Dst, b.Dst),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Target, b.Target), cmp.Compare(a.File, b.File))
		if got := CompareEdges(&a, &b); got != want {
			t.Fatalf("CompareEdges(%+v, %+v) = %d, want %d", a, b, got, want)
		}
		r, s := ref(), ref()
		want = cmp.Or(cmp.Compare(r.File, s.File), cmp.Compare(r.Line, s.Line), cmp.Compare(r.Col, s.Col),
			cmp.Compare(r.Kind, s.Kind), cmp.Compare(r.Target, s.Target), cmp.Compare(r.Src, s.Src), cmp.Compare(r.Expr, s.Expr))
		if got := CompareRefs(&r, &s); got != want {
			t.Fatalf("CompareRefs(%+v, %+v) = %d, want %d", r, s, got, want)
		}
	}
}
