package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

func TestRefsFrom(t *testing.T) {
	refs := []schemas.Ref{{Src: 1, Target: "a"}, {Src: 2, Target: "b"}, {Src: 3, Target: "c"}}
	byID := map[uint64]int32{1: 10, 3: 30}
	var got []string
	for ref, src := range indexer.RefsFrom(refs, byID) {
		got = append(got, ref.Target)
		if want := byID[ref.Src]; src != want {
			t.Errorf("ref %s: src %d, want %d", ref.Target, src, want)
		}
		if ref != &refs[0] && ref != &refs[2] {
			t.Errorf("ref %s is not an element of refs", ref.Target)
		}
	}
	if len(got) != 2 || got[0] != "a" || got[1] != "c" {
		t.Errorf("RefsFrom yields %q, want [a c]", got)
	}
	for ref := range indexer.RefsFrom(refs, byID) {
		if ref.Target != "a" {
			t.Errorf("yields %s after the loop broke", ref.Target)
		}
		break
	}
}
