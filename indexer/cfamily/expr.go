package cfamily

import (
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
)

// Expr, the normalized form of a C or C++ reference, as this package
// writes it in refs and reads it back in Resolve.
//
// calls (Src the function, method, variable or file whose code makes the
// call; Expr the callee with its argument count):
//
//	expr  = head { "." step } | "?" reason
//	step  = name | name args            a member (a.b and p->b alike)
//	args  = "(" n [ ":" arg { "," arg } ] ")"
//	                          the argument count; in C++, for the call the
//	                          ref is about, each argument's type (argtype.go)
//	head  = qname args        a call of a name no local binds: a function,
//	                          a macro, a method of the enclosing class, a
//	                          static member (A::f), a class (A(1))
//	      | qname             a name no local binds: a global, a field of
//	                          the enclosing class, an enumerator
//	      | "this"            the instance of the enclosing class
//	      | "{" type "}"      a value of that type: a local or parameter of
//	                          a declared type, new T, a cast, make_unique<T>
//	qname = name { "::" name }          as written, template arguments dropped
//	type  = qname                       struct/class/enum keywords,
//	                          qualifiers, pointer and reference marks and
//	                          template arguments dropped
//
// A local declared auto is replaced by the Expr of its initializer. The
// reasons:
//
//	?local   a call of a local or parameter (a function pointer, a functor)
//	?expr    any other callee or receiver (an element a[i], a call's
//	         result called again, a lambda)
//
// instantiates (new T(...); in C++ also T x(...) and T x{...}, and T(...)
// when T resolves to a class): "new " type "(" n ")". A declaration's
// construction of a T that is no class becomes a references edge.
//
// references (Src the function, field, variable or alias whose code or
// declared type names the type, or the file): every type name as written
// (qname, template arguments dropped) in a declared type, a parameter, a
// result, a cast, a template argument, a base's template argument, a
// caught type. The names a definition, forward declaration, typedef or
// alias declares, template parameters in scope and builtin types make no
// ref; a miss that names a macro of the snapshot makes no edge.
//
// imports, one ref per #include, Src the file: the path as written,
// quotes or angle brackets included ("x.h", <stdio.h>).
//
// Facts: extends (Src a class or struct; Expr the base as written,
// access and virtual dropped, a qname), type (Src a field, global or
// alias: "{" type "}"), result (Src a function or method: its return
// type), params (Src a function, method or function-like macro: its
// parameters with their names dropped, comma-separated, "=" after one
// with a default value, "..." for a variadic tail; prefixed with
// "template:" for a C++ function under a template header), declares (see
// schemas.RefDeclares) and using (see schemas.RefUsing).

// joinExpr appends a step to a receiver, keeping a receiver's reason.
func joinExpr(recv, step string) string {
	if strings.HasPrefix(recv, "?") {
		return recv
	}
	return recv + "." + step
}

func itoa(n int) string { return strconv.Itoa(n) }

// bind declares a local visible from decl to end.
func (f *fileState) bind(name string, decl, end uint32, expr string) *binding {
	b := &binding{decl: decl, end: end, expr: indexer.Known(expr)}
	f.binds[name] = append(f.binds[name], b)
	return b
}

// lookup returns the innermost binding of name visible at p.
func (f *fileState) lookup(name string, p uint32) *binding {
	bs := f.binds[name]
	for i := len(bs) - 1; i >= 0; i-- {
		if b := bs[i]; b.decl <= p && p < b.end {
			return b
		}
	}
	return nil
}

// declared returns the Expr of a value of the declared type t.
func (f *fileState) declared(t span) string {
	if n := f.typeExpr(t); n != "" {
		return "{" + n + "}"
	}
	return indexer.ExprLocal
}

// makers are the standard functions whose result is a value of their
// first template argument.
var makers = map[string]bool{
	"std::make_unique": true, "std::make_shared": true, "make_unique": true, "make_shared": true,
}

// exprOf returns the Expr of the expression at s.
func (f *fileState) exprOf(s span, depth int) string {
	if depth > indexer.MaxExprDepth {
		return indexer.ExprExpr
	}
	if it := indexer.ItemAt(f.Items, f.exprs, s); it != nil {
		switch it.Kind {
		case kCall:
			fn := it.Role[indexer.RoleObject]
			n := "(" + itoa(countArgs(f.Text(it.Role[indexer.RoleArgs]))) + ")"
			if fi := indexer.ItemAt(f.Items, f.exprs, fn); fi != nil && fi.Kind == kField {
				return joinExpr(f.receiver(fi, depth), normName(f.Text(fi.Role[indexer.RoleName]))+n)
			}
			raw := srctext.Squeeze(f.Text(fn))
			name := normName(raw)
			if makers[name] {
				if a := strings.IndexByte(raw, '<'); a >= 0 && strings.HasSuffix(raw, ">") {
					if t := typeName(splitTop(raw[a+1 : len(raw)-1])[0]); t != "" {
						return "{" + t + "}"
					}
				}
				return indexer.ExprExpr
			}
			if isQName(name) {
				if isIdent(name) && f.lookup(name, fn.Start) != nil {
					return indexer.ExprLocal
				}
				return strings.TrimPrefix(name, "::") + n
			}
			return indexer.ExprExpr
		case kField:
			return joinExpr(f.receiver(it, depth), normName(f.Text(it.Role[indexer.RoleName])))
		case kNew, kCast:
			if t := f.typeExpr(it.Role[indexer.RoleType]); t != "" {
				return "{" + t + "}"
			}
			return indexer.ExprExpr
		case kParen:
			return f.exprOf(it.Role[indexer.RoleValue], depth+1)
		}
	}
	t := srctext.Squeeze(f.Text(s))
	switch {
	case t == "this":
		return t
	case isIdent(t):
		if b := f.lookup(t, s.Start); b != nil {
			return f.bindingExpr(b, depth)
		}
		return t
	case isQName(t):
		return strings.TrimPrefix(t, "::")
	}
	return indexer.ExprExpr
}

// bindingExpr returns the Expr of a binding, computing that of an auto
// local from its initializer.
func (f *fileState) bindingExpr(b *binding, depth int) string {
	return indexer.LocalExpr(&b.expr, func() string { return f.exprOf(b.value, depth+1) })
}

// smartPointers are the standard pointer classes: p->f() is a member of
// their template argument, p.f() one of their own.
var smartPointers = map[string]bool{
	"std::unique_ptr": true, "std::shared_ptr": true, "unique_ptr": true, "shared_ptr": true,
	"std::weak_ptr": true,
}

// receiver returns the Expr of the object of the field expression fi:
// for a smart pointer, its pointee through "->" and the pointer class
// itself through ".".
func (f *fileState) receiver(fi *item, depth int) string {
	obj := fi.Role[indexer.RoleObject]
	arrow := strings.Contains(f.Str[obj.End:fi.Role[indexer.RoleName].Start], "->")
	if t := srctext.Squeeze(f.Text(obj)); isIdent(t) {
		if b := f.lookup(t, obj.Start); b != nil && b.smart {
			if !arrow {
				return "{std::unique_ptr}"
			}
		}
	}
	return f.exprOf(obj, depth+1)
}

// smartArg returns the type argument of a smart pointer type as
// written, or "".
func smartArg(t string) string {
	t = srctext.Squeeze(t)
	a := strings.IndexByte(t, '<')
	if a < 0 || !strings.HasSuffix(t, ">") || !smartPointers[strings.TrimPrefix(t[:a], "const")] {
		return ""
	}
	return typeName(splitTop(t[a+1 : len(t)-1])[0])
}
