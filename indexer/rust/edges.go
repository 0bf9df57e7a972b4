package rust

import (
	"math"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// emit appends the edge of kind for ref to v: resolved when v is a node
// that kind may reach, else unresolved with a reason.
func (r *resolver) emit(edges []schemas.Edge, ref *schemas.Ref, src uint64, kind string, v value) []schemas.Edge {
	switch v.kind {
	case vUnknown:
		res := schemas.Unresolved
		if v.amb {
			res = schemas.Ambiguous
		}
		reason := v.reason
		if reason == "" {
			reason = indexer.ReasonUnknownName
		}
		return append(edges, unresolvedEdge(ref, src, kind, res, reason))
	case vExternal:
		return append(edges, unresolvedEdge(ref, src, kind, schemas.Unresolved, external(v.reason)))
	}
	res := v.res
	if res == "" {
		res = schemas.ResolvedScope
	}
	return append(edges, resolvedEdge(ref, src, kind, r.nodes[v.node].ID, res))
}

func resolvedEdge(ref *schemas.Ref, src uint64, kind string, dst uint64, res string) schemas.Edge {
	e := unresolvedEdge(ref, src, kind, res, "")
	e.Dst, e.Confidence = dst, 1
	return e
}

func unresolvedEdge(ref *schemas.Ref, src uint64, kind, res, reason string) schemas.Edge {
	e := indexer.RefEdge(ref, kind, 0, res, 0, reason)
	e.Src = src
	return e
}

// importEdges links a use to what it imports: an edge per namespace the
// name is found in (a module and a function may share a name).
func (r *resolver) importEdges(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	u := parseUse(ref.Expr)
	u.scope, u.ref = src, ref
	if u.glob {
		v := r.useValue(u, nsType)
		if v.kind == vType && r.kind(v.node) != schemas.KindEnum {
			v = unknown("glob of a type")
		}
		v.res = schemas.ResolvedImport
		return r.emit(edges, ref, ref.Src, schemas.EdgeImports, v)
	}
	var found []value
	var miss value
	for _, want := range []ns{nsType, nsValue, nsMacro} {
		v := r.useValue(u, want)
		if v.kind == vUnknown || v.kind == vExternal {
			if miss.kind == vUnknown && (miss.reason == "" || miss.reason == reasonNoMember) {
				miss = v
			}
			continue
		}
		if !containsValue(found, v) {
			found = append(found, v)
		}
	}
	if len(found) == 0 {
		if u.segs[0] == "self" && len(u.path()) == 1 {
			miss = unknown(reasonNoMember)
		}
		return r.emit(edges, ref, ref.Src, schemas.EdgeImports, miss)
	}
	for _, v := range found {
		v.res = schemas.ResolvedImport
		edges = r.emit(edges, ref, ref.Src, schemas.EdgeImports, v)
	}
	return edges
}

func containsValue(vs []value, v value) bool {
	for _, o := range vs {
		if o.node == v.node {
			return true
		}
	}
	return false
}

// callEdge resolves one call: a calls edge to a function or method, an
// instantiates edge for a tuple struct or a variant built, no edge for
// the prelude's Some, Ok and Err.
func (r *resolver) callEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	if strings.HasSuffix(ref.Expr, "!") {
		return r.emit(edges, ref, ref.Src, schemas.EdgeCalls, r.macro(ref, src))
	}
	v := r.eval(ref.Expr, src, true)
	switch v.kind {
	case vFunc:
	case vType:
		switch r.kind(v.node) {
		case schemas.KindStruct:
			return r.emit(edges, ref, ref.Src, schemas.EdgeInstantiates, v)
		case schemas.KindTypeAlias:
			if t := r.aliasTarget(v.node); t.node >= 0 && r.kind(t.node) == schemas.KindStruct {
				v.node = t.node
				return r.emit(edges, ref, ref.Src, schemas.EdgeInstantiates, v)
			}
		}
		v = unknown(reasonNotCallable)
	case vVariant:
		return r.emit(edges, ref, ref.Src, schemas.EdgeInstantiates, v)
	case vExternal:
		if v.reason == "std" && stdVariants[v.name] && !strings.Contains(ref.Expr, ".") && !strings.Contains(ref.Expr, "::") {
			return edges
		}
	case vUnknown:
	case vModule:
		v = unknown(reasonNotCallable)
	default:
		v = unknown(reasonValueCall)
	}
	return r.emit(edges, ref, ref.Src, schemas.EdgeCalls, v)
}

