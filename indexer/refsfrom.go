package indexer

import (
	"iter"

	"github.com/graphsnap/snap/schemas"
)

// RefsFrom yields each ref of refs made by a node of byID (nodes by id),
// with that node: the refs a language's resolver reads, those of its own
// files.
func RefsFrom(refs []schemas.Ref, byID map[uint64]int32) iter.Seq2[*schemas.Ref, int32] {
	return func(yield func(*schemas.Ref, int32) bool) {
		for i := range refs {
			if src, ok := byID[refs[i].Src]; ok && !yield(&refs[i], src) {
				return
			}
		}
	}
}
