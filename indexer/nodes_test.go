package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

func TestMethodClass(t *testing.T) {
	nodes := []schemas.Node{
		{ID: 1, Kind: schemas.KindFile},
		{ID: 2, ParentID: 1, Kind: schemas.KindClass},
		{ID: 3, ParentID: 2, Kind: schemas.KindMethod},
		{ID: 4, ParentID: 3, Kind: schemas.KindFunction},
		{ID: 5, ParentID: 1, Kind: schemas.KindFunction},
	}
	index := map[uint64]int32{}
	for i, n := range nodes {
		index[n.ID] = int32(i)
	}
	if got := indexer.ParentOf(nodes, index, 0); got != -1 {
		t.Errorf("the file's parent = %d, want -1", got)
	}
	for src, want := range []int32{-1, -1, 1, 1, -1} {
		if got := indexer.MethodClass(nodes, index, int32(src)); got != want {
			t.Errorf("MethodClass of node %d (%s) = %d, want %d", src, nodes[src].Kind, got, want)
		}
	}
}
