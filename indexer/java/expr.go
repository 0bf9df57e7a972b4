package java

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
)

// Expr, the normalized form of a Java reference, as this package writes
// it in refs and reads it back in Resolve.
//
// calls (Src the method, constructor, field, enum constant or class whose
// code makes the call; Expr the callee with its arguments):
//
//	expr  = [ "<" type "=" qname ">" ] { "[" type "]" } head { step } | "?" reason
//	step  = "." name | "(" [ arg { "," arg } ] ")" | "[]" | ".super" | "->" n "." n | "=>" n
//	arg   = expr | "{" primitive "}" | "?null" | "?fn" | "?"
//	head  = name         a name no local variable or parameter binds: a
//	                     field, a type or a package, by Java's rules for
//	                     ambiguous names; name "(" n ")" is an unqualified
//	                     method call
//	      | "this"       the instance of the enclosing class
//	      | "super"      the same, seen as its superclass
//	      | "{" type "}" a value of that type: a local or parameter of a
//	                     declared type, a cast, new T(...), a string
//	                     literal ({java.lang.String}), a class literal
//	                     ({java.lang.Class}), Outer.this ({Outer})
//	type  = name { "." name } [ targs ] { "[]" }   as written, with
//	                     annotations dropped; a type variable in scope is
//	                     replaced by its first bound
//	targs = "<" targ { "," targ } ">"   the type arguments of the last
//	                     name, kept where they tell a member's type (see
//	                     typeArgs): a local's, a parameter's, a cast's,
//	                     a creation's, a fact's, a supertype's
//	targ  = type | "?" | "+" type | "-" type | "^" name
//	                     a wildcard (or a type not known there), ?
//	                     extends T, ? super T, a type variable of the
//	                     class (in facts and supertypes only)
//
// "(" args ")" is a call; an argument is the Expr of its value, the type
// of a literal or of an operation the operands tell ({int}, {long},
// {char}, {boolean}, {java.lang.String} for a concatenation with a
// string), {java.lang.Object} for a variable of a type variable with no
// bound ({java.lang.Object[]} for an array of one), ?null for null, ?fn for a lambda or a method reference, or ?
// when its type is not known here (an expression the Expr cannot follow,
// one longer than maxArgExpr).
// Overloads are told apart by them. "[]" is an array access, {T}.super
// is T.super (the interface T's own methods, or those of the superclass
// of the enclosing class T). A conditional c ? a : b is the Expr both a
// and b have (null left out); as an argument, the type both have ({int}
// for c ? 1 : 0). A JDK constant of jdkFields (Long.MAX_VALUE) is a
// value of its type. this(args) and super(args) are explicit
// constructor calls; an enum constant calls its enum's constructor as
// this(args). A constructor of a class that calls no other calls
// super() implicitly (a ref at its body's brace), and so does a class
// that declares no constructor (from the class, at its class keyword).
// An anonymous class is a class node (see anonClass), but in the body of
// an enum constant: "[T]" prefixes say that the code sits in such a body,
// of supertype T (innermost first): unqualified names are looked up in
// T's members before the enclosing classes'. A
// "<T=q>" prefix makes the Expr hold only where the type name T resolves
// to q, outside the snapshot: a parameter of a lambda that initializes a
// variable of a JDK functional interface type (Function<Item, String> f
// = i -> ...) is its type argument ({Item}) so guarded. A
// local is replaced by its declared type or, for var, by the Expr of its
// initializer (a for-each var by that of the collection, followed by
// "[]"). An inferred parameter of a lambda passed to a method is the
// call followed by "->j.k": parameter k of the lambda that is argument j
// (items.forEach(i -> ...) binds i to {java.util.List<Item>}.forEach(?fn)->0.0);
// one of a lambda assigned to a variable (f = i -> ..., or a conditional
// of which it is a branch) is the variable followed by "=>k": parameter k
// of a lambda of its type.
// The reasons:
//
//	?local     a local whose type we do not know (an inferred lambda
//	           parameter, a multi-catch parameter), called
//	?receiver  a member of such a local
//	?typevar   a value of a type variable with no bound
//	?anonymous a member declared in an enum constant's body, called or
//	           read in the body (the body is no class node)
//	?literal   a literal other than a string
//	?expr      any other expression (a lambda, a conditional whose branches
//	           differ, a qualified creation outer.new Inner())
//
// instantiates (new T(...), with or without an anonymous class body):
//
//	"new " type "(" [ arg { "," arg } ] ")"
//
// references: a method reference, expr "::" name (name "new" for a
// constructor reference, expr as for calls); an annotation, "@" type.
//
// imports, one ref per import declaration, Src the file, Target as
// written:
//
//	a.b.C             single-type import
//	a.b.*             on-demand import of a package (or of a type's members)
//	static a.b.C.m    single static import (a field, methods, a member type)
//	static a.b.C.*    static on-demand import
//
// Facts: package (Src the file; Target and Expr the package name),
// extends and implements (Src a type; Expr the supertype, a type as
// above), type (Src a field, constant or record component) and result
// (Src a method: its return type; none for void): "{"
// type "}", ?typevar for a type variable, or ?typevar^T for the class's
// own type variable T, ?typevar^T{B} when it is bounded by B (B holds
// only for code that reaches the member through the this of the class
// declaring it: a subclass or a parameterized type may bind the variable
// to another type, which the resolver substitutes, see generic.go). params (Src a method or constructor: its parameter types,
// erased, comma-separated, with "..." after the last one when it is
// variable-arity, and a leading ^ on a type variable of a class, whose
// erasure is not what a parameterized type binds it to; Target the name;
// for a record, its components' types, the canonical constructor's).

