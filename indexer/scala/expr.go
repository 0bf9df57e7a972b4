package scala

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
)

// Expr, the normalized form of a Scala reference, as this package writes
// it in refs and reads it back in Resolve.
//
// calls (Src the def, val, var, template or file whose code makes the
// call; Args the arguments as written):
//
//	expr = head { step } | "?" reason
//	step = "." name | "(" [ arg { "," arg } ] ")"
//	arg  = [ name "=" ] ( "{" type "}" | "~" path | "?int" | "?null" | "?*" | "?" )
//	head = name          a name no local, parameter or pattern variable
//	                     binds: a member of an enclosing template, a
//	                     member of a package, an object, an import
//	     | "this" | "super"
//	     | "{" type "}"  a value of that type: a local, parameter or
//	                     pattern variable of declared type, new T(...)
//
// A call's Expr ends in its first argument list (a further list of a
// curried call makes no ref), each argument's type as args.go writes it. A
// selection a.b that is no call's function is a calls ref whose Expr ends
// in a name: the resolver makes an edge only when it names a method (a
// parameterless call), and drops it otherwise. A local val without a
// declared type is replaced by the Expr of its initializer. type is as
// written, type arguments dropped. Reasons: ?local (a local def, a
// parameter or pattern variable of no declared type), ?literal, ?expr
// (any other expression).
//
// instantiates: "new " type "(" [ arg { "," arg } ] ")".
//
// references (Src the innermost definition, or the file): a type name as
// written, qualified (a.b.C), type arguments dropped, wherever one is (a
// declared type, a parameter's or result's, a type argument or bound, a
// typed or constructor pattern, a caught type); "@" T for an annotation,
// an edge only to a type of the snapshot. The parents of a template and
// the type of new T have their own refs; a type parameter in scope makes
// none, and a builtin type (Int, String, Unit, Any, ...) no edge. E.C
// that names no type is the case C of enum E (a pattern).
//
// Facts: package (Src the file, one per package clause: Expr the full
// package name, chained clauses joined); type (Src a val, var, given or
// class parameter: "{T}" of its declared type or the Expr of its
// initializer); result (Src a def: "{T}" of its result type or the Expr
// of its body); params (Src a def, a secondary constructor, or a class or
// enum for its primary constructor: the types of the first parameter
// list, comma-separated, "=" after one with a default value, "..." before
// a repeated one, "[]" after a type with type arguments, "?" for a type
// parameter or no type).
//
// extends (Src a class, object, trait, enum or package object; Expr its
// parent type): the resolver makes an implements edge when the parent is
// a trait and the child is not.
//
// imports (Src the file, one per imported name): a.b.C, a.b._ (also for
// a.b.*), a.b.C as D (also for {C => D}); hidden names ({C => _}) and
// given imports make none.

// expr returns the Expr of the expression at s.
func (f *fileState) expr(s span, depth int) string {
	if depth > indexer.MaxExprDepth {
		return indexer.ExprExpr
	}
	if i, ok := f.exprs[s.Key()]; ok {
		it := &f.Items[i]
		switch it.Kind {
		case kCall:
			fn := it.Role[indexer.RoleObject]
			if j, ok := f.exprs[fn.Key()]; ok && f.Items[j].Kind == kGeneric {
				fn = f.Items[j].Role[indexer.RoleObject]
			}
			o := f.expr(fn, depth+1)
			if strings.HasPrefix(o, "?") {
				return o
			}
			return o + f.argList(it.Role[indexer.RoleArgs], depth+1)
		case kField:
			o := f.expr(it.Role[indexer.RoleObject], depth+1)
			if strings.HasPrefix(o, "?") {
				return o
			}
			return o + "." + f.Text(it.Role[indexer.RoleName])
		case kGeneric:
			return f.expr(it.Role[indexer.RoleObject], depth+1)
		case kNew:
			if t := typeName(f.Text(it.Role[indexer.RoleType])); t != "" {
				return "{" + t + "}"
			}
			return indexer.ExprExpr
		case kParen:
			return f.expr(it.Role[indexer.RoleValue], depth+1)
		}
	}
	t := f.Text(s)
	switch {
	case t == "this" || t == "super":
		return t
	case t == "":
		return indexer.ExprExpr
	case t[0] == '"' || t[0] == '\'' || t[0] >= '0' && t[0] <= '9' || t == "true" || t == "false" || t == "null":
		return indexer.ExprLiteral
	case isIdent(t):
		if b := f.lookup(t, s.Start); b != nil {
			return f.bindingExpr(b, depth)
		}
		return t
	}
	return indexer.ExprExpr
}

func (f *fileState) bindingExpr(b *binding, depth int) string {
	return b.expr.Get(func() string { return f.expr(b.value, depth+1) }, indexer.ExprExpr)
}
