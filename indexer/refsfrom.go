package indexer

import (
	"iter"
	"runtime"
	"sync"

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

// ResolveRefs calls resolve on each ref of refs made by a node of byID
// (see RefsFrom), in parallel over contiguous chunks of refs, one a
// processor, and returns the edges resolve appended, joined in the order
// of refs: the result does not depend on the schedule. resolve must be
// safe to call from several goroutines at once.
func ResolveRefs(refs []schemas.Ref, byID map[uint64]int32, resolve func(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge) []schemas.Edge {
	chunks := make([][]schemas.Edge, runtime.GOMAXPROCS(0))
	size := (len(refs) + len(chunks) - 1) / len(chunks)
	var wg sync.WaitGroup
	for c := range chunks {
		lo, hi := min(c*size, len(refs)), min((c+1)*size, len(refs))
		wg.Go(func() {
			for ref, src := range RefsFrom(refs[lo:hi], byID) {
				chunks[c] = resolve(chunks[c], ref, src)
			}
		})
	}
	wg.Wait()
	var edges []schemas.Edge
	for _, c := range chunks {
		edges = append(edges, c...)
	}
	return edges
}
