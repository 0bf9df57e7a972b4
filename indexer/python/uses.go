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
// Target `@C`. So is a function or class passed as a value: an argument
// of a call that is a dotted name alone (f(copy2), key=C.method), Target
// `&name`. Names in strings (forward references) and calls inside
// an annotation are left out. The resolver links a name to a class of
// the snapshot (a decorator also to a function), makes no edge for a
// builtin, and an unresolved edge with the reason otherwise; an argument
// links only to a function or class of the snapshot, and makes no edge
// else (most arguments are variables).

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
	value     bool // an argument of a call
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
	p := skipSpace(f.Src, int(it.Start)+1, int(it.End))
	if e := dottedEnd(f.Src, p, int(it.End)); e > p && skipSpace(f.Src, e, int(it.End)) == int(it.End) {
		f.use(span{Start: uint32(p), End: uint32(e)}, true)
	}
}

// classArg records the names of the class argument of isinstance(x, C)
// or issubclass(x, (C, D)): the second argument.
func (f *fileState) classArg(args span) {
	i := 0
	f.eachArg(args, func(a span) bool {
		if i++; i == 2 {
			f.names(a, false)
			return false
		}
		return true
	})
}

// eachArg calls fn with each argument of a call's argument list (its
// span holds the parentheses), split at the commas outside brackets and
// strings, until fn returns false.
func (f *fileState) eachArg(args span, fn func(span) bool) {
	depth, start := 0, int(args.Start)+1
	for p := start; p < int(args.End)-1; p++ {
		switch c := f.Src[p]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			p = stringEnd(f.Src, p, int(args.End)) - 1
		case ',':
			if depth == 0 {
				if !fn(span{Start: uint32(start), End: uint32(p)}) {
					return
				}
				start = p + 1
			}
		}
	}
	if end := int(args.End) - 1; start < end {
		fn(span{Start: uint32(start), End: uint32(end)})
	}
}

// valueArgs records the arguments of a call that are a dotted name alone,
// after a keyword or a * or ** if any: a function or class passed as a
// value, if the name is one.
func (f *fileState) valueArgs(args span) {
	f.eachArg(args, func(a span) bool {
		p, end := int(a.Start), int(a.End)
		p = skipSpace(f.Src, p, end)
		if e := identEnd(f.Src, p, end); e > p {
			if q := skipSpace(f.Src, e, end); q < end && f.Src[q] == '=' && (q+1 >= end || f.Src[q+1] != '=') {
				p = skipSpace(f.Src, q+1, end) // key=value
			}
		}
		for p < end && f.Src[p] == '*' {
			p++
		}
		e := dottedEnd(f.Src, p, end)
		for end > e && isSpaceByte(f.Src[end-1]) {
			end--
		}
		switch name := string(f.Src[p:e]); {
		case e == p || e != end, name == "None" || name == "True" || name == "False" || name == "self" || name == "cls":
		default:
			f.uses.at = append(f.uses.at, typeUse{at: span{Start: uint32(p), End: uint32(e)}, src: f.useSrc(uint32(p)), scope: f.scopeOf(uint32(p)), value: true})
		}
		return true
	})
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// names records every dotted name in s that is not in a string, called,
// or a keyword's name.
func (f *fileState) names(s span, decorator bool) {
	src, end := f.Src, int(s.End)
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
	f.uses.at = append(f.uses.at, typeUse{at: s, src: f.useSrc(s.Start), scope: f.scopeOf(s.Start), decorator: decorator})
}

// scopeOf is the scope a name at p is evaluated in.
func (f *fileState) scopeOf(p uint32) *scope {
	sc, _ := f.scopeAt(p)
	return sc
}

// useSrc is the definition a use at p is of: the innermost holding it, a
// parameter's or the return's annotation of its function, or the
// annotated variable.
func (f *fileState) useSrc(p uint32) int32 {
	sc, header := f.scopeAt(p)
	src := sc.sym
	if header != nil && header.scope != nil {
		src = header.scope.sym
	}
	if h := f.uses.holder; h.annot.End > 0 && h.annot.Start <= p && p < h.annot.End {
		src = h.node
	}
	return src
}

// typeUse resolves a `references` ref: an edge to the class it names (a
// decorator's also to a function), none to a builtin, an unresolved
// edge with the reason otherwise.
func (r *resolver) typeUse(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	v := r.deref(r.eval(ref.Expr, r.at(src)))
	switch {
	case v.kind == vClass, v.kind == vFunc && len(ref.Target) > 0 && (ref.Target[0] == '@' || ref.Target[0] == '&'):
		return append(edges, resolvedEdge(ref, schemas.EdgeReferences, r.nodes[v.node].ID, v.res, v.conf))
	case len(ref.Target) > 0 && ref.Target[0] == '&':
		return edges // an argument naming no function or class: a value
	case v.kind == vFunc:
		return append(edges, unresolvedEdge(ref, schemas.EdgeReferences, schemas.Unresolved, reasonNotClass))
	}
	return r.emit(edges, ref, schemas.EdgeReferences, v)
}

// reasonNotClass: a name where a class is due names something else.
const reasonNotClass = "not a class"