const (
	exprReceiver  = "?receiver"
	exprTypeVar   = "?typevar"
	exprAnonymous = "?anonymous"
)

var primitives = map[string]bool{
	"boolean": true, "byte": true, "char": true, "short": true, "int": true, "long": true,
	"float": true, "double": true, "void": true,
}

// isTypeExpr reports whether e is "{T}".
func isTypeExpr(e string) bool { return len(e) > 2 && e[0] == '{' && e[len(e)-1] == '}' }

// typeName normalizes a type as written: annotations, type arguments,
// comments and blanks are dropped, and varargs become an array. It
// returns "" for what is not a type (an intersection A & B, a wildcard).
func typeName(t string) string {
	var b strings.Builder
	depth := 0
	for p := 0; p < len(t); {
		c := t[p]
		switch {
		case c == '/' && p+1 < len(t) && (t[p+1] == '/' || t[p+1] == '*'):
			p = skipSpace(t, p)
		case c == '@' && depth == 0:
			p = skipAnnotation(t, p)
		case c == '<':
			depth++
			p++
		case c == '>':
			depth--
			p++
		case depth > 0:
			p++
		case c == '.' && strings.HasPrefix(t[p:], "..."):
			b.WriteString("[]")
			p += 3
		case isIdentByte(c) || c == '.' || c == '[' || c == ']':
			b.WriteByte(c)
			p++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			p++
		default:
			return ""
		}
	}
	n := b.String()
	if base := strings.TrimRight(n, "[]"); base == "" || base[0] == '.' || base[len(base)-1] == '.' || strings.Contains(base, "[") {
		return ""
	}
	return n
}

// splitDims splits "T[][]" into "T" and 2.
func splitDims(n string) (string, int) {
	base := strings.TrimRight(n, "[]")
	return base, (len(n) - len(base)) / 2
}

// typeVar returns the type parameter name denotes at p, or nil.
func (f *fileState) typeVar(name string, p uint32) *tvar {
	var best *tvar
	for i := range f.tvars {
		tv := &f.tvars[i]
		if tv.name == name && tv.scope.Start <= p && p < tv.scope.End && (best == nil || tv.scope.Start >= best.scope.Start) {
			best = tv
		}
	}
	return best
}

func (f *fileState) typeExpr(s span) string { return f.typeExprText(f.Text(s), s.Start) }

// typeExprText returns the Expr of the type t written at p: "{T}",
// ?typevar, or "" for var and what is not a type.
func (f *fileState) typeExprText(t string, p uint32) string {
	return f.typeExprDepth(t, p, 0)
}

func (f *fileState) typeExprDepth(t string, p uint32, depth int) string {
	n := typeName(t)
	if n == "" || n == "var" {
		return ""
	}
	base, dims := splitDims(n)
	if len(f.tvars) > 0 && !strings.Contains(base, ".") {
		if tv := f.typeVar(base, p); tv != nil {
			if tv.bound == (span{}) || depth > 4 {
				return exprTypeVar
			}
			b := f.typeExprDepth(f.Text(tv.bound), tv.bound.Start, depth+1)
			if !isTypeExpr(b) {
				return exprTypeVar
			}
			return b[:len(b)-1] + strings.Repeat("[]", dims) + "}"
		}
	}
	return "{" + n + "}"
}

