package query

import (
	"slices"
	"testing"

	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas"
)

// TestAdjacencyByDefinition holds the precomputed adjacency to what it
// stands for: every csr's other ends are the edge rows' own, and Callers
// is every calls and instantiates edge into a node, sorted by site.
func TestAdjacencyByDefinition(t *testing.T) {
	s := querytest.Synthetic(3000, 5)
	// Instantiations and calls into the same callee from many files, lines
	// and columns, some at the same place, so that the merge of the two
	// kinds and every key of the order are exercised.
	// Build needs the edges' rows right, not the edges in table order.
	for i := range 600 {
		src, dst := (i*37)%len(s.Nodes), i%7
		kind := schemas.EdgeCalls
		if i%3 == 0 {
			kind = schemas.EdgeInstantiates
		}
		s.Edges = append(s.Edges, schemas.Edge{Src: s.Nodes[src].ID, Dst: s.Nodes[dst].ID, Kind: kind,
			File: s.Nodes[i%11].File, Line: uint32(i % 5), Col: uint32(i % 4), SrcRow: int32(src), DstRow: int32(dst)})
	}
	e, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	// Every edge is listed once under its source (out) and, resolved,
	// once under its destination (in), with its kind and other end; a
	// node's edges of a kind are in edge row order.
	for _, c := range [...]struct {
		name string
		adj  *adjacency
		ends func(ed *edge) (node, other int32)
	}{
		{"out", &e.out, func(ed *edge) (int32, int32) { return ed.srcRow, ed.dstRow }},
		{"in", &e.in, func(ed *edge) (int32, int32) { return ed.dstRow, ed.srcRow }},
	} {
		listed := make([]int, len(e.edges))
		for r := range int32(len(e.nodes)) {
			for k := range numEdgeKinds + 1 {
				edges, others := c.adj.span(r, k)
				if !slices.IsSorted(edges) {
					t.Fatalf("%s: %s edges of row %d out of row order: %v", c.name, k, r, edges)
				}
				for j, i := range edges {
					node, other := c.ends(&e.edges[i])
					if e.edges[i].kind != k || node != r || others[j] != other {
						t.Fatalf("%s: row %d, kind %s: edge %d (%s, %d → other %d), listed with other end %d",
							c.name, r, k, i, e.edges[i].kind, node, other, others[j])
					}
					listed[i]++
				}
			}
		}
		for i, n := range listed {
			want := 1
			if c.name == "in" && e.edges[i].dstRow < 0 {
				want = 0
			}
			if n != want {
				t.Fatalf("%s: edge %d listed %d times, want %d", c.name, i, n, want)
			}
		}
	}
	many := 0
	for r := range int32(len(e.nodes)) {
		var want []Link
		for _, k := range callKinds {
			for _, i := range e.in.edges(r, k) {
				want = append(want, Link{Edge: int32(i), Node: e.edges[i].srcRow})
			}
		}
		e.sortSites(want)
		if got := e.Callers(r); !slices.Equal(got, want) {
			t.Fatalf("Callers(%d) = %v, want %v", r, got, want)
		}
		if len(want) > 20 {
			many++
		}
	}
	if many == 0 {
		t.Fatal("no node has more than 20 callers: the order was not exercised")
	}
}
