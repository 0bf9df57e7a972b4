package typescript

import (
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Expr, the normalized form of a TypeScript or JavaScript reference, as
// this package writes it in refs and reads it back in Resolve.
//
// calls (Expr is the callee: `a.b(x)` is a.b), instantiates (`new C()`:
// Expr is C), references (a JSX element: its component), extends and
// implements (a heritage clause), type (Src a field, variable, constant or
// type alias; Expr its annotation, or one value assigned to it) and
// result (Src a function or method; Expr its return annotation):
//
//	expr = head { "." name | "()" | "<>()" | "@" arg ":" param }
//	head = name        a name no enclosing function binds to a variable:
//	                   a declaration or import of the module, of an
//	                   enclosing namespace or function, or a global;
//	                   also this in a function assigned to a member of
//	                   the module's declaration o (o, or o() for a
//	                   prototype method: see members.go)
//	     | "this"      the instance of the enclosing class (in its methods,
//	                   field initializers, and arrow functions within them);
//	                   in a function with a this parameter, its type {T}
//	     | "class"     the enclosing class itself (this in static code)
//	     | "super"     the base class of the enclosing class, seen from
//	                   an instance; a calls Expr of just "super" is the
//	                   call of the base constructor
//	     | "{" T "}"   an instance of T, a dotted type name, from an
//	                   annotation or a cast (x as T; x as any and x as
//	                   unknown are x)
//	     | "{" members "}"  an object literal: its members, comma-separated,
//	                   each "..." expr (a spread), name "=" expr, or
//	                   name "=" (a method, a node of the object)
//	     | "[" E "]"   an array of the values of Expr E: of instances of T
//	                   ({T}, from T[] or Array<T>), or of the one value
//	                   of an array literal's elements; what shift, pop,
//	                   at and find return is one, and the first
//	                   parameter of a function map, forEach, filter,
//	                   find and the like call
//	     | "this[" A "," X "," m "]"  this in method m of an object literal
//	                   a function returns with result annotation A<X>:
//	                   an instance of X when A maps each method of its
//	                   type argument to one with that this (see
//	                   methodThis in flow.go)
//	     | "(" x " instanceof " C ")"  x, a parameter never assigned or
//	                   a const (Expr x its declared type, "?any" for any
//	                   or unknown), where the check x instanceof C holds
//	                   (see narrowed); C a name or dotted name
//	     | "(" a "|" b ")"  a conditional whose branches' Exprs a and b
//	                   differ: what both evaluate to, when that is one
//	                   class, instance or function (see either)
//	     | "#" id      the node of that id (hexadecimal): a declaration in a
//	                   function that has no node (a callback), which
//	                   declarations in sibling callbacks may share the
//	                   name of
//	     | "?" reason  nothing to follow; the whole Expr is then just this
//
// "()" stands for any argument list: calling a class (new C()) gives an
// instance, calling a function the type its result annotation names;
// "<>()" is a call with explicit type arguments (f<T>()), which may
// choose an overload the same arguments without them would not.
// "@" arg ":" param is a parameter without annotation of a function
// written as argument arg of a call of (or new of) what precedes, or as a
// branch of a conditional that is the argument: its
// type is the one the callee declares for parameter param of the
// function type of its parameter arg (new Observable(s => s.next()) is
// Observable@0:0.next). When the call is the value of a variable whose
// declared type has type arguments (const s: a.C<S> = f((x) => ...)),
// they follow as ";" C "=" and their type heads, comma-separated: a type
// parameter T of the callee whose result is C<T> is the matching one.
// "@" arg ":this" is this in a function expression (no arrow function)
// written as argument arg, without type parameters or a this parameter of
// its own: the type the callee declares for this in that function type
// (s.schedule(function () { this.schedule() }) is s.schedule@0:this.schedule).
// A local variable is replaced by its annotation, by its initializer when
// it is declared once (its type, which later assignments do not change),
// or by the one value all its assignments give it (`const c = new
// Cart()` then `c.add()` is Cart().add; `const {repo} = this` then `repo.save()` is this.repo.save);
// the variable of for (x of xs) is given xs.[], an element of xs (for-in
// and for await variables are not followed);
// null and undefined are ignored as values. An annotation T | null, T |
// undefined and T? count as T, typeof x (x a declaration, an import or
// a global) as x, a generic T<...> as T, Promise<T> as T
// (await is not tracked), an object type { a: A } as the object literal
// of instances of its property types; a type parameter is no type, but a
// parameter or local annotated with a type parameter T extends C of its
// own function or class is C (there T is itself, with C's members). The
// reasons:
//
//	?local     a variable whose value we cannot follow (an untyped
//	           parameter, a loop variable, one assigned different values)
//	?receiver  a member of such a value
//	?this      this in a function that is no method (a function
//	           expression, a module's top level)
//	?subscript an item of an array or object (x[i]() or x[i].m())
//	?expr      any other expression (a call of a function expression, a
//	           conditional, a template)
//	?literal   a literal, a member of one ("a".trim), or a value of a
//	           builtin type (string, number, T[]): no edge
//
// imports, one ref per name bound, and one per re-export:
//
//	from M                  import "m"; require("m") or import("m") not bound
//	N from M                import { N } from "m"; const { N } = require("m")
//	N as L from M           import { N as L } from "m"
//	default as L from M     import L from "m"
//	* as L from M           import * as L from "m"
//	= as L from M           const L = require("m"); import L = require("m")
//	export N [as A] from M  export { N as A } from "m"
//	export * from M         export * from "m"; module.exports = require("m")
//	export * as A from M    export * as A from "m"
//
// M is the specifier made a list of candidates, "|"-separated, tried in
// order: "/" and a path of the tree (a relative specifier joined to the
// file's folder, or what tsconfig.json's paths and baseUrl map it to;
// extensions and index files are probed by the resolver), or a package
// name as written (react, node:fs, @scope/pkg/sub). "?outside" is a
// relative specifier that climbs out of the tree, "?path" an absolute one.
//
// export facts (Src the module, Target the name exported), one per name a
// module exports that is not a declaration exported in place:
//
//	N=expr                  export { x as N }; export default expr (N "default")
//	exports.N=expr          CommonJS exports.N = expr, module.exports.N = expr,
//	                        module.exports = { N: expr }
//	module.exports=expr     module.exports = expr; export = expr
//	module.exports=require(M)  module.exports = require("m")

const (
	exprReceiver  = "?receiver"
	exprThis      = "?this"
	exprSubscript = "?subscript"
	exprNone      = "?none" // null or undefined
)

// expr returns the Expr of the expression at s, evaluated in scope sc.
// A conditional is the Expr both its branches have, or "(" a "|" b ")"
// when they differ.
func (f *fileState) expr(s span, sc *scope) string {
	if q, c := f.conditional(s); c > 0 {
		a := f.expr(span{Start: uint32(q + 1), End: uint32(c)}, sc)
		b := f.expr(span{Start: uint32(c + 1), End: s.End}, sc)
		switch {
		case a[0] == '?' || b[0] == '?':
			return indexer.ExprExpr
		case a != b:
			return "(" + a + "|" + b + ")"
		}
		return a
	}
	src := f.Src
	p, end := int(s.Start), int(s.End)
	var head string
	var steps []byte
	for head == "" {
		p = skipSpace(src, p, end)
		if p >= end {
			return indexer.ExprExpr
		}
		if c := matchingClose(src, p, end); src[p] == '[' && c > 0 {
			head, p = f.arrayExpr(p, c, sc), c
			break
		}
		if e := literalEnd(src, p, end); e > p {
			head, p = indexer.ExprLiteral, e
			break
		}
		if src[p] == '{' {
			c := matchingClose(src, p, end)
			if c < 0 || skipSpace(src, c, end) < end {
				return indexer.ExprExpr
			}
			return f.objectExpr(p+1, c-1, sc)
		}
		if src[p] == '(' {
			c := matchingClose(src, p, end)
			if c < 0 {
				return indexer.ExprExpr
			}
			head = f.expr(span{Start: uint32(p + 1), End: uint32(c - 1)}, sc)
			p = c
			if head[0] == '?' && head != indexer.ExprLiteral {
				return indexer.ExprExpr
			}
			break
		}
		if !isIdentStart(src[p]) {
			return indexer.ExprExpr
		}
		q := identEnd(src, p, end)
		name := f.Str[p:q]
		p = q
		switch name {
		case "await":
		case "null", "undefined":
			head = exprNone
		case "true", "false":
			head = indexer.ExprLiteral
		case "this":
			head = f.thisHead(sc, uint32(p))
		case "super":
			head = indexer.ExprExpr
			if _, this := f.thisOf(sc, uint32(p)); this == thisInstance {
				head = "super"
			}
		case "new":
			// new C(args) is C(): the constructor is a name and members.
			q := skipSpace(src, p, end)
			e := identEnd(src, q, end)
			if e == q {
				return indexer.ExprExpr
			}
			h := f.Str[q:e]
			switch h {
			case "this":
				if head = f.thisHead(sc, uint32(q)); head[0] == '?' {
					return indexer.ExprExpr
				}
			case "super", "new", "class", "function", "import":
				return indexer.ExprExpr
			default:
				head = f.head(h, sc)
			}
			p = e
			for {
				q := skipSpace(src, p, end)
				if q < end && src[q] == '.' {
					r := skipSpace(src, q+1, end)
					e := identEnd(src, r, end)
					if e == r {
						return indexer.ExprExpr
					}
					steps = append(append(steps, '.'), src[r:e]...)
					p = e
					continue
				}
				if te, ok := f.targs[uint32(q)]; ok {
					p = int(te)
					continue
				}
				if q < end && src[q] == '(' {
					ae, ok := f.args[uint32(q)]
					if !ok {
						return indexer.ExprExpr
					}
					p = int(ae)
				}
				break
			}
			steps = append(steps, "()"...)
		case "typeof", "void", "delete", "yield", "function", "class", "import", "async", "in", "instanceof":
			return indexer.ExprExpr
		default:
			head = f.narrowed(name, f.head(name, sc), sc, uint32(p))
		}
	}
	for {
		p = skipSpace(src, p, end)
		if p >= end {
			break
		}
		switch c := src[p]; {
		case c == '.' || c == '?' && p+1 < end && src[p+1] == '.':
			if c == '?' {
				p++
			}
			p = skipSpace(src, p+1, end)
			if p < end && (src[p] == '(' || src[p] == '[') { // a?.(), a?.[i]
				continue
			}
			q := p
			if q < end && src[q] == '#' {
				q++
			}
			e := identEnd(src, q, end)
			if e == q {
				return indexer.ExprExpr
			}
			steps = append(append(steps, '.'), src[p:e]...)
			p = e
		case c == '!' && !(p+1 < end && src[p+1] == '='):
			p++
		case c == '(' || c == '`':
			e, ok := f.args[uint32(p)]
			if !ok {
				return indexer.ExprExpr
			}
			steps = append(steps, "()"...)
			p = int(e)
		case c == '<':
			e, ok := f.targs[uint32(p)]
			if !ok {
				return indexer.ExprExpr
			}
			p = int(e)
			if q := skipSpace(src, p, end); q < end && src[q] == '(' {
				steps = append(steps, "<>"...) // explicit type arguments: the call is "<>()"
			}
		case c == '[':
			return exprSubscript
		case isIdentStart(c):
			q := identEnd(src, p, end)
			switch f.Str[p:q] {
			case "as":
				cast := f.Str[q:end]
				if i := strings.LastIndex(cast, " as "); i >= 0 {
					cast = cast[i+len(" as "):] // x as unknown as T is a T
				}
				if t := strings.TrimSpace(cast); t == "any" || t == "unknown" {
					p = end // (f as any)(x) still calls f
					continue
				}
				t := f.annotation(cast, sc)
				if t == "" {
					return indexer.ExprExpr
				}
				return t
			case "satisfies":
				p = end
				continue
			}
			return indexer.ExprExpr
		default:
			return indexer.ExprExpr
		}
	}
	if head[0] == '?' {
		switch {
		case len(steps) == 0:
			return head
		case head == indexer.ExprLiteral || head == exprNone:
			return indexer.ExprLiteral
		case head == exprThis:
			return exprThis
		}
		return exprReceiver
	}
	return head + string(steps)
}

// objectExpr returns the Expr of the object literal whose members are at
// [p, end): "{" its members "}", each a spread "..." expr, a property
// name "=" expr, or a method name "=" (a function node of the object);
// indexer.ExprExpr when a member is one we do not follow (a computed name, an
// accessor), or a '<' makes the split at commas unsure.
func (f *fileState) objectExpr(p, end int, sc *scope) string {
	body := f.Str[p:end]
	if strings.IndexByte(body, '<') >= 0 {
		return indexer.ExprExpr
	}
	var members []string
	for _, raw := range splitTop(body, ',') {
		start, stop := p+skipSpace(raw, 0, len(raw)), p+len(strings.TrimRight(raw, " \t\r\n"))
		p += len(raw) + 1
		if start >= stop {
			continue
		}
		m := f.Str[start:stop]
		if rest, ok := strings.CutPrefix(m, "..."); ok {
			at := start + len(m) - len(rest)
			members = append(members, "..."+f.expr(span{Start: uint32(at), End: uint32(at + len(rest))}, sc))
			continue
		}
		e := identEnd(m, 0, len(m))
		name := m[:e]
		if name == "" || name == "get" || name == "set" || name == "async" {
			return indexer.ExprExpr
		}
		switch q := skipSpace(m, e, len(m)); {
		case q == len(m):
			members = append(members, name+"="+f.expr(span{Start: uint32(start), End: uint32(start + e)}, sc))
		case m[q] == ':':
			members = append(members, name+"="+f.expr(span{Start: uint32(start + q + 1), End: uint32(start + len(m))}, sc))
		case m[q] == '(':
			members = append(members, name+"=")
		default:
			return indexer.ExprExpr
		}
	}
	return objectOf(members)
}

// arrayExpr returns the Expr of the array literal at [p, end) (its
// brackets included): "[" E "]" when its elements, none a spread, all
// have the Expr E, known and without brackets (the literal's type is then
// E's array); else indexer.ExprLiteral.
func (f *fileState) arrayExpr(p, end int, sc *scope) string {
	parts := splitTop(f.Str[p+1:end-1], ',')
	if n := len(parts); n > 1 && isBlank(parts[n-1]) {
		parts = parts[:n-1] // a trailing comma
	}
	e, at := "", p+1
	for _, part := range parts {
		s := span{Start: uint32(at), End: uint32(at + len(part))}
		at += len(part) + 1
		if isBlank(part) || strings.HasPrefix(strings.TrimSpace(part), "...") {
			return indexer.ExprLiteral
		}
		x := f.expr(s, sc)
		if x[0] == '?' || strings.ContainsAny(x, "[]") || e != "" && x != e {
			return indexer.ExprLiteral
		}
		e = x
	}
	if e == "" {
		return indexer.ExprLiteral
	}
	return "[" + e + "]"
}

// maxObject bounds the length of the Expr of an object literal or type,
// which uses of a local holding it repeat.
const maxObject = 2048

// objectOf returns the Expr "{" members "}", or indexer.ExprExpr when it is
// longer than maxObject.
func objectOf(members []string) string {
	e := "{" + strings.Join(members, ",") + "}"
	if len(e) > maxObject {
		return indexer.ExprExpr
	}
	return e
}

// conditional returns where the ? and the : of the conditional
// expression at s are, or 0, 0 when s is none (outside brackets, a ?
// not part of ?. or ??).
func (f *fileState) conditional(s span) (q, c int) {
	src, depth, open := f.Src, 0, 0
	for i := int(s.Start); i < int(s.End); i++ {
		switch ch := src[i]; ch {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'', '`':
			i = stringEnd(src, i, int(s.End)) - 1
		case '?':
			if depth != 0 {
				continue
			}
			if i+1 < int(s.End) && (src[i+1] == '.' || src[i+1] == '?') || i > 0 && src[i-1] == '?' {
				continue
			}
			if open == 0 {
				q = i
			}
			open++
		case ':':
			if depth == 0 && open > 0 {
				if open--; open == 0 {
					return q, i
				}
			}
		}
	}
	return 0, 0
}

// thisHead returns the head this stands for in scope sc: the type a this
// parameter declares, the enclosing class, or a reason.
func (f *fileState) thisHead(sc *scope, p uint32) string {
	if strings.HasPrefix(sc.thisAs, "{") || strings.HasPrefix(sc.thisAs, "this[") {
		return sc.thisAs // function (this: T), or a method typed by its object (see mappedThis)
	}
	if sc.kind == sFunction && sc.thisArg > 0 && sc.thisObj == "" {
		if e := f.calleeThis(sc.thisArg); e != "" {
			return e
		}
	}
	switch _, this := f.thisOf(sc, p); this {
	case thisInstance:
		return "this"
	case thisClass:
		return "class"
	}
	if o := f.thisObject(sc); o != "" {
		return o
	}
	return exprThis
}

// head returns the Expr head for name seen from sc: the name itself when
// rows can find it, a local's value, or a reason.
func (f *fileState) head(name string, sc *scope) string {
	b, bs := lookupValue(sc, name)
	if b == nil {
		return name
	}
	flags := b.flags &^ (bConst | bAny | bBound) // what narrowed reads
	switch {
	case b.flags&bHidden != 0 && b.flags&(bDef|bImport) == 0:
		return indexer.ExprLocal
	case bs.kind == sModule || bs.kind == sNamespace:
		if b.flags&bUnknown != 0 {
			return indexer.ExprLocal
		}
		return name
	case flags&^(bType|bTypeParam) == bDef && b.def >= 0 && bs.kind == sFunction && bs.own < 0:
		// A declaration in a function without a node (a callback): its
		// node, which siblings may share the name of.
		return "#" + strconv.FormatUint(f.Nodes[b.def].ID, 16)
	case flags&^(bDef|bImport|bType|bTypeParam) == 0:
		return name // a nested declaration or a local import: a node or an import ref
	case b.flags&(bDef|bImport) != 0:
		return indexer.ExprLocal
	case b.annot != "":
		return b.annot
	case flags == bParam:
		return f.contextual(b)
	case b.flags&(bUnknown|bParam) != 0:
		return indexer.ExprLocal
	}
	return f.value(b)
}

// narrowed returns head, the Expr head of name at p, narrowed by the
// checks name instanceof C whose regions hold p, outermost first: "("
// head " instanceof " C ")", head "?any" for a parameter annotated any or
// unknown. Only a parameter never assigned or a const of one value is
// narrowed, in the scope of the check, C a name or a dotted name; for
// others, and in functions inside the region, the narrowed type is not
// known: indexer.ExprLocal. So is one of a type parameter's type (it narrows to
// an intersection, whose members we do not pick).
func (f *fileState) narrowed(name, head string, sc *scope, p uint32) string {
	if len(f.narrows) == 0 {
		return head
	}
	b, _ := lookupValue(sc, name)
	if b == nil {
		return head
	}
	narrowable := b.flags&^bAny == bParam || b.flags == bAssign|bConst && len(b.values) == 1
	decl := head
	if b.flags&bAny != 0 {
		decl = "?any"
	}
	out := decl
	for _, n := range f.narrows {
		if n.name != name || p < n.region.Start || p >= n.region.End || !inside(sc, n.scope) {
			continue
		}
		if nb, _ := lookupValue(n.scope, name); nb != b {
			continue // a variable of a function inside the region
		}
		c := f.expr(n.class, n.scope)
		if !narrowable || n.scope != sc || out[0] == '?' && out != "?any" || c[0] == '?' || strings.ContainsAny(c, "({[@<") {
			return indexer.ExprLocal
		}
		out = "(" + out + " instanceof " + c + ")"
	}
	if out == decl {
		return head
	}
	return out
}

// inside reports whether scope s is outer or one of the scopes within it.
func inside(s, outer *scope) bool {
	for ; s != nil; s = s.parent {
		if s == outer {
			return true
		}
	}
	return false
}

// declared counts a declaration of b.
func (b *binding) declared() { b.decls = min(b.decls+1, 2) }

// define records that b binds the declaration of node n.
func (b *binding) define(n int32) {
	b.def = n
	if b.flags&bDef != 0 {
		b.def = -1
	}
	b.flags |= bDef
}

// contextual returns the Expr of parameter b, which has no annotation and
// is never assigned: when its function is written as an argument of a
// call or new expression, the type the callee declares for that
// parameter of that argument (see expr.go), else indexer.ExprLocal.
func (f *fileState) contextual(b *binding) string {
	return indexer.LocalExpr(&b.value, func() string { return f.calleeParam(b.param) })
}

// calleeParam returns callee "@" argument ":" parameter for the
// parameter whose name starts at p, or "" when its function is no
// argument of a call (or a branch of a conditional argument), or the
// count is not sure (a spread or a type argument list before it, a
// default value).
func (f *fileState) calleeParam(p uint32) string {
	c, base, arg, argStart := f.argumentAt(p)
	if c == nil {
		return ""
	}
	params, at := f.lambdaParams(base+argStart, int(c.args.End)-1)
	if at < 0 {
		// a branch of a conditional argument: c ? (x) => … : (y) => …
		if q, colon := f.conditional(span{Start: uint32(base + argStart), End: c.args.End - 1}); colon > 0 {
			params, at = f.lambdaParams(q+1, colon)
			if int(p) > colon {
				params, at = f.lambdaParams(colon+1, int(c.args.End)-1)
			}
		}
	}
	if at < 0 || strings.Contains(strings.ReplaceAll(params, "=>", ""), "=") {
		return ""
	}
	param, start := segmentAt(params, int(p)-at)
	if param < 0 || start != int(p)-at || strings.HasPrefix(params[start:], "...") {
		return ""
	}
	for _, q := range splitTop(params[:start], ',') {
		if isThisParam(q) {
			param-- // this: T is no parameter
		}
	}
	e := f.calleeExpr(c)
	if e == "" {
		return ""
	}
	return e + "@" + strconv.Itoa(arg) + ":" + strconv.Itoa(param) + f.expected(c)
}

// calleeThis returns callee "@" argument ":this" for the function
// expression starting at p: the type the callee declares for this in the
// function type of that argument, which a function expression without
// type parameters or a this parameter of its own is given. It is "" when
// the function is not itself an argument, or the count is not sure.
func (f *fileState) calleeThis(p uint32) string {
	c, base, arg, argStart := f.argumentAt(p)
	if c == nil || base+argStart != int(p) {
		return ""
	}
	e := f.calleeExpr(c)
	if e == "" {
		return ""
	}
	return e + "@" + strconv.Itoa(arg) + ":this"
}

// argumentAt returns the innermost call with an argument list in
// parentheses holding offset p, where its arguments start, the index of
// the argument holding p and where that argument starts; c is nil when
// there is none, or a spread or a type argument list comes before it.
func (f *fileState) argumentAt(p uint32) (c *call, base, arg, argStart int) {
	for i := range f.calls {
		if a := f.calls[i].args; a.Start < p && p < a.End && (c == nil || a.Start > c.args.Start) {
			c = &f.calls[i]
		}
	}
	if c == nil || c.args.End-c.args.Start < 2 || f.Src[c.args.Start] != '(' {
		return nil, 0, 0, 0
	}
	base = int(c.args.Start) + 1
	inner := f.Str[base : c.args.End-1]
	arg, argStart = segmentAt(inner, int(p)-base)
	if arg < 0 || strings.ContainsAny(inner[:argStart], "<>") {
		return nil, 0, 0, 0
	}
	for _, a := range splitTop(inner[:argStart], ',') {
		if strings.HasPrefix(strings.TrimSpace(a), "...") {
			return nil, 0, 0, 0
		}
	}
	return c, base, arg, argStart
}

// calleeExpr returns the Expr of what call c calls (the class of a new
// expression), or "" when it is not followed.
func (f *fileState) calleeExpr(c *call) string {
	e := f.expr(c.fn, c.scope)
	if c.kind == schemas.EdgeInstantiates {
		e = strings.TrimSuffix(e, "()")
	}
	if e[0] == '?' {
		return ""
	}
	return e
}

// expected returns ";" and the type arguments of the type declared for
// the variable call c is the value of (const s: C<S> = f(...)), each a
// type head or indexer.ExprLocal, or "" when there are none: what the callee's
// type parameters are inferred from when its result is C<T>.
func (f *fileState) expected(c *call) string {
	t, ok := f.declared[c.fn.Start]
	if !ok {
		return ""
	}
	text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f.Text(t)), ":"))
	base, args := typeArgs(text)
	if len(args) == 0 {
		return ""
	}
	var heads []string
	for _, a := range args {
		h := f.annotation(a, c.scope)
		if !strings.HasPrefix(h, "{") || !isDotted(h[1:len(h)-1]) {
			h = indexer.ExprLocal
		}
		heads = append(heads, h)
	}
	return ";" + base + "=" + strings.Join(heads, ",")
}

