package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

func TestExprHead(t *testing.T) {
	for _, c := range []struct {
		e, head string
		ok      bool
	}{
		{"{a.B}.c(1)", "{a.B}", true},
		{"{a.B}", "{a.B}", true},
		{"{a.B", "", false},
		{"x.y.z", "x", true},
		{"f(a).b", "f", true},
		{"x", "x", true},
		{".y", "", true},
		{"", "", true},
	} {
		if head, ok := indexer.ExprHead(c.e); head != c.head || ok != c.ok {
			t.Errorf("ExprHead(%q) = %q, %v, want %q, %v", c.e, head, ok, c.head, c.ok)
		}
	}
	if got := indexer.NameEnd("a.bc(1).d", 2); got != 4 {
		t.Errorf("NameEnd at a step = %d, want 4", got)
	}
	if got := indexer.NameEnd("a.bc", 2); got != 4 {
		t.Errorf("NameEnd at the end = %d, want 4", got)
	}
}
