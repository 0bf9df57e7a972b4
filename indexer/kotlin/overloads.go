package kotlin

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/schemas"
)

// Overloads are told apart by the types of the arguments, by Kotlin's
// rules (no implicit numeric widening; an integer literal is an Int that
// adapts to Long, Short and Byte; T goes to T? and to its supertypes;
// null only to a nullable type; Any takes everything) and the package
// overload. Each candidate's parameters are first matched to the
// arguments as Kotlin does (in order, by name, the trailing lambda to the
// last parameter, the rest of the positional ones to a vararg), and left
// out when they cannot be or a parameter left without an argument has no
// default value; the most specific candidate is then the one whose
// parameters, as matched, are subtypes of every other's.

// tkind is what a ktype is.
type tkind uint8

const (
	tUnknown  tkind = iota // not known
	tClass                 // a class-like node of the snapshot
	tBuiltin               // a type of package kotlin the rules know (builtins)
	tExternal              // any other type, known by name only
	tVar                   // a type parameter
	tFunc                  // a function type
	tInt                   // an integer literal
	tNull                  // null
	tLambda                // a lambda or a value of function type
)

// ktype is the type of an argument or a parameter.
type ktype struct {
	kind  tkind
	class int32  // tClass: the node
	name  string // tBuiltin, tExternal: the name
	null  overload.Answer
}

var unknownType = ktype{kind: tUnknown, null: overload.Maybe}

// builtins are the types of package kotlin the rules know, with their
// supertypes (Any aside). The open ones (Any, Number, CharSequence,
// Comparable) may be supertypes of classes of the snapshot.
var builtins = map[string]string{
	"Int": "Number Comparable", "Long": "Number Comparable", "Short": "Number Comparable", "Byte": "Number Comparable",
	"Double": "Number Comparable", "Float": "Number Comparable", "Char": "Comparable", "Boolean": "Comparable",
	"String": "CharSequence Comparable", "Unit": "",
	"Any": "", "Number": "", "CharSequence": "", "Comparable": "",
}

func openBuiltin(name string) bool {
	return name == "Any" || name == "Number" || name == "CharSequence" || name == "Comparable"
}

// smallInts are the integer types an integer literal adapts to besides Int.
func smallInt(name string) bool { return name == "Long" || name == "Short" || name == "Byte" }

// param is one parameter of a function, as its params fact reads.
type param struct {
	name   string
	typ    string
	vararg bool
	def    bool
}

// paramsOf returns the parameters of function or constructor n, and
// false when they are not known.
func (r *resolver) paramsOf(n int32) ([]param, bool) {
	f := r.facts[r.nodes[n].ID][schemas.RefParams]
	if f == nil {
		return nil, false
	}
	if f.Expr == "" {
		return nil, true
	}
	var out []param
	for _, s := range strings.Split(f.Expr, ",") {
		var p param
		p.name, p.typ, _ = strings.Cut(s, ":")
		p.typ, p.vararg = strings.CutPrefix(p.typ, "...")
		p.typ, p.def = strings.CutSuffix(p.typ, "=")
		out = append(out, p)
	}
	return out, true
}

// paramKey returns the parameter types of function n, what an override
// shares with the function it overrides.
func (r *resolver) paramKey(n int32) string {
	ps, _ := r.paramsOf(n)
	var b strings.Builder
	for _, p := range ps {
		if p.vararg {
			b.WriteString("...")
		}
		b.WriteString(p.typ)
		b.WriteByte(',')
	}
	return b.String()
}

// paramType returns the type of a parameter declared by node n.
func (r *resolver) paramType(t string, n int32) ktype {
	switch {
	case t == "?" || t == "":
		return unknownType
	case strings.HasPrefix(t, "^"):
		return ktype{kind: tVar, null: overload.Maybe}
	}
	nullable := overload.No
	if s, ok := strings.CutSuffix(t, "?"); ok {
		t, nullable = s, overload.Yes
	}
	if t == "()" {
		return ktype{kind: tFunc, null: nullable}
	}
	k := r.named(t, r.nodes[n].File, r.nodes[n].ID)
	if k.kind != tUnknown {
		k.null = nullable
	}
	return k
}

