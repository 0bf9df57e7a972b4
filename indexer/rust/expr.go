package rust

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
)

// Expr, the normalized form of a Rust reference, as this package writes it
// in refs and reads it back in Resolve.
//
// references (a type named in a field's, parameter's, let's or result's
// type, a generic argument or bound, a struct pattern: its path, generic
// arguments dropped; Src the field, else the innermost symbol; generic
// parameters, Self, _ and the self type and trait of an impl make none),
// calls (Expr is the callee: `a.b(x)` is a.b; a macro invocation is its
// path and "!"), instantiates (a struct literal: the path of the struct or
// variant), type (Src a field, constant, static or type alias; Expr its
// type) and result (Src a function; Expr its result type):
//
//	expr  = head { "." name | "." digits | "()" | "?" | "[]" } | path "!" | "?" reason
//	head  = path               a path as written, generic arguments dropped:
//	                           a name no enclosing function binds to a
//	                           local, `crate::a::f`, `super::f`, `Self::new`,
//	                           `::dep::f`
//	      | "self"             the receiver of the enclosing method
//	      | "{" type "}"       a value of that type (an annotation, a struct
//	                           literal)
//	      | "<{" type "} as {" path "}>" "::" name
//	                           a qualified path
//	type  = path [ "<" type { "," type } ">" ] | "[" type "]"
//	      | "impl " bounds | "dyn " bounds | "Self" | "_"
//	bounds = path { "+" path }
//
// "()" stands for any argument list, "?" for the ? operator, "[]" for an
// index expression and for the items a for loop takes from a value; .await
// and the & and * operators are dropped. A local variable is replaced by
// what its let gives it: its annotation (`let x: T`), or the Expr of its
// value (`let x = T::new()` makes x.m() read T::new().m, `let x = T { .. }`
// reads {T}.m); `if let Some(x) = v`, `let Ok(x) = v else ..` and the arm
// `Some(x) =>` of `match v` give x the value v?, `for x in v` the value
// v[], and so does the first parameter of a closure given first to an
// adapter of v (v.iter().map(|x| ..), v.retain(|x| ..), see
// elementAdapters); a parameter gives its type.
// Rust's shadowing is followed: a use sees the latest let before it in its
// block. A generic parameter T in a type is replaced by its bounds (`T:
// Shape` reads `impl Shape`), or by "_" when it has none; references,
// lifetimes, `mut` and associated-type bindings are dropped; tuples,
// function pointers and qualified types read "_". The reasons:
//
//	?local     a local whose value we do not follow (bound by a pattern,
//	           a closure parameter, a match arm), called
//	?receiver  a member of such a value or of an expression
//	?literal   a literal or a member of one ("a".len())
//	?expr      any other expression (a block, a match, a closure, a cast)
//	?generic   a path through a generic parameter (T::new())
//
// imports, one ref per name a use declaration binds (Target the path as
// written):
//
//	use a::b::c;            a::b::c
//	use a::b::{self, c};    a::b and a::b::c
//	use a::b::c as d;       a::b::c as d
//	use a::b::*;            a::b::*
//	pub use a::b;           pub a::b        (any pub(...) too: a re-export)
//	extern crate d as e;    ::d as e
//
// Facts of this package (Src the node they describe):
//
//	crate  Src a file's module node; Target the crate's name, Expr the
//	       folder of the Cargo.toml above the file ("." for the top, ""
//	       when there is none)
//	mod    Src the module (or function) holding `mod name;`; Target the
//	       name, "#[macro_use] name" when so marked; Expr the files it may
//	       name, in order, separated by "|". An include!("f.rs") is a mod
//	       fact too, Target `include!("f.rs")` and Expr the one file
//	impl   Src an item of an impl block (method, associated function,
//	       constant or type); Expr "{" type "}" for an inherent impl,
//	       "{" type "} as {" path "}" for an impl of a trait
//
// implements refs (Src the module or function holding the impl block) read
// "{" type "} as {" path "}" as well; extends refs (Src a trait) are the
// path of a supertrait.

const (
	exprReceiver = "?receiver"
	exprGeneric  = "?generic"
)