// genericExpr is typeExpr with the type arguments written at s kept
// (see typeArgs): the type of a local, a parameter, a cast or a creation.
func (f *fileState) genericExpr(s span) string {
	return f.withArgs(f.typeExpr(s), f.Text(s), s.Start, false)
}

// withArgs inserts into the Expr e of the type t written at p the type
// arguments of t: "{java.util.List<Item>[]}".
func (f *fileState) withArgs(e, t string, p uint32, fact bool) string {
	if !isTypeExpr(e) {
		return e
	}
	a := f.typeArgs(t, p, fact, 0)
	if a == "" {
		return e
	}
	base, dims := splitDims(e[1 : len(e)-1])
	return "{" + base + a + strings.Repeat("[]", dims) + "}"
}

// maxTypeArgs bounds the nesting of type arguments written.
const maxTypeArgs = 4

// typeArgs returns the type arguments of the type t written at p, as
// "<" arg { "," arg } ">", or "" when it has none (a raw type, the
// diamond <>), or when they belong to an outer part (Outer<A>.Inner).
// An argument is a type with its own arguments, "?" for an unbounded
// wildcard or one not written here, "+T" for ? extends T and "-T" for ?
// super T. A type variable in scope is replaced by its first bound
// ("?" without one); in a fact (a member's declared type), a type
// variable of the class is "^T" instead, for the resolver to substitute.
func (f *fileState) typeArgs(t string, p uint32, fact bool, depth int) string {
	lt, gt := -1, -1
	nest := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '<':
			if nest == 0 {
				if lt >= 0 {
					return "" // Outer<A>.Inner<B>
				}
				lt = i
			}
			nest++
		case '>':
			if nest--; nest == 0 {
				gt = i
			}
		case '@':
			if nest == 0 {
				i = skipAnnotation(t, i) - 1
			}
		}
	}
	if lt < 0 || gt < lt || depth > maxTypeArgs || strings.TrimLeft(strings.TrimSpace(t[gt+1:]), "[]. \t") != "" {
		return ""
	}
	inner := strings.TrimSpace(t[lt+1 : gt])
	if inner == "" {
		return ""
	}
	var b strings.Builder
	b.WriteByte('<')
	for i, a := range splitTypeArgs(inner) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.typeArg(a, p, fact, depth))
	}
	b.WriteByte('>')
	return b.String()
}

// typeArg returns one type argument of typeArgs.
func (f *fileState) typeArg(a string, p uint32, fact bool, depth int) string {
	a = strings.TrimSpace(a)
	for strings.HasPrefix(a, "@") {
		a = strings.TrimSpace(a[skipAnnotation(a, 0):])
	}
	if rest, ok := strings.CutPrefix(a, "?"); ok {
		rest = strings.TrimSpace(rest)
		var sign string
		switch {
		case strings.HasPrefix(rest, "extends") && !isIdentByte(at(rest, len("extends"))):
			sign, rest = "+", rest[len("extends"):]
		case strings.HasPrefix(rest, "super") && !isIdentByte(at(rest, len("super"))):
			sign, rest = "-", rest[len("super"):]
		default:
			return "?"
		}
		if e := f.typeArg(rest, p, fact, depth+1); e != "?" {
			return sign + e
		}
		return "?"
	}
	n := typeName(a)
	base, dims := splitDims(n)
	if n == "" || primitives[base] && dims == 0 {
		return "?"
	}
	if tv := f.typeVar(base, p); tv != nil && !strings.Contains(base, ".") {
		switch {
		case fact && tv.class && dims == 0:
			return "^" + base
		case fact || dims > 0 || tv.bound == (span{}) || depth > maxTypeArgs:
			return "?"
		}
		return f.typeArg(f.Text(tv.bound), tv.bound.Start, false, depth+1)
	}
	return base + f.typeArgs(a, p, fact, depth+1) + strings.Repeat("[]", dims)
}

