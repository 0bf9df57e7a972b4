package scala

import (
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/schemas"
)

// Overloads that take the same number of arguments are told apart by the
// arguments' types (SLS 6.26.3): the alternatives applicable to the
// arguments, by conformance and numeric widening (weak conformance), and
// among them the most specific, the one whose parameter types the others
// accept. Package overload runs that choice; the rules below are Scala's
// on the types the snapshot knows: the value types, String, Any, AnyRef,
// AnyVal, null and the project's templates with their declared parents,
// where no implicit conversion can be in play (implicits.go).
//
// The rest is left to the call's other facts: a named argument, a
// default or a repeated parameter decide only when one alternative
// alone may apply; alternatives of different templates (where Scala
// weighs the deriving one) decide nothing; and the chosen alternative
// must surely apply, for lookup stops at the first template with a
// member of the name, and a parent's alternatives, which lose to the
// deriving template's, apply when none of these does. When none of them
// applies, the receiver's single parent's are tried (member, resolve.go).

// stype is the type of an argument or a parameter: a template of the
// snapshot, a builtin, an Int literal, null, or not known.
type stype struct {
	t       int32
	b       string
	lit     bool
	null    bool
	byName  bool // a by-name parameter's, => T
	unknown bool
}

var unknownType = stype{t: -1, unknown: true}

// builtins maps the builtin types' names, as written, to the rules' names.
var builtins = map[string]string{
	"Byte": "Byte", "Short": "Short", "Char": "Char", "Int": "Int", "Long": "Long", "Float": "Float", "Double": "Double",
	"Boolean": "Boolean", "Unit": "Unit", "String": "String", "Any": "Any", "AnyRef": "AnyRef", "AnyVal": "AnyVal",
	"java.lang.String": "String", "Predef.String": "String", "scala.Predef.String": "String",
	"Object": "AnyRef", "java.lang.Object": "AnyRef",
}

// widening lists the types each value type weakly conforms to (SLS 3.5.3).
var widening = map[string]string{
	"Byte":  "Short Int Long Float Double",
	"Short": "Int Long Float Double",
	"Char":  "Int Long Float Double",
	"Int":   "Long Float Double",
	"Long":  "Float Double",
	"Float": "Double",
}

func isValueType(b string) bool {
	_, num := widening[b]
	return num || b == "Double" || b == "Boolean" || b == "Unit"
}

// argType returns the type of an argument as the Expr records it, seen
// from node ctx.
func (r *resolver) argType(a string, ctx int32) stype {
	switch {
	case a == argInt:
		return stype{t: -1, b: "Int", lit: true}
	case a == argNull:
		return stype{t: -1, null: true}
	case len(a) > 2 && a[0] == '{' && a[len(a)-1] == '}':
		return r.stypeOf(a[1:len(a)-1], ctx)
	case strings.HasPrefix(a, argPath):
		return r.pathType(a[len(argPath):], ctx)
	}
	return unknownType
}

// pathType returns the type of the value of a call-free Expr seen from
// node ctx: the declared type of the val or parameterless def it names,
// or an object.
func (r *resolver) pathType(e string, ctx int32) stype {
	head, _, headCall, steps, ok := parse(e)
	if !ok || headCall {
		return unknownType
	}
	var found []int32
	if !strings.HasPrefix(head, "{") {
		found, _, _, _ = r.lookup(head, ctx, r.isTerm, 0)
	}
	v := r.headValue(head, ctx, 0)
	for _, s := range steps {
		if s.call || r.takesArgs(found) || v.why != "" || v.ext != "" {
			return unknownType
		}
		switch {
		case v.pkg != "":
			found = r.byQName(indexer.JoinName(v.pkg, s.name), r.isTerm)
		default:
			found, _ = r.membersOf(v, s.name, r.isTerm, 0)
		}
		v = r.stepValue(v, s, 0)
	}
	if r.takesArgs(found) || v.maybe || v.super {
		return unknownType
	}
	if len(found) != 1 {
		return unknownType
	}
	m := found[0]
	if r.isObject(m) {
		return stype{t: m}
	}
	decl, ok := r.typeOf[m]
	if isDef(r.nodes[m].Kind) {
		decl, ok = r.results[m]
	}
	t, typed := strings.CutPrefix(decl, "{")
	if !ok || !typed || r.typeParamIn(m, t) || r.generic[m] {
		return unknownType // no declared type, or one the rules cannot read
	}
	return r.stypeOf(strings.TrimSuffix(t, "}"), m)
}

