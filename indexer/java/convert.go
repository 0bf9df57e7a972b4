package java

import (
	"strings"

	"github.com/graphsnap/snap/indexer/overload"
)

// Overloads of the same arity are told apart by the types of the
// arguments, by Java's conversions (JLS 5.3) and the package overload.

// jtype is the type of an argument or a parameter: a type, the null
// type, that of a lambda or method reference (fn), or one that is not
// known (an argument whose Expr has no type, a parameter typed by a
// class's type variable).
type jtype struct {
	t       tref
	null    bool
	fn      bool
	unknown bool
}

var unknownType = jtype{unknown: true}

// boxes maps the primitive types to their boxes.
var boxes = map[string]string{
	"boolean": "java.lang.Boolean", "byte": "java.lang.Byte", "short": "java.lang.Short", "char": "java.lang.Character",
	"int": "java.lang.Integer", "long": "java.lang.Long", "float": "java.lang.Float", "double": "java.lang.Double",
}

// unboxes maps the boxes to their primitive types.
var unboxes = func() map[string]string {
	m := make(map[string]string)
	for p, b := range boxes {
		m[b] = p
	}
	return m
}()

// widens lists the primitive types each one widens to (JLS 5.1.2).
var widens = map[string]string{
	"byte": "short int long float double", "short": "int long float double", "char": "int long float double",
	"int": "long float double", "long": "float double", "float": "double",
}

// primSub reports whether primitive s is t or widens to it.
func primSub(s, t string) overload.Answer {
	if s == t || strings.Contains(" "+widens[s]+" ", " "+t+" ") {
		return overload.Yes
	}
	return overload.No
}

// isPrim reports whether t is a primitive type (not an array of one).
func isPrim(t tref) bool { return t.prim != "" && t.dims == 0 }

// byTypes picks among ms, which all take as many arguments as args has,
// the one Java chooses for arguments args evaluated at src; -1 when the
// facts cannot tell.
func (r *resolver) byTypes(ms []int32, args []string, src int32) int32 {
	types := make([]jtype, len(args))
	for i, a := range args {
		types[i] = r.argType(a, src)
	}
	methods := make([]overload.Method[jtype], len(ms))
	for i, m := range ms {
		methods[i] = r.overloadOf(m)
	}
	rules := overload.Rules[jtype]{Convert: r.convert, Subtype: r.subtype, Elem: elem}
	if i, outcome := overload.Choose(methods, types, rules); outcome == overload.Chosen {
		return ms[i]
	}
	return -1
}

// argType returns the type of the argument whose Expr is a.
func (r *resolver) argType(a string, src int32) jtype {
	switch {
	case a == exprNull:
		return jtype{null: true}
	case a == exprFunction:
		return jtype{fn: true}
	case strings.HasPrefix(a, "?"):
		return unknownType
	}
	v, tg := r.eval(a, src)
	if v.kind == vNone { // a call: what it returns
		v = r.callResult(tg, src)
	}
	if v.kind != vValue || !v.t.known() || v.conf < 1 {
		return unknownType
	}
	return jtype{t: v.t}
}

// overloadOf returns the parameter types of method or constructor m.
func (r *resolver) overloadOf(m int32) overload.Method[jtype] {
	s, ok := r.sigs[m]
	if !ok { // a record component's accessor
		return overload.Method[jtype]{}
	}
	ps := make([]jtype, len(s.types))
	for i, p := range s.types {
		if strings.HasPrefix(p, "^") {
			ps[i] = unknownType
			continue
		}
		tr, _, _ := r.resolveType(p, m, 0)
		ps[i] = jtype{t: tr, unknown: !tr.known()}
	}
	return overload.Method[jtype]{Params: ps, Varargs: s.varargs}
}

// elem is the element type of an array type.
func elem(t jtype) jtype {
	if t.unknown || t.t.dims == 0 {
		return unknownType
	}
	t.t.dims--
	return t
}

