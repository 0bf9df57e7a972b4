package indexer

import "github.com/graphsnap/snap/schemas"

// Region is where code runs within its function: in a loop, in a try
// block, in a conditional branch. It is what a ref's InLoop, InTry and
// Conditional say.
type Region struct{ Loop, Try, Cond bool }

// Mark sets ref's InLoop, InTry and Conditional to r.
func (r Region) Mark(ref *schemas.Ref) {
	ref.InLoop, ref.InTry, ref.Conditional = r.Loop, r.Try, r.Cond
}

// A KindFrame is a Frame that says its kind, for RegionWithin.
type KindFrame[K Kind] interface {
	Frame
	Kind() K
}

// RegionWithin returns the Region of code at the top of s: the frames of
// kind loop, try or cond it is in, from the top of s down to the first
// frame of another kind that bounds says bounds it (its function, its
// lambda).
func RegionWithin[K Kind, F KindFrame[K]](s Stack[F], loop, try, cond K, bounds func(F) bool) Region {
	var r Region
	for i := len(s) - 1; i >= 0; i-- {
		if fr := s[i]; !InRegion(&r, fr.Kind(), loop, try, cond) && bounds(fr) {
			return r
		}
	}
	return r
}

// InRegion sets r's Loop, Try or Cond when k, the kind of a frame code
// runs in, is loop, try or cond, and reports whether it was one of them.
func InRegion[K Kind](r *Region, k, loop, try, cond K) bool {
	switch k {
	case loop:
		r.Loop = true
	case try:
		r.Try = true
	case cond:
		r.Cond = true
	default:
		return false
	}
	return true
}

// Pending is a ref whose Expr waits for every binding of the file: the
// Finish pass makes it, of an item or, when Item is -1, of the text at.
type Pending struct {
	Kind string // the ref's kind, "" where its item tells it
	Item int32  // the item's index, -1 for none
	Src  int32  // the node whose code makes it, -1 for the file
	At   Span   // with no item: where the ref is made
	Region
}
