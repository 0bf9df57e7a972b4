package kotlin

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Expr, the normalized form of a Kotlin reference, as this package writes
// it in refs and reads it back in Resolve.
//
// calls (Src the function, constructor, property or class whose code
// makes the call, or the file; Args the argument count, a trailing lambda
// included):
//
//	expr = head { step } | "?" reason
//	step = "." name | "(" [ arg { "," arg } ] ")"
//	head = name          a name no local or parameter binds: a member of
//	                     an enclosing class, a top-level function or
//	                     property, a type or a package
//	     | "~" name      such a name, not capitalized, in an extension
//	                     function, a lambda that may have a receiver (one
//	                     not passed to a standard function known to give
//	                     none) or an object literal
//	     | "this" | "super"
//	     | "{" type "}"  a value of that type: a local, parameter or
//	                     constructor parameter of declared type, a string
//	                     literal ({kotlin.String}), this in an extension
//	                     function (its receiver type)
//	     | "this(" args ")" | "super(" args ")"  a constructor delegation
//	arg  = [ name "=" ] value | "*" | "~?fn"
//	value = "{" type "}"     a literal ({kotlin.Long} 2L, {kotlin.Double},
//	                         {kotlin.Float} 1f, {kotlin.String},
//	                         {kotlin.Char}, {kotlin.Boolean}), a local or
//	                         parameter of declared type, a cast (as T)
//	     | "#"               an integer literal
//	     | "this" | "?null" | "?fn"   a lambda or value of function type
//	     | expr              a call, name or navigation the resolver
//	                         evaluates
//	     | "?"               not known here
//
// A local without a declared type is replaced by the Expr of its
// initializer. type is as written, without type arguments, "?" after it
// when nullable. An argument is named (name=), a spread array (*), or the
// trailing lambda (~?fn, last). A value a smart cast may have narrowed (a
// test with is or !is, a comparison with null, as, !! or a contract
// function earlier in its declaration, or a when on it) is "?", and so is
// any expression with an operator. Reasons: ?local (a lambda parameter or
// loop variable, or a local function), ?literal, ?receiver (this in a
// lambda that may have a receiver), ?expr (any other expression).
//
// Facts: package; type (Src a property or enum entry: "{T}" or the Expr
// of its initializer); result (Src a function: "{T}" of its declared
// result, or the Expr of its expression body); params (Src a function or
// constructor: its parameters, comma-separated, each name ":" type, type
// "^"-prefixed for a type parameter, "?"-suffixed when nullable, "()" for
// a function type and "?" alone when not known; "..." before a vararg's
// type, "=" after one with a default value); receiver (Src an extension
// function: "{T}" of its receiver type).
//
// extends / implements (Src a class, object or interface; Expr "{T}"):
// the kind is only what the syntax proves (a supertype with constructor
// arguments, or any supertype of an interface, extends); the resolver
// decides by the declared kind of the supertype it finds.
//
// imports (Src the file): a.b.C, a.b.C as D, a.b.*.
//
// references (Src the property a primary constructor's val or var makes,
// else the innermost declaration with a node, or the file): a user type
// as written, type arguments dropped, wherever one is (a declared type, a
// receiver, a type argument, a bound, a cast, an is check, a caught type,
// a class literal T::class);
// "@" T for an annotation, an edge only to a type of the snapshot.
// Supertypes of a declaration are extends and implements refs instead; a
// type parameter in scope makes no ref, and a builtin type (Int, String,
// Any, Unit, ...) no edge.

// RefReceiver is the fact kind giving an extension function's receiver.
const RefReceiver = schemas.RefReceiver

const (
	// exprReceiver is this or an unqualified name in a lambda that may
	// have a receiver, or in an object literal.
	exprReceiver = "?receiver"
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
			callee, args, lambda := f.callParts(it)
			o := f.expr(callee, depth+1)
			if strings.HasPrefix(o, "?") {
				return o
			}
			return o + f.argList(args, lambda, depth+1)
		case kNav:
			o := f.expr(it.Role[indexer.RoleObject], depth+1)
			if strings.HasPrefix(o, "?") {
				return o
			}
			if strings.Contains(f.Str[it.Role[indexer.RoleObject].End:it.Role[indexer.RoleName].Start], "::") {
				return indexer.ExprExpr
			}
			return o + "." + f.Text(it.Role[indexer.RoleName])
		case kParen:
			return f.expr(it.Role[indexer.RoleValue], depth+1)
		}
	}
	t := f.Text(s)
	switch {
	case t == "this":
		return f.this(s.Start)
	case t == "super":
		return t
	case t == "":
		return indexer.ExprExpr
	case t[0] == '"':
		return "{kotlin.String}"
	case t[0] >= '0' && t[0] <= '9', t == "true", t == "false", t == "null", t[0] == '\'':
		return indexer.ExprLiteral
	case isIdent(t):
		b := f.lookup(t, s.Start)
		if b != nil && !(b.member && f.implicitReceiver(s.Start)) {
			return f.bindingExpr(b, depth)
		}
		if (t[0] < 'A' || t[0] > 'Z') && (b != nil || f.implicitReceiver(s.Start) || f.innermostExtension(s.Start) != nil) {
			return "~" + t // types are capitalized; members are not
		}
		return t
	}
	return indexer.ExprExpr
}

func isIdent(t string) bool { return srctext.IsIdent(t, "") }

// lookup returns the innermost binding of name visible at p.
func (f *fileState) lookup(name string, p uint32) *binding {
	return indexer.Innermost(f.binds[name], p)
}

func (f *fileState) bindingExpr(b *binding, depth int) string {
	return b.expr.Get(func() string {
		switch {
		case b.local:
			return indexer.ExprLocal
		case b.typ != (span{}):
			return typeExpr(f.Text(b.typ))
		case b.value != (span{}):
			return f.expr(b.value, depth+1)
		}
		return indexer.ExprLocal
	}, indexer.ExprExpr)
}
