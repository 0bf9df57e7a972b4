package swift

import (
	"regexp"
	"strings"

	"github.com/graphsnap/snap/indexer"
)

// Expr, the normalized form of a Swift reference, as this package writes
// it in refs and reads it back in Resolve.
//
// calls (Src the function, initializer, property or type whose code makes
// the call, or the file; Args the arguments as written):
//
//	expr  = head { step } | "?" reason
//	step  = "." name | "(" [ arg { "," arg } ] ")"
//	arg   = label ":" value  one per argument: its label, "_" for none,
//	                         "*" for a trailing closure
//	value = expr | "{" type "}"   x as T, x a name or a literal
//	      | "?int" | "?float" | "?string" | "?bool" | "?nil"   literals
//	      | "?fn"            a closure
//	      | "?"              not known (or longer than maxArgExpr)
//	head  = name             a name no local, parameter or pattern
//	                         variable binds: a member of the enclosing
//	                         types (implicit self), a type, a function
//	      | "self" | "super"
//	      | "{" type "}"     a value of that type: a local or parameter of
//	                         declared type
//
// A call's Expr ends in its arguments: add(_:{String},qty:?int) for
// add(x, qty: 2), x a String parameter; see convert.go for how they
// choose among overloads. A
// local without a declared type is replaced by the Expr of its
// initializer. try, await and the postfix ! and ? are looked through.
// type is as written, generic arguments and optional marks dropped.
// Reasons: ?local (a closure parameter, a pattern variable, if let and
// guard let, a local function), ?literal, ?expr (any other expression:
// implicit member expressions .init() and .member(), subscripts).
//
// references (Src the innermost declaration, or the file): a user type as
// written, generic arguments dropped, wherever one is (a declared type, a
// parameter's or result's, a generic argument or constraint, as, as?,
// as!, is, a pattern's or caught type); "@" T for an attribute, an edge
// only to a type of the snapshot. Supertypes and the type an extension
// extends have their own refs; a generic parameter in scope makes none,
// and a primitive of the standard library (Int, String, Bool, ...) no
// edge.
//
// Facts: package (Src the file: Target and Expr its module, the target T
// of a Sources/T/ or Tests/T/ folder; none for the tree's one module);
// type (Src a property or type alias: "{T}" of its declared type or the
// Expr of its initializer); result (Src a function: "{T}" of its result
// type); params (Src a function or initializer: the labels of its
// parameters, comma-separated, "_" for none, each but a variadic one
// followed by ":" and its type (see paramType), "=" after one with a
// default value, "..." before a variadic one); receiver (Src a
// declaration directly in an extension: "{T}" of the extended type).
//
// extends (Src a class, struct, enum or protocol; Expr an inherited type
// or conformance): the resolver makes an implements edge when it finds a
// protocol and the source is no protocol. implements (Src the file, from
// an extension: Expr "T: P"): the resolver makes the edge from T.
//
// imports (Src the file): the module imported.

// Argument Exprs of what has no Expr of its own: literals, whose type
// depends on the parameter, and closures.
const (
	exprInt    = "?int"
	exprFloat  = "?float"
	exprString = "?string"
	exprBool   = "?bool"
	exprNil    = "?nil"
	exprFn     = "?fn"
)

// expr returns the Expr of the expression at s.
func (f *fileState) expr(s span, depth int) string {
	if depth > indexer.MaxExprDepth {
		return indexer.ExprExpr
	}
	if i, ok := f.exprs[s.Key()]; ok {
		it := &f.Items[i]
		switch it.Kind {
		case kCall:
			o := f.expr(f.callee(it.Role[indexer.RoleObject]), depth+1)
			if strings.HasPrefix(o, "?") {
				return o
			}
			var b strings.Builder
			b.WriteString(o)
			b.WriteByte('(')
			a := it.Role[indexer.RoleArgs].Start
			for i, l := range f.labels[a] {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(l)
				b.WriteByte(':')
				b.WriteString(f.argExpr(f.args[a][i], depth+1))
			}
			b.WriteByte(')')
			return b.String()
		case kNav:
			o := f.expr(f.callee(it.Role[indexer.RoleObject]), depth+1)
			if strings.HasPrefix(o, "?") {
				return o
			}
			return o + "." + f.Text(it.Role[indexer.RoleName])
		case kParen:
			return f.expr(it.Role[indexer.RoleValue], depth+1)
		}
	}
	t := f.Text(s)
	switch {
	case t == "self" || t == "super":
		return t
	case t[0] == '$':
		return indexer.ExprLocal // a closure's implicit parameter
	case t == "":
		return indexer.ExprExpr
	case t[0] == '"' || t[0] >= '0' && t[0] <= '9' || t == "true" || t == "false" || t == "nil":
		return indexer.ExprLiteral
	case isIdent(t):
		if b := f.lookup(t, s.Start); b != nil {
			return f.bindingExpr(b, depth)
		}
		return t
	case len(t) > 2 && t[0] == '`' && t[len(t)-1] == '`' && isIdent(t[1:len(t)-1]):
		return t[1 : len(t)-1]
	}
	return indexer.ExprExpr
}

// maxArgExpr is the longest argument Expr a call's Expr keeps.
const maxArgExpr = 200

// argExpr returns the Expr of the argument whose value is at s.
func (f *fileState) argExpr(s span, depth int) string {
	t := f.Text(s)
	if ty, ok := castType(t); ok {
		return ty
	}
	switch {
	case t == "":
		return "?"
	case t[0] == '{':
		return exprFn
	case t[0] == '"':
		return exprString
	case t == "true" || t == "false":
		return exprBool
	case t == "nil":
		return exprNil
	case t[0] >= '0' && t[0] <= '9' || t[0] == '-' && len(t) > 1 && t[1] >= '0' && t[1] <= '9':
		return numberExpr(t)
	}
	e := f.expr(s, depth)
	if strings.HasPrefix(e, "?") || len(e) > maxArgExpr {
		return "?"
	}
	return e
}

var (
	intLit   = regexp.MustCompile(`^-?([0-9][0-9_]*|0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+)$`)
	floatLit = regexp.MustCompile(`^-?[0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9][0-9_]*)?$`)
	castLit  = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.]*|[0-9][0-9_.]*) as[!?]? ([A-Za-z_][A-Za-z0-9_.]*)[?!]?$`)
)

// numberExpr returns the Expr of a number literal, or ? for an
// expression that starts with one (1...3, 1.description).
func numberExpr(t string) string {
	switch {
	case intLit.MatchString(t):
		return exprInt
	case floatLit.MatchString(t):
		return exprFloat
	}
	return "?"
}

// castType returns "{T}" for x as T, x as! T and x as? T (the
// optional mark dropped, as everywhere), x a name or a literal.
func castType(t string) (string, bool) {
	m := castLit.FindStringSubmatch(strings.Join(strings.Fields(t), " "))
	if m == nil || typeName(m[2]) == "" {
		return "", false
	}
	return "{" + typeName(m[2]) + "}", true
}

func (f *fileState) bindingExpr(b *binding, depth int) string {
	return b.expr.Get(func() string { return f.expr(b.value, depth+1) }, indexer.ExprExpr)
}