// typeArgs returns the last name of generic type t (C of a.C<A, B>) and
// its type arguments, or nil.
func typeArgs(t string) (string, []string) {
	open := strings.IndexByte(t, '<')
	base := strings.TrimSpace(t[:max(open, 0)])
	if open < 0 || !strings.HasSuffix(t, ">") || !isDotted(base) {
		return "", nil
	}
	return base[strings.LastIndexByte(base, '.')+1:], splitTop(t[open+1:len(t)-1], ',')
}

// segmentAt returns the index of the comma-separated part of s (outside
// brackets) that holds offset off and where its text starts, or -1.
func segmentAt(s string, off int) (index, start int) {
	pos := 0
	for i, part := range splitTop(s, ',') {
		end := pos + len(part)
		if off >= pos && off < end {
			return i, skipSpace(s, pos, end)
		}
		pos = end + 1
	}
	return -1, 0
}

// lambdaParams returns the parameter list of the function expression
// that starts the text at [p, end) and where it starts, or -1 when the
// text starts with no function expression: function (...) { },
// (...) => and name =>, each perhaps async.
func (f *fileState) lambdaParams(p, end int) (string, int) {
	p = skipSpace(f.Src, p, end)
	if e := identEnd(f.Src, p, end); f.Str[p:e] == "async" {
		p = skipSpace(f.Src, e, end)
	}
	e := identEnd(f.Src, p, end)
	fn := f.Str[p:e] == "function"
	switch name := f.Str[p:e]; {
	case fn:
		q := skipSpace(f.Src, e, end)
		if q < end && f.Src[q] == '*' {
			q = skipSpace(f.Src, q+1, end)
		}
		q = skipSpace(f.Src, identEnd(f.Src, q, end), end)
		if q >= end || f.Src[q] != '(' {
			return "", -1
		}
		p = q
	case name != "":
		if q := skipSpace(f.Src, e, end); strings.HasPrefix(f.Str[q:end], "=>") {
			return name, p
		}
		return "", -1
	case p >= end || f.Src[p] != '(':
		return "", -1
	}
	c := matchingClose(f.Src, p, end)
	if c < 0 {
		return "", -1
	}
	if !fn {
		q := skipSpace(f.Src, c, end)
		if !strings.HasPrefix(f.Str[q:end], "=>") && !strings.HasPrefix(f.Str[q:end], ":") {
			return "", -1
		}
	}
	return f.Str[p+1 : c-1], p + 1
}

