package java

import (
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// step is one step of an Expr after its head: ".name", ".name(args)" (or
// "(args)" calling the head), "[]", "::name", "->j.k" or "=>k".
type step struct {
	op   byte     // '.', '(', '[', ':', '>', '='
	name string   // '>': "j.k"; '=': "k"
	args []string // the Exprs of the arguments
}

// parsed is an Expr split into its parts.
type parsed struct {
	guard string   // "T=q": valid where the type name T resolves to q
	anon  []string // the supertypes of the anonymous classes around, innermost first
	head  string   // a name, this, super, or "{T}"
	steps []step
}

// parseExpr splits an Expr (see expr.go); ok is false for a reason or
// what does not parse.
func parseExpr(e string) (p parsed, ok bool) {
	if strings.HasPrefix(e, "<") {
		i := strings.IndexByte(e, '>')
		if i < 0 {
			return p, false
		}
		p.guard, e = e[1:i], e[i+1:]
	}
	for strings.HasPrefix(e, "[") {
		i := strings.IndexByte(e, ']')
		for i > 0 && i+1 < len(e) && e[i+1] == '[' && i+2 < len(e) && e[i+2] == ']' { // [T[]]
			j := strings.IndexByte(e[i+1:], ']')
			i += j + 1
		}
		if i < 0 {
			return p, false
		}
		p.anon = append(p.anon, e[1:i])
		e = e[i+1:]
	}
	switch {
	case strings.HasPrefix(e, "{"):
		i := strings.IndexByte(e, '}')
		if i < 0 {
			return p, false
		}
		p.head, e = e[:i+1], e[i+1:]
	default:
		i := identEnd(e, 0)
		if i == 0 {
			return p, false
		}
		p.head, e = e[:i], e[i:]
	}
	for len(e) > 0 {
		switch {
		case e[0] == '(':
			args, rest, ok := splitArgs(e)
			if !ok {
				return p, false
			}
			if k := len(p.steps) - 1; k >= 0 && p.steps[k].op == '.' {
				p.steps[k].op, p.steps[k].args = '(', args
			} else {
				p.steps = append(p.steps, step{op: '(', args: args})
			}
			e = rest
		case strings.HasPrefix(e, "[]"):
			p.steps = append(p.steps, step{op: '['})
			e = e[2:]
		case strings.HasPrefix(e, "=>"): // =>k: parameter k of a lambda of that type
			k := digitsEnd(e, 2)
			if k == 2 {
				return p, false
			}
			p.steps = append(p.steps, step{op: '=', name: e[2:k]})
			e = e[k:]
		case strings.HasPrefix(e, "->"): // ->j.k: parameter k of the lambda that is argument j
			j := digitsEnd(e, 2)
			if j == 2 || j+1 >= len(e) || e[j] != '.' {
				return p, false
			}
			k := digitsEnd(e, j+1)
			if k == j+1 {
				return p, false
			}
			p.steps = append(p.steps, step{op: '>', name: e[2:k]})
			e = e[k:]
		case strings.HasPrefix(e, "::"):
			i := identEnd(e, 2)
			if i == 2 {
				return p, false
			}
			p.steps = append(p.steps, step{op: ':', name: e[2:i]})
			e = e[i:]
		case e[0] == '.':
			i := identEnd(e, 1)
			if i == 1 {
				return p, false
			}
			p.steps = append(p.steps, step{op: '.', name: e[1:i]})
			e = e[i:]
		default:
			return p, false
		}
	}
	return p, true
}

// digitsEnd returns the end of the decimal digits of s from p.
func digitsEnd(s string, p int) int {
	for p < len(s) && s[p] >= '0' && s[p] <= '9' {
		p++
	}
	return p
}

// splitArgs splits "(a,b)rest" into the argument Exprs a and b and rest.
func splitArgs(e string) (args []string, rest string, ok bool) {
	depth, from := 0, 1
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				if i > from || len(args) > 0 {
					args = append(args, e[from:i])
				}
				return args, e[i+1:], true
			}
		case ',':
			if depth == 1 {
				args = append(args, e[from:i])
				from = i + 1
			}
		}
	}
	return nil, "", false
}

// vkind is what (part of) an Expr evaluates to.
type vkind uint8

const (
	vNone    vkind = iota
	vPackage       // a package of the snapshot, or a prefix of one
	vType          // a type, named
	vValue         // a value of a type
	vSuper         // super: the enclosing class's instance, seen as its superclass
)

