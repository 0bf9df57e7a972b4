package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

func TestLazy(t *testing.T) {
	var a, b indexer.Lazy[string]
	calls := 0
	var getA func() string
	getB := func() string { return b.Get(func() string { return "b of " + getA() }, "?cycle") }
	getA = func() string {
		return a.Get(func() string { calls++; return "a of " + getB() }, "?cycle")
	}
	if got := getA(); got != "a of b of ?cycle" {
		t.Errorf("a = %q, want the cycle cut at the second a", got)
	}
	if got := getA(); got != "a of b of ?cycle" || calls != 1 {
		t.Errorf("a again = %q after %d computations, want it kept from one", got, calls)
	}
	k := indexer.Known("x")
	if got := k.Get(func() string { return "y" }, ""); got != "x" {
		t.Errorf("Known gives %q, want x", got)
	}
}
