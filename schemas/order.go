package schemas

import (
	"cmp"
	"strings"
)

// The orders of the tables whose key is not unique, as FORMAT.md states
// them. A column is compared only when those before it are equal.

// CompareEdges orders edges as edges.parquet is sorted: by (src, kind,
// dst, line, col, target, file).
func CompareEdges(a, b *Edge) int {
	switch {
	case a.Src != b.Src:
		return cmp.Compare(a.Src, b.Src)
	case a.Kind != b.Kind:
		return strings.Compare(a.Kind, b.Kind)
	case a.Dst != b.Dst:
		return cmp.Compare(a.Dst, b.Dst)
	case a.Line != b.Line:
		return cmp.Compare(a.Line, b.Line)
	case a.Col != b.Col:
		return cmp.Compare(a.Col, b.Col)
	case a.Target != b.Target:
		return strings.Compare(a.Target, b.Target)
	}
	return strings.Compare(a.File, b.File)
}

// CompareRefs orders refs as refs.parquet is sorted: by (file, line, col,
// kind, target, src, expr).
func CompareRefs(a, b *Ref) int {
	switch {
	case a.File != b.File:
		return strings.Compare(a.File, b.File)
	case a.Line != b.Line:
		return cmp.Compare(a.Line, b.Line)
	case a.Col != b.Col:
		return cmp.Compare(a.Col, b.Col)
	case a.Kind != b.Kind:
		return strings.Compare(a.Kind, b.Kind)
	case a.Target != b.Target:
		return strings.Compare(a.Target, b.Target)
	case a.Src != b.Src:
		return cmp.Compare(a.Src, b.Src)
	}
	return strings.Compare(a.Expr, b.Expr)
}