// keywords that start an expression no Expr follows.
var exprKeywords = map[string]bool{
	"match": true, "if": true, "loop": true, "while": true, "for": true, "unsafe": true,
	"async": true, "move": true, "return": true, "break": true, "continue": true, "let": true,
	"const": true, "static": true, "yield": true, "do": true, "try": true, "gen": true,
}

// expr returns the Expr of the expression at s. value is true for a whole
// expression (a let's value), false for the callee of a call.
func (f *fileState) expr(s span, value bool) string {
	src := f.Src
	p, end := int(s.Start), int(s.End)
	if f.depth > 8 {
		return indexer.ExprExpr
	}
	f.depth++
	defer func() { f.depth-- }()
	for {
		p = skipSpace(src, p, end)
		if p >= end {
			return indexer.ExprExpr
		}
		if src[p] == '&' || src[p] == '*' {
			p++
			if q := skipSpace(src, p, end); identEnd(src, q, end)-q == 3 && string(src[q:q+3]) == "mut" {
				p = q + 3
			}
			continue
		}
		break
	}
	var head string
	switch c := src[p]; {
	case c == '<':
		e := angleEnd(src, p, end)
		if e == p {
			return indexer.ExprExpr
		}
		typ, trait, ok := strings.Cut(f.Str[p+1:e-1], " as ")
		t := f.normType(typ, f.gen)
		if ok {
			head = "<{" + t + "} as {" + normPath(trait) + "}>"
		} else {
			head = "{" + t + "}"
		}
		p = e
		for {
			q := skipSpace(src, p, end)
			if q+1 >= end || src[q] != ':' || src[q+1] != ':' {
				break
			}
			q = skipSpace(src, q+2, end)
			e := identEnd(src, q, end)
			if e == q {
				return indexer.ExprExpr
			}
			head += "::" + unraw(f.Str[q:e])
			p = skipTurbofish(src, e, end)
		}
	case c >= '0' && c <= '9':
		for p < end && (isIdentByte(src[p]) || src[p] == '.' && p+1 < end && src[p+1] >= '0' && src[p+1] <= '9') {
			p++
		}
		head = indexer.ExprLiteral
	case c == '"' || c == '\'' || c == 'b' || c == 'r' || c == 'c':
		if e := literalEnd(src, p, end); e > p {
			head, p = indexer.ExprLiteral, e
			break
		}
		fallthrough
	case isIdentStart(c) || c == ':':
		segs, abs, q := f.readPath(p, end)
		if len(segs) == 0 {
			return indexer.ExprExpr
		}
		p = q
		first := segs[0]
		q = skipSpace(src, p, end)
		switch {
		case !abs && exprKeywords[first]:
			return indexer.ExprExpr
		case q < end && src[q] == '!' && (q+1 >= end || src[q+1] != '='):
			return indexer.ExprExpr // a macro's value
		case value && q < end && src[q] == '{':
			head = "{" + joinPath(segs, abs) + "}"
			p = closing(src, q, end)
		case !abs && f.isGeneric(first):
			return exprGeneric // T::new(): whatever type T is
		case len(segs) > 1 || abs:
			head = joinPath(segs, abs)
		case first == "self":
			head = "self"
		case first == "true" || first == "false":
			head = indexer.ExprLiteral
		default:
			if b := f.lookup(first, s.Start); b != nil {
				head = f.bindingValue(b)
				if head[0] == '?' && head != indexer.ExprLiteral {
					head = indexer.ExprLocal
				}
			} else {
				head = first
			}
		}
	default:
		return indexer.ExprExpr
	}
	var steps []byte
	for {
		p = skipSpace(src, p, end)
		if p >= end {
			break
		}
		switch src[p] {
		case '.':
			q := skipSpace(src, p+1, end)
			if q < end && src[q] >= '0' && src[q] <= '9' {
				e := q
				for e < end && src[e] >= '0' && src[e] <= '9' {
					e++
				}
				steps = append(append(steps, '.'), src[q:e]...)
				p = e
				continue
			}
			e := identEnd(src, q, end)
			if e == q {
				return indexer.ExprExpr
			}
			if name := f.Str[q:e]; name != "await" {
				steps = append(append(steps, '.'), unraw(name)...)
			}
			p = skipTurbofish(src, e, end)
		case '(':
			steps = append(steps, "()"...)
			p = closing(src, p, end)
		case '[':
			steps = append(steps, "[]"...)
			p = closing(src, p, end)
		case '?':
			steps = append(steps, '?')
			p++
		default:
			return indexer.ExprExpr
		}
	}
	if head[0] == '?' {
		switch {
		case len(steps) == 0:
			return head
		case head == indexer.ExprLiteral:
			return indexer.ExprLiteral
		case head == indexer.ExprLocal && len(steps) > 0 && isTry(steps):
			return indexer.ExprLocal
		}
		return exprReceiver
	}
	return head + string(steps)
}

