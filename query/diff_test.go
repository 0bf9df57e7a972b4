package query_test

import (
	"errors"
	"strings"

	"testing"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas"
)

func TestDiffWithItselfIsEmpty(t *testing.T) {
	e, err := query.Build(querytest.Fixture())
	if err != nil {
		t.Fatal(err)
	}
	d := query.Diff(e, e, query.DiffOptions{})
	if len(d.Files)+len(d.Symbols)+len(d.Edges)+len(d.Impact) != 0 || d.Summary.EdgesAdded+d.Summary.EdgesRemoved != 0 {
		t.Fatalf("a snapshot differs from itself: %+v", d)
	}
	if d.From.Commit != querytest.Commit || d.To.Commit != querytest.Commit {
		t.Errorf("sides: %+v %+v", d.From, d.To)
	}
}

// TestDiffRemoval drops a called symbol from the fixture: it is removed,
// its callers are listed, and its edges are not counted as rewiring.
func TestDiffRemoval(t *testing.T) {
	a, err := query.Build(querytest.Fixture())
	if err != nil {
		t.Fatal(err)
	}
	s := querytest.Fixture()
	rows := a.Find("net/http.(*Server).Serve", "")
	if len(rows) != 1 {
		t.Fatalf("fixture: %d Serve", len(rows))
	}
	gone := a.Node(rows[0]).ID
	nodes := s.Nodes[:0]
	for _, n := range s.Nodes {
		if n.ID != gone {
			nodes = append(nodes, n)
		}
	}
	s.Nodes = nodes
	edges := s.Edges[:0]
	for _, e := range s.Edges {
		if e.Src != gone && e.Dst != gone {
			edges = append(edges, e)
		}
	}
	s.Edges = edges
	row := map[uint64]int32{}
	for i, n := range s.Nodes {
		row[n.ID] = int32(i)
	}
	for i := range s.Edges {
		e := &s.Edges[i]
		e.SrcRow, e.DstRow = row[e.Src], -1
		if e.Dst != 0 {
			e.DstRow = row[e.Dst]
		}
	}
	b, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	d := query.Diff(a, b, query.DiffOptions{})
	if len(d.Symbols) != 1 || d.Symbols[0].Change != "removed" || d.Symbols[0].CallersTotal != len(a.Callers(rows[0])) || d.Summary.Broken != 1 {
		t.Fatalf("symbols: %+v, summary %+v", d.Symbols, d.Summary)
	}
	if len(d.Edges) != 0 {
		t.Errorf("edges of a removed symbol listed as rewiring: %+v", d.Edges)
	}
}

// TestComparable: snapshots compare by id only at one recorded feature
// version, and the error names both.
func TestComparable(t *testing.T) {
	build := func(feature int) *query.Engine {
		s := querytest.Fixture()
		s.Manifest.FeatureVersion = feature
		e, err := query.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	cur, old := build(schemas.FeatureVersion), build(0)
	if err := query.Comparable(cur, cur); err != nil {
		t.Errorf("same version: %v", err)
	}
	var ie *query.IncomparableError
	for _, pair := range [][2]*query.Engine{{old, cur}, {cur, old}, {old, old}, {cur, build(schemas.FeatureVersion + 1)}} {
		err := query.Comparable(pair[0], pair[1])
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "feature versions") {
			t.Errorf("%d vs %d: %v", pair[0].Manifest().FeatureVersion, pair[1].Manifest().FeatureVersion, err)
		}
	}
}
