package indexer

import (
	"cmp"

	"github.com/graphsnap/snap/schemas"
)

// ByPosition orders refs by where they stand in their file, line then
// column, for slices.SortFunc.
func ByPosition(a, b *schemas.Ref) int {
	return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
}
