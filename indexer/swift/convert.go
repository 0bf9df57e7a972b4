package swift

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/schemas"
)

// Overloads that take the same labels are told apart by the types of the
// arguments, through the package overload. Its strict phase is a call
// that needs neither a literal of another type than its default nor a
// value wrapped in an optional, the two conversions Swift ranks a
// solution down for; its loose phase allows both. Swift has no implicit
// numeric conversion. An argument's type is known without its optional
// mark (the Exprs drop it), so a value matches a parameter of its type
// only maybe, unless the parameter is optional.

// stype is the type of an argument or a parameter: a type of the
// snapshot (t >= 0) or one outside it by name, optional or not; a
// literal of a kind (lit: one of the literal Exprs); a closure; or one
// not known.
type stype struct {
	t       int32
	name    string
	opt     bool
	lit     string
	fn      bool
	unknown bool
}

var unknownType = stype{t: -1, unknown: true}

// closedTypes are types of the standard library and Foundation that are
// structs: no type is their subtype, and the only literals that adapt to
// them are of their kind.
var closedTypes = map[string]string{
	"Int": exprInt, "Int8": exprInt, "Int16": exprInt, "Int32": exprInt, "Int64": exprInt,
	"UInt": exprInt, "UInt8": exprInt, "UInt16": exprInt, "UInt32": exprInt, "UInt64": exprInt,
	"Double": exprFloat, "Float": exprFloat, "Float16": exprFloat, "Float80": exprFloat, "CGFloat": exprFloat,
	"String": exprString, "Substring": exprString, "Character": exprString, "StaticString": exprString,
	"Bool": exprBool,
	"Data": "", "Date": "", "URL": "", "UUID": "",
}

// defaults maps each literal to the type it has when nothing else is
// asked of it.
var defaults = map[string]string{exprInt: "Int", exprFloat: "Double", exprString: "String", exprBool: "Bool"}

// byTypes returns the one of cands, which all take the labels of call s
// made from src, that Swift calls, or -1 when the facts cannot tell.
// Overloads that leave a defaulted parameter out, or take a variadic one,
// are not ranked against each other: one is chosen only when the
// arguments exclude all others.
func (r *resolver) byTypes(cands []int32, s step, src int32) int32 {
	switch {
	case len(cands) == 1:
		return cands[0]
	case len(cands) == 0 || len(s.args) != len(s.labels):
		return -1
	}
	methods := make([]overload.Method[stype], len(cands))
	ranked := true
	for i, m := range cands {
		var exact bool
		methods[i].Params, exact = r.aligned(r.params[m], s.labels, m)
		ranked = ranked && exact
	}
	args := make([]stype, len(s.args))
	for i, a := range s.args {
		args[i] = r.argType(a, src)
	}
	rules := overload.Rules[stype]{Convert: r.convert, Subtype: r.subtype, Elem: func(stype) stype { return unknownType }}
	i, outcome := overload.Choose(methods, args, rules)
	if outcome != overload.Chosen {
		return -1
	}
	for j, m := range methods {
		if !ranked && j != i && !r.excluded(m.Params, args) {
			return -1
		}
	}
	return cands[i]
}

// aligned returns the types of the parameters of function m that a call
// with these labels passes its arguments to (unknown for a variadic
// one), and whether they are all its parameters, none variadic.
func (r *resolver) aligned(ps []param, labels []string, m int32) ([]stype, bool) {
	var out []stype
	exact := true
	i := 0
	for _, p := range ps {
		if i < len(labels) && (labels[i] == p.label || labels[i] == "*") {
			if p.variadic {
				exact = false
				out = append(out, unknownType)
				for i++; i < len(labels) && labels[i] == "_"; i++ {
					out = append(out, unknownType)
				}
				continue
			}
			out = append(out, r.paramType(p.typ, m))
			i++
			continue
		}
		exact = false
	}
	return out, exact
}

// excluded reports whether some argument cannot be passed to its
// parameter.
func (r *resolver) excluded(params, args []stype) bool {
	for i, a := range args {
		if i >= len(params) || r.convert(a, params[i], true) == overload.No {
			return true
		}
	}
	return false
}

// paramType returns the type of a parameter of function m, as the params
// fact writes it.
func (r *resolver) paramType(typ string, m int32) stype {
	if typ == "" {
		return unknownType
	}
	name, opt := strings.CutSuffix(typ, "?")
	t, ext, _ := r.resolveType(name, m, 0)
	switch {
	case t >= 0:
		return stype{t: t, opt: opt}
	case ext == name:
		return stype{t: -1, name: name, opt: opt}
	}
	return unknownType
}

// argType returns the type of the argument whose Expr is a, in a call
// made from src.
func (r *resolver) argType(a string, src int32) stype {
	switch a {
	case exprInt, exprFloat, exprString, exprBool, exprNil:
		return stype{t: -1, lit: a}
	case exprFn:
		return stype{t: -1, fn: true}
	}
	if strings.HasPrefix(a, "?") {
		return unknownType
	}
	if strings.HasPrefix(a, "{") && strings.HasSuffix(a, "}") {
		name := a[1 : len(a)-1]
		t, ext, _ := r.resolveType(name, src, 0)
		switch {
		case t >= 0:
			return stype{t: t}
		case ext == name:
			return stype{t: -1, name: name}
		}
		return unknownType
	}
	v := r.valueOf(a, src)
	switch {
	case v.why != "" || v.mod != "" || v.static || v.super || v.maybe:
		return unknownType
	case v.typ != "":
		return stype{t: -1, name: v.typ}
	case v.ext != "" || v.t < 0:
		return unknownType
	}
	return stype{t: v.t}
}