// isGeneric reports whether name is a generic parameter where
// expressions are read.
func (f *fileState) isGeneric(name string) bool {
	_, ok := f.gen.param(name)
	return ok
}

// isTry reports whether steps is only ? operators and indexing.
func isTry(steps []byte) bool {
	return strings.Trim(string(steps), "?") == ""
}

// readPath reads the path at p: segments (generic arguments dropped) and
// whether it starts with ::.
func (f *fileState) readPath(p, end int) (segs []string, abs bool, next int) {
	src := f.Src
	if p+1 < end && src[p] == ':' && src[p+1] == ':' {
		abs = true
		p += 2
	}
	for {
		q := skipSpace(src, p, end)
		e := identEnd(src, q, end)
		if e == q {
			if len(segs) == 0 {
				return nil, abs, p
			}
			return segs, abs, p
		}
		segs = append(segs, unraw(f.Str[q:e]))
		p = e
		r := skipSpace(src, p, end)
		if r+1 >= end || src[r] != ':' || src[r+1] != ':' {
			return segs, abs, p
		}
		r = skipSpace(src, r+2, end)
		if r < end && src[r] == '<' {
			a := angleEnd(src, r, end)
			if a == r {
				return segs, abs, p
			}
			p = a
			r = skipSpace(src, p, end)
			if r+1 >= end || src[r] != ':' || src[r+1] != ':' {
				return segs, abs, p
			}
			r += 2
		}
		p = r
	}
}

// skipTurbofish skips ::<...> after a method name.
func skipTurbofish(src []byte, p, end int) int {
	q := skipSpace(src, p, end)
	if q+2 < end && src[q] == ':' && src[q+1] == ':' {
		r := skipSpace(src, q+2, end)
		if r < end && src[r] == '<' {
			if a := angleEnd(src, r, end); a > r {
				return a
			}
		}
	}
	return p
}

func joinPath(segs []string, abs bool) string {
	s := strings.Join(segs, "::")
	if abs {
		return "::" + s
	}
	return s
}

// genScope is the generic parameters visible in an item: its own, then
// those of the items around it.
type genScope struct {
	parent *genScope
	names  []string
	bounds []string // normalized bounds, "A+B", or ""
}

// param returns the bounds of the generic parameter name, if it is one.
func (g *genScope) param(name string) (bounds string, ok bool) {
	for ; g != nil; g = g.parent {
		for i, n := range g.names {
			if n == name {
				return g.bounds[i], true
			}
		}
	}
	return "", false
}

func (g *genScope) add(name, bounds string) {
	for i, n := range g.names {
		if n == name {
			if bounds != "" {
				if g.bounds[i] != "" {
					bounds = g.bounds[i] + "+" + bounds
				}
				g.bounds[i] = bounds
			}
			return
		}
	}
	g.names = append(g.names, name)
	g.bounds = append(g.bounds, bounds)
}

// addGenerics reads a type parameter list, <'a, T: A + B, const N: usize>.
func (g *genScope) addGenerics(list string) {
	list = strings.TrimSpace(list)
	list = strings.TrimSuffix(strings.TrimPrefix(list, "<"), ">")
	for _, p := range splitTop(list, ',') {
		for strings.HasPrefix(p, "#[") {
			p = strings.TrimSpace(p[closing(p, 1, len(p)):])
		}
		if p == "" || p[0] == '\'' || strings.HasPrefix(p, "const ") {
			continue
		}
		name, bounds, _ := strings.Cut(p, ":")
		if i := strings.IndexByte(name, '='); i >= 0 {
			name = name[:i]
		}
		name = strings.TrimSpace(name)
		if !isIdent(name) {
			continue
		}
		if i := strings.IndexByte(bounds, '='); i >= 0 {
			bounds = bounds[:i]
		}
		g.add(name, normBounds(bounds))
	}
}