// isThisParam reports whether parameter text q declares this.
func isThisParam(q string) bool {
	q = strings.TrimSpace(q)
	rest, ok := strings.CutPrefix(q, "this")
	return ok && (rest == "" || rest[0] == ':' || rest[0] == ' ' || rest[0] == '?')
}

// value returns the one value every assignment of b gives it.
func (f *fileState) value(b *binding) string {
	return indexer.LocalExpr(&b.value, func() string { return f.assigned(b) })
}

func (f *fileState) assigned(b *binding) string {
	if e := f.initialized(b); e != "" {
		return e
	}
	v := ""
	for _, s := range b.values {
		e := f.expr(s.at, s.scope)
		if s.member != "" && e != exprNone {
			e = memberOf(e, s.member)
		}
		if e != exprNone {
			v = indexer.Agree(v, e)
		}
	}
	if v == "" || v == exprReceiver || v == indexer.ExprExpr || v == exprSubscript || v == exprThis {
		v = indexer.ExprLocal
	}
	return v
}

// initialized returns the Expr of the initializer of b, when b is a
// variable declared once, without annotation, with an initializer the
// Expr of which is known: what the variable's type is declared as,
// whatever is assigned later (an assignment of a non-union type narrows
// to that type only). It is "" otherwise.
func (f *fileState) initialized(b *binding) string {
	if b.decls != 1 || b.flags&bParam != 0 {
		return ""
	}
	var init *valueRef
	for i := range b.values {
		if b.values[i].init {
			init = &b.values[i]
		}
	}
	if init == nil {
		return ""
	}
	e := f.expr(init.at, init.scope)
	if init.member != "" && e != exprNone {
		e = memberOf(e, init.member)
	}
	if e[0] == '?' {
		return ""
	}
	return e
}

