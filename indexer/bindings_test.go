package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

type testBinding struct {
	name string
	at   indexer.Span
}

func (b *testBinding) Visible() indexer.Span { return b.at }

func TestInnermost(t *testing.T) {
	outer := &testBinding{"outer", indexer.Span{Start: 0, End: 100}}
	inner := &testBinding{"inner", indexer.Span{Start: 20, End: 40}}
	again := &testBinding{"again", indexer.Span{Start: 20, End: 30}}
	bs := []*testBinding{outer, inner, again}
	for _, tc := range []struct {
		p    uint32
		want *testBinding
	}{{10, outer}, {25, again}, {35, inner}, {40, outer}, {100, nil}} {
		if got := indexer.Innermost(bs, tc.p); got != tc.want {
			t.Errorf("Innermost at %d = %v, want %v", tc.p, got, tc.want)
		}
	}
}
