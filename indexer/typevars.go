package indexer

import "strings"

// A TypeVar is a type parameter, visible in the declaration that
// declares it.
type TypeVar struct {
	Scope Span
	Name  string
}

// TypeVars are the type parameters of a file.
type TypeVars []TypeVar

// Has reports whether name is a type parameter visible at p.
func (vs TypeVars) Has(name string, p uint32) bool {
	for _, v := range vs {
		if v.Name == name && v.Scope.Start <= p && p < v.Scope.End {
			return true
		}
	}
	return false
}

// Heads reports whether the dotted type name n, written at p, starts with
// a type parameter visible there.
func (vs TypeVars) Heads(n string, p uint32) bool {
	head, _, _ := strings.Cut(n, ".")
	return vs.Has(head, p)
}