// value is the result of evaluating (part of) an Expr.
type value struct {
	kind vkind
	t    tref
	pkg  string  // vPackage
	how  string  // resolution of the last step
	conf float32 // 1, or less when an unknown supertype could interfere
	why  string  // vNone: why nothing
	// self is the enclosing class when the value is its this (written or
	// implied): the type variables of that class and of its outer ones
	// stand for their bounds in the members reached from it.
	self *typeInfo
}

func none(why string) value { return value{kind: vNone, why: why} }

// external returns the reason of a member of t when t is outside the
// snapshot (or not a class), or "".
func external(t tref) string {
	switch {
	case t.dims > 0:
		return reasonArray
	case t.prim != "":
		return reasonPrimitive
	case t.t == nil && t.ext != "":
		return reasonExternal + t.ext
	}
	return ""
}

// target is what a call, an instantiation or a reference resolved to.
type target struct {
	node  int32 // -1 when unresolved
	how   string
	conf  float32
	res   string // resolved (""), schemas.Ambiguous or schemas.Unresolved
	why   string
	skip  bool      // no edge: a call of an implicit default constructor, or of Object's
	self  *typeInfo // the method was reached through this (see value)
	cands []int32   // ambiguous: the overloads that take the arguments
	// A qualified call: the value it was made on, the name and the
	// arguments.
	recv value
	name string
	args []string
}

func miss(why string) target { return target{node: -1, res: schemas.Unresolved, why: why} }

func ambiguous() target {
	return target{node: -1, res: schemas.Ambiguous, why: reasonAmbiguous}
}

// reasonOf turns the reason of an Expr ("?local") into words.
func reasonOf(e string) string {
	switch e {
	case indexer.ExprLocal, exprReceiver:
		return indexer.ReasonUnknownType
	case exprTypeVar:
		return reasonTypeVar
	case exprAnonymous:
		return reasonAnonymous
	}
	return indexer.ExprReason(e)
}

// eval evaluates an Expr in the context of node src. When the Expr ends
// with a call or a method reference, the target says what it reaches.
func (r *resolver) eval(e string, src int32) (value, target) {
	if strings.HasPrefix(e, "?") {
		why := reasonOf(e)
		return none(why), miss(why)
	}
	p, ok := parseExpr(e)
	if !ok {
		return none(indexer.ReasonExpr), miss(indexer.ReasonExpr)
	}
	if p.guard != "" && !r.guardHolds(p.guard, src) {
		return none(indexer.ReasonUnknownType), miss(indexer.ReasonUnknownType)
	}
	var v value
	steps := p.steps
	switch {
	case strings.HasPrefix(p.head, "{"):
		tr, _, why := r.typeRef(p.head[1:len(p.head)-1], src, 0)
		if !tr.known() {
			return none(why), miss(why)
		}
		v = value{kind: vValue, t: tr, how: schemas.ResolvedReceiver, conf: 1}
	case len(steps) > 0 && steps[0].op == '(' && steps[0].name == "":
		var tg target
		switch p.head {
		case "this", "super":
			tg = r.constructorCall(p.head, steps[0].args, src)
		default:
			tg = r.unqualified(p.head, steps[0].args, p.anon, src)
		}
		if len(steps) == 1 {
			return value{}, tg
		}
		if steps[1].op == '>' {
			return none(indexer.ReasonUnknownType), miss(indexer.ReasonUnknownType)
		}
		v, steps = r.resultOf(tg, src), steps[1:]
	case p.head == "this":
		t := r.enclosingType(src)
		if t == nil {
			return none(indexer.ReasonExpr), miss(indexer.ReasonExpr)
		}
		v = value{kind: vValue, t: thisType(t), how: schemas.ResolvedReceiver, conf: 1, self: t}
	case p.head == "super":
		t := r.enclosingType(src)
		if t == nil {
			return none(indexer.ReasonExpr), miss(indexer.ReasonExpr)
		}
		v = value{kind: vSuper, t: t.super, how: schemas.ResolvedReceiver, conf: 1}
		if t.iface {
			v.t = tref{ext: "java.lang.Object"}
		}
	default:
		v = r.name(p.head, p.anon, src)
		if len(steps) == 1 && steps[0].op == ':' && steps[0].name == "new" && v.kind != vType {
			// The left of X::new is a type, even where a variable of
			// that name hides it (a field URL of a Converter<URL>).
			if tr, how, _ := r.simpleType(p.head, src, r.fileOf(src), 0); tr.known() {
				v = value{kind: vType, t: tr, how: how, conf: 1}
			}
		}
	}
	for i := 0; i < len(steps); i++ {
		s := steps[i]
		last := i == len(steps)-1
		if v.kind == vNone {
			return v, miss(v.why)
		}
		switch s.op {
		case '.':
			if s.name == "super" && v.kind == vValue && v.t.t != nil { // T.super
				if !v.t.t.iface {
					v.t = v.t.t.super
				}
				v.kind, v.self = vSuper, nil
				break
			}
			v = r.member(v, s.name, src)
		case '[':
			switch {
			case v.kind != vValue:
				v = none(indexer.ReasonExpr)
			case v.t.dims == 0: // the variable of a for-each
				v = r.element(v)
			default:
				v.t.dims--
			}
		case '(':
			if !last && steps[i+1].op == '>' { // a parameter of a lambda argument
				v = r.lambdaParam(v, s.name, len(s.args), steps[i+1].name)
				i++
				if i == len(steps)-1 {
					return v, miss(indexer.ReasonExpr)
				}
				break
			}
			tg := r.callOn(v, s.name, s.args, src)
			tg.recv, tg.name, tg.args = v, s.name, s.args
			if last {
				return value{}, tg
			}
			v = r.callResult(tg, src)
		case '>':
			v = none(indexer.ReasonExpr)
		case '=':
			v = r.functionParam(v, s.name)
		case ':':
			if last {
				return value{}, r.methodRef(v, s.name)
			}
			v = none(indexer.ReasonExpr)
		}
	}
	if v.kind == vNone {
		return v, miss(v.why)
	}
	return v, miss(indexer.ReasonExpr)
}