// addWhere reads a where clause: the bounds of its bare type parameters.
func (g *genScope) addWhere(clause string) {
	clause = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(clause), "where"))
	for _, p := range splitTop(clause, ',') {
		i := topColon(p)
		if i < 0 {
			continue
		}
		left := strings.TrimSpace(p[:i])
		if _, ok := g.param(left); ok {
			g.add(left, normBounds(p[i+1:]))
		}
	}
}

// topColon returns the index of the first ':' of s that is not part of
// '::' and lies outside brackets, or -1.
func topColon(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		case ':':
			if i+1 < len(s) && s[i+1] == ':' {
				i++
				continue
			}
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// normBounds normalizes bounds, `A + B<T> + 'a + ?Sized`, to "A+B".
func normBounds(b string) string {
	var out []string
	for _, p := range splitTop(b, '+') {
		p = strings.TrimSpace(p)
		if p == "" || p[0] == '\'' || p[0] == '?' || p[0] == '~' {
			continue
		}
		if strings.HasPrefix(p, "for<") {
			if e := angleEnd(p, 3, len(p)); e > 3 {
				p = strings.TrimSpace(p[e:])
			}
		}
		p = strings.TrimPrefix(p, "(")
		p = strings.TrimSuffix(p, ")")
		if n := normPath(p); n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "+")
}

// normPath returns the path at the start of t with generic arguments and
// blanks removed (Iterator<Item = T> is Iterator, Fn(u8) is Fn), or "".
func normPath(t string) string {
	t = strings.TrimSpace(t)
	var b strings.Builder
	i := 0
	if strings.HasPrefix(t, "::") {
		b.WriteString("::")
		i = 2
	}
	for {
		i = skipSpace(t, i, len(t))
		e := identEnd(t, i, len(t))
		if e == i {
			return ""
		}
		b.WriteString(unraw(t[i:e]))
		i = skipSpace(t, e, len(t))
		if i < len(t) && t[i] == '<' {
			a := angleEnd(t, i, len(t))
			if a == i {
				return b.String()
			}
			i = skipSpace(t, a, len(t))
		}
		if i+1 < len(t) && t[i] == ':' && t[i+1] == ':' {
			i = skipSpace(t, i+2, len(t))
			if i < len(t) && t[i] == '<' {
				if a := angleEnd(t, i, len(t)); a > i {
					i = skipSpace(t, a, len(t))
					if i+1 < len(t) && t[i] == ':' && t[i+1] == ':' {
						i += 2
					} else {
						return b.String()
					}
				}
			}
			b.WriteString("::")
			continue
		}
		return b.String()
	}
}

// normType normalizes a type as written (see the grammar above), with the
// generic parameters of g replaced by their bounds.
func (f *fileState) normType(t string, g *genScope) string {
	return normType(t, g, 0)
}

func normType(t string, g *genScope, depth int) string {
	t = strings.TrimSpace(t)
	if depth > 6 || t == "" {
		return "_"
	}
	for {
		switch {
		case strings.HasPrefix(t, "&"):
			t = strings.TrimSpace(t[1:])
		case strings.HasPrefix(t, "'"):
			e := identEnd(t, 1, len(t))
			t = strings.TrimSpace(t[e:])
		case strings.HasPrefix(t, "mut ") || strings.HasPrefix(t, "mut\t") || strings.HasPrefix(t, "mut\n"):
			t = strings.TrimSpace(t[3:])
		case strings.HasPrefix(t, "*const ") || strings.HasPrefix(t, "*mut "):
			t = strings.TrimSpace(t[strings.IndexByte(t, ' '):])
		default:
			goto stripped
		}
	}
stripped:
	switch {
	case t == "":
		return "_"
	case t[0] == '(':
		e := closing(t, 0, len(t))
		inner := t[1:max(e-1, 1)]
		if parts := splitTop(inner, ','); len(parts) == 1 && !strings.HasSuffix(strings.TrimSpace(inner), ",") {
			return normType(parts[0], g, depth+1)
		}
		return "_"
	case t[0] == '[':
		e := closing(t, 0, len(t))
		parts := splitTop(t[1:max(e-1, 1)], ';')
		if len(parts) == 0 {
			return "_"
		}
		return "[" + normType(parts[0], g, depth+1) + "]"
	case strings.HasPrefix(t, "impl ") || strings.HasPrefix(t, "dyn "):
		word, rest, _ := strings.Cut(t, " ")
		if b := normBounds(rest); b != "" {
			return word + " " + b
		}
		return "_"
	case t[0] == '<' || t[0] == '!' || t[0] == '_' && (len(t) == 1 || !isIdentByte(t[1])):
		return "_"
	}
	// A path, with generic arguments on its last segment.
	var segs []string
	i := 0
	abs := strings.HasPrefix(t, "::")
	if abs {
		i = 2
	}
	var args string
	for {
		i = skipSpace(t, i, len(t))
		e := identEnd(t, i, len(t))
		if e == i {
			return "_"
		}
		segs = append(segs, unraw(t[i:e]))
		args = ""
		i = skipSpace(t, e, len(t))
		if i < len(t) && t[i] == '<' {
			a := angleEnd(t, i, len(t))
			if a == i {
				return "_"
			}
			args = t[i+1 : a-1]
			i = skipSpace(t, a, len(t))
		}
		if i+1 < len(t) && t[i] == ':' && t[i+1] == ':' {
			i = skipSpace(t, i+2, len(t))
			if i < len(t) && t[i] == '<' {
				a := angleEnd(t, i, len(t))
				if a == i {
					return "_"
				}
				args = t[i+1 : a-1]
				i = skipSpace(t, a, len(t))
				if i+1 < len(t) && t[i] == ':' && t[i+1] == ':' {
					i += 2
					continue
				}
				break
			}
			continue
		}
		break
	}
	if i < len(t) && t[i] == '(' { // Fn(A) -> B
		return "_"
	}
	if !abs && g != nil {
		if bounds, ok := g.param(segs[0]); ok {
			if len(segs) > 1 || bounds == "" {
				return "_"
			}
			return "impl " + bounds
		}
	}
	if segs[0] == "fn" || segs[0] == "unsafe" || segs[0] == "extern" {
		return "_"
	}
	out := joinPath(segs, abs)
	if args != "" {
		var as []string
		for _, a := range splitTop(args, ',') {
			if a[0] == '\'' || a[0] == '{' || a[0] >= '0' && a[0] <= '9' || a[0] == '-' {
				continue
			}
			if i := strings.IndexByte(a, '='); i >= 0 && (i+1 >= len(a) || a[i+1] != '=') {
				continue // Item = T
			}
			if i := topColon(a); i >= 0 {
				continue // Item: Bound
			}
			as = append(as, normType(a, g, depth+1))
		}
		if len(as) > 0 {
			out += "<" + strings.Join(as, ",") + ">"
		}
	}
	return out
}

// patternNames returns the names a pattern binds, each with its offset in
// p: lowercase identifiers that are not a path, a constructor, a field
// name before ':' or a keyword. An uppercase identifier is taken for a
// constant or a unit variant.
func patternNames(p string) (names []string, offs []int) {
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '"' || c == '\'' || c == 'b' && i+1 < len(p) && (p[i+1] == '"' || p[i+1] == '\''):
			if e := literalEnd(p, i, len(p)); e > i {
				i = e
				continue
			}
			if c == '\'' { // a lifetime
				i = identEnd(p, i+1, len(p))
				continue
			}
		case c >= '0' && c <= '9':
			for i < len(p) && (isIdentByte(p[i]) || p[i] == '.' && i+1 < len(p) && p[i+1] != '.') {
				i++
			}
			continue
		case isIdentStart(c):
			e := identEnd(p, i, len(p))
			name := unraw(p[i:e])
			q := skipSpace(p, e, len(p))
			before := i - 1
			for before >= 0 && (p[before] == ' ' || p[before] == '\t' || p[before] == '\n') {
				before--
			}
			path := before >= 1 && p[before] == ':' && p[before-1] == ':'
			next := byte(0)
			if q < len(p) {
				next = p[q]
			}
			switch {
			case path, next == '(', next == '{', next == '!', next == ':':
			case name == "ref" || name == "mut" || name == "box" || name == "_" || name == "true" || name == "false":
			case name[0] >= 'A' && name[0] <= 'Z':
			default:
				names = append(names, name)
				offs = append(offs, i)
			}
			i = e
			continue
		}
		i++
	}
	return names, offs
}

