package csharp

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
)

// Expr, the normalized form of a C# reference, as this package writes it
// in refs and reads it back in Resolve.
//
// calls (Src the method, constructor, property, field or type whose code
// makes the call; Expr the callee with its arguments' types):
//
//	expr  = head { "." step } | "?" reason
//	step  = name | name args
//	args  = "(" [ arg { "," arg } ] ")"   see argOf
//	head  = name         a name no local or parameter binds: a member of
//	                     the enclosing types, a type, a namespace or an
//	                     alias; name args is an unqualified call
//	      | "this"       the instance of the enclosing type
//	      | "base"       the same, seen as its base class
//	      | "{" type "}" a value of that type: a local or parameter of a
//	                     declared type, a cast, new T(...), a string
//	                     literal ({System.String})
//	type  = name { "." name }   as written, with type arguments, nullable
//	                     marks and global:: dropped; keyword types as their
//	                     System type (int is System.Int32)
//
// this(args) and base(args) are constructor initializers. A local declared with
// var is replaced by the Expr of its initializer. The reasons:
//
//	?local     a local whose type is not known (a lambda parameter, var
//	           initialized with an unsupported expression, a delegate
//	           local being invoked)
//	?localfn   a call of a local function (no node)
//	?await     a member of an awaited value
//	?expr      any other expression (a conditional access a?.M(), an
//	           element access, a literal other than a string)
//
// instantiates (new T(...), with or without an initializer):
//
//	"new " type args
//
// references: an attribute, "@" type (the resolver also tries
// typeAttribute); a type as written in a type position (a field's,
// property's, parameter's, local's or result's type, a cast, as, is,
// typeof, a catch or pattern type, a constraint, a type argument, a base's
// type argument), type; a constant pattern that may name a type (x is T,
// case T:), "is " type, an edge only when T is a type.
//
// imports, one ref per using directive, Src the file, Target as written:
//
//	[global ] N          using N; (a namespace)
//	[global ] static T   using static T;
//	[global ] A = N      using A = N; (an alias of a namespace or type)
//
// Facts: extends and implements (Src a type; Expr a type as above; the
// first base of a class is an extends ref and becomes an implements edge
// when it resolves to an interface), type (Src a field, property, event or
// record parameter) and result (Src a method or delegate: its return
// type; none for void, arrays, tuples): "{" type "}". params (Src a
// method or constructor: its parameter types,
// comma-separated; "params " before a parameter array, "this " before an
// extension method's receiver, "=" after an optional parameter; "?" for a
// type parameter, a generic or a tuple type); on a type, "implicit" when
// it declares an implicit conversion operator.

const (
	exprIsType  = "is "
	exprLocalFn = "?localfn"
	exprAwait   = "?await"
)

// join appends a step to a receiver, keeping a receiver's reason.
func join(recv, step string) string {
	if strings.HasPrefix(recv, "?") {
		return recv
	}
	return recv + "." + step
}

// exprOf returns the Expr of the expression at s.
func (f *fileState) exprOf(s span, depth int) string {
	if depth > indexer.MaxExprDepth {
		return indexer.ExprExpr
	}
	if it := indexer.ItemAt(f.Items, f.exprs, s); it != nil {
		switch it.Kind {
		case kInvoke:
			fn := it.Role[indexer.RoleObject]
			n := f.argList(it.Role[indexer.RoleArgs], depth)
			if fi := indexer.ItemAt(f.Items, f.exprs, fn); fi != nil && fi.Kind == kField {
				return join(f.exprOf(fi.Role[indexer.RoleObject], depth+1), stripGenerics(f.Text(fi.Role[indexer.RoleName]))+n)
			}
			if name := srctext.Squeeze(stripGenerics(f.Text(fn))); isIdent(name) {
				if f.lookup(name, fn.Start) != nil {
					return indexer.ExprLocal
				}
				return name + n
			}
			return indexer.ExprExpr
		case kField:
			return join(f.exprOf(it.Role[indexer.RoleObject], depth+1), stripGenerics(f.Text(it.Role[indexer.RoleName])))
		case kNew, kCast:
			if t := f.typeExpr(it.Role[indexer.RoleType]); t != "" {
				return "{" + t + "}"
			}
			return indexer.ExprExpr
		case kParen:
			return f.exprOf(it.Role[indexer.RoleValue], depth+1)
		case kAwait:
			return exprAwait
		}
	}
	t := srctext.Squeeze(f.Text(s))
	switch {
	case t == "this" || t == "base":
		return t
	case isIdent(t):
		if b := f.lookup(t, s.Start); b != nil {
			return f.bindingExpr(b, depth)
		}
		if p, ok := predefined[t]; ok {
			return p
		}
		return t
	case strings.HasPrefix(t, "\"") || strings.HasPrefix(t, "@\"") || strings.HasPrefix(t, "$\"") || strings.HasPrefix(t, "$@\"") || strings.HasPrefix(t, "@$\""):
		return "{System.String}"
	}
	if g := stripGenerics(t); g != t && isIdent(g) { // a generic type named statically
		return g
	}
	return indexer.ExprExpr
}

// bindingExpr returns the Expr of a binding, computing that of a var
// from its initializer.
func (f *fileState) bindingExpr(b *binding, depth int) string {
	return indexer.LocalExpr(&b.expr, func() string { return f.exprOf(b.value, depth+1) })
}
