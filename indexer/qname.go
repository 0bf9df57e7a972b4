package indexer

import "strings"

// JoinName returns the dotted qualified name of name in scope: a.b and c
// give a.b.c; an empty scope gives name.
func JoinName(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "." + name
}

// ParentName returns the scope of the dotted qualified name q: a.b.c
// gives a.b, and a name with no dot "".
func ParentName(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[:i]
	}
	return ""
}
