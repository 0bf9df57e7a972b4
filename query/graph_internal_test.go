package query

import (
	"cmp"
	"slices"
	"strings"
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
	// Build needs the edges' rows right, and the edges in order of source
	// and kind.
	for i := range 600 {
		src, dst := (i*37)%len(s.Nodes), i%7
		kind := schemas.EdgeCalls
		if i%3 == 0 {
			kind = schemas.EdgeInstantiates
		}
		s.Edges = append(s.Edges, schemas.Edge{Src: s.Nodes[src].ID, Dst: s.Nodes[dst].ID, Kind: kind,
			File: s.Nodes[i%11].File, Line: uint32(i % 5), Col: uint32(i % 4), SrcRow: int32(src), DstRow: int32(dst)})
	}
	// One node leads many edges of several kinds: its runs are searched,
	// not scanned.
	for i := range 60 {
		kind := []string{schemas.EdgeCalls, schemas.EdgeReferences, schemas.EdgeContains, schemas.EdgeImplements}[i%4]
		s.Edges = append(s.Edges, schemas.Edge{Src: s.Nodes[1].ID, Dst: s.Nodes[100+i].ID, Kind: kind,
			File: s.Nodes[1].File, Line: uint32(i), SrcRow: 1, DstRow: int32(100 + i)})
	}
	slices.SortStableFunc(s.Edges, func(a, b schemas.Edge) int {
		return cmp.Or(cmp.Compare(a.SrcRow, b.SrcRow), cmp.Compare(a.Kind, b.Kind))
	})
	e, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	// Every edge is listed once under its source (out) and, resolved,
	// once under its destination (in), with its kind and other end; a
	// node's edges of a kind are in edge row order.
	out, in := make([]int, len(e.edges)), make([]int, len(e.edges))
	for r := range int32(len(e.nodes)) {
		for k := range numEdgeKinds + 1 {
			rs := e.outRows(r, k)
			for i := rs.lo; i < rs.hi; i++ {
				if ed := &e.edges[i]; ed.kind != k || ed.srcRow != r {
					t.Fatalf("out: row %d, kind %s: edge %d (%s from %d)", r, k, i, ed.kind, ed.srcRow)
				}
				out[i]++
			}
			edges := e.in.edges(r, k)
			if !slices.IsSorted(edges) {
				t.Fatalf("in: %s edges of row %d out of row order: %v", k, r, edges)
			}
			for _, i := range edges {
				if ed := &e.edges[i]; ed.kind != k || ed.dstRow != r {
					t.Fatalf("in: row %d, kind %s: edge %d (%s, %d → %d)", r, k, i, ed.kind, ed.srcRow, ed.dstRow)
				}
				in[i]++
			}
		}
	}
	for i := range e.edges {
		if want := int(min(e.edges[i].dstRow+1, 1)); out[i] != 1 || in[i] != want {
			t.Fatalf("edge %d listed %d times out, %d in; want 1 and %d", i, out[i], in[i], want)
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
	if n := e.outAt[2] - e.outAt[1]; n <= 16 {
		t.Fatalf("row 1 leads %d edges: the search of a long run was not exercised", n)
	}

	// Edges out of that order are refused.
	i := slices.IndexFunc(s.Edges, func(ed schemas.Edge) bool { return ed.SrcRow == 1 && ed.Kind == schemas.EdgeReferences })
	s.Edges[i], s.Edges[i-1] = s.Edges[i-1], s.Edges[i]
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "not in the table's order") {
		t.Fatalf("Build of edges out of order: %v", err)
	}
}

// TestRowSetPooled holds the pooled row sets to fresh ones: what a query
// set is clear for the next, whoever takes the set, on any goroutine.
func TestRowSetPooled(t *testing.T) {
	e, err := Build(querytest.Synthetic(3000, 5))
	if err != nil {
		t.Fatal(err)
	}
	n := int32(len(e.nodes))
	done := make(chan bool)
	for g := range 4 {
		go func() {
			ok := true
			for round := range 200 {
				s := e.rowSet()
				for r := int32(0); r < n; r++ {
					if s.has(r) {
						ok = false
					}
				}
				for r := int32(g + round%7); r < n; r += 61 {
					s.set(r)
				}
				if !s.has(int32(g+round%7)) || s.has(n-1) && (n-1-int32(g+round%7))%61 != 0 {
					ok = false
				}
				e.putRowSet(s)
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("a pooled row set came back with rows set, or lost one")
		}
	}
}