// literalEnd returns the end of the string, template, number, regular
// expression or array literal at p, or p when there is none.
func literalEnd(src []byte, p, end int) int {
	switch c := src[p]; {
	case c == '"' || c == '\'' || c == '`':
		return stringEnd(src, p, end)
	case c >= '0' && c <= '9':
		for p < end && (isIdentByte(src[p]) || src[p] == '.') {
			p++
		}
		return p
	case c == '[':
		if e := matchingClose(src, p, end); e > 0 {
			return e
		}
		return end
	case c == '/' && p+1 < end && src[p+1] != '/' && src[p+1] != '*':
		for i := p + 1; i < end; i++ {
			switch src[i] {
			case '\\':
				i++
			case '/':
				e := i + 1
				for e < end && isIdentByte(src[e]) {
					e++
				}
				return e
			case '\n':
				return p
			}
		}
	}
	return p
}

// primitives are the types whose values have only builtin members.
var primitives = map[string]bool{
	"string": true, "number": true, "boolean": true, "bigint": true, "symbol": true, "object": true,
	"void": true, "never": true, "undefined": true, "null": true, "true": true, "false": true,
	"String": true, "Number": true, "Boolean": true, "Object": true, "Function": true, "Array": true,
	"ReadonlyArray": true, "Map": true, "Set": true, "WeakMap": true, "WeakSet": true, "RegExp": true,
	"Date": true, "Record": true, "Partial": true, "Required": true, "Readonly": true, "Pick": true,
	"Omit": true, "Error": true, "Iterable": true, "Iterator": true, "AsyncIterable": true,
	"Generator": true, "AsyncGenerator": true, "ArrayLike": true, "Uint8Array": true, "ArrayBuffer": true,
}

