package languagetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Precision indexes dir with langs and holds the calls and instantiates
// edges it resolves, each written `site caller -kind-> callee@its
// file:line`, to reviewed (sorted): the edges checked by hand against
// the source. It fails on any edge more (unreviewed) or less (lost).
func Precision(t *testing.T, dir string, reviewed []string, langs ...indexer.Language) {
	t.Helper()
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	byID := make(map[uint64]schemas.Node)
	for _, n := range g.Nodes {
		byID[n.ID] = n
	}
	var got []string
	for _, e := range g.Edges {
		if e.Dst == 0 || e.Kind != schemas.EdgeCalls && e.Kind != schemas.EdgeInstantiates {
			continue
		}
		d := byID[e.Dst]
		got = append(got, fmt.Sprintf("%s:%d %s -%s-> %s@%s:%d", e.File, e.Line, byID[e.Src].QualifiedName, e.Kind, d.QualifiedName, d.File, d.StartLine))
	}
	slices.Sort(got)
	if slices.Equal(got, reviewed) {
		return
	}
	for _, s := range got {
		if !slices.Contains(reviewed, s) {
			t.Errorf("unreviewed edge: %q,", s)
		}
	}
	for _, s := range reviewed {
		if !slices.Contains(got, s) {
			t.Errorf("lost edge: %s", s)
		}
	}
}
