package indexer

import "github.com/graphsnap/snap/schemas"

// IsFunc reports whether kind is that of code a call runs: a function, a
// method or a constructor.
func IsFunc(kind string) bool {
	return kind == schemas.KindFunction || kind == schemas.KindMethod || kind == schemas.KindConstructor
}

// ParentOf returns the index in nodes of the parent of nodes[i], found
// by its id in index, or -1 when index has none.
func ParentOf(nodes []schemas.Node, index map[uint64]int32, i int32) int32 {
	if p, ok := index[nodes[i].ParentID]; ok {
		return p
	}
	return -1
}

// MethodClass returns the class of which node src is a method, or a
// function nested in one (what self or this stands for in its code), or
// -1 for none.
func MethodClass(nodes []schemas.Node, index map[uint64]int32, src int32) int32 {
	for i := src; i >= 0 && IsFunc(nodes[i].Kind); {
		if i = ParentOf(nodes, index, i); i >= 0 && nodes[i].Kind == schemas.KindClass {
			return i
		}
	}
	return -1
}
