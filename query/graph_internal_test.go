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
	for k := range numEdgeKinds {
		for _, c := range [...]struct {
			csr *csr
			end func(ed *edge) int32
		}{{&e.out[k], func(ed *edge) int32 { return ed.dstRow }}, {&e.in[k], func(ed *edge) int32 { return ed.srcRow }}} {
			for r := range int32(len(e.nodes)) {
				edges, ends := c.csr.span(r)
				for j, i := range edges {
					if want := c.end(&e.edges[i]); ends[j] != want {
						t.Fatalf("%s edge %d of row %d: other end %d, edge row says %d", k, i, r, ends[j], want)
					}
				}
			}
		}
	}
	many := 0
	for r := range int32(len(e.nodes)) {
		var want []Link
		for _, k := range callKinds {
			for _, i := range e.in[k].edges(r) {
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