// at returns s[i], or 0 past its end.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// factExpr returns the Expr of the type at s (plus dims dimensions) in a
// type or result fact, or "" for void and var. Other files
// read facts, where a type variable may stand for another type (a
// subclass's type argument, an inferred one): it stays ?typevar, with the
// bound of a class's type variable, which holds for code reaching the
// member through this: ?typevar{B}.
func (f *fileState) factExpr(s span, dims int) string {
	n := typeName(f.Text(s))
	base, d := splitDims(n)
	d += dims
	if n == "" || n == "var" || base == "void" && d == 0 {
		return ""
	}
	if !strings.Contains(base, ".") {
		if tv := f.typeVar(base, s.Start); tv != nil {
			if !tv.class || d > 0 {
				return exprTypeVar
			}
			if b := f.typeExpr(tv.bound); tv.bound != (span{}) && isTypeExpr(b) {
				return exprTypeVar + "^" + base + b
			}
			return exprTypeVar + "^" + base
		}
	}
	return f.withArgs("{"+n+strings.Repeat("[]", dims)+"}", f.Text(s), s.Start, true)
}

// paramType returns the erasure of a parameter's type t written at p,
// marked with a leading ^ when it is a type variable of a class: a value
// of a parameterized type binds it to another type than its bound.
func (f *fileState) paramType(t string, p uint32) string {
	e := f.erasedText(t, p)
	base, _ := splitDims(typeName(t))
	if tv := f.typeVar(base, p); tv != nil && tv.class && !strings.Contains(base, ".") {
		return "^" + e
	}
	return e
}

// erasedText returns the erasure of the type t written at p, as a name:
// a type variable becomes its first bound, or Object.
func (f *fileState) erasedText(t string, p uint32) string {
	n := typeName(t)
	base, dims := splitDims(n)
	e := f.typeExprText(base, p)
	switch {
	case isTypeExpr(e):
		return e[1:len(e)-1] + strings.Repeat("[]", dims)
	case e == exprTypeVar:
		return "Object" + strings.Repeat("[]", dims)
	}
	return n
}

// Members an anonymous class declares.
const (
	memberMethod uint8 = 1 << iota
	memberField
)

// anonType returns the supertype of an anonymous class as a type name.
func (f *fileState) anonType(a *frame) string {
	if a.enumName != "" {
		return a.enumName
	}
	e := f.typeExpr(a.typ)
	if !isTypeExpr(e) {
		return ""
	}
	return e[1 : len(e)-1]
}

// receiverReason is the Expr of a member of a value whose Expr is the
// reason r.
func receiverReason(r string) string {
	switch r {
	case indexer.ExprLocal:
		return exprReceiver
	case "":
		return indexer.ExprExpr
	}
	return r
}

// invokeExpr returns the Expr of the method invocation it.
func (f *fileState) invokeExpr(it *item, c ectx, depth int) string {
	name := f.Text(it.Role[indexer.RoleName])
	call := name + "(" + f.argList(it.Role[indexer.RoleArgs], c, depth) + ")"
	if !it.HasRole(indexer.RoleObject) {
		if c.opaque {
			return exprAnonymous
		}
		prefix := ""
		for _, a := range c.anon {
			if a.members[name]&memberMethod != 0 {
				return exprAnonymous
			}
			t := f.anonType(a)
			if t == "" {
				return exprAnonymous
			}
			prefix += "[" + t + "]"
		}
		return prefix + call
	}
	obj := it.Role[indexer.RoleObject]
	if strings.Contains(f.Str[obj.End:it.Role[indexer.RoleName].Start], "super") { // T.super.m(): T an interface, or an outer class
		if e := f.typeExpr(obj); isTypeExpr(e) {
			return e + ".super." + call
		}
		return indexer.ExprExpr
	}
	switch ot := strings.TrimSpace(f.Text(obj)); ot {
	case "this", "super":
		if c.opaque {
			return exprAnonymous
		}
		if len(c.anon) > 0 {
			a := c.anon[0]
			t := f.anonType(a)
			if t == "" || ot == "this" && a.members[name]&memberMethod != 0 {
				return exprAnonymous
			}
			return "{" + t + "}." + call
		}
		return ot + "." + call
	}
	recv := f.expr(obj, c, depth+1)
	if isReason(recv) {
		return receiverReason(recv)
	}
	return recv + "." + call
}

