package python

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
)

// Expr, the normalized form of a Python reference, as this package writes
// it in refs and reads it back in Resolve.
//
// calls (Expr is the callee: `a.b(x)` is a.b), extends (a base), type (Src
// a field, variable or constant; Expr one value assigned to it, or its
// annotation) and result (Src a function; Expr its return annotation, or
// "=" expr, what its return statements give, read in its body):
//
//	expr = head { "." name | "()" | "[]" | "[" n "]" }
//	head = name        a name no enclosing function binds to a variable:
//	                   a definition or import of the module, of the class
//	                   body (seen from that body) or of an enclosing
//	                   function, or a builtin
//	     | "self"      the first parameter of the enclosing method
//	     | "cls"       the first parameter of the enclosing classmethod
//	     | "{" T "}"   an instance of T, from an annotation: a dotted name,
//	                   or C[T] for an iterable C of the builtins, typing or
//	                   collections(.abc) whose items are instances of T, or
//	                   tuple[A,B] ("?" for a type that names no class)
//	     | "?" reason  nothing to follow; the whole Expr is then just this
//
// "()" stands for any argument list, "[]" for an item of what precedes, as
// a for loop binds it, "[n]" for the item at position n that unpacking
// binds (a, b = e: a is e[0]; for a, b in e: a is e[][0]). A local variable is replaced by the one value all
// its assignments give it (`x = Foo()` then `x.m()` is Foo().m) or by its
// annotation (`def f(x: Foo)`: x.m() is {Foo}.m); an Optional[T] or
// T | None annotation counts as T, type[T] as the class T (a name head),
// Self as self, list[T] and the like as {list[T]}, another generic T[...]
// as T, and assigning None is ignored. A for loop over e binds e[], `with e
// as x` e.__enter__() (__aenter__ for async with), `except E as x` {E}, and
// typing.cast(T, v) is read as T's annotation, staticmethod(f) and
// classmethod(f) as f, e or [] (an empty list, tuple or dict) as e. In
// the body of `if isinstance(x, C):` and `except C as x:`, a local whose
// value is not known otherwise is {C} (see narrowing). A function with
// no return annotation, no yield and no decorator that may replace it
// (see opaque) has the result "=" expr when its return statements give
// one expr, None aside. super() is written as the call of the name super; the
// two-argument form is kept only as super(C, self) in a method of C. A
// global variable named self or cls would read as the parameter. The
// reasons:
//
//	?local     a variable whose value we cannot follow (a parameter, a
//	           loop variable, one assigned different values), called; as
//	           a type fact: a module variable or field also bound that way
//	?receiver  a member of such a value
//	?subscript an item of a container (x[i]() or x[i].m())
//	?expr      any other expression (a parenthesized one, a lambda, a or b)
//	?literal   a literal or a member of one ("".join): a builtin type
//
// imports, one ref per imported name:
//
//	import a.b              a.b         (binds a)
//	import a.b as c         a.b as c
//	from m import x         m:x         (binds x, an attribute or a submodule of m)
//	from m import x as y    m:x as y
//	from m import *         m:*
//
// A relative module is made absolute against the file's module; one that
// climbs above the top package keeps its leading dots.

const (
	exprNone      = "?none" // None: ignored as an assigned value
	exprReceiver  = "?receiver"
	exprSubscript = "?subscript"
)

// expr returns the Expr of the expression at s, evaluated in scope sc.
func (f *fileState) expr(s span, sc *scope) string {
	src := f.Src
	p, end := int(s.Start), int(s.End)
	var head, name string
	p0 := p
	for head == "" {
		p = skipSpace(src, p, end)
		if p >= end {
			return indexer.ExprExpr
		}
		if e := literalEnd(src, p, end); e > p {
			head, p = indexer.ExprLiteral, e
			break
		}
		if !isIdentStart(src[p]) {
			return indexer.ExprExpr
		}
		q := identEnd(src, p, end)
		p0, name, p = p, f.Str[p:q], q
		switch name {
		case "await":
		case "None":
			head = exprNone
		case "True", "False":
			head = indexer.ExprLiteral
		case "lambda", "not", "yield":
			return indexer.ExprExpr
		case "super":
			if !f.plainSuper(p, end, sc) {
				return indexer.ExprExpr
			}
			fallthrough
		default:
			head = f.head(name, sc, uint32(p0))
		}
	}
	steps := f.buf[:0]
	defer func() { f.buf = steps }()
	q := p
	for {
		p = skipSpace(src, p, end)
		if p >= end {
			break
		}
		switch src[p] {
		case '.':
			p = skipSpace(src, p+1, end)
			q := identEnd(src, p, end)
			if q == p {
				return indexer.ExprExpr
			}
			steps = append(append(steps, '.'), src[p:q]...)
			p = q
		case '(':
			e, ok := f.args[uint32(p)]
			if !ok {
				return indexer.ExprExpr
			}
			args := span{Start: uint32(p), End: e}
			if t := cmp.Or(f.cast(name, head, steps, args, sc), f.unwrap(name, head, steps, args, sc)); t != "" {
				head, name, steps, p = t, "", steps[:0], int(e)
				continue
			}
			steps = append(steps, "()"...)
			p = int(e)
		case '[':
			return exprSubscript
		default:
			if !orEmpty(src, p, end) {
				return indexer.ExprExpr
			}
			p = end
		}
	}
	if head[0] == '?' {
		switch {
		case len(steps) == 0:
			return head
		case head == indexer.ExprLiteral || head == exprNone:
			return indexer.ExprLiteral
		}
		return exprReceiver
	}
	if head == name && f.Str[q:end] == string(steps) {
		return f.Str[p0:end] // as written: no allocation
	}
	return head + string(steps)
}

