package java

import (
	"cmp"
	"slices"
	"strings"

	"github.com/graphsnap/snap/schemas"
)

// A type's uses: every type name the grammar shows (a type_identifier,
// or a scoped_type_identifier a.b.T) is a `references` ref reading `{T}`
// from the innermost node holding it: a field's type is the field's, a
// parameter's or result's the method's. Type variables and `var` make
// none; nor do the names that already make an edge of their own: the
// type of `new T()` (instantiates), of an extends or implements clause,
// of a method reference.

// typeUses is what the walk gathers of a file's type names.
type typeUses struct {
	at     []span // the uses, in document order
	scoped span   // the last a.b.T: its names are no uses of their own
	taken  uint32 // where the last name that has an edge of its own starts
}

// typeUse records the type name of a "tuse" item.
func (f *fileState) typeUse(it *item) {
	u := &f.uses
	if u.scoped.End > 0 && it.Start >= u.scoped.Start && it.End <= u.scoped.End {
		return
	}
	text := f.Text(it.Span)
	if strings.IndexByte(text, '.') >= 0 {
		u.scoped = it.Span
	}
	if it.Start == u.taken || !isTypeExpr(f.typeExprText(text, it.Start)) {
		return // a name with an edge of its own, a type variable, var
	}
	u.at = append(u.at, it.Span)
}

// typeUseRefs writes the refs of the type uses, each from the innermost
// node holding it, or the file.
func (f *fileState) typeUseRefs() {
	if len(f.uses.at) == 0 {
		return
	}
	order := make([]int32, len(f.Nodes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := &f.Nodes[a], &f.Nodes[b]
		return cmp.Or(cmp.Compare(x.StartByte, y.StartByte), cmp.Compare(y.EndByte, x.EndByte))
	})
	var open []int32
	pop := func(off uint32) {
		for len(open) > 0 && f.Nodes[open[len(open)-1]].EndByte <= off {
			open = open[:len(open)-1]
		}
	}
	j := 0
	for _, at := range f.uses.at {
		for ; j < len(order) && f.Nodes[order[j]].StartByte <= at.Start; j++ {
			pop(f.Nodes[order[j]].StartByte)
			open = append(open, order[j])
		}
		pop(at.Start)
		src := int32(-1)
		if len(open) > 0 {
			src = open[len(open)-1]
		}
		name := typeName(f.Text(at))
		f.AddRef(schemas.EdgeReferences, f.SrcID(src), at, name, "{"+name+"}")
	}
}

// typeUse resolves a type use, `{T}`, from node src: an edge to a type
// of the snapshot, none to a primitive or a type of java.lang outside it
// (as a call of its methods makes none), an unresolved edge with the
// reason otherwise.
func (r *resolver) typeUse(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	name := ref.Expr[1 : len(ref.Expr)-1]
	tr, how, why := r.resolveType(name, src, 0)
	if tr.t == nil && (tr.prim != "" || javaLang[name] && tr.ext == "java.lang."+name) {
		return edges
	}
	return r.typeEdge(edges, ref, schemas.EdgeReferences, tr, how, why)
}