// guardHolds reports whether the type name of guard "T=q" resolves to
// the type q outside the snapshot, seen from src: by a single-type
// import or as written, or by an on-demand import of q's package when no
// other on-demand import outside the snapshot could bring in a type of
// that name.
func (r *resolver) guardHolds(guard string, src int32) bool {
	name, q, _ := strings.Cut(guard, "=")
	tr, _, _ := r.resolveType(name, src, 0)
	switch {
	case tr.t != nil || tr.dims > 0:
		return false
	case tr.ext == q:
		return true
	case tr.ext != name || strings.Contains(name, "."):
		return false
	}
	f := r.fileOf(src)
	if f == nil || len(f.staticDemand) > 0 {
		return false
	}
	found := false
	for _, d := range f.demand {
		switch {
		case r.pkgs[d] != nil || len(r.byName[d]) > 0:
		case d+"."+name == q:
			found = true
		default:
			return false
		}
	}
	return found
}

// name evaluates a simple name used as a value: a field of the anonymous
// classes around or of the enclosing classes, a statically imported
// field, a type, a package.
func (r *resolver) name(name string, anon []string, src int32) value {
	open := ""
	for _, a := range anon {
		tr, _, _ := r.resolveType(a, src, 0)
		if tr.t == nil {
			continue
		}
		if v, ok := r.fieldValue(tr.t, name, schemas.ResolvedScope); ok {
			return v
		}
		if tr.t.open != "" && open == "" {
			open = tr.t.open
		}
	}
	for t := r.enclosingType(src); t != nil; t = r.outer(t) {
		if fi := r.field(t, name, 0); fi >= 0 {
			return r.typeOfField(fi, schemas.ResolvedScope, t, nil)
		}
		if t.open != "" && open == "" {
			open = t.open
		}
	}
	f := r.fileOf(src)
	if f != nil {
		for _, q := range f.staticSingle[name] {
			if v, ok := r.staticField(q, name, f); ok {
				return v
			}
		}
	}
	tr, how, why := r.simpleType(name, src, f, 0)
	if tr.known() {
		return value{kind: vType, t: tr, how: how, conf: 1}
	}
	if r.prefixes[name] {
		return value{kind: vPackage, pkg: name, how: schemas.ResolvedImport, conf: 1}
	}
	if f != nil {
		for _, q := range f.staticDemand {
			if v, ok := r.staticField(q, name, f); ok && v.kind != vNone {
				return v
			}
		}
	}
	switch {
	case open != "":
		return none(reasonExternal + open)
	case f != nil && len(f.staticSingle[name]) > 0:
		return none(reasonExternal + f.staticSingle[name][0])
	case name != "" && name[0] >= 'a' && name[0] <= 'z':
		return value{kind: vType, t: tref{ext: name}, how: schemas.ResolvedImport, conf: 1} // a package outside the snapshot
	}
	return none(why)
}

