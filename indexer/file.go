package indexer

import (
	"context"
	"iter"

	"github.com/graphsnap/snap/schemas"
)

// File is one scanned file as an extractor walks it: its path, text and
// items, whether it holds tests, and the rows made of it. A language's
// per-file state embeds it.
type File[K Kind] struct {
	Rows
	Path  string
	Src   []byte
	Str   string // Src as a string
	Items []Match[K]
	Test  bool // the file holds tests by the language's conventions
}

// NewFile returns the File of s, its rows numbered for language and Test
// set by isTest of its path.
func NewFile[K Kind](s *Scanned[K], language string, isTest func(path string) bool) File[K] {
	return File[K]{
		Rows:  Rows{IDs: IDs{Language: language, File: s.Path}, Lines: s.Lines, Docs: map[uint32]string{}},
		Path:  s.Path,
		Src:   s.Src,
		Str:   string(s.Src),
		Items: s.Items,
		Test:  isTest(s.Path),
	}
}

// Each yields the index and the address of each item of f in document
// order, and stops early when ctx is done (see Elements).
func (f *File[K]) Each(ctx context.Context) iter.Seq2[int, *Match[K]] {
	return Elements(ctx, f.Items)
}

// Elements yields the index and the address of each element of s in
// order, and stops early when ctx is done (see Stopped).
func Elements[T any](ctx context.Context, s []T) iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		for i := range s {
			if Stopped(ctx, i) || !yield(i, &s[i]) {
				return
			}
		}
	}
}

// CountKinds counts the items of each kind below n, for sizing what a
// walk over them makes. It stops counting when ctx is done.
func CountKinds[K Kind](ctx context.Context, items []Match[K], n K) []int {
	count := make([]int, n)
	for _, it := range Elements(ctx, items) {
		count[it.Kind]++
	}
	return count
}

// Made returns the nodes and refs made of f and whether it holds tests.
func (f *File[K]) Made() (nodes []schemas.Node, refs []schemas.Ref, isTest bool) {
	return f.Nodes, f.Refs, f.Test
}

// Passes are the walks over one file's items that make its rows, run in
// this order by RunPasses: Prepare indexes what Run looks up by position
// (doc comments, expressions, argument lists), Run makes the rows in
// document order, Finish completes those that wait for the whole file
// (such as calls whose Expr names locals bound later). Each gives up when
// ctx is done. A per-file state that embeds a File has Made.
type Passes interface {
	Prepare(ctx context.Context)
	Run(ctx context.Context)
	Finish(ctx context.Context)
	Made() (nodes []schemas.Node, refs []schemas.Ref, isTest bool)
}

// RunPasses runs p's passes and returns what they made.
func RunPasses(ctx context.Context, p Passes) (nodes []schemas.Node, refs []schemas.Ref, isTest bool) {
	p.Prepare(ctx)
	p.Run(ctx)
	p.Finish(ctx)
	return p.Made()
}