// named returns the type named t (as written) in the context of node ctx
// of file file.
func (r *resolver) named(t, file string, ctx uint64) ktype {
	if i, _ := r.resolveType(t, file, ctx); i >= 0 {
		if r.nodes[i].Kind == schemas.KindTypeAlias {
			return unknownType
		}
		return ktype{kind: tClass, class: i}
	}
	if _, ok := builtins[strings.TrimPrefix(t, "kotlin.")]; ok {
		return ktype{kind: tBuiltin, name: strings.TrimPrefix(t, "kotlin.")}
	}
	return ktype{kind: tExternal, name: t}
}

// argType returns the type of an argument as the Expr writes it (see
// args.go), in the code of ref.Src.
func (r *resolver) argType(a string, ref *schemas.Ref, depth int) ktype {
	switch {
	case a == argUnknown || a == argSpread:
		return unknownType
	case a == argNull:
		return ktype{kind: tNull, null: overload.Yes}
	case a == argFn:
		return ktype{kind: tLambda, null: overload.No}
	case a == argInt:
		return ktype{kind: tInt, null: overload.No}
	case a == "this":
		if t := r.enclosing(ref.Src); t >= 0 {
			return ktype{kind: tClass, class: t, null: overload.No}
		}
		return unknownType
	case strings.HasPrefix(a, "{") && strings.HasSuffix(a, "}"):
		t := a[1 : len(a)-1]
		nullable := overload.No
		if s, ok := strings.CutSuffix(t, "?"); ok {
			t, nullable = s, overload.Yes
		}
		k := r.named(t, ref.File, ref.Src)
		k.null = nullable
		return k
	}
	head, steps, ok := parse(a)
	if !ok || strings.HasPrefix(head, "{") && len(steps) == 0 {
		return unknownType
	}
	v := r.eval(ref, head, steps, depth+1)
	switch {
	case v.t < 0:
		return unknownType
	case v.static && r.isObject(v.t):
		return ktype{kind: tClass, class: v.t, null: overload.No}
	case v.static:
		if c := r.companion(v.t); c >= 0 {
			return ktype{kind: tClass, class: c, null: overload.No}
		}
		return unknownType
	}
	return ktype{kind: tClass, class: v.t, null: v.null}
}

// convert reports whether an argument of type a may be passed to a
// parameter of type p.
func (r *resolver) convert(a, p ktype, _ bool) overload.Answer {
	if a.kind == tNull {
		switch {
		case p.kind == tUnknown || p.kind == tVar:
			return overload.Maybe
		case p.null == overload.Yes:
			return overload.Yes
		}
		return overload.No
	}
	ans := r.assign(a, p)
	if ans == overload.No || p.kind == tUnknown || p.kind == tVar {
		return ans
	}
	switch {
	case a.null == overload.Yes && p.null == overload.No:
		return overload.No
	case a.null == overload.Maybe && p.null == overload.No:
		return min(ans, overload.Maybe)
	}
	return ans
}