// newExpr returns the Expr of the instance creation it.
func (f *fileState) newExpr(it *item, c ectx, depth int) string {
	if !strings.HasPrefix(f.Text(it.Span), "new") {
		return indexer.ExprExpr // outer.new Inner()
	}
	e := f.typeExpr(it.Role[indexer.RoleType])
	if !isTypeExpr(e) {
		return indexer.ExprExpr
	}
	return "new " + e[1:len(e)-1] + "(" + f.argList(it.Role[indexer.RoleArgs], c, depth) + ")"
}

// mrefExpr returns the Expr of the method reference it.
func (f *fileState) mrefExpr(it *item, c ectx) string {
	t := f.Text(it.Span)
	i := strings.LastIndex(t, "::")
	if i < 0 || !it.HasRole(indexer.RoleObject) {
		return indexer.ExprExpr
	}
	name := strings.TrimSpace(t[i+2:])
	if strings.HasPrefix(name, "<") { // Type::<T>m
		if j := strings.LastIndexByte(name, '>'); j >= 0 {
			name = strings.TrimSpace(name[j+1:])
		}
	}
	if !srctext.IsIdent(name, "$") {
		return indexer.ExprExpr
	}
	obj := it.Role[indexer.RoleObject]
	ot := strings.TrimSpace(f.Text(obj))
	switch {
	case ot == "this" || ot == "super":
		if c.opaque {
			return exprAnonymous
		}
		if len(c.anon) > 0 {
			a := c.anon[0]
			at := f.anonType(a)
			if at == "" || ot == "this" && a.members[name]&memberMethod != 0 {
				return exprAnonymous
			}
			return "{" + at + "}::" + name
		}
		return ot + "::" + name
	case strings.ContainsAny(ot, "["):
		return indexer.ExprExpr // int[]::clone, String[]::new
	case strings.ContainsAny(ot, "<@"):
		e := f.typeExprText(ot, obj.Start)
		if !isTypeExpr(e) {
			return indexer.ExprExpr
		}
		return e + "::" + name
	}
	recv := f.expr(obj, c, 0)
	if isReason(recv) {
		return receiverReason(recv)
	}
	return recv + "::" + name
}

// expr returns the Expr of the expression at s, a receiver or a value.
func (f *fileState) expr(s span, c ectx, depth int) string {
	if depth > indexer.MaxExprDepth {
		return indexer.ExprExpr
	}
	if it := indexer.ItemAt(f.Items, f.exprs, s); it != nil {
		switch it.Kind {
		case kInvoke:
			return f.invokeExpr(it, c, depth)
		case kNew:
			if !strings.HasPrefix(f.Text(it.Span), "new") {
				return indexer.ExprExpr // outer.new Inner()
			}
			if e := f.genericExpr(it.Role[indexer.RoleType]); isTypeExpr(e) {
				return e
			}
			return indexer.ExprExpr
		case kField:
			return f.fieldExpr(it, c, depth)
		case kCast:
			if strings.Contains(f.Text(it.Role[indexer.RoleType]), "&") {
				return indexer.ExprExpr
			}
			if e := f.genericExpr(it.Role[indexer.RoleType]); isTypeExpr(e) || e == exprTypeVar {
				return e
			}
			return indexer.ExprExpr
		case kParen:
			return f.expr(it.Role[indexer.RoleValue], c, depth+1)
		case kTernary: // the one value both branches agree on; null gives way
			a, b := f.expr(it.Role[indexer.RoleValue], c, depth+1), f.expr(it.Role[indexer.RoleBody], c, depth+1)
			switch {
			case a == b:
				return a
			case a == indexer.ExprLiteral && f.Text(it.Role[indexer.RoleValue]) == "null" && !isReason(b):
				return b
			case b == indexer.ExprLiteral && f.Text(it.Role[indexer.RoleBody]) == "null" && !isReason(a):
				return a
			}
			return indexer.ExprExpr
		case kIndex:
			recv := f.expr(it.Role[indexer.RoleValue], c, depth+1)
			if isReason(recv) {
				return receiverReason(recv)
			}
			return recv + "[]"
		}
		return indexer.ExprExpr
	}
	t := strings.TrimSpace(f.Text(s))
	switch {
	case t == "this" || t == "super":
		if c.opaque {
			return exprAnonymous
		}
		if len(c.anon) > 0 {
			if at := f.anonType(c.anon[0]); at != "" {
				return "{" + at + "}"
			}
			return exprAnonymous
		}
		return t
	case t == "null" || t == "true" || t == "false":
		return indexer.ExprLiteral
	case srctext.IsIdent(t, "$"):
		return f.nameExpr(t, s.Start, c, depth)
	case t == "":
		return indexer.ExprExpr
	case t[0] == '"':
		return "{java.lang.String}"
	case t[0] == '\'' || t[0] >= '0' && t[0] <= '9' || t[0] == '.':
		return indexer.ExprLiteral
	case strings.HasSuffix(t, ".class") && typeName(t) == t:
		return "{java.lang.Class}"
	}
	return indexer.ExprExpr
}