// cast returns the annotation head of the type T of typing.cast(T, v),
// when the callee, head and steps so far, is typing's cast and args its
// argument list; else "".
func (f *fileState) cast(name, head string, steps []byte, args span, sc *scope) string {
	if head != name {
		return ""
	}
	b, _ := lookup(sc, name)
	if b == nil || b.flags != bImport {
		return ""
	}
	imported, _, _ := strings.Cut(b.from, " as ")
	mod, member, _ := strings.Cut(imported, ":")
	switch {
	case mod != "typing" && mod != "typing_extensions":
		return ""
	case len(steps) == 0 && member == "cast", string(steps) == ".cast" && member == "":
	default:
		return ""
	}
	var t string
	f.eachArg(args, func(a span) bool {
		t = annotation(f.Text(a))
		return false
	})
	return t
}

// unwrap returns the Expr of f for staticmethod(f) or classmethod(f), the
// builtins, which a class attribute holds as the function f; else "".
func (f *fileState) unwrap(name, head string, steps []byte, args span, sc *scope) string {
	if head != name || len(steps) > 0 || name != "staticmethod" && name != "classmethod" {
		return ""
	}
	if b, _ := lookup(sc, name); b != nil {
		return ""
	}
	var e string
	n := 0
	f.eachArg(args, func(a span) bool {
		e, n = f.expr(a, sc), n+1
		return true
	})
	if n != 1 || e[0] == '?' {
		return ""
	}
	return e
}

// orEmpty reports whether src[p:end] is `or` and an empty list, tuple or
// dict: `e or []` is e, or an empty container that has none of the
// members e's class may define.
func orEmpty(src []byte, p, end int) bool {
	if end-p < 3 || string(src[p:p+2]) != "or" || isIdentByte(src[p+2]) {
		return false
	}
	q := skipSpace(src, p+2, end)
	if q >= end {
		return false
	}
	var closing byte
	switch src[q] {
	case '[':
		closing = ']'
	case '(':
		closing = ')'
	case '{':
		closing = '}'
	default:
		return false
	}
	r := skipSpace(src, q+1, end)
	return r < end && src[r] == closing && skipSpace(src, r+1, end) == end
}

// plainSuper reports whether the super at p is called with no arguments,
// or as super(C, ...) in a method of class C.
func (f *fileState) plainSuper(p, end int, sc *scope) bool {
	p = skipSpace(f.Src, p, end)
	e, ok := f.args[uint32(p)]
	if p >= end || f.Src[p] != '(' || !ok {
		return true
	}
	a := skipSpace(f.Src, p+1, int(e)-1)
	if a >= int(e)-1 {
		return true
	}
	for s := sc; s != nil; s = s.parent {
		if s.class != nil {
			q := identEnd(f.Src, a, int(e))
			c := skipSpace(f.Src, q, int(e))
			return string(f.Src[a:q]) == f.Nodes[s.class.sym].Name && c < int(e) && f.Src[c] == ','
		}
	}
	return false
}

// head returns the Expr head for name seen from sc: the name itself when
// rows can find it, a local's value, or a reason.
func (f *fileState) head(name string, sc *scope, p uint32) string {
	b, bs := lookup(sc, name)
	h := f.bindingHead(name, b, bs)
	if h[0] == '?' {
		if t := f.narrowed(b, sc, p); t != "" {
			return t
		}
	}
	return h
}