// macro resolves a macro invocation to a macro_rules! of the crate: the
// last one defined above it in the same file, else the only one of that
// name in the crate (a #[macro_export] one for a path through crate::).
func (r *resolver) macro(ref *schemas.Ref, src int32) value {
	p := strings.TrimSuffix(ref.Expr, "!")
	segs, abs := splitPath(p)
	name := segs[len(segs)-1] + "!"
	roots := r.rootsOf(src)
	if len(segs) == 1 && !abs {
		best := int32(-1)
		for _, m := range r.macros[name] {
			n := &r.nodes[m]
			if n.File == ref.File && n.StartLine <= ref.Line && r.textual(m, ref.Line) &&
				(best < 0 || n.StartLine > r.nodes[best].StartLine) {
				best = m
			}
		}
		if best >= 0 {
			return r.nodeValue(best, schemas.ResolvedLocal)
		}
		if v := r.lookup(segs[0], src, nsMacro, false); v.kind == vFunc || v.kind == vExternal || v.amb {
			return v
		}
		var cands []value
		for _, m := range r.macros[name] {
			if r.nodes[m].File != ref.File && r.reaches(m, ref.File) {
				cands = append(cands, r.nodeValue(m, schemas.ResolvedScope))
			}
		}
		if len(cands) > 0 {
			return pick(cands)
		}
		if stdMacros[segs[0]] {
			return ext("std", name)
		}
		return unknown(reasonUnknownMacro)
	}
	switch {
	case segs[0] == "crate" || segs[0] == "$crate":
		if v, ok := r.crateMacro(name, roots, true); ok {
			return v
		}
		return unknown(reasonUnknownMacro)
	case abs || segs[0] == "std" || segs[0] == "core" || segs[0] == "alloc":
	default:
		if v := r.path(segs, abs, src, nsMacro, false); v.kind == vFunc {
			return v
		}
	}
	if c, ok := r.externCrate(segs[0], src); ok && c.kind == vModule {
		if v, ok := r.crateMacro(name, []int32{c.node}, true); ok {
			v.res = schemas.ResolvedImport
			return v
		}
		return unknown(reasonUnknownMacro)
	}
	if v := r.lookup(segs[0], src, nsType, true); v.kind == vExternal {
		return ext(v.reason, name)
	}
	return unknown(reasonUnknownMacro)
}

// textual reports whether macro m, defined above line in the same file,
// is in textual scope there: its module or function holds the line, or
// is the file's, or is a module marked #[macro_use] (whose macros outlive
// it).
func (r *resolver) textual(m int32, line uint32) bool {
	for p := r.parent(m); p >= 0; p = r.parent(p) {
		n := &r.nodes[p]
		if r.fileMod[n.File] == p {
			return true
		}
		if n.StartLine <= line && line <= n.EndLine {
			return true
		}
		if n.Kind != schemas.KindModule || !slices.Contains(n.Decorators, "macro_use") {
			return false
		}
	}
	return false
}

// reaches reports whether macro m, from another file, is in textual scope
// in file: some module on file's way up to its crate root is declared (or
// included) below m, in m's file or in a file that brought m's file in
// first (by include!, or by a #[macro_use] mod whose top level defines m).
func (r *resolver) reaches(m int32, file string) bool {
	cur, ok := r.fileMod[file]
	for hops := 0; ok && hops < maxHops; hops++ {
		at, declared := r.declAt[cur]
		if !declared {
			if at, declared = r.includedAt[cur]; !declared {
				return false
			}
		}
		if r.visibleAt(m, at.file, at.line, 0) {
			return true
		}
		cur, ok = r.fileMod[at.file]
	}
	return false
}

// visibleAt reports whether macro m is in textual scope in file at line.
func (r *resolver) visibleAt(m int32, file string, line uint32, depth int) bool {
	n := &r.nodes[m]
	if n.File == file {
		return n.StartLine < line && r.textual(m, line)
	}
	if depth > 2 {
		return false
	}
	for _, l := range r.links[file] {
		if l.line >= line || !l.include && !l.macroUse {
			continue
		}
		if fm, ok := r.fileMod[l.file]; ok && (r.parent(m) == fm || r.visibleAt(m, l.file, math.MaxUint32, depth+1)) {
			return true
		}
	}
	return false
}

