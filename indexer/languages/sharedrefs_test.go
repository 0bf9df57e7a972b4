package languages_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/schemas"
)

// plainLanguage hides every optional interface of the language it wraps:
// the indexer hands it a copy of its own refs (not AllRefsResolver) and
// calls its Resolve.
type plainLanguage struct{ indexer.Language }

// TestAllRefsShared indexes a tree of several languages, Go's refs the
// most among them, Kotlin's package clauses too: the Go
// resolver, handed the whole refs table (indexer.AllRefsResolver), makes
// the same nodes and edges as when handed a copy of the Go refs alone.
func TestAllRefsShared(t *testing.T) {
	root := t.TempDir()
	for _, dir := range []string{"go/shop", "kotlin/shop", "c/shop", "python/app", "bash/shop"} {
		copyDir(t, filepath.Join("..", "..", "testdata", dir), filepath.Join(root, filepath.Dir(dir)))
	}
	// Go's refs the most: more copies of its fixture.
	for _, dir := range []string{"go2", "go3", "go4"} {
		copyDir(t, filepath.Join("..", "..", "testdata", "go", "shop"), filepath.Join(root, dir))
	}
	index := func(langs []indexer.Language) *indexer.Graph {
		t.Helper()
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: langs, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	all := languages.All()
	shared := index(all)

	perExt := map[string]int{}
	foreignPackages := 0
	for _, r := range shared.Refs {
		ext := filepath.Ext(r.File)
		perExt[ext]++
		if r.Kind == schemas.RefPackage && ext != ".go" {
			foreignPackages++
		}
	}
	for ext, n := range perExt {
		if ext != ".go" && n >= perExt[".go"] {
			t.Fatalf("refs by extension %v: Go's should be the most", perExt)
		}
	}
	if len(perExt) < 4 || foreignPackages == 0 {
		t.Fatalf("refs by extension %v, %d package clauses of other languages: the tree should mix them", perExt, foreignPackages)
	}

	plain := slices.Clone(all)
	found := false
	for i, l := range plain {
		if l.Name() == "go" {
			if _, ok := l.(indexer.AllRefsResolver); !ok {
				t.Fatal("the Go language should take all refs")
			}
			plain[i], found = plainLanguage{l}, true
		}
	}
	if !found {
		t.Fatal("no Go language")
	}
	copied := index(plain)
	if len(shared.Edges) == 0 || !reflect.DeepEqual(shared.Edges, copied.Edges) {
		t.Errorf("edges: %d with the table shared, %d with a copy of Go's refs; first difference: %s",
			len(shared.Edges), len(copied.Edges), firstEdgeDiff(shared.Edges, copied.Edges))
	}
	if !reflect.DeepEqual(shared.Nodes, copied.Nodes) {
		t.Errorf("nodes differ: %d with the table shared, %d with a copy", len(shared.Nodes), len(copied.Nodes))
	}
}

func firstEdgeDiff(a, b []schemas.Edge) string {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return strings.Join([]string{a[i].File, a[i].Target, a[i].Kind, "vs", b[i].File, b[i].Target, b[i].Kind}, " ")
		}
	}
	return "one is the other's prefix"
}
