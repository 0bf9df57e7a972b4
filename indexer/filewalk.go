package indexer

import (
	"iter"

	"github.com/cespare/xxhash/v2"
)

// Text returns the text of f at s.
func (f *File[K]) Text(s Span) string { return f.Str[s.Start:s.End] }

// Within yields the index and the address of each item after item i that
// starts before limit, as long as they lie within item i: the parts of a
// declaration ahead of its name or body (its modifiers, its annotations).
func (f *File[K]) Within(i int, limit uint32) iter.Seq2[int, *Match[K]] {
	return func(yield func(int, *Match[K]) bool) {
		end := f.Items[i].End
		for j := i + 1; j < len(f.Items) && f.Items[j].Start < limit && f.Items[j].End <= end; j++ {
			if !yield(j, &f.Items[j]) {
				return
			}
		}
	}
}

// Enclosing drops from the end of s, spans a walk in document order has
// entered, innermost last, those that end at or before off: it returns
// the spans the walk is still in at off.
func Enclosing(s []Span, off uint32) []Span {
	for len(s) > 0 && s[len(s)-1].End <= off {
		s = s[:len(s)-1]
	}
	return s
}

// BodyHash returns the hash of the text of the body of declaration it,
// its role slot body, and where the body starts; for a declaration
// without one, the hash of its whole text and where it ends.
func (f *File[K]) BodyHash(it *Match[K], body int) (hash uint64, start uint32) {
	if it.HasRole(body) {
		b := it.Role[body]
		return xxhash.Sum64String(f.Text(b)), b.Start
	}
	return xxhash.Sum64String(f.Text(it.Span)), it.End
}