// typeParamIn reports whether the type t (Expr syntax, "}" after it)
// starts with a type parameter of node m or of a template around it.
func (r *resolver) typeParamIn(m int32, t string) bool {
	head, _, _ := strings.Cut(strings.TrimSuffix(t, "}"), ".")
	for i := m; i >= 0; i = r.parentOf(i) {
		n := &r.nodes[i]
		k := wordIndex(n.Signature, n.Name)
		if k < 0 {
			return true // a signature that does not name it: not known
		}
		rest := strings.TrimSpace(n.Signature[k+len(n.Name):])
		if !strings.HasPrefix(rest, "[") {
			continue
		}
		for _, p := range splitTop(rest[1 : closing(rest)-1]) {
			f := strings.FieldsFunc(p, func(c rune) bool { return !isIdentByte(byte(c)) || c > 127 })
			if len(f) > 0 && f[0] == head {
				return true
			}
		}
	}
	return false
}

// stypeOf resolves the type t as written seen from node ctx.
func (r *resolver) stypeOf(t string, ctx int32) stype {
	if u, ok := strings.CutPrefix(t, "=>"); ok {
		s := r.stypeOf(strings.TrimSpace(u), ctx)
		s.byName = true
		return s
	}
	if b, ok := strings.CutPrefix(t, "scala."); ok && isValueType(b) || t == "scala.String" {
		return stype{t: -1, b: b}
	}
	if typeName(t) != t {
		return unknownType // [] after a type with type arguments, a by-name or function type, ?
	}
	found, ext, _ := r.resolveType(t, ctx, 0)
	switch {
	case found >= 0 && r.nodes[found].Kind != schemas.KindTypeAlias:
		return stype{t: found}
	case ext == "":
		return unknownType
	}
	b, ok := builtins[ext]
	if !ok {
		return unknownType
	}
	// A name an import of the file brings may hide the builtin.
	head, _, _ := strings.Cut(t, ".")
	if f := r.files[r.nodes[ctx].File]; f != nil {
		if f.named[head] != "" {
			return unknownType
		}
		for _, w := range f.wild {
			if !safeImport(w) && !r.isPackage(w) && len(r.byQName(w, r.isTemplate)) == 0 {
				return unknownType
			}
		}
	}
	return stype{t: -1, b: b}
}

// convert reports whether an argument of type a applies to a parameter
// of type p: conformance or weak conformance.
func (r *resolver) convert(a, p stype, _ bool) overload.Answer {
	switch {
	case a.unknown || p.unknown:
		return overload.Maybe
	case p.b == "Any":
		return overload.Yes
	case a.null:
		switch {
		case p.b == "String" || p.b == "AnyRef":
			return overload.Yes
		case p.b != "" || r.isValueClass(p.t):
			return overload.No // null is no value of a value class
		case r.closed(p.t):
			return overload.Yes
		}
		return overload.Maybe
	case a.b != "" && p.b != "":
		return r.builtinConv(a, p)
	case a.b != "":
		if r.closed(p.t) {
			return overload.No
		}
		return overload.Maybe
	case p.b != "":
		switch {
		case p.b == "AnyRef" && r.nodes[a.t].Kind == schemas.KindClass && !r.isValueClass(a.t):
			return overload.Yes
		case r.closed(a.t) && p.b != "AnyRef" && p.b != "AnyVal":
			return overload.No
		}
		return overload.Maybe
	}
	return r.derives(a.t, p.t)
}

// builtinConv reports whether builtin a applies to builtin p.
func (r *resolver) builtinConv(a, p stype) overload.Answer {
	switch {
	case a.b == p.b || strings.Contains(" "+widening[a.b]+" ", " "+p.b+" "):
		return overload.Yes
	case a.lit && (p.b == "Byte" || p.b == "Short" || p.b == "Char"):
		return overload.Maybe // when the literal's value fits
	case p.b == "AnyVal":
		if isValueType(a.b) {
			return overload.Yes
		}
		return overload.No
	case p.b == "AnyRef":
		if a.b == "String" || a.b == "AnyRef" {
			return overload.Yes
		}
		return overload.Maybe
	}
	return overload.No
}

// subtype reports whether a parameter of type s is as specific as one of
// type t: t accepts an argument of type s.
func (r *resolver) subtype(s, t stype) overload.Answer {
	if s.byName || t.byName {
		return overload.Maybe
	}
	return r.convert(s, t, false)
}