// valueOf evaluates Expr e, a value, called or not.
func (r *resolver) valueOf(e string, src int32) val {
	head, steps, ok := parse(e)
	switch {
	case !ok:
		return val{why: indexer.ReasonExpr}
	case head == "" && len(steps) > 0:
		return r.stepsValue(r.resultOf(r.unqualified(steps[0], src, 1), 1), steps[1:], src)
	}
	return r.stepsValue(r.headValue(head, src, 1), steps, src)
}

func (r *resolver) stepsValue(v val, steps []step, src int32) val {
	for _, s := range steps {
		v = r.stepValue(v, s, src, 1)
	}
	return v
}

// isClosed reports whether t is a closed type outside the snapshot.
func isClosed(t stype) bool {
	_, ok := closedTypes[t.name]
	return t.t < 0 && ok
}

// convert reports whether an argument of type a may be passed to a
// parameter of type p, strictly or loosely (see above).
func (r *resolver) convert(a, p stype, loose bool) overload.Answer {
	switch {
	case a.unknown || p.unknown:
		return overload.Maybe
	case a.fn:
		if isClosed(p) || p.t >= 0 && r.nodes[p.t].Kind != schemas.KindTypeAlias {
			return overload.No
		}
		return overload.Maybe
	case a.lit == exprNil:
		switch {
		case p.opt:
			return overload.Yes
		case p.t >= 0 || !isClosed(p) && p.name != "Any":
			return overload.Maybe // a type that nil may initialize
		}
		return overload.No
	case a.lit != "":
		return r.literal(a.lit, p, loose)
	}
	sub := r.sub(a, p)
	if p.opt && loose {
		return sub
	}
	return min(sub, overload.Maybe) // the argument may be optional, or not
}

// literal reports whether a literal of kind lit may be passed to a
// parameter of type p: strictly when p is the literal's default type,
// loosely to an optional one or to another type the literal initializes.
func (r *resolver) literal(lit string, p stype, loose bool) overload.Answer {
	if p.t >= 0 {
		switch {
		case r.nodes[p.t].Kind == schemas.KindInterface && !p.opt:
			return overload.Maybe // an extension may conform the default type
		case loose:
			return overload.Maybe // a type the literal may initialize
		}
		return overload.No
	}
	switch {
	case p.name == "Any":
		return overload.Maybe // ranked against a non-default literal type as Swift does, not modelled
	case p.name == defaults[lit]:
		if p.opt && !loose {
			return overload.No
		}
		return overload.Yes
	case isClosed(p):
		kind := closedTypes[p.name]
		if loose && (kind == lit || lit == exprInt && kind == exprFloat) {
			return overload.Yes
		}
		return overload.No
	case p.opt && !loose:
		return overload.No
	}
	return overload.Maybe // a protocol the default type conforms to, a type the literal initializes
}

// sub reports whether a value of type a is one of type p, optional marks
// left aside: the same type, a subclass or a conforming type of the
// snapshot, anything for Any.
func (r *resolver) sub(a, p stype) overload.Answer {
	switch {
	case p.t < 0 && p.name == "Any":
		return overload.Yes
	case a.t >= 0 && p.t >= 0:
		return r.subNode(a.t, p.t)
	case a.t < 0 && p.t < 0 && a.name == p.name:
		return overload.Yes
	case isClosed(a) && isClosed(p):
		if a.name == "CGFloat" && p.name == "Double" || a.name == "Double" && p.name == "CGFloat" {
			return overload.Maybe // converted implicitly
		}
		return overload.No
	case a.t >= 0 && isClosed(p):
		return overload.No
	case isClosed(a) && p.t >= 0:
		if r.nodes[p.t].Kind == schemas.KindInterface {
			return overload.Maybe // an extension may conform it
		}
		return overload.No
	}
	return overload.Maybe
}

// subNode reports whether type s of the snapshot is t or a subtype of it.
func (r *resolver) subNode(s, t int32) overload.Answer {
	if s == t {
		return overload.Yes
	}
	open := false
	seen := map[int32]bool{s: true}
	level := []int32{s}
	for d := 0; len(level) > 0 && d < maxDepth; d++ {
		var next []int32
		for _, u := range level {
			r.link(u, 0)
			open = open || r.open[u] != ""
			for _, p := range r.supers[u] {
				if p == t {
					return overload.Yes
				}
				if !seen[p] {
					seen[p] = true
					next = append(next, p)
				}
			}
		}
		level = next
	}
	if open && r.nodes[t].Kind == schemas.KindInterface {
		return overload.Maybe // an external supertype may conform to t
	}
	return overload.No
}

// subtype reports whether parameter type s is t or a subtype of it: what
// makes one overload more specific than another.
func (r *resolver) subtype(s, t stype) overload.Answer {
	switch {
	case s.unknown || t.unknown:
		return overload.Maybe
	case s.opt && !t.opt:
		return overload.No
	}
	return r.sub(s, t)
}
