package csharp

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// TestResolveReusesRows checks that resolution reads rows only: resolving
// the same rows twice, in another order of files, gives the same edges,
// and changes no node.
func TestResolveReusesRows(t *testing.T) {
	x, err := New().NewExtractor(&indexer.Tree{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	root := "../../testdata/csharp/shop"
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".cs") {
			files = append(files, p)
		}
		return nil
	})
	var nodes []schemas.Node
	var refs []schemas.Ref
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		res, err := x.Extract(context.Background(), filepath.ToSlash(rel), src)
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, res.Nodes...)
		refs = append(refs, res.Refs...)
	}
	slices.SortFunc(nodes, func(a, b schemas.Node) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	before := slices.Clone(nodes)
	_, first := New().Resolve(nodes, refs)
	if !reflect.DeepEqual(before, nodes) {
		t.Fatal("Resolve changed nodes")
	}
	reversed := slices.Clone(refs)
	slices.Reverse(reversed)
	_, second := New().Resolve(nodes, reversed)
	key := func(e schemas.Edge) string {
		return strings.Join([]string{e.File, e.Kind, e.Target, e.Reason, e.Resolution}, "|") +
			"|" + string(rune(e.Line)) + string(rune(e.Col)) + "|" + string(rune(e.Dst%1000003))
	}
	a, b := make([]string, 0, len(first)), make([]string, 0, len(second))
	for _, e := range first {
		a = append(a, key(e))
	}
	for _, e := range second {
		b = append(b, key(e))
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Error("resolving the same rows in another order gave other edges")
	}
}