// staticField evaluates field name of type q, named by a static import.
func (r *resolver) staticField(q, name string, f *fileInfo) (value, bool) {
	ts := pick(r.byName[q], f)
	if len(ts) != 1 {
		if len(ts) == 0 {
			return none(reasonExternal + q), true
		}
		return value{}, false
	}
	if v, ok := r.fieldValue(ts[0], name, schemas.ResolvedImport); ok {
		return v, true
	}
	if ms := r.memberTypes(ts[0], name, 0); len(ms) == 1 {
		return value{kind: vType, t: tref{t: ms[0]}, how: schemas.ResolvedImport, conf: 1}, true
	}
	return value{}, false
}

// field finds the field name of t, its own or inherited (not a private
// one, nor a package-private one of another package).
func (r *resolver) field(t *typeInfo, name string, _ int) int32 {
	var find func(u *typeInfo, depth int) int32
	find = func(u *typeInfo, depth int) int32 {
		for _, f := range u.fields[name] {
			if u == t || r.inherits(t, u, f) {
				return f
			}
		}
		if depth > maxDepth {
			return -1
		}
		for _, s := range u.supertypes() {
			if s.t != nil {
				if f := find(s.t, depth+1); f >= 0 {
					return f
				}
			}
		}
		return -1
	}
	return find(t, 0)
}

// fieldValue evaluates field name of t as a value.
func (r *resolver) fieldValue(t *typeInfo, name, how string) (value, bool) {
	fi := r.field(t, name, 0)
	if fi < 0 {
		return value{}, false
	}
	return r.typeOfField(fi, how, nil, nil), true
}

// typeOfField is the value of field fi: its declared type, or the enum of
// an enum constant. It is read through a value of type recv or, when
// recv is nil, through the this of self, if any (see memberValue).
func (r *resolver) typeOfField(fi int32, how string, self *typeInfo, recv *tref) value {
	e, ok := r.typeOf[fi]
	if !ok {
		if p := r.parent(fi); p >= 0 && r.nodes[fi].Kind == schemas.KindConstant && r.types[p] != nil && r.types[p].enum {
			return value{kind: vValue, t: tref{t: r.types[p]}, how: how, conf: 1}
		}
		return none(reasonPrimitive)
	}
	v := r.memberValue(e, fi, recv, self)
	if v.kind == vValue {
		v.how = how
	}
	return v
}

// member evaluates v.name where name is not called: a field, a member
// type, a subpackage.
func (r *resolver) member(v value, name string, src int32) value {
	switch v.kind {
	case vPackage:
		q := v.pkg + "." + name
		if p := r.pkgs[v.pkg]; p != nil {
			if ts := p.types[name]; len(ts) > 0 {
				tr, why := one(pick(ts, r.fileOf(src)), q)
				if !tr.known() {
					return none(why)
				}
				return value{kind: vType, t: tr, how: schemas.ResolvedImport, conf: 1}
			}
		}
		if r.prefixes[q] {
			return value{kind: vPackage, pkg: q, how: schemas.ResolvedImport, conf: 1}
		}
		return none(reasonUnknownType + q)
	case vType, vValue, vSuper:
		if why := external(v.t); why != "" {
			if t, ok := jdkFields[v.t.ext+"."+name]; ok && v.kind == vType && v.t.t == nil && v.t.dims == 0 {
				return value{kind: vValue, t: t, how: v.how, conf: 1}
			}
			if v.kind == vType && v.t.t == nil && v.t.ext != "" && v.t.dims == 0 {
				v.t.ext += "." + name // a type or package outside the snapshot
				return v
			}
			if v.t.dims > 0 && name == "length" {
				return none(reasonPrimitive)
			}
			return none(why)
		}
		if fi := r.field(v.t.t, name, 0); fi >= 0 {
			var recv *tref
			if v.kind != vType {
				recv = &v.t
			}
			out := r.typeOfField(fi, schemas.ResolvedReceiver, v.self, recv)
			if v.kind == vType {
				out.how = v.how
			}
			return out
		}
		if v.kind == vType {
			if ts := r.memberTypes(v.t.t, name, 0); len(ts) > 0 {
				tr, why := one(ts, name)
				if !tr.known() {
					return none(why)
				}
				return value{kind: vType, t: tr, how: v.how, conf: 1}
			}
		}
		if v.t.t.open != "" {
			return none(reasonExternal + v.t.t.open)
		}
		return none(reasonUnknownMember + name)
	}
	return none(v.why)
}

// lookup is what a type's hierarchy holds under a method name.
type lookup struct {
	cands []int32    // the member methods: own and inherited, overridden ones left out
	ext   [][]string // known JDK methods of that name no candidate overrides: their parameters
	extOf []string   // and their types
	open  string     // a supertype whose members are not known
}

