package csharp

import (
	"strings"

	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/schemas"
)

// Overloads that take the same number of arguments are told apart by the
// arguments' types, by C#'s implicit conversions (identity, numeric,
// reference, boxing) and the package overload: the better function member
// is the one whose parameter types convert to the other's.

// ctype is the type of an argument or a parameter: a type of the
// snapshot or a predefined System type, with array dimensions; the null
// type, a lambda (fn), an int literal (konst), or one that is not known.
type ctype struct {
	t       *typeInfo
	sys     string
	dims    int
	null    bool
	fn      bool
	konst   bool
	unknown bool
}

var unknownType = ctype{unknown: true}

// numeric lists the predefined numeric types each one converts to
// implicitly (C# 10.2.3), char included.
var numeric = map[string]string{
	"System.SByte":   "Int16 Int32 Int64 Single Double Decimal",
	"System.Byte":    "Int16 UInt16 Int32 UInt32 Int64 UInt64 Single Double Decimal",
	"System.Int16":   "Int32 Int64 Single Double Decimal",
	"System.UInt16":  "Int32 UInt32 Int64 UInt64 Single Double Decimal",
	"System.Int32":   "Int64 Single Double Decimal",
	"System.UInt32":  "Int64 UInt64 Single Double Decimal",
	"System.Int64":   "Single Double Decimal",
	"System.UInt64":  "Single Double Decimal",
	"System.Char":    "UInt16 Int32 UInt32 Int64 UInt64 Single Double Decimal",
	"System.Single":  "Double",
	"System.Double":  "",
	"System.Decimal": "",
}

// smallInts are the integral types an int constant converts to when its
// value fits.
var smallInts = "System.SByte System.Byte System.Int16 System.UInt16 System.UInt32 System.UInt64"

// sysTypes are the predefined types the rules know: the numeric ones and
// these.
var sysTypes = map[string]bool{"System.Object": true, "System.String": true, "System.Boolean": true}

func isSys(name string) bool {
	_, num := numeric[name]
	return num || sysTypes[name]
}

// isValue reports whether t is a value type (not null).
func (t ctype) isValue() bool {
	if t.dims > 0 || t.null || t.unknown {
		return false
	}
	if t.t != nil {
		return t.t.kind == schemas.KindStruct || t.t.kind == schemas.KindEnum
	}
	return t.sys != "" && t.sys != "System.Object" && t.sys != "System.String"
}

// byTypes picks among ms, which all may take len(a.types) arguments, the
// one C# chooses for the arguments a.
func (r *resolver) byTypes(ms []int32, a args) (int32, overload.Outcome) {
	types := make([]ctype, len(a.types))
	for i, s := range a.types {
		types[i] = r.argType(s, a.ctx)
	}
	// A params method applicable in its expanded form competes with the
	// others by rules the phases of package overload do not follow:
	// decided only when it is the one method that may apply.
	// So does a generic method, whose type arguments the call may infer
	// or not, and which loses ties to non-generic ones.
	var possible []int32
	var methods []overload.Method[ctype]
	variadic, generic := false, false
	for _, m := range ms {
		node := &r.nodes[m]
		if strings.Contains(node.Signature, "."+node.Name+"(") || strings.Contains(node.Signature, "."+node.Name+"<") {
			continue // an explicit interface implementation: no call names it
		}
		s := r.sigs[m]
		normal, expanded := r.params(m, s, len(types), false), overload.Method[ctype]{}
		ok := r.applies(normal, types)
		if s.variadic {
			expanded = r.params(m, s, len(types), true)
			if r.applies(expanded, types) {
				ok, variadic = true, true
			}
		}
		if ok {
			possible = append(possible, m)
			methods = append(methods, normal)
			generic = generic || strings.Contains(node.Signature, node.Name+"<")
		}
	}
	switch {
	case len(possible) == 0:
		return -1, overload.None
	case len(possible) == 1:
		return possible[0], overload.Chosen
	case variadic || generic:
		return -1, overload.Ambiguous
	}
	rules := overload.Rules[ctype]{Convert: r.convert, Subtype: r.subtype, Elem: elem}
	i, outcome := overload.Choose(methods, types, rules)
	if outcome != overload.Chosen {
		return -1, outcome
	}
	return possible[i], outcome
}

// applies reports whether m may apply to arguments of types args.
func (r *resolver) applies(m overload.Method[ctype], args []ctype) bool {
	n := len(m.Params)
	if !m.Varargs && n != len(args) || m.Varargs && len(args) < n-1 {
		return false
	}
	for i, a := range args {
		p := m.Params[min(i, n-1)]
		if m.Varargs && i >= n-1 {
			p = elem(p)
		}
		if r.convert(a, p, true) == overload.No {
			return false
		}
	}
	return true
}

// params returns the parameter types of method m, of signature s, for a
// call with n arguments: in the normal form the first n (the optional
// ones the call omits left out), in the expanded form all of them, the
// params array last.
func (r *resolver) params(m int32, s sig, n int, expanded bool) overload.Method[ctype] {
	k := min(n, len(s.types))
	if expanded {
		k = len(s.types)
	}
	ps := make([]ctype, k)
	for i := range k {
		ps[i] = r.ctypeOf(s.types[i], m)
	}
	return overload.Method[ctype]{Params: ps, Varargs: expanded}
}