// closureNames returns the names closure parameters |a, b: T| bind,
// with their offsets.
func closureNames(params string) (names []string, offs []int) {
	s := strings.TrimSpace(params)
	base := strings.Index(params, s)
	if strings.HasPrefix(s, "||") {
		return nil, nil
	}
	s = strings.TrimPrefix(s, "|")
	s = strings.TrimSuffix(s, "|")
	off := base + 1
	depth := 0
	start := 0
	flush := func(part string, at int) {
		if i := topColon(part); i >= 0 {
			part = part[:i]
		}
		ns, os := patternNames(part)
		for k := range ns {
			names = append(names, ns[k])
			offs = append(offs, at+os[k])
		}
	}
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' && depth == 0 {
			flush(s[start:i], off+start)
			start = i + 1
			continue
		}
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		}
	}
	return names, offs
}

// simpleBinding returns the name a pattern binds when it is one name
// (`x`, `mut x`, `ref x`), and the name inside Some(x) or Ok(x) (unwrap
// true).
func simpleBinding(p string) (name string, unwrap bool) {
	p = strings.TrimSpace(p)
	for _, kw := range []string{"ref ", "mut "} {
		p = strings.TrimSpace(strings.TrimPrefix(p, kw))
	}
	if isIdent(p) && p != "_" && !(p[0] >= 'A' && p[0] <= 'Z') {
		return unraw(p), false
	}
	for _, w := range []string{"Some", "Ok"} {
		if rest, ok := strings.CutPrefix(p, w); ok {
			rest = strings.TrimSpace(rest)
			if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
				if n, u := simpleBinding(rest[1 : len(rest)-1]); n != "" && !u {
					return n, true
				}
			}
		}
	}
	return "", false
}

