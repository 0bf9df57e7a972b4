package indexer

// A Binding is what a local name is bound to in a range of its file.
type Binding interface {
	// Visible returns the range the binding is visible in.
	Visible() Span
}

// Innermost returns the binding of bs visible at p that starts last (of
// two that start together, the later in bs), or the zero B when none is.
func Innermost[B Binding](bs []B, p uint32) B {
	var best B
	var start uint32
	found := false
	for _, b := range bs {
		if v := b.Visible(); v.Start <= p && p < v.End && (!found || v.Start >= start) {
			best, start, found = b, v.Start, true
		}
	}
	return best
}

// Bindings are the bindings of a file's names, each name's in the order
// bound.
type Bindings[B Binding] map[string][]B

// Add binds name to b and returns b.
func (m Bindings[B]) Add(name string, b B) B {
	m[name] = append(m[name], b)
	return b
}

// Lookup returns the innermost binding of name visible at p (see
// Innermost), the zero B when none is.
func (m Bindings[B]) Lookup(name string, p uint32) B { return Innermost(m[name], p) }