// closed reports whether template t and its parents all are in the
// snapshot (or parents the rules know).
func (r *resolver) closed(t int32) bool {
	closed := true
	r.ancestors(t, func(a int32) bool {
		if r.lost[a] {
			closed = false
		}
		return closed
	})
	return closed
}

// isValueClass reports whether template t extends AnyVal.
func (r *resolver) isValueClass(t int32) bool {
	for _, b := range r.parents[t] {
		if b.expr == "AnyVal" || b.expr == "scala.AnyVal" {
			return true
		}
	}
	return false
}

// ancestors calls visit on template t and each template it derives from,
// until visit returns false.
func (r *resolver) ancestors(t int32, visit func(int32) bool) {
	seen := map[int32]bool{}
	var walk func(u int32, depth int) bool
	walk = func(u int32, depth int) bool {
		if seen[u] || depth > maxDepth {
			return true
		}
		seen[u] = true
		r.link(u, depth+1)
		if !visit(u) {
			return false
		}
		for _, s := range r.supers[u] {
			if !walk(s, depth+1) {
				return false
			}
		}
		return true
	}
	walk(t, 0)
}

// derives reports whether the snapshot's template s is t or derives from
// it. A parent that did not resolve leaves the answer open.
func (r *resolver) derives(s, t int32) overload.Answer {
	ans := overload.No
	r.ancestors(s, func(a int32) bool {
		switch {
		case a == t:
			ans = overload.Yes
			return false
		case r.lost[a]:
			ans = overload.Maybe
		}
		return true
	})
	return ans
}

// param is a parameter of an alternative.
type param struct {
	name     string
	typ      string
	def      bool // it has a default value
	repeated bool
}

// paramsOf returns the parameters of def, constructor or class i, their
// names when its signature tells them.
func (r *resolver) paramsOf(i int32) []param {
	var ps []param
	for _, s := range r.ptypes[i] {
		p := param{typ: s}
		if t, ok := strings.CutPrefix(p.typ, "..."); ok {
			p.typ, p.repeated = t, true
		}
		if t, ok := strings.CutSuffix(p.typ, "="); ok {
			p.typ, p.def = t, true
		}
		ps = append(ps, p)
	}
	names := paramNames(r.nodes[i].Signature, r.nodes[i].Name)
	if len(names) == len(ps) {
		for k := range ps {
			ps[k].name = names[k]
		}
	}
	return ps
}

// wordIndex returns where name stands in s as a word, or -1.
func wordIndex(s, name string) int {
	for k := 0; k+len(name) <= len(s); {
		i := strings.Index(s[k:], name)
		if i < 0 {
			return -1
		}
		i += k
		if (i == 0 || !isIdentByte(s[i-1])) && (i+len(name) == len(s) || !isIdentByte(s[i+len(name)])) {
			return i
		}
		k = i + 1
	}
	return -1
}

// paramNames returns the names of the first parameter list after name in
// a signature.
func paramNames(sig, name string) []string {
	i := wordIndex(sig, name)
	if i < 0 {
		return nil
	}
	s := strings.TrimSpace(sig[i+len(name):])
	if strings.HasPrefix(s, "[") {
		s = strings.TrimSpace(s[closing(s):])
	}
	if !strings.HasPrefix(s, "(") {
		return nil
	}
	s = s[1 : closing(s)-1]
	var names []string
	for _, part := range splitTop(s) {
		head, _, ok := strings.Cut(part, ":")
		f := strings.Fields(head)
		if !ok || len(f) == 0 {
			return nil
		}
		names = append(names, f[len(f)-1])
	}
	return names
}