// annotation returns the Expr head "{T}" for a type annotation naming one
// class or interface T, the Expr of x for typeof x, indexer.ExprLiteral for a
// builtin type, or "" when it names nothing we follow.
func (f *fileState) annotation(b string, sc *scope) string {
	typeParam := func(name string) bool {
		b, _ := lookupType(sc, name)
		return b != nil && b.flags&bTypeParam != 0
	}
	declared := func(name string) bool {
		b, _ := lookupType(sc, name)
		return b != nil
	}
	if x, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(b), ":")), "typeof "); ok {
		return f.typeOf(strings.TrimSpace(x), sc)
	}
	return typeHead(b, typeParam, declared)
}

// typeOf returns the Expr of the type typeof x, for x a dotted name seen
// from sc whose first name is a declaration, an import or a global: x's
// own Expr (typeof Action is the class Action), or "". (A variable's
// value may not be known yet when annotations are read.)
func (f *fileState) typeOf(x string, sc *scope) string {
	if !isDotted(x) {
		return ""
	}
	first, more, _ := strings.Cut(x, ".")
	if b, _ := lookupValue(sc, first); b != nil && (b.flags&(bDef|bImport) == 0 || b.flags&^(bDef|bImport|bType|bTypeParam|bConst) != 0) {
		return ""
	}
	h := f.head(first, sc)
	switch {
	case h[0] == '?':
		return ""
	case more != "":
		return h + "." + more
	}
	return h
}

