package typescript

import (
	"cmp"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// A type's uses: every type name TypeScript's grammar shows (a
// type_identifier, or a nested_type_identifier ns.T) is a `references`
// ref reading `type T` from the innermost node holding it: a field's or
// variable's annotation is the field's or variable's, a parameter's or
// return type's the function's. Type parameters make none; nor do the
// names that make an edge of their own: a declaration's name, an extends
// or implements clause. `x instanceof C` and a decorator naming a class
// or function without calling it (@C) are `references` refs of the value
// they name, as a JSX element is.

// typeUses is what the walk gathers of a file's type names.
type typeUses struct {
	at     []span // the uses, in document order
	decl   span   // the name of the last class, interface, enum or alias declared
	nested span   // the last ns.T: its names are no uses of their own
	taken  uint32 // where the last extends or implements clause starts
}

// typeUse records the type name of a "tuse" item.
func (f *fileState) typeUse(it *item) {
	u := &f.uses
	if u.nested.End > 0 && u.nested.Start <= it.Start && it.End <= u.nested.End {
		return
	}
	name := f.Text(it.Span)
	if strings.IndexByte(name, '.') >= 0 {
		u.nested = it.Span
	}
	if it.Span == u.decl || it.Start == u.taken || !isDotted(name) {
		return
	}
	sc, header := f.scopeAt(it.Start)
	if header != nil && header.scope != nil {
		sc = header.scope
	}
	first, _, _ := strings.Cut(name, ".")
	if b, _ := lookupType(sc, first); b != nil && b.flags&bTypeParam != 0 {
		return
	}
	u.at = append(u.at, it.Span)
}

// typeUseRefs writes the refs of the type uses, each from the innermost
// node holding it: found going down from the module through the children
// holding it.
func (f *fileState) typeUseRefs() {
	if len(f.uses.at) == 0 {
		return
	}
	row := make(map[uint64]int32, len(f.Nodes))
	for i := range f.Nodes {
		row[f.Nodes[i].ID] = int32(i)
	}
	kids := make(map[int32][]int32)
	for i := 1; i < len(f.Nodes); i++ {
		if p, ok := row[f.Nodes[i].ParentID]; ok {
			kids[p] = append(kids[p], int32(i))
		}
	}
	for _, k := range kids {
		slices.SortFunc(k, func(a, b int32) int { return cmp.Compare(f.Nodes[a].StartByte, f.Nodes[b].StartByte) })
	}
	for _, at := range f.uses.at {
		n := int32(0)
		for {
			k := kids[n]
			i, _ := slices.BinarySearchFunc(k, at.Start, func(c int32, p uint32) int {
				return cmp.Compare(f.Nodes[c].StartByte, p+1)
			})
			if i == 0 || f.Nodes[k[i-1]].EndByte <= at.Start {
				break
			}
			n = k[i-1]
		}
		name := f.Text(at)
		f.AddNodeRef(schemas.EdgeReferences, n, at, name, "type "+name)
	}
}

// typeUseEdge resolves a type use, `type T`: an edge to the class,
// interface, enum or type alias it names, none to a global type
// (Array, Promise, Record), an unresolved edge with the reason otherwise.
func (r *resolver) typeUseEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	v := r.evalType(strings.TrimPrefix(ref.Expr, "type "), r.at(src))
	switch {
	case v.kind == vBuiltin:
		return edges
	case v.kind == vUnknown:
		return r.emit(edges, ref, schemas.EdgeReferences, v)
	case v.node >= 0 && (v.kind == vClass || r.isKind(v.node, schemas.KindEnum) || r.isKind(v.node, schemas.KindTypeAlias)):
		return append(edges, indexer.RefEdge(ref, schemas.EdgeReferences, r.nodes[v.node].ID, v.res, v.conf, ""))
	}
	return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeReferences, indexer.ReasonUnknownType))
}
