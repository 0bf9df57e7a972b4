package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

func TestInnermostAt(t *testing.T) {
	nodes := []schemas.Node{
		{ID: 1, StartLine: 1, StartCol: 1, EndLine: 20, EndCol: 1},  // a module
		{ID: 2, StartLine: 2, StartCol: 1, EndLine: 10, EndCol: 2},  // a class
		{ID: 3, StartLine: 3, StartCol: 5, EndLine: 5, EndCol: 6},   // a method of it
		{ID: 4, StartLine: 12, StartCol: 1, EndLine: 14, EndCol: 2}, // a function
	}
	kids := map[uint64][]int32{1: {1, 3}, 2: {2}}
	for _, tc := range []struct {
		line, col uint32
		want      int32
	}{
		{4, 1, 2},  // in the method
		{3, 5, 2},  // at its first column
		{5, 6, 1},  // at its end: outside it, in the class
		{11, 1, 0}, // between the class and the function
		{13, 9, 3}, // in the function
		{30, 1, 0}, // past everything: the node started from
	} {
		if got := indexer.InnermostAt(nodes, kids, 0, tc.line, tc.col); got != tc.want {
			t.Errorf("InnermostAt(%d:%d) = %d, want %d", tc.line, tc.col, got, tc.want)
		}
	}
	if got := indexer.InnermostAt(nodes, kids, -1, 4, 1); got != -1 {
		t.Errorf("InnermostAt from -1 = %d, want -1", got)
	}
}