// constrained returns the Expr head of the constraint C of type
// parameter T when annotation b is T (or T | null, T | undefined) and T
// is declared T extends C, seen from sc: a parameter or local of type T
// in the code that declares T has the members of C, T being no type
// argument there but itself. It is "" otherwise. (A field or result of
// type T is read where T is an argument: not so.)
func (f *fileState) constrained(b string, sc *scope) string {
	t := nonNull(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(b), ":")))
	if !isIdent(t) {
		return ""
	}
	if tb, _ := lookupType(sc, t); tb != nil && tb.flags&bTypeParam != 0 {
		return tb.bound
	}
	return ""
}

// typeHead returns the Expr head of type annotation b: "{T}" for one class
// or interface T, "this", indexer.ExprLiteral for a builtin type, or "" when it
// names nothing we follow (a type parameter, a union, an object type).
// declared tells a name declared in the code (which may shadow a builtin).
func typeHead(b string, typeParam, declared func(name string) bool) string {
	t := strings.TrimSpace(b)
	t = strings.TrimSpace(strings.TrimPrefix(t, ":"))
	for range 8 {
		if t = nonNull(t); t == "" {
			return ""
		}
		if len(splitTop(t, '&')) > 1 {
			return ""
		}
		if n := len(t); t[0] == '{' && matchingClose([]byte(t), 0, n) == n {
			return typeLiteral(t[1:n-1], typeParam, declared)
		}
		if elem, ok := strings.CutSuffix(strings.TrimPrefix(t, "readonly "), "[]"); ok {
			return arrayOf(typeHead(elem, typeParam, declared))
		}
		if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "readonly ") {
			return indexer.ExprLiteral
		}
		if n := len(t); n > 0 && (t[0] == '"' || t[0] == '\'' || t[0] == '`' || t[0] >= '0' && t[0] <= '9' || t[0] == '-') {
			return indexer.ExprLiteral
		}
		open := strings.IndexByte(t, '<')
		if open < 0 || !strings.HasSuffix(t, ">") {
			break
		}
		base := strings.TrimSpace(t[:open])
		if base == "Promise" || base == "PromiseLike" {
			t = t[open+1 : len(t)-1]
			continue
		}
		if (base == "Array" || base == "ReadonlyArray") && !declared(base) {
			return arrayOf(typeHead(t[open+1:len(t)-1], typeParam, declared))
		}
		t = base
		break
	}
	if t == "this" {
		return "this"
	}
	if t == "any" || t == "unknown" || !isDotted(t) {
		return ""
	}
	if primitives[t] && !declared(t) {
		return indexer.ExprLiteral
	}
	if first, _, _ := strings.Cut(t, "."); typeParam(first) {
		return ""
	}
	return "{" + t + "}"
}