// crateMacro finds the macro_rules! name in the crates of roots: the only
// one (exported only: of the #[macro_export] ones).
func (r *resolver) crateMacro(name string, roots []int32, exported bool) (value, bool) {
	var cands []value
	for _, m := range r.macros[name] {
		if exported && r.nodes[m].Visibility != schemas.Public {
			continue
		}
		for _, root := range r.crates[r.nodes[m].File] {
			if containsInt(roots, root) {
				cands = append(cands, r.nodeValue(m, schemas.ResolvedScope))
				break
			}
		}
	}
	if len(cands) == 0 {
		return value{}, false
	}
	return pick(cands), true
}

func containsInt(s []int32, x int32) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// newEdge resolves a struct literal to its struct or variant.
func (r *resolver) newEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	segs, abs := splitPath(ref.Expr)
	var v value
	if len(segs) == 1 && segs[0] == "Self" {
		t := r.selfType(src)
		switch {
		case t == nil:
			v = unknown(reasonNoSelf)
		case t.node >= 0:
			v = value{kind: vType, node: t.node, res: schemas.ResolvedReceiver}
		default:
			v = unknown(indexer.ReasonUnknownType)
		}
	} else {
		v = r.path(segs, abs, src, nsType, false)
	}
	switch v.kind {
	case vType:
		switch r.kind(v.node) {
		case schemas.KindStruct:
		case schemas.KindTypeAlias:
			if t := r.aliasTarget(v.node); t.node >= 0 {
				v.node = t.node
			} else {
				v = unknown(indexer.ReasonUnknownType)
			}
		default:
			v = unknown(reasonNotCallable)
		}
	case vVariant, vExternal, vUnknown:
	default:
		v = unknown(reasonNotCallable)
	}
	return r.emit(edges, ref, ref.Src, schemas.EdgeInstantiates, v)
}

// typeEdge resolves a use of a type to the struct, enum, union, trait or
// alias its path names, or the variant a struct pattern names.
func (r *resolver) typeEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	segs, abs := splitPath(ref.Expr)
	v := r.path(segs, abs, src, nsType, false)
	if v.kind != vType && v.kind != vVariant && v.kind != vExternal && v.kind != vUnknown {
		v = unknown("not a type")
	}
	return r.emit(edges, ref, ref.Src, schemas.EdgeReferences, v)
}

// extendsEdge links a trait to a supertrait.
func (r *resolver) extendsEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	segs, abs := splitPath(ref.Expr)
	v := r.path(segs, abs, r.parent(src), nsType, false)
	if v.kind == vType && r.kind(v.node) != schemas.KindTrait {
		v = unknown("not a trait")
	} else if v.kind != vType && v.kind != vUnknown && v.kind != vExternal {
		v = unknown("not a trait")
	}
	return r.emit(edges, ref, ref.Src, schemas.EdgeExtends, v)
}

// implementsEdge links the type of an impl block to its trait. The edge
// starts at the type; when the type is no node of the snapshot (a blanket
// impl, a type of another crate) it stays unresolved and starts at the
// module holding the impl.
func (r *resolver) implementsEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	self, trait, _ := strings.Cut(ref.Expr, " as ")
	t := r.evalType(strings.Trim(self, "{}"), src)
	if t.node < 0 {
		reason := reasonSelfType
		if t.dyn || t.why == indexer.ReasonUnknownType {
			reason = reasonBlanket
		}
		return append(edges, unresolvedEdge(ref, ref.Src, schemas.EdgeImplements, schemas.Unresolved, reason))
	}
	segs, abs := splitPath(strings.Trim(trait, "{}"))
	v := r.path(segs, abs, src, nsType, false)
	if v.kind == vType && r.kind(v.node) != schemas.KindTrait || v.kind != vType && v.kind != vUnknown && v.kind != vExternal {
		v = unknown("not a trait")
	}
	if v.kind == vType {
		v.res = schemas.ResolvedStructural
	}
	return r.emit(edges, ref, r.nodes[t.node].ID, schemas.EdgeImplements, v)
}