// closing returns the index after the bracket that closes s[0].
func closing(s string) int {
	depth := 0
	for i := range len(s) {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// byTypes picks among cands (defs, secondary constructors, or a class for
// its primary constructor) the one a call with arguments args, made by
// node ctx, invokes.
func (r *resolver) byTypes(cands []int32, args []string, ctx int32) (int32, overload.Outcome) {
	types := make([]stype, len(args))
	names := make([]string, len(args))
	for i, a := range args {
		if a == argSplat {
			return -1, overload.Ambiguous
		}
		if n, v, ok := strings.Cut(a, "="); ok {
			if found, _, _, _ := r.lookup(n, ctx, r.isTerm, 0); len(found) > 0 {
				return -1, overload.Ambiguous // maybe an assignment to n
			}
			names[i], a = n, v
		}
		types[i] = r.argType(a, ctx)
	}
	involved := slices.Clone(types)
	type alt struct {
		node     int32
		method   overload.Method[stype]
		app      overload.Answer
		defaults bool
		repeated bool
	}
	var alts []alt
	for _, c := range cands {
		ps := r.paramsOf(c)
		if len(ps) > 0 && ps[0].name == "" && slices.ContainsFunc(names, func(n string) bool { return n != "" }) {
			return -1, overload.Ambiguous // named arguments, and parameters of unknown names
		}
		slots, defaults, ok := bind(ps, names)
		if !ok {
			continue
		}
		a := alt{node: c, app: overload.Yes, defaults: defaults}
		for i, k := range slots {
			p := unknownType
			if k >= 0 {
				p = r.stypeOf(ps[k].typ, c)
				a.repeated = a.repeated || ps[k].repeated
			}
			involved = append(involved, p)
			a.app = min(a.app, r.convert(types[i], p, false))
		}
		for _, p := range ps {
			a.method.Params = append(a.method.Params, r.stypeOf(p.typ, c))
		}
		if a.app != overload.No {
			alts = append(alts, a)
		}
	}
	if !r.safeAt(ctx, involved) {
		return -1, overload.Ambiguous
	}
	// Alternatives that need a default argument drop out when one that
	// does not surely applies.
	for _, a := range alts {
		if a.app == overload.Yes && !a.defaults {
			alts = slices.DeleteFunc(alts, func(b alt) bool { return b.defaults })
			break
		}
	}
	switch {
	case len(alts) == 0:
		return -1, overload.None
	case len(alts) == 1 && alts[0].app == overload.Yes:
		return alts[0].node, overload.Chosen
	case len(alts) == 1:
		return -1, overload.Ambiguous // a parent's alternative may apply when this one does not
	}
	var ms []overload.Method[stype]
	for _, a := range alts {
		if a.defaults || a.repeated || slices.ContainsFunc(names, func(n string) bool { return n != "" }) || len(a.method.Params) != len(args) {
			return -1, overload.Ambiguous
		}
		if r.ownerName(a.node) != r.ownerName(alts[0].node) {
			return -1, overload.Ambiguous // the deriving template's alternative weighs more
		}
		ms = append(ms, a.method)
	}
	rules := overload.Rules[stype]{Convert: r.convert, Subtype: r.subtype, Elem: func(stype) stype { return unknownType }}
	i, outcome := overload.Choose(ms, types, rules)
	switch {
	case outcome != overload.Chosen:
		return -1, outcome
	case alts[i].app != overload.Yes:
		return -1, overload.Ambiguous // a parent's alternative may apply when none of these does
	}
	return alts[i].node, outcome
}

// takesArgs reports whether one of found is a def that takes arguments.
func (r *resolver) takesArgs(found []int32) bool {
	for _, m := range found {
		if isDef(r.nodes[m].Kind) && (r.sigs[m].total > 0 || r.sigs[m].variadic) {
			return true
		}
	}
	return false
}

// ownerName returns the qualified name of the template an alternative
// belongs to: a class for its primary constructor, or the one declaring
// a def or secondary constructor (an object and its companion class
// share it).
func (r *resolver) ownerName(m int32) string {
	if r.isTemplate(m) {
		return r.nodes[m].QualifiedName
	}
	if p := r.parentOf(m); p >= 0 {
		return r.nodes[p].QualifiedName
	}
	return indexer.ParentName(r.nodes[m].QualifiedName)
}

// bind maps a call's arguments (names[i] set for a named one) to the
// parameters ps: the parameter each takes, -1 for a repeated
// parameter's further elements of unknown type... It reports whether a
// parameter the call leaves out has a default, and false when the
// arguments do not fit.
func bind(ps []param, names []string) (slots []int, defaults, ok bool) {
	given := make([]bool, len(ps))
	slots = make([]int, len(names))
	for i, n := range names {
		k := i
		if n != "" {
			k = slices.IndexFunc(ps, func(p param) bool { return p.name == n })
			if k < 0 {
				return nil, false, false
			}
		} else if k >= len(ps) {
			if len(ps) == 0 || !ps[len(ps)-1].repeated {
				return nil, false, false
			}
			k = len(ps) - 1
		}
		if given[k] && !ps[k].repeated {
			return nil, false, false
		}
		given[k], slots[i] = true, k
	}
	for k, p := range ps {
		switch {
		case given[k] || p.repeated:
		case p.def:
			defaults = true
		default:
			return nil, false, false
		}
	}
	return slots, defaults, true
}