// fieldExpr returns the Expr of the field access it.
func (f *fileState) fieldExpr(it *item, c ectx, depth int) string {
	name := strings.TrimSpace(f.Text(it.Role[indexer.RoleName]))
	obj := it.Role[indexer.RoleObject]
	ot := strings.TrimSpace(f.Text(obj))
	if name == "this" { // Outer.this
		if e := f.typeExprText(ot, obj.Start); isTypeExpr(e) {
			return e
		}
		return indexer.ExprExpr
	}
	if name == "class" {
		return "{java.lang.Class}"
	}
	if ot == "this" || ot == "super" {
		if c.opaque {
			return exprAnonymous
		}
		if len(c.anon) > 0 {
			a := c.anon[0]
			if ot == "this" && a.members[name]&memberField != 0 {
				return f.nameExpr(name, it.Role[indexer.RoleName].Start, c, depth)
			}
			at := f.anonType(a)
			if at == "" {
				return exprAnonymous
			}
			return "{" + at + "}." + name
		}
		return ot + "." + name
	}
	recv := f.expr(obj, c, depth+1)
	if isReason(recv) {
		return receiverReason(recv)
	}
	return recv + "." + name
}

// nameExpr returns the Expr of a simple name used as a value at p.
func (f *fileState) nameExpr(name string, p uint32, c ectx, depth int) string {
	if b := f.lookup(name, p); b != nil {
		return f.value(b, depth)
	}
	if c.opaque {
		return exprAnonymous
	}
	prefix := ""
	for _, a := range c.anon {
		t := f.anonType(a)
		if t == "" || a.members[name]&memberField != 0 {
			return exprAnonymous
		}
		prefix += "[" + t + "]"
	}
	return prefix + name
}

// lookup returns the local variable or parameter name denotes at p.
func (f *fileState) lookup(name string, p uint32) *binding {
	var best *binding
next:
	for _, b := range f.binds[name] {
		if b.decl > p || p < b.start || p >= b.end || best != nil && b.start < best.start {
			continue
		}
		for _, h := range b.holes {
			if h.Start <= p && p < h.End {
				continue next
			}
		}
		best = b
	}
	return best
}

// value returns the Expr a binding stands for.
func (f *fileState) value(b *binding, depth int) string {
	return indexer.LocalExpr(&b.expr, func() string {
		e := f.expr(b.value, b.ctx, depth+1)
		switch {
		case !isReason(e):
			return e + b.suffix
		case e == exprReceiver || e == indexer.ExprExpr || e == indexer.ExprLiteral:
			return indexer.ExprLocal
		}
		return e
	})
}

// maxArgExpr bounds the length of an argument's Expr: a longer one is
// written as unknown.
const maxArgExpr = 256

// argList returns the Exprs of the arguments of the list at s, comma
// separated (see argExpr).
func (f *fileState) argList(s span, c ectx, depth int) string {
	args := f.args[s.Start]
	if len(args) == 0 {
		return ""
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.argExpr(a, c, depth+1))
	}
	return b.String()
}

