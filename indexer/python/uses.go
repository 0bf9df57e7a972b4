package python

import (
	"github.com/graphsnap/snap/schemas"
)

// A type's uses: every name in an annotation (of a parameter, a return,
// a variable), in the class argument of isinstance or issubclass, or in
// an except clause is a `references` ref of the innermost definition
// holding it (an annotated module or class variable, else the function
// or class, else the module), reading the name's expr. A decorator
// naming a class or function without calling it (@C) is one too, with
// Target `@C`. Names in strings (forward references) and calls inside
// an annotation are left out. The resolver links a name to a class of
// the snapshot (a decorator also to a function), makes no edge for a
// builtin, and an unresolved edge with the reason otherwise.

// typeUses is what the walk gathers of a file's type names.
type typeUses struct {
	at     []typeUse
	annot  span   // the last annotation: those inside it are part of it
	holder holder // the annotation of the last variable with a node
}

type typeUse struct {
	at        span
	src       int32
	scope     *scope // where the name is evaluated
	decorator bool
}

type holder struct {
	annot span
	node  int32
}

// annotationUses records the names of an annotation, a "type" item.
func (f *fileState) annotationUses(it *item) {
	u := &f.uses
	if u.annot.End > 0 && u.annot.Start <= it.Start && it.End <= u.annot.End {
		return
	}
	u.annot = it.Span
	f.names(it.Span, false)
}

// decoratorUse records @C, a decorator naming what it applies.
func (f *fileState) decoratorUse(it *item) {
	p := skipSpace(f.src, int(it.Start)+1, int(it.End))
	if e := dottedEnd(f.src, p, int(it.End)); e > p && skipSpace(f.src, e, int(it.End)) == int(it.End) {
		f.use(span{Start: uint32(p), End: uint32(e)}, true)
	}
}

// classArg records the names of the class argument of isinstance(x, C)
// or issubclass(x, (C, D)): the second argument.
func (f *fileState) classArg(args span) {
	depth, start := 0, -1
	for p := int(args.Start) + 1; p < int(args.End)-1; p++ {
		switch c := f.src[p]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			p = stringEnd(f.src, p, int(args.End)) - 1
		case ',':
			if depth == 0 {
				if start >= 0 {
					f.names(span{Start: uint32(start), End: uint32(p)}, false)
					return
				}
				start = p + 1
			}
		}
	}
	if start >= 0 {
		f.names(span{Start: uint32(start), End: args.End - 1}, false)
	}
}

// names records every dotted name in s that is not in a string, called,
// or a keyword's name.
func (f *fileState) names(s span, decorator bool) {
	src, end := f.src, int(s.End)
	for p := int(s.Start); p < end; {
		c := src[p]
		switch {
		case c == '"' || c == '\'':
			p = stringEnd(src, p, end)
			continue
		case !isIdentStart(c) || p > 0 && (isIdentByte(src[p-1]) || src[p-1] == '.'):
			p++
			continue
		}
		e := dottedEnd(src, p, end)
		next := skipSpace(src, e, end)
		switch name := string(src[p:e]); {
		case name == "None" || name == "True" || name == "False" || name == "as":
		case next < end && (src[next] == '(' || src[next] == '=' && (next+1 >= end || src[next+1] != '=')):
		default:
			f.use(span{Start: uint32(p), End: uint32(e)}, decorator)
		}
		p = e
	}
}

// dottedEnd returns the end of the dotted name a.b.c at p (p if none).
func dottedEnd(src []byte, p, end int) int {
	e := identEnd(src, p, end)
	for e > p && e+1 < end && src[e] == '.' && isIdentStart(src[e+1]) {
		e = identEnd(src, e+1, end)
	}
	return e
}

// use records the name at s, from the innermost definition holding it.
func (f *fileState) use(s span, decorator bool) {
	sc, header := f.scopeAt(s.Start)
	src := sc.sym
	if header != nil && header.scope != nil {
		src = header.scope.sym // a parameter's or the return's annotation
	}
	if h := f.uses.holder; h.annot.End > 0 && h.annot.Start <= s.Start && s.End <= h.annot.End {
		src = h.node
	}
	f.uses.at = append(f.uses.at, typeUse{at: s, src: src, scope: sc, decorator: decorator})
}

// typeUse resolves a `references` ref: an edge to the class it names (a
// decorator's also to a function), none to a builtin, an unresolved
// edge with the reason otherwise.
func (r *resolver) typeUse(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	v := r.deref(r.eval(ref.Expr, r.at(src)))
	switch {
	case v.kind == vClass, v.kind == vFunc && len(ref.Target) > 0 && ref.Target[0] == '@':
		return append(edges, resolvedEdge(ref, schemas.EdgeReferences, r.nodes[v.node].ID, v.res, v.conf))
	case v.kind == vFunc:
		return append(edges, unresolvedEdge(ref, schemas.EdgeReferences, schemas.Unresolved, reasonNotClass))
	}
	return r.emit(edges, ref, schemas.EdgeReferences, v)
}

// reasonNotClass: a name where a class is due names something else.
const reasonNotClass = "not a class"