// convert reports whether an argument of type a may be passed to a
// parameter of type p: by identity, widening and subtyping, and when
// loose by boxing and unboxing too.
func (r *resolver) convert(a, p jtype, loose bool) overload.Answer {
	switch {
	case a.unknown || p.unknown:
		return overload.Maybe
	case a.null:
		if isPrim(p.t) {
			return overload.No
		}
		return overload.Yes
	case a.fn:
		return r.functional(p.t)
	case isPrim(a.t) && isPrim(p.t):
		return primSub(a.t.prim, p.t.prim)
	case isPrim(a.t):
		if !loose {
			return overload.No
		}
		return r.refSub(tref{ext: boxes[a.t.prim]}, p.t)
	case isPrim(p.t):
		if !loose {
			return overload.No
		}
		if u := unboxes[a.t.ext]; u != "" && a.t.dims == 0 {
			return primSub(u, p.t.prim)
		}
		if a.t.t == nil && !strings.Contains(a.t.ext, ".") {
			return overload.Maybe // a name that did not resolve
		}
		return overload.No
	}
	return r.refSub(a.t, p.t)
}

// functional reports whether t may be a functional interface, the only
// type a lambda or a method reference converts to: not a primitive, an
// array, a class of the snapshot, Object or a final JDK class. (A method
// whose type variable erases to Object is no exception: a lambda cannot
// infer it.)
func (r *resolver) functional(t tref) overload.Answer {
	switch {
	case t.prim != "" || t.dims > 0:
		return overload.No
	case t.t != nil && !t.t.iface:
		return overload.No
	case t.t == nil && (t.ext == "java.lang.Object" || finalTypes[t.ext]):
		return overload.No
	}
	return overload.Maybe
}

// subtype reports whether s is t or a subtype of it.
func (r *resolver) subtype(s, t jtype) overload.Answer {
	switch {
	case s.unknown || t.unknown:
		return overload.Maybe
	case s.null:
		return r.convert(s, t, false)
	case isPrim(s.t) && isPrim(t.t):
		return primSub(s.t.prim, t.t.prim)
	case isPrim(s.t) || isPrim(t.t):
		return overload.No
	}
	return r.refSub(s.t, t.t)
}

// refSub reports whether the reference type s is t or a subtype of it.
// A type of the snapshot is a subtype of no type of the snapshot it does
// not extend, and no type outside it extends one of the snapshot.
func (r *resolver) refSub(s, t tref) overload.Answer {
	if t.t == nil && t.ext == "java.lang.Object" && t.dims == 0 {
		return overload.Yes
	}
	if s.dims > 0 || t.dims > 0 {
		switch {
		case t.dims == 0:
			if t.t == nil && (t.ext == "java.lang.Cloneable" || t.ext == "java.io.Serializable") {
				return overload.Yes
			}
			if t.t == nil && !strings.Contains(t.ext, ".") {
				return overload.Maybe
			}
			return overload.No
		case s.dims < t.dims:
			return overload.No
		}
		s.dims -= t.dims
		t.dims = 0
		if s.prim != "" || t.prim != "" { // arrays of primitives are related by identity only
			if s.prim == t.prim && s.dims == t.dims {
				return overload.Yes
			}
			return overload.No
		}
		return r.refSub(s, t)
	}
	switch {
	case s.prim != "" || t.prim != "":
		return overload.No
	case s.t != nil && t.t != nil:
		if r.isSubtype(s.t, t.t, 0) {
			return overload.Yes
		}
		return overload.No
	case s.t != nil:
		return r.extends(s.t, t.ext)
	case !strings.Contains(s.ext, "."):
		return overload.Maybe // a name that did not resolve
	case t.t != nil:
		return overload.No
	}
	return jdkSubtype(s.ext, t.ext)
}

// extends reports whether the snapshot's type s has the type outside
// the snapshot named ext among its supertypes.
func (r *resolver) extends(s *typeInfo, ext string) overload.Answer {
	ans := overload.No
	seen := make(map[*typeInfo]bool)
	var walk func(u *typeInfo, depth int)
	walk = func(u *typeInfo, depth int) {
		if seen[u] || depth > maxDepth || ans == overload.Yes {
			return
		}
		seen[u] = true
		for _, st := range u.supertypes() {
			switch {
			case st.t != nil:
				walk(st.t, depth+1)
			case st.ext != "":
				ans = max(ans, jdkSubtype(st.ext, ext))
			}
		}
	}
	walk(s, 0)
	if s.iface && ext == "java.lang.Object" {
		return overload.Yes
	}
	return ans
}