// bindingHead returns the Expr head for name bound by b in scope bs, or
// not bound (b nil), wherever it is used.
func (f *fileState) bindingHead(name string, b *binding, bs *scope) string {
	switch {
	case b == nil:
		return name
	case bs.kind == sModule || bs.kind == sClass:
		if b.flags&bUnknown != 0 {
			return indexer.ExprLocal
		}
		return name
	case b.flags&bSelf != 0:
		return "self"
	case b.flags&bCls != 0:
		return "cls"
	case b.flags&^(bDef|bImport) == 0:
		return name // a nested def or a local import: a node or an import ref
	case b.flags&(bDef|bImport) != 0:
		return indexer.ExprLocal
	case b.annot != "":
		return b.annot
	case b.flags&(bUnknown|bParam) != 0:
		return indexer.ExprLocal
	}
	return f.value(b, bs)
}

// narrowed returns "{C}" when the use at p, in scope sc, of the local
// bound by b is in a block that makes it an instance of C (see narrowing)
// and that assigns it nothing else; else "". It serves where the local's
// value is not known otherwise: a known Sub narrowed to its base C stays
// a Sub.
func (f *fileState) narrowed(b *binding, sc *scope, p uint32) string {
	if b == nil || b.flags&(bUnknown|bGlobal|bNonlocal|bDef|bImport) != 0 {
		return ""
	}
	for i := len(f.narrows) - 1; i >= 0; i-- {
		n := &f.narrows[i]
		if n.b != b || n.scope != sc || p < n.block.Start || p >= n.block.End {
			continue
		}
		for _, a := range b.values {
			if n.block.Start <= a.at.Start && a.at.Start < n.block.End && a.at != n.class {
				return ""
			}
		}
		if c := f.expr(n.class, sc); isDotted(c) {
			return "{" + c + "}"
		}
		return ""
	}
	return ""
}

// value returns the one value every assignment of b gives it.
func (f *fileState) value(b *binding, sc *scope) string {
	return indexer.LocalExpr(&b.value, func() string {
		v := ""
		for _, a := range b.values {
			e := bound(f.expr(a.at, sc), a.how, a.nth)
			if a.nth > 0 {
				e = f.unpackedExpr(a, sc)
			}
			if e != exprNone {
				v = indexer.Agree(v, e)
			}
		}
		return v
	})
}

// bound returns the Expr of what a name is bound to from the Expr e of
// the expression and how it is bound.
func bound(e string, how, nth uint8) string {
	if how == aPlain && nth == 0 {
		return e
	}
	if e[0] == '?' {
		return indexer.ExprLocal
	}
	if nth > 0 {
		if how == aItem {
			e += "[]"
		}
		return e + "[" + strconv.Itoa(int(nth-1)) + "]"
	}
	switch how {
	case aItem:
		return e + "[]"
	case aEnter:
		return e + ".__enter__()"
	case aAEnter:
		return e + ".__aenter__()"
	}
	if !isDotted(e) { // except (A, B) as x
		return indexer.ExprLocal
	}
	return "{" + e + "}"
}

// literalEnd returns the end of the string, number, list, dict or set
// literal at p, or p when there is none.
func literalEnd(src []byte, p, end int) int {
	q := p
	for q < end && q-p < 2 && strings.IndexByte("rRbBuUfFtT", src[q]) >= 0 {
		q++
	}
	if q < end && (src[q] == '"' || src[q] == '\'') {
		for { // adjacent strings are one
			q = skipSpace(src, stringEnd(src, q, end), end)
			r := q
			for r < end && r-q < 2 && strings.IndexByte("rRbBuUfFtT", src[r]) >= 0 {
				r++
			}
			if r >= end || src[r] != '"' && src[r] != '\'' {
				return q
			}
			q = r
		}
	}
	switch c := src[p]; {
	case c >= '0' && c <= '9':
		for p < end && (isIdentByte(src[p]) || src[p] == '.') {
			p++
		}
	case c == '.' && end-p >= 3 && src[p+1] == '.' && src[p+2] == '.':
		p += 3
	case c == '[' || c == '{':
		depth := 0
		for p < end {
			switch src[p] {
			case '[', '{', '(':
				depth++
			case ']', '}', ')':
				if depth--; depth == 0 {
					return p + 1
				}
			case '"', '\'':
				p = stringEnd(src, p, end)
				continue
			}
			p++
		}
	}
	return p
}

// stringEnd returns the end of the string literal whose quote is at p.
func stringEnd(src []byte, p, end int) int {
	quote := src[p]
	n := 1
	if end-p >= 3 && src[p+1] == quote && src[p+2] == quote {
		n = 3
	}
	for i := p + n; i < end; i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case c == quote && (n == 1 || end-i >= 3 && src[i+1] == quote && src[i+2] == quote):
			return i + n
		case c == '\n' && n == 1:
			return i
		}
	}
	return end
}