// arrayOf returns the Expr head of an array of elements of type head
// elem: "[" elem "]" when elem is a class or interface, else indexer.ExprLiteral.
func arrayOf(elem string) string {
	if strings.HasPrefix(elem, "{") && isDotted(elem[1:len(elem)-1]) {
		return "[" + elem + "]"
	}
	return indexer.ExprLiteral
}

// typeLiteral returns the Expr of an object type ({ a: A; b?: B }) with
// members body: an object literal whose properties are instances of their
// types (see objectExpr); a method is a property we do not follow. It is
// "" when a member is an index signature or one we cannot read.
func typeLiteral(body string, typeParam, declared func(name string) bool) string {
	var members []string
	for _, part := range splitTop(body, ';') {
		for _, m := range splitTop(part, ',') {
			m = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m), "readonly "))
			if m == "" {
				continue
			}
			e := identEnd(m, 0, len(m))
			name := m[:e]
			rest := strings.TrimPrefix(strings.TrimSpace(m[e:]), "?")
			if name == "" {
				return ""
			}
			t, ok := strings.CutPrefix(strings.TrimSpace(rest), ":")
			if !ok {
				members = append(members, name+"="+indexer.ExprLocal) // a method
				continue
			}
			h := typeHead(t, typeParam, declared)
			if h == "" {
				h = indexer.ExprLocal
			}
			members = append(members, name+"="+h)
		}
	}
	if e := objectOf(members); e != indexer.ExprExpr {
		return e
	}
	return ""
}