// argExpr returns the Expr of an argument: what expr gives, the type of
// a literal ({int}, {long}, {char}, ...) or of an operation whose type
// the operands tell, ?null for null, ?fn for a lambda or a method
// reference, and ? for what has no type here.
func (f *fileState) argExpr(s span, c ectx, depth int) string {
	if depth > indexer.MaxExprDepth {
		return "?"
	}
	e := "?"
	if it := indexer.ItemAt(f.Items, f.exprs, s); it != nil {
		switch it.Kind {
		case kBinary:
			e = f.binaryExpr(it, c, depth)
		case kUnary:
			e = f.unaryExpr(it, c, depth)
		case kNewArray:
			e = f.newArrayExpr(it)
		case kLambda, kMref:
			e = exprFunction
		case kParen:
			e = f.argExpr(it.Role[indexer.RoleValue], c, depth+1)
		case kTernary: // the type both branches have
			if a := f.argExpr(it.Role[indexer.RoleValue], c, depth+1); a != "?" && a != exprNull && a == f.argExpr(it.Role[indexer.RoleBody], c, depth+1) {
				e = a
			} else {
				e = f.expr(s, c, depth)
			}
		default:
			e = f.expr(s, c, depth)
		}
	} else {
		t := strings.TrimSpace(f.Text(s))
		if lt := literalType(t); lt != "" {
			e = lt
		} else {
			e = f.expr(s, c, depth)
		}
	}
	if e == exprTypeVar { // a variable of a type variable with no bound: an Object as an argument
		if t := strings.TrimSpace(f.Text(s)); srctext.IsIdent(t, "$") {
			if b := f.lookup(t, s.Start); b != nil && b.object > 0 {
				e = "{java.lang.Object" + strings.Repeat("[]", b.object-1) + "}"
			}
		}
	}
	if isReason(e) && e != exprNull && e != exprFunction || len(e) > maxArgExpr {
		return "?"
	}
	return e
}

// Arguments of no type of their own: null, which any reference type
// takes, and a lambda or method reference, which only a functional
// interface takes.
const (
	exprNull     = "?null"
	exprFunction = "?fn"
)

// literalType returns the Expr of the type of literal t, or "".
func literalType(t string) string {
	switch {
	case t == "":
		return ""
	case t == "null":
		return exprNull
	case t == "true" || t == "false":
		return "{boolean}"
	case t[0] == '\'':
		return "{char}"
	case t[0] == '"':
		return "{java.lang.String}"
	case t[0] >= '0' && t[0] <= '9' || t[0] == '.' && len(t) > 1 && t[1] >= '0' && t[1] <= '9':
	default:
		return ""
	}
	last := t[len(t)-1] | 0x20                                               // lower case
	if len(t) > 2 && t[0] == '0' && (t[1]|0x20 == 'x' || t[1]|0x20 == 'b') { // hex or binary
		switch {
		case last == 'l':
			return "{long}"
		case strings.ContainsAny(t, "pP"): // a hexadecimal floating-point literal
			if last == 'f' {
				return "{float}"
			}
			return "{double}"
		}
		return "{int}"
	}
	switch {
	case last == 'l':
		return "{long}"
	case last == 'f':
		return "{float}"
	case last == 'd' || strings.ContainsAny(t, ".eE"):
		return "{double}"
	}
	return "{int}"
}

// numeric ranks the numeric primitive types by widening; 0 for others.
var numeric = map[string]int{
	"{byte}": 1, "{short}": 2, "{char}": 2, "{int}": 3, "{long}": 4, "{float}": 5, "{double}": 6,
}

// promoted returns the type of an arithmetic operation on numeric
// operands of types a and b (binary numeric promotion, JLS 5.6), or "".
func promoted(a, b string) string {
	ra, rb := numeric[a], numeric[b]
	switch {
	case ra == 0 || rb == 0:
		return ""
	case max(ra, rb) <= 3:
		return "{int}"
	case ra >= rb:
		return a
	}
	return b
}

// binaryExpr returns the Expr of the type of a binary operation: boolean
// for comparisons and logical operators, String for a concatenation with
// a String operand, the promoted type of numeric operands.
func (f *fileState) binaryExpr(it *item, c ectx, depth int) string {
	l, r := it.Role[indexer.RoleValue], it.Role[indexer.RoleBody]
	op := strings.TrimSpace(f.Str[l.End:r.Start])
	switch op {
	case "==", "!=", "<", ">", "<=", ">=", "&&", "||":
		return "{boolean}"
	}
	a, b := f.argExpr(l, c, depth+1), f.argExpr(r, c, depth+1)
	switch op {
	case "+":
		if a == "{java.lang.String}" || b == "{java.lang.String}" {
			return "{java.lang.String}"
		}
	case "<<", ">>", ">>>":
		if numeric[a] > 0 && numeric[b] > 0 {
			return promoted(a, "{int}")
		}
		return "?"
	case "&", "|", "^":
		if a == "{boolean}" && b == "{boolean}" {
			return a
		}
	}
	if p := promoted(a, b); p != "" {
		return p
	}
	return "?"
}

