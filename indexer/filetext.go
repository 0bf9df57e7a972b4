package indexer

import "iter"

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
