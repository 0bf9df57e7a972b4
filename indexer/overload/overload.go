// Package overload chooses the method an overloaded call invokes from the
// types of its arguments, the way Java's compiler does (JLS 15.12.2), in
// terms any language with overloading by parameter types can reuse.
//
// A language describes its types through Rules: whether an argument of
// one type converts to a parameter of another, strictly (identity and
// widening) or loosely (boxing and unboxing too), and whether one type is
// a subtype of another. Every answer is Yes, No or Maybe, Maybe standing
// for what the facts at hand cannot tell (an argument of unknown type, a
// type outside the snapshot). Choose then runs the three phases of
// applicability (strict, loose, variable arity), stops at the first phase
// with an applicable method and picks the most specific one. It decides
// only when every way the Maybes could turn out leads to the same method,
// assuming, as a compiler that accepted the code did, that some method
// applies.
package overload

// Answer is what a rule knows: No, Maybe or Yes.
type Answer uint8

const (
	No Answer = iota
	Maybe
	Yes
)

// and is the conjunction of a and b.
func and(a, b Answer) Answer { return min(a, b) }

// Method is a candidate: its parameter types, the last one a variable-arity
// parameter (an array of its elements) when Varargs is set.
type Method[T any] struct {
	Params  []T
	Varargs bool
}

// Rules are a language's conversions between types.
type Rules[T any] struct {
	// Convert reports whether an argument of type arg may be passed to a
	// parameter of type param: by strict conversions, or loose ones too.
	Convert func(arg, param T, loose bool) Answer
	// Subtype reports whether s is a subtype of t (or t itself): what
	// makes one method more specific than another.
	Subtype func(s, t T) Answer
	// Elem returns the element type of a variable-arity parameter's type.
	Elem func(T) T
}

// Outcome is how a choice ended.
type Outcome uint8

const (
	Chosen    Outcome = iota // one method, returned
	Ambiguous                // several methods might be the one
	None                     // no method applies to the arguments
)

// phase is a phase of applicability (JLS 15.12.2.2-4).
type phase uint8

const (
	strict phase = iota
	loose
	variable
)

// Choose returns the method of ms a call with arguments of types args
// invokes, with Chosen, or -1 with why not.
func Choose[T any](ms []Method[T], args []T, r Rules[T]) (int, Outcome) {
	var sets [3]struct{ yes, maybe []int }
	for p := strict; p <= variable; p++ {
		for i := range ms {
			switch applicable(ms[i], args, p, r) {
			case Yes:
				sets[p].yes = append(sets[p].yes, i)
			case Maybe:
				sets[p].maybe = append(sets[p].maybe, i)
			}
		}
	}
	for p := strict; p <= variable; p++ {
		s := sets[p]
		switch {
		case len(s.yes) > 0:
			// The phase's applicable methods are the yes ones and some of
			// the maybe ones: one that is surely more specific than all of
			// them is the answer whichever they are.
			all := append(append([]int(nil), s.yes...), s.maybe...)
			for _, m := range s.yes {
				if dominates(ms, m, all, len(args), p, r) {
					return m, Chosen
				}
			}
			return -1, Ambiguous
		case len(s.maybe) > 0:
			// The phase may apply or not: decided only when one method is
			// all that might apply in it and the phases after it.
			only := -1
			for q := p; q <= variable; q++ {
				for _, m := range append(append([]int(nil), sets[q].yes...), sets[q].maybe...) {
					if only >= 0 && m != only {
						return -1, Ambiguous
					}
					only = m
				}
			}
			return only, Chosen
		}
	}
	return -1, None
}

// applicable reports whether m applies to args in phase p.
func applicable[T any](m Method[T], args []T, p phase, r Rules[T]) Answer {
	n := len(m.Params)
	if p != variable {
		if n != len(args) {
			return No
		}
		a := Yes
		for i, arg := range args {
			if a = and(a, r.Convert(arg, m.Params[i], p == loose)); a == No {
				return No
			}
		}
		return a
	}
	if !m.Varargs || len(args) < n-1 {
		return No
	}
	a := Yes
	for i, arg := range args {
		if a = and(a, r.Convert(arg, param(m, i, r), true)); a == No {
			return No
		}
	}
	return a
}

// param returns the type of m's parameter that argument i is passed to in
// a variable-arity call: past the fixed ones, the element type.
func param[T any](m Method[T], i int, r Rules[T]) T {
	if n := len(m.Params); i >= n-1 && m.Varargs {
		return r.Elem(m.Params[n-1])
	}
	return m.Params[i]
}

// dominates reports whether m is surely more specific than every other
// method of cands, and none of them surely or possibly more specific than
// m.
func dominates[T any](ms []Method[T], m int, cands []int, k int, p phase, r Rules[T]) bool {
	for _, c := range cands {
		if c == m {
			continue
		}
		if moreSpecific(ms[m], ms[c], k, p, r) != Yes || moreSpecific(ms[c], ms[m], k, p, r) != No {
			return false
		}
	}
	return true
}

// moreSpecific reports whether a is more specific than b for a call with
// k arguments applicable in phase p (JLS 15.12.2.5).
func moreSpecific[T any](a, b Method[T], k int, p phase, r Rules[T]) Answer {
	if p != variable {
		if len(a.Params) != len(b.Params) {
			return No
		}
		ans := Yes
		for i := range a.Params {
			if ans = and(ans, r.Subtype(a.Params[i], b.Params[i])); ans == No {
				return No
			}
		}
		return ans
	}
	// The first k parameter types of each, the variable-arity one repeated;
	// and the k+1th of a when b has k+1 parameters.
	n := k
	if len(b.Params) == k+1 {
		n++
	}
	ans := Yes
	for i := range n {
		if ans = and(ans, r.Subtype(param(a, i, r), param(b, i, r))); ans == No {
			return No
		}
	}
	return ans
}
