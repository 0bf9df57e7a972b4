package indexer

import (
	"math/rand/v2"
	"slices"
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
	row := make(map[uint64]int32, len(ids))
	for i, id := range ids {
		row[id] = int32(i)
	}
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
		if _, err := FillRows(edges, row); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(edges)
		slices.SortStableFunc(want, compareEdges)
		cut := n / 3 // the parts are sorted together
		if got := SortEdges(edges[:cut], nil, edges[cut:]); !slices.Equal(got, want) {
			t.Fatalf("%d edges: SortEdges differs from sorting by the table's order", n)
		}
	}
}