// nonNull returns type t without the parentheses around it and without
// null, undefined and void among the members of a union; "" when more
// than one member is left.
func nonNull(t string) string {
	for range 8 {
		t = strings.TrimSpace(t)
		if n := len(t); n >= 2 && t[0] == '(' && matchingClose([]byte(t), 0, n) == n {
			t = t[1 : n-1]
			continue
		}
		parts := splitTop(t, '|')
		if len(parts) == 1 {
			return t
		}
		t = ""
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "null" && p != "undefined" && p != "void" && p != "" {
				if t != "" {
					return ""
				}
				t = p
			}
		}
	}
	return t
}

// callbackParamType returns the type function signature sig declares for
// parameter param (-1: this) of the function type of its parameter arg,
// or "".
func callbackParamType(sig string, arg, param int) string {
	list, _ := paramList(sig)
	t := strings.TrimSpace(paramType(list, arg))
	if _, ok := functionParams(t); !ok {
		t = nonNull(t) // (() => void) | undefined
	}
	params, ok := functionParams(t)
	if !ok {
		return ""
	}
	return paramType(params, param)
}

// functionParams returns the parameter list of function type t ("(a: A)
// => R", whose result may be a union), and whether t is one.
func functionParams(t string) (string, bool) {
	if !strings.HasPrefix(t, "(") {
		return "", false
	}
	end := matchingClose([]byte(t), 0, len(t))
	if end < 0 || !strings.HasPrefix(strings.TrimSpace(t[end:]), "=>") {
		return "", false
	}
	return t[:end], true
}

// paramType returns the type annotation of parameter i of parameter list
// list ("(a: A, b?: B)"), not counting a this parameter, or "". Parameter
// -1 is the this parameter.
func paramType(list string, i int) string {
	if len(list) < 2 || list[0] != '(' || list[len(list)-1] != ')' {
		return ""
	}
	var params []string
	for _, p := range splitTop(list[1:len(list)-1], ',') {
		switch {
		case !isThisParam(p):
			params = append(params, p)
		case i < 0:
			params, i = []string{p}, 0
		}
	}
	if i < 0 || i >= len(params) || strings.HasPrefix(strings.TrimSpace(params[i]), "...") {
		return ""
	}
	parts := splitTop(params[i], ':')
	if len(parts) < 2 {
		return ""
	}
	return strings.Join(parts[1:], ":")
}

// typeParamNames returns the names of the type parameters a signature
// declares before its parameters or heritage ("f<T, U extends X>(...)",
// "class C<T> extends B").
func typeParamNames(sig string) []string {
	open := strings.IndexByte(sig, '<')
	if open < 0 || strings.ContainsAny(sig[:open], "(=:") {
		return nil
	}
	depth := 0
	for i := open; i < len(sig); i++ {
		switch sig[i] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				var names []string
				for _, p := range splitTop(sig[open+1:i], ',') {
					p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "const "))
					for _, mod := range []string{"in ", "out "} {
						p = strings.TrimPrefix(p, mod)
					}
					names = append(names, p[:identEnd(p, 0, len(p))])
				}
				return names
			}
		}
	}
	return nil
}

// splitTop splits s at the separators outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if i > 0 && s[i-1] == '=' { // =>
				continue
			}
			depth--
		case '"', '\'', '`':
			i = stringEnd([]byte(s), i, len(s)) - 1
		default:
			if c == sep && depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// heritageExpr returns the Expr of an extends or implements clause: the
// class expression of a class's extends, the type name of the others.
func (f *fileState) heritageExpr(s span, sc *scope, typeOnly bool) string {
	t := strings.TrimSpace(f.Text(s))
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	if !typeOnly {
		e := f.expr(s, sc)
		if strings.HasSuffix(e, "()") || e[0] == '?' {
			return indexer.ExprExpr
		}
		return e
	}
	if !isDotted(t) {
		return indexer.ExprExpr
	}
	first, _, _ := strings.Cut(t, ".")
	if b, _ := lookupType(sc, first); b != nil && b.flags&bTypeParam != 0 {
		return indexer.ExprExpr
	}
	return t
}