// methods collects the member methods named name of t, by Java's rules
// of inheritance (JLS 8.4.8): private methods, package-private ones of
// another package and static methods of interfaces are not inherited; a
// method overrides the ones of its supertypes with the same parameter
// types, and a class's concrete method those of its interfaces. Two
// abstract ones of unrelated types are one. A record component is its
// implicit accessor, unless the record declares it.
func (r *resolver) methods(t *typeInfo, name string) lookup {
	type cand struct {
		m    int32
		decl *typeInfo
	}
	var l lookup
	var all []cand
	var known [][]string
	var knownOf []string
	visited := make(map[*typeInfo]bool)
	var walk func(u *typeInfo, depth int)
	walk = func(u *typeInfo, depth int) {
		if visited[u] || depth > maxDepth {
			return
		}
		visited[u] = true
		accessor := true
		for _, m := range u.methods[name] {
			if s := r.sigs[m]; s.n == 0 && !s.varargs {
				accessor = false
			}
			if u == t || r.inherits(t, u, m) {
				all = append(all, cand{m, u})
			}
		}
		if c := r.component(u, name); c >= 0 && accessor {
			all = append(all, cand{c, u})
		}
		for _, s := range u.supertypes() {
			switch {
			case s.t != nil:
				walk(s.t, depth+1)
			case s.ext != "":
				if k := knownTypes[s.ext]; k != nil {
					for _, ps := range k.methods[name] {
						known, knownOf = append(known, ps), append(knownOf, s.ext)
					}
				} else if l.open == "" {
					l.open = s.ext
				}
			}
		}
	}
	walk(t, 0)
	if t.iface && len(known) == 0 { // an interface has Object's public methods
		for _, ps := range knownTypes["java.lang.Object"].methods[name] {
			known, knownOf = append(known, ps), append(knownOf, "java.lang.Object")
		}
	}
	overridden := make([]bool, len(all))
	for i, a := range all {
		ka := r.key(a.m)
		for j, b := range all {
			if i == j || b.decl == a.decl {
				continue
			}
			if r.key(b.m) != ka {
				if r.overridesBound(b.m, b.decl, a.m, a.decl) {
					overridden[i] = true
					break
				}
				continue
			}
			if r.isSubtype(b.decl, a.decl, 0) || a.decl.iface && !b.decl.iface && !r.nodes[b.m].IsAbstract {
				overridden[i] = true
				break
			}
		}
	}
	kept := make(map[string]*typeInfo)
	for i, a := range all {
		if overridden[i] {
			continue
		}
		k := r.key(a.m)
		if d, ok := kept[k]; ok && d != a.decl {
			continue // the same abstract method, from unrelated types
		}
		kept[k] = a.decl
		l.cands = append(l.cands, a.m)
	}
	for i, ps := range known {
		if !r.overrides(l.cands, ps) {
			l.ext, l.extOf = append(l.ext, ps), append(l.extOf, knownOf[i])
		}
	}
	return l
}

// inherits reports whether t inherits member m (a method, a field, a
// member type) of its supertype u.
func (r *resolver) inherits(t, u *typeInfo, m int32) bool {
	n := &r.nodes[m]
	switch {
	case n.Visibility == schemas.Private:
		return false
	case n.Visibility == schemas.Internal && u.file.pkg != t.file.pkg:
		return false
	case u.iface && n.IsStatic && n.Kind == schemas.KindMethod:
		return false
	}
	return true
}

// isSubtype reports whether b is a or one of its subtypes.
func (r *resolver) isSubtype(b, a *typeInfo, depth int) bool {
	if b == a {
		return true
	}
	if depth > maxDepth {
		return false
	}
	for _, s := range b.supertypes() {
		if s.t != nil && r.isSubtype(s.t, a, depth+1) {
			return true
		}
	}
	return false
}

