package indexer

import "strings"

// ExprHead returns the head of the Expr e, what its steps follow: a type
// "{T}", or the name up to the first '.' or '(' (see NameEnd). ok is
// false when e opens a "{" it does not close.
func ExprHead(e string) (head string, ok bool) {
	if strings.HasPrefix(e, "{") {
		j := strings.IndexByte(e, '}')
		return e[:j+1], j >= 0
	}
	return e[:NameEnd(e, 0)], true
}

// Closing returns the index of the bracket close that closes the open
// the Expr e starts with, or -1.
func Closing(e string, open, close byte) int {
	depth := 0
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// NameEnd returns where the name that starts at i in the Expr e ends: at
// the first '.' or '(' from i, or at the end of e.
func NameEnd(e string, i int) int {
	for i < len(e) && e[i] != '.' && e[i] != '(' {
		i++
	}
	return i
}
