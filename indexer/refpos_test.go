package indexer_test

import (
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

func TestByPosition(t *testing.T) {
	refs := []*schemas.Ref{{Line: 2, Col: 1}, {Line: 1, Col: 9}, {Line: 2, Col: 0}, {Line: 1, Col: 3}}
	slices.SortFunc(refs, indexer.ByPosition)
	var got [][2]uint32
	for _, r := range refs {
		got = append(got, [2]uint32{r.Line, r.Col})
	}
	want := [][2]uint32{{1, 3}, {1, 9}, {2, 0}, {2, 1}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
