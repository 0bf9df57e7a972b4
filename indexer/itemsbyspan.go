package indexer

// ItemsBySpan indexes some of a file's items by their span: an
// extractor records its expression items, and the code that meets a span
// (an Expr function, an argument) finds the item there.
type ItemsBySpan map[uint64]int32

// Add records that item i is at s.
func (x ItemsBySpan) Add(s Span, i int) { x[s.Key()] = int32(i) }

// ItemAt returns the item of items that x records at s, nil when x
// records none.
func ItemAt[K Kind](items []Match[K], x ItemsBySpan, s Span) *Match[K] {
	if i, ok := x[s.Key()]; ok {
		return &items[i]
	}
	return nil
}
