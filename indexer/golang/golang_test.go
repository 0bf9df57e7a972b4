package golang_test

import (
	"context"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/go/shop", "../../testdata/go/shop.golden.json", golang.New())
}

// TestResolveFiles: the edges ResolveFiles finds for some files are those
// ResolveParts finds whose File is one of them, for every file of a tree.
func TestResolveFiles(t *testing.T) {
	l := golang.New()
	g, err := indexer.Index(context.Background(), "../../testdata/go/shop", indexer.Options{Languages: []indexer.Language{l}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, parts := l.ResolveParts(slices.Clone(g.Nodes), g.Refs)
	all := slices.Concat(parts...)
	indexer.SortEdges(all)
	seen := 0
	for _, f := range g.Files {
		files := map[string]bool{f.Path: true}
		_, parts := l.ResolveFiles(slices.Clone(g.Nodes), g.Refs, files)
		got := indexer.SortEdges(parts...)
		want := indexer.SortEdges(slices.DeleteFunc(slices.Clone(all), func(e schemas.Edge) bool { return !files[e.File] }))
		if !slices.Equal(got, want) {
			t.Errorf("%s: ResolveFiles found %d edges, ResolveParts %d of the file's", f.Path, len(got), len(want))
		}
		seen += len(want)
	}
	if seen != len(all) || seen == 0 {
		t.Errorf("the files' edges add up to %d of %d", seen, len(all))
	}
}
