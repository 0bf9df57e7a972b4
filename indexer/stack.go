package indexer

// A Frame is a range a walk over a file's items is inside of: a
// declaration, a block, a loop.
type Frame interface {
	// End returns the offset the frame's range ends at.
	End() uint32
}

// Stack is the frames a walk in document order is inside of, the
// innermost last.
type Stack[F Frame] []F

// Push pushes fr and returns it.
func (s *Stack[F]) Push(fr F) F {
	*s = append(*s, fr)
	return fr
}

// Pop drops the innermost frame.
func (s *Stack[F]) Pop() { *s = (*s)[:len(*s)-1] }

// Top returns the innermost frame, the zero F when there is none.
func (s Stack[F]) Top() F {
	if len(s) == 0 {
		var zero F
		return zero
	}
	return s[len(s)-1]
}

// Leave pops the frames that end at or before off: those the walk has
// left when it reaches off.
func (s *Stack[F]) Leave(off uint32) {
	for len(*s) > 0 && (*s)[len(*s)-1].End() <= off {
		s.Pop()
	}
}

// A NodeFrame is a Frame that says the node made for it (-1 for none),
// for Context.
type NodeFrame interface {
	Frame
	Node() int32
}

// Context returns the node of the innermost frame of s that made one:
// the node code at the top of s belongs to, -1 when none did (the file).
func Context[F NodeFrame](s Stack[F]) int32 {
	for i := len(s) - 1; i >= 0; i-- {
		if n := s[i].Node(); n >= 0 {
			return n
		}
	}
	return -1
}

// A RegionFrame is a Frame that says its kind and the node made for it
// (-1 for none), for Regions.
type RegionFrame[K Kind] interface {
	KindFrame[K]
	Node() int32
}

// Regions returns the Region of code at the top of s within the
// innermost frame that made a node (its function, its type); see
// RegionWithin.
func Regions[K Kind, F RegionFrame[K]](s Stack[F], loop, try, cond K) Region {
	return RegionWithin(s, loop, try, cond, func(fr F) bool { return fr.Node() >= 0 })
}
