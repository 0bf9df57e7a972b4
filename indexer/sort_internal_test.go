package indexer

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestSortEdges holds the counting sort by source row to a plain sort by
// the table's order, on edges crafted to tie on every leading column.
func TestSortEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]uint64, 300)
	for i := range ids {
		ids[i] = rng.Uint64()
	}
	slices.Sort(ids)
	kinds := []string{schemas.EdgeCalls, schemas.EdgeContains, schemas.EdgeImports}
	for _, n := range []int{0, 1, 2, 50, 5000} {
		edges := make([]schemas.Edge, n)
		for i := range edges {
			edges[i] = schemas.Edge{
				Src:  ids[rng.IntN(len(ids)/10)*10], // few sources: long runs
				Dst:  ids[rng.IntN(3)],
				Kind: kinds[rng.IntN(len(kinds))], File: "a.go",
				Line: uint32(rng.IntN(3)), Col: uint32(rng.IntN(2)),
				Target: []string{"f", "g"}[rng.IntN(2)], InLoop: rng.IntN(2) == 0,
			}
		}
		if _, err := FillRows(edges, ids); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(edges)
		slices.SortStableFunc(want, compareEdges)
		cut := n / 3 // the parts are sorted together
		if got := SortEdges(edges[:cut], nil, edges[cut:]); !slices.Equal(got, want) {
			t.Fatalf("%d edges: SortEdges differs from sorting by the table's order", n)
		}
		var parts [][]schemas.Edge // more parts than workers: several to a group
		for rest := edges; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(n/4+1))
			parts, rest = append(parts, rest[:k]), rest[k:]
		}
		if got := SortEdges(parts...); !slices.Equal(got, want) {
			t.Fatalf("%d edges in %d parts: SortEdges differs from sorting by the table's order", n, len(parts))
		}

		// The contains edges into nodes with a parent, made by the sort,
		// land as the same edges given would.
		nodes := make([]schemas.Node, len(ids))
		parent := make([]int32, len(ids))
		var contains []schemas.Edge
		for i, id := range ids {
			nodes[i] = schemas.Node{ID: id, Name: "n" + strconv.Itoa(i), File: "a.go", StartLine: uint32(i % 4)}
			parent[i] = -1
			if p := rng.IntN(len(ids) + 1); p < len(ids) && i%3 != 0 { // many children of few rows too
				nodes[i].ParentID, parent[i] = ids[p/10*10], int32(p/10*10)
				contains = append(contains, schemas.Edge{Src: ids[p/10*10], Dst: id, Kind: schemas.EdgeContains, File: "a.go",
					Line: nodes[i].StartLine, Target: nodes[i].Name, Resolution: schemas.ResolvedStructural, Confidence: 1})
			}
		}
		if _, err := FillRows(contains, ids); err != nil {
			t.Fatal(err)
		}
		want = SortEdges(edges, contains)
		if got := sortEdges([][]schemas.Edge{edges}, nodes, parent); !slices.Equal(got, want) {
			t.Fatalf("%d edges, %d made: sortEdges with nodes differs from SortEdges with their contains edges", n, len(contains))
		}
	}
}

// TestSortAndMergeNodes holds sortNodes to a stable sort by id and
// mergeNodes to a plain merge, on ids that repeat (a duplicate id is an
// error later, but its rows must still come out whole).
func TestSortAndMergeNodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 7, 1000} {
		nodes := make([]schemas.Node, n)
		for i := range nodes {
			nodes[i] = schemas.Node{ID: uint64(rng.IntN(n + 3)), Name: strconv.Itoa(i)}
		}
		want := slices.Clone(nodes)
		slices.SortStableFunc(want, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
		sortNodes(nodes)
		if !slices.EqualFunc(nodes, want, func(a, b schemas.Node) bool { return a.ID == b.ID && a.Name == b.Name }) {
			t.Fatalf("%d nodes: sortNodes differs from a stable sort by id", n)
		}
		extra := make([]schemas.Node, rng.IntN(20))
		for i := range extra {
			extra[i] = schemas.Node{ID: uint64(rng.IntN(n + 3)), Name: "extra" + strconv.Itoa(i)}
		}
		slices.SortStableFunc(extra, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
		merged := slices.Clone(want)
		merged = append(merged, extra...)
		slices.SortStableFunc(merged, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
		if got := mergeNodes(nodes, extra); !slices.EqualFunc(got, merged, func(a, b schemas.Node) bool { return a.ID == b.ID && a.Name == b.Name }) {
			t.Fatalf("%d nodes, %d more: mergeNodes differs from a merge", n, len(extra))
		}
		roomy := append(make([]schemas.Node, 0, n+len(extra)+rng.IntN(3)), nodes...)
		got := mergeNodes(roomy, extra)
		if !slices.EqualFunc(got, merged, func(a, b schemas.Node) bool { return a.ID == b.ID && a.Name == b.Name }) {
			t.Fatalf("%d nodes with room, %d more: mergeNodes differs from a merge", n, len(extra))
		}
		if len(got) > 0 && &got[0] != &roomy[:1][0] {
			t.Fatalf("%d nodes with room, %d more: mergeNodes did not merge in place", n, len(extra))
		}
	}
}

// BenchmarkSortNodes sorts 400,000 nodes of shuffled ids, the size of
// GOROOT/src's table, by sortNodes and by a plain sort of the rows.
func BenchmarkSortNodes(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	base := make([]schemas.Node, 400_000)
	for i := range base {
		base[i] = schemas.Node{ID: rng.Uint64(), QualifiedName: "pkg.Name", File: "pkg/file.go"}
	}
	nodes := make([]schemas.Node, len(base))
	for _, bc := range []struct {
		name string
		sort func([]schemas.Node)
	}{
		{"permute", sortNodes},
		{"rows", func(n []schemas.Node) {
			slices.SortFunc(n, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				copy(nodes, base)
				bc.sort(nodes)
			}
		})
	}
}

// BenchmarkSortEdges sorts 1,300,000 edges over 380,000 source rows, in
// two parts, the sizes of GOROOT/src's tables.
func BenchmarkSortEdges(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	const rows = 380_000
	parts := [][]schemas.Edge{make([]schemas.Edge, 900_000), make([]schemas.Edge, 400_000)}
	for _, p := range parts {
		for i := range p {
			r := int32(rng.IntN(rows))
			p[i] = schemas.Edge{Src: uint64(r), SrcRow: r, Kind: schemas.EdgeCalls, Line: uint32(rng.IntN(100)), Target: "f"}
		}
	}
	for b.Loop() {
		SortEdges(parts...)
	}
}
