package indexer

import (
	"os"
	"slices"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestReuseRefRuns holds reuse to a file's refs being its one run of the
// base's refs, shared, and to a file whose refs come in two runs (a base
// out of table order) being parsed again rather than given half of them.
func TestReuseRefRuns(t *testing.T) {
	file := func(p string) schemas.File {
		return schemas.File{Path: p, Language: "x", Status: schemas.StatusOK, SHA256: "sum-" + p}
	}
	b := &Base{
		Files: []schemas.File{file("a.x"), file("b.x"), file("c.x")},
		Refs: []schemas.Ref{
			{File: "a.x", Target: "a1"}, {File: "a.x", Target: "a2"},
			{File: "b.x", Target: "b1"},
			{File: "c.x", Target: "c1"},
			{File: "b.x", Target: "b2"}, // a second run of b.x
		},
		Grammars: map[string]string{"x": ""}, // fakeLang's grammar version
	}
	r := newReuse(b, os.ReadFile, nil, []Language{fakeLang{name: "x"}})
	f, ok := r.lookup("a.x", "sum-a.x")
	if !ok {
		t.Fatal("a.x: not reusable")
	}
	res := r.result("a.x", f)
	if want := b.Refs[0:2]; !slices.Equal(res.Refs, want) || &res.Refs[0] != &b.Refs[0] || cap(res.Refs) != 2 {
		t.Errorf("a.x: refs %v (cap %d), want the base's first two rows, shared and capped", res.Refs, cap(res.Refs))
	}
	if _, ok := r.lookup("b.x", "sum-b.x"); ok {
		t.Error("b.x, whose refs are in two runs, is reusable; want it parsed again")
	}
	if f, ok := r.lookup("c.x", "sum-c.x"); !ok || len(r.result("c.x", f).Refs) != 1 {
		t.Error("c.x: not reusable with its one ref")
	}
}
