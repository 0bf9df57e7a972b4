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

func TestResolveRefs(t *testing.T) {
	var refs []schemas.Ref
	byID := map[uint64]int32{}
	for i := range 1000 {
		refs = append(refs, schemas.Ref{Src: uint64(i), Line: uint32(i)})
		if i%3 != 0 {
			byID[uint64(i)] = int32(i)
		}
	}
	edges := indexer.ResolveRefs(refs, byID, func(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
		return append(edges, schemas.Edge{Src: ref.Src, Dst: uint64(src), Line: ref.Line})
	})
	var want []uint32
	for i := range 1000 {
		if i%3 != 0 {
			want = append(want, uint32(i))
		}
	}
	if len(edges) != len(want) {
		t.Fatalf("%d edges, want %d", len(edges), len(want))
	}
	for i, e := range edges {
		if e.Line != want[i] || e.Dst != uint64(want[i]) {
			t.Fatalf("edge %d is %+v, want the ref of line %d", i, e, want[i])
		}
	}
}
