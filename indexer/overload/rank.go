package overload

// Best-viable-function selection by ranked conversions, the way C++
// chooses (over.match.best, over.ics.rank): each argument's conversion to
// each candidate's parameter has a rank, and the best candidate is the
// one whose conversion is at least as good as every other viable
// candidate's for every argument and better for one.

// Rank is how an argument converts to a parameter, best first.
type Rank uint8

const (
	Exact       Rank = iota // identity, lvalue-to-rvalue, qualification
	Promotion               // integral and floating-point promotion
	Conversion              // any other standard conversion
	UserDefined             // at best through a user-defined conversion, if at all
	Unknown                 // any rank, or not viable: what the facts cannot tell
	NotViable               // surely no conversion
)

// standard reports whether r is a known standard conversion rank.
func (r Rank) standard() bool { return r <= Conversion }

// ChooseRanked returns the candidate a call invokes given ranks[c][a],
// the rank of argument a's conversion to candidate c's parameter, with
// Chosen, or -1 with why not. same(c, d, a) reports whether candidates c
// and d take argument a by the same conversion (the same parameter
// type), so that equal ranks compare equal; equal ranks of different
// conversions may differ by finer rules and decide nothing. A candidate
// wins only when all its conversions are standard and it beats every
// candidate that may be viable, or when it is the only one that may be.
func ChooseRanked(ranks [][]Rank, same func(c, d, a int) bool) (int, Outcome) {
	var maybe []int
	for c, rs := range ranks {
		if viable(rs) {
			maybe = append(maybe, c)
		}
	}
	switch len(maybe) {
	case 0:
		return -1, None
	case 1:
		return maybe[0], Chosen
	}
	for _, m := range maybe {
		if beatsAll(ranks, m, maybe, same) {
			return m, Chosen
		}
	}
	return -1, Ambiguous
}

// viable reports whether a candidate with ranks rs may be viable.
func viable(rs []Rank) bool {
	for _, r := range rs {
		if r == NotViable {
			return false
		}
	}
	return true
}

// beatsAll reports whether candidate m is surely better than every other
// candidate of cands.
func beatsAll(ranks [][]Rank, m int, cands []int, same func(c, d, a int) bool) bool {
	for _, r := range ranks[m] {
		if !r.standard() {
			return false
		}
	}
	for _, c := range cands {
		if c == m {
			continue
		}
		better := false
		for a, rm := range ranks[m] {
			rc := ranks[c][a]
			switch {
			case rc == Unknown:
				return false
			case rm < rc:
				better = true
			case rm == rc && same(m, c, a):
			default:
				return false
			}
		}
		if !better {
			return false
		}
	}
	return true
}