// assign reports whether a value of type a is one of type p, nullability
// aside.
func (r *resolver) assign(a, p ktype) overload.Answer {
	switch {
	case a.kind == tUnknown || p.kind == tUnknown || p.kind == tVar || a.kind == tVar:
		return overload.Maybe
	case p.kind == tBuiltin && p.name == "Any":
		return overload.Yes
	case a.kind == tLambda:
		switch p.kind {
		case tFunc:
			return overload.Yes
		case tBuiltin:
			return overload.No
		case tClass:
			if r.nodes[p.class].Kind != schemas.KindInterface {
				return overload.No
			}
		}
		return overload.Maybe
	case p.kind == tFunc:
		switch a.kind {
		case tInt, tBuiltin:
			return overload.No
		case tClass:
			if r.nodes[a.class].Kind == schemas.KindEnum {
				return overload.No
			}
		}
		return overload.Maybe
	case a.kind == tInt:
		switch {
		case p.kind == tBuiltin && (p.name == "Int" || p.name == "Number" || p.name == "Comparable"):
			return overload.Yes
		case p.kind == tBuiltin && smallInt(p.name):
			return overload.Maybe // when the value fits
		case p.kind == tBuiltin || p.kind == tClass:
			return overload.No
		}
		return overload.Maybe
	case a.kind == tBuiltin:
		switch p.kind {
		case tBuiltin:
			if a.name == p.name || strings.Contains(" "+builtins[a.name]+" ", " "+p.name+" ") {
				return overload.Yes
			}
			return overload.No
		case tClass:
			return overload.No
		}
		return overload.Maybe
	case a.kind == tClass:
		switch p.kind {
		case tClass:
			return r.derives(a.class, p.class)
		case tBuiltin:
			if !openBuiltin(p.name) {
				return overload.No
			}
		}
		return overload.Maybe
	}
	return overload.Maybe
}

// derives reports whether class s is class t or a subtype of it.
func (r *resolver) derives(s, t int32) overload.Answer {
	seen := map[int32]bool{}
	queue := []int32{s}
	ans := overload.No
	for len(queue) > 0 && len(seen) < 64 {
		c := queue[0]
		queue = queue[1:]
		if c == t {
			return overload.Yes
		}
		if seen[c] {
			continue
		}
		seen[c] = true
		sups, ext := r.supertypes(c)
		if ext {
			ans = overload.Maybe // an alias we do not follow may name t
		}
		queue = append(queue, sups...)
	}
	if len(queue) > 0 {
		return overload.Maybe
	}
	return ans
}

// subtype reports whether parameter type s is at least as specific as t.
func (r *resolver) subtype(s, t ktype) overload.Answer {
	switch {
	case s.kind == tUnknown || t.kind == tUnknown || s.kind == tVar || t.kind == tVar:
		return overload.Maybe
	case s.kind == tFunc && t.kind == tFunc:
		return overload.Maybe // their parameter types are not known
	case s.null == overload.Yes && t.null == overload.No:
		return overload.No
	case s.kind == tBuiltin && t.kind == tBuiltin && s.name != t.name && (s.name == "Int" || smallInt(s.name)) && smallInt(t.name):
		if s.name == "Int" {
			return overload.Yes // an integer literal prefers Int
		}
		return overload.Maybe
	}
	return r.assign(s, t)
}

// callArg is one argument of a call.
type callArg struct {
	name     string // a named argument's
	spread   bool
	trailing bool // the trailing lambda
	typ      ktype
}

// callArgs reads the arguments of a call in the code of ref.Src.
func (r *resolver) callArgs(args []string, ref *schemas.Ref, depth int) []callArg {
	out := make([]callArg, len(args))
	for i, a := range args {
		c := &out[i]
		if a == argLambda {
			c.trailing, a = true, argFn
		} else if j := strings.IndexByte(a, '='); j > 0 && isIdent(a[:j]) {
			c.name, a = a[:j], a[j+1:]
		}
		c.spread = a == argSpread
		c.typ = r.argType(a, ref, depth)
	}
	return out
}

