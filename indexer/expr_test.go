package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

func TestLocalExpr(t *testing.T) {
	var none indexer.Lazy[string]
	if got := indexer.LocalExpr(&none, func() string { return "" }); got != indexer.ExprLocal {
		t.Errorf("a local whose value gives no Expr = %q, want %q", got, indexer.ExprLocal)
	}
	var self indexer.Lazy[string]
	var get func() string
	get = func() string {
		return indexer.LocalExpr(&self, func() string { return get() + ".next" })
	}
	if got := get(); got != indexer.ExprLocal+".next" {
		t.Errorf("a local bound to itself = %q, want the cycle cut at %q", got, indexer.ExprLocal)
	}
	known := indexer.Known("{T}")
	if got := indexer.LocalExpr(&known, func() string { return "x" }); got != "{T}" {
		t.Errorf("a known local = %q, want {T}", got)
	}
}

func TestAgree(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   string
	}{
		{nil, ""},
		{[]string{"{A}"}, "{A}"},
		{[]string{"{A}", "{A}"}, "{A}"},
		{[]string{"{A}", "{B}", "{A}"}, indexer.ExprLocal},
	} {
		v := ""
		for _, e := range c.values {
			v = indexer.Agree(v, e)
		}
		if v != c.want {
			t.Errorf("values %q agree on %q, want %q", c.values, v, c.want)
		}
	}
}

func TestClosing(t *testing.T) {
	for _, c := range []struct {
		e    string
		want int
	}{
		{"(a,b).c", 4},
		{"f((a),(b)).c", 9},
		{"a.b", -1},
		{"((a)", -1},
	} {
		if got := indexer.Closing(c.e, '(', ')'); got != c.want {
			t.Errorf("Closing(%q) = %d, want %d", c.e, got, c.want)
		}
	}
}