// useItem is one name a use tree imports.
type useItem struct {
	path  string // a::b::c, ::a::b, a::b::*
	alias string // the name after as, if any
	off   int    // offset of the item's last segment in the tree
}

// useTree flattens a use tree, `a::{b, c::{self, d as e}, f::*}`.
func useTree(s string) []useItem {
	var out []useItem
	useSub(s, 0, len(s), "", &out)
	return out
}

// useSub reads the tree in s[p:end] under prefix.
func useSub(s string, p, end int, prefix string, out *[]useItem) {
	path := prefix
	last := p
	p = skipSpace(s, p, end)
	if p+1 < end && s[p] == ':' && s[p+1] == ':' {
		if path == "" {
			path = "::"
		}
		p += 2
	}
	for {
		p = skipSpace(s, p, end)
		if p >= end {
			break
		}
		switch {
		case s[p] == '{':
			e := closing(s, p, end)
			inner := p + 1
			depth := 0
			start := inner
			for i := inner; i < e-1; i++ {
				switch s[i] {
				case '{':
					depth++
				case '}':
					depth--
				case ',':
					if depth == 0 {
						useSub(s, start, i, path, out)
						start = i + 1
					}
				}
			}
			useSub(s, start, e-1, path, out)
			return
		case s[p] == '*':
			*out = append(*out, useItem{path: join(path, "*"), off: p})
			return
		case isIdentStart(s[p]):
			e := identEnd(s, p, end)
			last = p
			path = join(path, unraw(s[p:e]))
			p = skipSpace(s, e, end)
			if p+1 < end && s[p] == ':' && s[p+1] == ':' {
				p += 2
				continue
			}
			it := useItem{path: selfPath(path, prefix), off: last}
			if e := identEnd(s, p, end); e-p == 2 && s[p:e] == "as" {
				a := skipSpace(s, e, end)
				it.alias = s[a:identEnd(s, a, end)]
			}
			if it.path != "" {
				*out = append(*out, it)
			}
			return
		default:
			return
		}
	}
}

// selfPath turns a::b::self into a::b.
func selfPath(path, prefix string) string {
	if p, ok := strings.CutSuffix(path, "::self"); ok && prefix != "" {
		return p
	}
	return path
}

func join(prefix, seg string) string {
	switch prefix {
	case "":
		return seg
	case "::":
		return "::" + seg
	}
	return prefix + "::" + seg
}