// overrides reports whether one of cands overrides a JDK method with
// parameters ps.
func (r *resolver) overrides(cands []int32, ps []string) bool {
	for _, m := range cands {
		var types []string
		if s, ok := r.sigs[m]; ok {
			types = s.types
		} else if r.nodes[m].Kind != schemas.KindField {
			continue
		}
		if len(types) != len(ps) {
			continue
		}
		same := true
		for i, p := range ps {
			if p != "*" && p != simpleName(types[i]) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// key is what overriding compares of method m: its name and parameter
// types.
func (r *resolver) key(m int32) string {
	if s, ok := r.sigs[m]; ok {
		return s.key
	}
	if r.nodes[m].Kind == schemas.KindField { // a record component's accessor
		return r.nodes[m].Name + "()"
	}
	return r.nodes[m].Name + "#" + strconv.Itoa(int(m))
}

// byArity keeps the methods that take n arguments. When a fixed-arity
// method and variable-arity ones with the same leading parameters all
// take n, Java picks the fixed-arity one.
func (r *resolver) byArity(cands []int32, n int) []int32 {
	var out []int32
	for _, m := range cands {
		if r.nodes[m].Kind == schemas.KindField { // a record component's accessor
			if n == 0 {
				out = append(out, m)
			}
			continue
		}
		s, ok := r.sigs[m]
		if !ok || s.n == n && !s.varargs || s.varargs && n >= s.n-1 {
			out = append(out, m)
		}
	}
	if len(out) < 2 {
		return out
	}
	var fixed []int32
	for _, m := range out {
		if s, ok := r.sigs[m]; ok && !s.varargs {
			fixed = append(fixed, m)
		}
	}
	if len(fixed) != 1 {
		return out
	}
	fs := r.sigs[fixed[0]]
	for _, m := range out {
		s, ok := r.sigs[m]
		if m == fixed[0] {
			continue
		}
		if !ok || !s.varargs || s.n-1 != fs.n || !slices.Equal(s.types[:fs.n], fs.types) {
			return out
		}
	}
	return fixed
}

// component returns the record component name of t, or -1.
func (r *resolver) component(t *typeInfo, name string) int32 {
	if t == nil || !t.record {
		return -1
	}
	if fs := t.fields[name]; len(fs) == 1 && !r.nodes[fs[0]].IsStatic {
		return fs[0]
	}
	return -1
}

// choose picks the method of l that takes args, evaluated at src: by
// their number, then by their types. A JDK method that takes as many
// arguments makes the call ambiguous, or external.
func (r *resolver) choose(l lookup, name string, args []string, src int32, how string, conf float32) target {
	n := len(args)
	ms := r.byArity(l.cands, n)
	ext := ""
	for i, ps := range l.ext {
		if len(ps) == n {
			ext = l.extOf[i]
			break
		}
	}
	switch {
	case ext != "" && len(ms) == 0:
		return miss(reasonExternal + ext)
	case ext != "":
		return ambiguous()
	case len(ms) > 1:
		if m := r.byTypes(ms, args, src); m >= 0 {
			ms = []int32{m}
		}
	}
	switch {
	case len(ms) == 1:
		if l.open != "" {
			conf = min(conf, indexer.InheritedConfidence)
		}
		return target{node: ms[0], how: how, conf: conf}
	case len(ms) == 0:
		if l.open != "" {
			return miss(reasonExternal + l.open)
		}
		if len(l.ext) > 0 {
			return miss(reasonExternal + l.extOf[0])
		}
		if len(l.cands) == 0 {
			return miss(reasonUnknownMethod + name)
		}
		return miss("no overload of " + name + " with " + strconv.Itoa(n) + " arguments")
	}
	tg := ambiguous()
	tg.cands = ms
	return tg
}

// callOn resolves v.name(args).
func (r *resolver) callOn(v value, name string, args []string, src int32) target {
	switch v.kind {
	case vType, vValue, vSuper:
	case vPackage:
		return miss(reasonUnknownType + v.pkg)
	default:
		return miss(v.why)
	}
	if why := external(v.t); why != "" {
		if v.kind == vType && v.t.t == nil && v.t.ext != "" && strings.IndexByte(v.t.ext, '.') < 0 && v.t.ext[0] >= 'a' && v.t.ext[0] <= 'z' {
			return miss(reasonUnknownName + v.t.ext)
		}
		return miss(externalName(why))
	}
	t := v.t.t
	how := schemas.ResolvedReceiver
	if v.kind == vType {
		how = v.how
	}
	tg := r.choose(r.methods(t, name), name, args, src, how, v.conf)
	tg.self = v.self
	if v.kind == vType && tg.node >= 0 && r.nodes[tg.node].Kind == schemas.KindMethod && !r.nodes[tg.node].IsStatic {
		return miss(reasonNotStatic)
	}
	if v.kind == vType && tg.res == "" && tg.node >= 0 && r.nodes[tg.node].Kind == schemas.KindField {
		return miss(reasonNotStatic)
	}
	return tg
}

// externalName shortens "external type java.util.Objects.equals.x" to the
// type: the name up to its first capitalized part.
func externalName(why string) string {
	name, ok := strings.CutPrefix(why, reasonExternal)
	if !ok {
		return why
	}
	parts := strings.Split(name, ".")
	for i, p := range parts {
		if p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			return reasonExternal + strings.Join(parts[:i+1], ".")
		}
	}
	return reasonExternal + name
}

// unqualified resolves m(args): in the anonymous classes around, then
// the enclosing classes (the innermost with a method of that name), then
// the static imports.
func (r *resolver) unqualified(name string, args []string, anon []string, src int32) target {
	for _, a := range anon {
		tr, _, why := r.resolveType(a, src, 0)
		switch {
		case tr.t != nil:
			l := r.methods(tr.t, name)
			if len(l.cands) > 0 || len(l.ext) > 0 || l.open != "" {
				return r.choose(l, name, args, src, schemas.ResolvedScope, 1)
			}
		case tr.ext != "":
			if k := knownTypes[tr.ext]; k == nil || k.has(name) {
				return miss(reasonExternal + tr.ext)
			}
			if knownTypes["java.lang.Object"].has(name) {
				return miss(reasonExternal + "java.lang.Object")
			}
		default:
			return miss(why)
		}
	}
	for t := r.enclosingType(src); t != nil; t = r.outer(t) {
		l := r.methods(t, name)
		if len(l.cands) > 0 || len(l.ext) > 0 || l.open != "" {
			tg := r.choose(l, name, args, src, schemas.ResolvedScope, 1)
			tg.self = t
			return tg
		}
	}
	f := r.fileOf(src)
	if f == nil {
		return miss(reasonUnknownMethod + name)
	}
	for _, group := range [][]string{f.staticSingle[name], f.staticDemand} {
		var cands []int32
		var ext string
		for _, q := range group {
			ts := pick(r.byName[q], f)
			if len(ts) != 1 {
				if len(ts) == 0 && ext == "" {
					ext = q
				}
				continue
			}
			l := r.methods(ts[0], name)
			for _, m := range l.cands {
				if r.nodes[m].IsStatic {
					cands = append(cands, m)
				}
			}
			if l.open != "" && ext == "" {
				ext = l.open
			}
		}
		if len(cands) > 0 {
			return r.choose(lookup{cands: cands}, name, args, src, schemas.ResolvedImport, 1)
		}
		if ext != "" { // a static import of a type outside the snapshot
			return miss(reasonExternal + ext)
		}
	}
	return miss(reasonUnknownMethod + name)
}

// constructorCall resolves this(args) and super(args).
func (r *resolver) constructorCall(head string, args []string, src int32) target {
	t := r.enclosingType(src)
	if t == nil {
		return miss(indexer.ReasonExpr)
	}
	if head == "super" {
		if t.super.ext == "java.lang.Object" && t.super.dims == 0 && len(args) == 0 {
			return target{node: -1, skip: true} // Object's constructor, which does nothing
		}
		if why := external(t.super); why != "" || t.super.t == nil {
			if why == "" {
				why = indexer.ReasonExpr
			}
			return miss(why)
		}
		t = t.super.t
	}
	return r.constructor(t, args, src, schemas.ResolvedScope)
}

// constructor picks the constructor of t that takes args, evaluated at
// src; an implicit one (a class's default constructor, a record's
// canonical one when it declares none) makes no edge.
func (r *resolver) constructor(t *typeInfo, args []string, src int32, how string) target {
	n := len(args)
	ms := r.byArity(t.ctors, n)
	implicit := len(t.ctors) == 0 && n == 0 && !t.record || t.iface
	if t.record && n == t.canon.n {
		implicit = true
		for _, c := range t.ctors {
			if s := r.sigs[c]; s.n == t.canon.n && strings.TrimPrefix(s.key, "<init>") == strings.TrimPrefix(t.canon.key, r.nodes[t.node].Name) {
				implicit = false // declared
			}
		}
	}
	switch {
	case implicit && len(ms) > 0:
		return ambiguous()
	case implicit:
		return target{node: -1, skip: true}
	case len(ms) == 1:
		return target{node: ms[0], how: how, conf: 1}
	case len(ms) > 1:
		if m := r.byTypes(ms, args, src); m >= 0 {
			return target{node: m, how: how, conf: 1}
		}
		return ambiguous()
	}
	return miss("no constructor with " + strconv.Itoa(n) + " arguments")
}

// resultOf is the value a call returns: the declared result of the
// method it reaches. Overloads that all return the same type need not be
// told apart.
func (r *resolver) resultOf(tg target, src int32) value {
	var recv *tref
	if tg.recv.kind == vValue || tg.recv.kind == vSuper {
		recv = &tg.recv.t
	}
	if tg.node >= 0 {
		if r.nodes[tg.node].Kind == schemas.KindField { // a record accessor
			v := r.typeOfField(tg.node, schemas.ResolvedReceiver, tg.self, recv)
			v.conf = min(v.conf, tg.conf)
			return v
		}
		v := r.result(tg.node, tg.self, recv)
		v.conf = min(v.conf, tg.conf)
		return v
	}
	if len(tg.cands) > 1 { // overloads that all return the same type
		v := r.result(tg.cands[0], tg.self, recv)
		for _, m := range tg.cands[1:] {
			if w := r.result(m, tg.self, recv); v.kind != vValue || w.kind != vValue || !w.t.same(v.t) {
				return none(tg.why)
			}
		}
		return v
	}
	return none(tg.why)
}

// callResult is the value the call that reached tg returns: the declared
// result of the method of the snapshot, or of the JDK's (jdkResults) when
// a qualified call reached none.
func (r *resolver) callResult(tg target, src int32) value {
	v := r.resultOf(tg, src)
	if v.kind != vNone || tg.node >= 0 || len(tg.cands) > 0 || tg.name == "" {
		return v
	}
	if v, ok := r.genericResult(tg.recv, tg.name, tg.args, src); ok {
		return v
	}
	if t, ok := r.jdkResult(tg.recv, tg.name, len(tg.args)); ok {
		return value{kind: vValue, t: t, how: schemas.ResolvedReceiver, conf: 1}
	}
	return v
}

// jdkResult returns the type a JDK method recv.name(n arguments) returns,
// when jdkResults knows it.
func (r *resolver) jdkResult(recv value, name string, n int) (tref, bool) {
	if recv.kind != vValue && recv.kind != vType || recv.t.prim != "" {
		return tref{}, false
	}
	var result string
	if recv.t.t == nil && recv.t.dims == 0 {
		result = jdkResults[recv.t.ext+"."+name]
		for _, s := range jdkClosure(recv.t.ext) {
			if result == "" {
				result = jdkResults[s+"."+name]
			}
		}
	}
	if result == "" && recv.kind == vValue {
		for _, ps := range knownTypes["java.lang.Object"].methods[name] {
			if len(ps) == n {
				result = jdkResults["*."+name]
			}
		}
	}
	if result == "" {
		return tref{}, false
	}
	base, dims := splitDims(result)
	if primitives[base] {
		return tref{prim: base, dims: dims}, true
	}
	return tref{ext: base, dims: dims}, true
}

// result is the value method m returns, called on a value of type recv
// or, when recv is nil, on the this of self (see memberValue).
func (r *resolver) result(m int32, self *typeInfo, recv *tref) value {
	e, ok := r.results[m]
	if !ok {
		return none(reasonUnknownResult)
	}
	return r.memberValue(e, m, recv, self)
}

// bound turns the fact "?typevar{B}" of member m into "{B}" when m is
// reached through the this of self and declared by self itself: there,
// the type variable is self's own, whose static type is its bound. (A
// subclass, or a value of a parameterized type, may bind it to another.)
func (r *resolver) bound(e string, m int32, self *typeInfo) string {
	b, ok := strings.CutPrefix(e, exprTypeVar)
	if !ok || b == "" {
		return e
	}
	if strings.HasPrefix(b, "^") { // ^T{B}: the variable's name
		b = b[min(len(b), identEnd(b, 1)):]
	}
	if b != "" && self != nil && r.types[r.parent(m)] == self {
		return b
	}
	return exprTypeVar
}

// methodRef resolves v::name: the one method of that name (overloads
// cannot be told apart without types), or the constructor for new.
func (r *resolver) methodRef(v value, name string) target {
	switch v.kind {
	case vType, vValue, vSuper:
	default:
		return miss(v.why)
	}
	if why := external(v.t); why != "" {
		return miss(externalName(why))
	}
	t := v.t.t
	how := schemas.ResolvedReceiver
	if v.kind == vType {
		how = v.how
	}
	if name == "new" {
		if len(t.ctors) == 1 {
			return target{node: t.ctors[0], how: how, conf: 1}
		}
		return target{node: t.node, how: how, conf: 1}
	}
	l := r.methods(t, name)
	switch {
	case len(l.cands) == 1 && len(l.ext) == 0:
		conf := v.conf
		if l.open != "" {
			conf = min(conf, indexer.InheritedConfidence)
		}
		return target{node: l.cands[0], how: how, conf: conf}
	case len(l.cands) > 1 || len(l.cands) == 1 && len(l.ext) > 0:
		return ambiguous()
	case l.open != "":
		return miss(reasonExternal + l.open)
	case len(l.ext) > 0:
		return miss(reasonExternal + l.extOf[0])
	}
	return miss(reasonUnknownMethod + name)
}
