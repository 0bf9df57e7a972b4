package php

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
)

// Expr is the normalized form of a call, instantiation or declared type
// that extraction writes into refs and resolution reads:
//
//	expr  = alt { "|" alt } | "?" reason
//	alt   = head { "->" name | "->" name "()" | "::" name "()" }
//	head  = "{" fqn "}" | ["^"] fqn "::" name "()" | ["^"] fqn "()"
//	fqn   = "\" name { "\" name }
//
// Every class and function name is fully qualified by the file's
// namespace and use declarations, as PHP resolves names at compile time;
// "^" marks a name a use declaration gave. {\T} is an instance of class
// T: $this in T, a new T, a parameter, property or local of declared type
// T, or a caught \T. \T::m() is a static-looking call (T::m(), self::m(),
// static::m(), parent::m() with the class written out), \f() a function
// call. Alternatives are tried in order: an unqualified function call in
// a namespace reads \ns\f()|\f(), PHP's fallback to the global function.
// Locals were replaced by the one expr all their bindings in the function
// agree on. Reasons: local, param, type, this, expr, deep.
//
// instantiates refs read "new \T(n)", n the number of arguments.
// references refs read a class fully qualified, "\N\T": one per class a
// type declaration names (a property's, parameter's or result's type, a
// caught type; Src the property, else the code around) and per
// instanceof; "@\N\T" for an attribute, an edge only to a class of the
// snapshot. Builtin types make no ref; self and static read the class.
// imports refs read "\A\B" (a class or namespace), "function \A\f",
// "const \A\K" or "file path" (require and include), the path relative to
// the root of the tree, or ?dynamic, ?outside, ?absolute. extends refs
// read \P, or "use \T" for a used trait; implements refs \I.

const maxDepth = 40

// names records, for a call item, the names in it as extraction qualifies
// them while the file's namespace and use declarations are in view.
func (f *fileState) names(i int32) {
	it := &f.Items[i]
	switch it.Kind {
	case kNew:
		if q, _ := f.qualify(f.Text(it.Role[indexer.RoleType])); q != "" {
			f.qnames[i] = q
		}
	case kScall:
		t := srctext.Squeeze(f.Text(it.Role[indexer.RoleObject]))
		if !isName(strings.TrimPrefix(t, "\\")) {
			return
		}
		if q, imported := f.qualify(t); q != "" {
			if imported {
				q = "^" + q
			}
			f.qnames[i] = q
		}
	case kCall:
		t := srctext.Squeeze(f.Text(it.Role[indexer.RoleObject]))
		if !isName(strings.TrimPrefix(t, "\\")) {
			return
		}
		f.qnames[i] = f.functionNames(t)
	}
}

// thisAt returns the class $this is at p, "" if none.
func (f *fileState) thisAt(p uint32) string {
	c := ""
	for _, s := range f.classes {
		if s.Start > p {
			break
		}
		if p < s.End {
			c = s.class
		}
	}
	return c
}

// exprOf returns the Expr of the expression at s.
func (f *fileState) exprOf(s span, depth int) string {
	if depth > maxDepth {
		return "?deep"
	}
	j, ok := f.exprs[s.Key()]
	if !ok {
		t := f.Text(s)
		if t == "$this" {
			if c := f.thisAt(s.Start); c != "" {
				return "{" + c + "}"
			}
			return "?this"
		}
		if len(t) > 1 && t[0] == '$' && isIdent(t[1:]) {
			return f.lookup(t[1:], s.Start, depth)
		}
		return indexer.ExprExpr
	}
	it := &f.Items[j]
	switch it.Kind {
	case kParen:
		return f.exprOf(it.Role[indexer.RoleValue], depth+1)
	case kNew:
		if q := f.qnames[j]; q != "" {
			return "{" + q + "}"
		}
		return "?type"
	case kField, kMcall:
		o := f.exprOf(it.Role[indexer.RoleObject], depth+1)
		if o[0] == '?' {
			return o
		}
		step := "->" + f.Text(it.Role[indexer.RoleName])
		if it.Kind == kMcall {
			step += "()"
		}
		return appendAll(o, step)
	case kScall:
		q := f.qnames[j]
		if q == "" {
			return indexer.ExprExpr
		}
		return q + "::" + f.Text(it.Role[indexer.RoleName]) + "()"
	case kCall:
		q := f.qnames[j]
		if q == "" {
			return indexer.ExprExpr
		}
		return strings.ReplaceAll(q, "|", "()|") + "()"
	}
	return indexer.ExprExpr
}

// appendAll appends step to every alternative of e.
func appendAll(e, step string) string {
	if !strings.Contains(e, "|") {
		return e + step
	}
	return strings.ReplaceAll(e, "|", step+"|") + step
}

// lookup returns the Expr of the variable $name at p: what every binding
// of it in the function around p agrees on.
func (f *fileState) lookup(name string, p uint32, depth int) string {
	sc := f.scopeAt(p)
	key := name + "@" + itoa(sc.Start)
	if f.active[key] {
		return indexer.ExprLocal // bound by an expression that reads itself
	}
	f.active[key] = true
	defer delete(f.active, key)
	out := ""
	for _, b := range f.binds[name] {
		if b.scope != sc {
			continue
		}
		e := b.expr
		if e == "" {
			e = f.exprOf(b.value, depth+1)
		}
		switch {
		case e[0] == '?':
			return e
		case out == "":
			out = e
		case out != e:
			return indexer.ExprLocal
		}
	}
	if out == "" {
		return indexer.ExprLocal
	}
	return out
}

func itoa(n uint32) string {
	var b [10]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}

// builtinTypes are the type names that are no class.
var builtinTypes = map[string]bool{
	"int": true, "float": true, "string": true, "bool": true, "array": true, "callable": true,
	"iterable": true, "object": true, "mixed": true, "void": true, "null": true, "never": true,
	"false": true, "true": true, "integer": true, "double": true, "boolean": true, "resource": true,
}