// argType returns the type of an argument as the Expr records it, seen
// from node ctx.
func (r *resolver) argType(s string, ctx int32) ctype {
	switch {
	case s == exprNull:
		return ctype{null: true}
	case s == exprFn:
		return ctype{fn: true}
	case s == "this":
		if ts, _ := r.enclosing(ctx); len(ts) > 0 {
			return ctype{t: ts[0]}
		}
		return unknownType
	case strings.HasPrefix(s, constPrefix):
		return ctype{sys: s[len(constPrefix):], konst: true}
	case len(s) > 2 && s[0] == '{' && s[len(s)-1] == '}':
		return r.ctypeOf(s[1:len(s)-1], ctx)
	}
	return unknownType
}

// ctypeOf resolves the type name t (Expr syntax, with "[]" for arrays)
// seen from node ctx.
func (r *resolver) ctypeOf(t string, ctx int32) ctype {
	base := strings.TrimRight(t, "[]")
	dims := (len(t) - len(base)) / 2
	// A nullable reference type is the type; a nullable value type is
	// Nullable<T>, which the rules do not know.
	base, nullable := strings.CutSuffix(base, "?")
	if p, ok := predefined[base]; ok {
		base = p
	}
	if base == "" || strings.ContainsAny(base, "?*(") {
		return unknownType
	}
	c := unknownType
	found, ext, _, _ := r.resolveType(base, ctx, 0)
	switch {
	case found != nil:
		c = ctype{t: found, dims: dims}
	case isSys(ext):
		c = ctype{sys: ext, dims: dims}
	case !strings.Contains(ext, ".") && isSys("System."+ext):
		c = ctype{sys: "System." + ext, dims: dims}
	}
	if nullable && c.isValueElem() {
		return unknownType
	}
	return c
}

// elem is the element type of an array type.
func elem(t ctype) ctype {
	if t.unknown || t.dims == 0 {
		return unknownType
	}
	t.dims--
	return t
}

// userConversion reports whether a user-defined implicit conversion may
// lead from s to t: one of them is a type of the snapshot that declares
// one, or has a base class that does.
func (r *resolver) userConversion(s, t ctype) bool {
	for _, c := range []ctype{s, t} {
		for u, d := c.t, 0; u != nil && c.dims == 0 && d < maxDepth; u, d = u.class, d+1 {
			if u.convert {
				return true
			}
		}
	}
	return false
}

// convert reports whether an argument of type a converts implicitly to a
// parameter of type p.
func (r *resolver) convert(a, p ctype, _ bool) overload.Answer {
	switch {
	case a.unknown || p.unknown:
		return overload.Maybe
	case a.null:
		if p.isValue() {
			return overload.No
		}
		return overload.Yes
	case a.fn:
		if p.dims > 0 || p.sys != "" || p.t != nil && p.t.kind != schemas.KindType {
			return overload.No
		}
		return overload.Maybe
	case a.konst && p.t != nil && p.t.kind == schemas.KindEnum && p.dims == 0:
		return overload.Maybe // the literal 0 converts to any enum
	case a.konst && p.dims == 0 && strings.Contains(smallInts, p.sys):
		return overload.Maybe // when the value fits
	}
	return r.implicit(a, p)
}

// subtype reports whether s converts implicitly to t: a parameter of
// type s is then better than one of type t.
func (r *resolver) subtype(s, t ctype) overload.Answer {
	if s.null || s.fn {
		return overload.Maybe
	}
	return r.convert(s, t, false)
}

// implicit reports whether a value of the known type a converts
// implicitly to p.
func (r *resolver) implicit(a, p ctype) overload.Answer {
	if a.t == p.t && a.sys == p.sys && a.dims == p.dims {
		return overload.Yes
	}
	if r.userConversion(a, p) {
		return overload.Maybe
	}
	if p.sys == "System.Object" && p.dims == 0 {
		return overload.Yes // a reference conversion or boxing
	}
	if a.dims > 0 || p.dims > 0 {
		if a.dims != p.dims || a.isValueElem() || p.isValueElem() {
			return overload.No // arrays of values convert by identity only
		}
		a.dims, p.dims = 0, 0
		return r.implicit(a, p)
	}
	switch {
	case a.sys != "" && p.sys != "":
		if strings.Contains(" "+numeric[a.sys]+" ", " "+strings.TrimPrefix(p.sys, "System.")+" ") {
			return overload.Yes
		}
		return overload.No
	case a.sys != "" || p.sys != "":
		// A predefined type is no type of the snapshot and implements
		// none of its interfaces; a type of the snapshot is a string or a
		// number of no kind.
		return overload.No
	}
	return r.derives(a.t, p.t)
}

// isValueElem reports whether t's elements are values.
func (t ctype) isValueElem() bool {
	t.dims = 0
	return t.isValue()
}

// derives reports whether the snapshot's type s is t or has it among its
// bases. A base that did not resolve leaves the answer open.
func (r *resolver) derives(s, t *typeInfo) overload.Answer {
	seen := map[*typeInfo]bool{}
	var walk func(u *typeInfo, depth int) overload.Answer
	walk = func(u *typeInfo, depth int) overload.Answer {
		if u == t {
			return overload.Yes
		}
		if seen[u] || depth > maxDepth {
			return overload.No
		}
		seen[u] = true
		r.link(u, depth+1)
		ans := overload.No
		if u.lost {
			ans = overload.Maybe
		}
		for _, b := range u.supers {
			ans = max(ans, walk(b, depth+1))
		}
		return ans
	}
	return walk(s, 0)
}