// unaryExpr returns the Expr of the type of a unary operation.
func (f *fileState) unaryExpr(it *item, c ectx, depth int) string {
	v := it.Role[indexer.RoleValue]
	op := strings.TrimSpace(f.Str[it.Start:v.Start])
	a := f.argExpr(v, c, depth+1)
	switch op {
	case "!":
		return "{boolean}"
	case "+", "-", "~":
		if p := promoted(a, "{int}"); p != "" {
			return p
		}
	}
	return "?"
}

// newArrayExpr returns the Expr of the type of an array creation.
func (f *fileState) newArrayExpr(it *item) string {
	e := f.typeExpr(it.Role[indexer.RoleType])
	if !isTypeExpr(e) {
		return "?"
	}
	t := f.Str[it.Role[indexer.RoleType].End:it.End]
	if i := strings.IndexByte(t, '{'); i >= 0 {
		t = t[:i]
	}
	dims, depth := 0, 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '[':
			if depth == 0 {
				dims++
			}
			depth++
		case ']':
			depth--
		}
	}
	return e[:len(e)-1] + strings.Repeat("[]", dims) + "}"
}

// functionalParams gives, for the JDK's generic functional interfaces,
// their qualified name, their number of type parameters and which of them
// types each parameter of their method.
var functionalParams = map[string]struct {
	name   string
	n      int
	params []int
}{
	"Function":           {"java.util.function.Function", 2, []int{0}},
	"BiFunction":         {"java.util.function.BiFunction", 3, []int{0, 1}},
	"Consumer":           {"java.util.function.Consumer", 1, []int{0}},
	"BiConsumer":         {"java.util.function.BiConsumer", 2, []int{0, 1}},
	"Predicate":          {"java.util.function.Predicate", 1, []int{0}},
	"BiPredicate":        {"java.util.function.BiPredicate", 2, []int{0, 1}},
	"UnaryOperator":      {"java.util.function.UnaryOperator", 1, []int{0}},
	"BinaryOperator":     {"java.util.function.BinaryOperator", 1, []int{0, 0}},
	"ToIntFunction":      {"java.util.function.ToIntFunction", 1, []int{0}},
	"ToLongFunction":     {"java.util.function.ToLongFunction", 1, []int{0}},
	"ToDoubleFunction":   {"java.util.function.ToDoubleFunction", 1, []int{0}},
	"ToIntBiFunction":    {"java.util.function.ToIntBiFunction", 2, []int{0, 1}},
	"ToLongBiFunction":   {"java.util.function.ToLongBiFunction", 2, []int{0, 1}},
	"ToDoubleBiFunction": {"java.util.function.ToDoubleBiFunction", 2, []int{0, 1}},
	"Comparator":         {"java.util.Comparator", 1, []int{0, 0}},
}

// lambdaParamExpr returns the Expr of parameter i of a lambda that
// initializes a variable of the type written at typ: when the type is one
// of functionalParams with type arguments, the type argument that types
// the parameter, guarded by what the type's name must resolve to.
func (f *fileState) lambdaParamExpr(typ span, i int) string {
	t := strings.TrimSpace(f.Text(typ))
	lt := strings.IndexByte(t, '<')
	if lt < 0 || !strings.HasSuffix(t, ">") {
		return indexer.ExprLocal
	}
	name := typeName(t[:lt])
	fp, ok := functionalParams[name[strings.LastIndexByte(name, '.')+1:]]
	if !ok || i >= len(fp.params) {
		return indexer.ExprLocal
	}
	args := splitTypeArgs(t[lt+1 : len(t)-1])
	if len(args) != fp.n {
		return indexer.ExprLocal
	}
	a := strings.TrimSpace(args[fp.params[i]])
	for _, w := range []string{"? super ", "? extends "} {
		a = strings.TrimPrefix(a, w)
	}
	e := f.typeExprText(a, typ.Start)
	if !isTypeExpr(e) || primitives[e[1:len(e)-1]] {
		return indexer.ExprLocal
	}
	return "<" + name + "=" + fp.name + ">" + e
}

// splitTypeArgs splits type arguments at their top-level commas.
func splitTypeArgs(s string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// isReason reports whether e is a reason rather than an expression.
func isReason(e string) bool { return e == "" || e[0] == '?' }