// match returns the types of the parameters of ps the arguments args go
// to, in the order of the arguments, or false when ps cannot take them;
// and whether the call uses neither a vararg nor a default value.
func (r *resolver) match(n int32, ps []param, args []callArg) ([]ktype, bool, bool) {
	to := make([]int, len(args))
	used := make([]bool, len(ps))
	pos := 0
	for i, a := range args {
		k := -1
		switch {
		case a.trailing:
			k = len(ps) - 1
		case a.name != "":
			for j, p := range ps {
				if p.name == a.name {
					k = j
				}
			}
		default:
			if pos < len(ps) {
				k = pos
			}
		}
		if !a.trailing && (k < 0 || !ps[k].vararg || a.name != "") {
			pos++ // a named argument in its own position lets positional ones follow
		}
		if k < 0 || used[k] && !(ps[k].vararg && a.name == "" && !a.trailing) || a.spread && !ps[k].vararg {
			return nil, false, false
		}
		used[k], to[i] = true, k
	}
	plain := true
	for j, p := range ps {
		if !used[j] && !p.def && !p.vararg {
			return nil, false, false
		}
		plain = plain && used[j] && !p.vararg
	}
	types := make([]ktype, len(args))
	for i, k := range to {
		if args[i].spread {
			types[i] = unknownType
			continue
		}
		types[i] = r.paramType(ps[k].typ, n)
	}
	return types, true, plain
}

// choose returns the function of cands a call with arguments args
// invokes in the code of ref.Src, and whether it surely applies (Yes) or
// may (Maybe); -1 and why not otherwise.
func (r *resolver) choose(ref *schemas.Ref, cands []int32, args []string, depth int) (int32, overload.Answer, string) {
	as := r.callArgs(args, ref, depth)
	types := make([]ktype, len(as))
	for i, a := range as {
		types[i] = a.typ
	}
	var fits []int32
	var methods []overload.Method[ktype]
	var plain []bool
	for _, c := range cands {
		if !indexer.IsFunc(r.nodes[c].Kind) {
			continue
		}
		ps, ok := r.paramsOf(c)
		if !ok {
			return -1, overload.No, "ambiguous overload"
		}
		if m, ok, p := r.match(c, ps, as); ok {
			fits = append(fits, c)
			methods = append(methods, overload.Method[ktype]{Params: m})
			plain = append(plain, p)
		}
	}
	if len(fits) == 0 {
		if len(cands) == 0 {
			return -1, overload.No, "not found"
		}
		return -1, overload.No, "no overload takes these arguments"
	}
	rules := overload.Rules[ktype]{Convert: r.convert, Subtype: r.subtype, Elem: func(t ktype) ktype { return t }}
	i, outcome := overload.Choose(methods, types, rules)
	switch outcome {
	case overload.None:
		return -1, overload.No, "no overload takes these arguments"
	case overload.Ambiguous:
		if i = r.plainest(methods, types, plain); i < 0 {
			return -1, overload.No, "ambiguous overload"
		}
	}
	sure := overload.Yes
	for j, t := range types {
		sure = min(sure, r.convert(t, methods[i].Params[j], false))
	}
	return fits[i], sure, ""
}

// plainest breaks a tie between equally specific candidates the way
// Kotlin does: the one that uses neither a vararg nor a default value
// wins. It returns the one candidate of ms that surely applies, uses
// neither, is as specific as every other that may apply, and more
// specific than every one of those that uses neither too; or -1.
func (r *resolver) plainest(ms []overload.Method[ktype], args []ktype, plain []bool) int {
	applies := func(m overload.Method[ktype]) overload.Answer {
		a := overload.Yes
		for j, t := range args {
			a = min(a, r.convert(t, m.Params[j], false))
		}
		return a
	}
	specific := func(a, b overload.Method[ktype]) overload.Answer {
		s := overload.Yes
		for j := range a.Params {
			s = min(s, r.subtype(a.Params[j], b.Params[j]))
		}
		return s
	}
	found := -1
	for m := range ms {
		if !plain[m] || applies(ms[m]) != overload.Yes {
			continue
		}
		wins := true
		for c := range ms {
			if c == m || applies(ms[c]) == overload.No {
				continue
			}
			back := specific(ms[c], ms[m])
			if specific(ms[m], ms[c]) != overload.Yes || back == overload.Maybe || back == overload.Yes && plain[c] {
				wins = false
				break
			}
		}
		if wins {
			if found >= 0 {
				return -1
			}
			found = m
		}
	}
	return found
}
