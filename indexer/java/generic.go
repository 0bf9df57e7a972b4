package java

import (
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Type arguments: how a receiver's type flows through generics.
//
// Extraction keeps the type arguments of the types it writes where they
// tell what a member returns: locals, parameters, casts and creations
// ({java.util.List<Item>}), fields' and methods' type and result facts
// and supertypes (extends ArrayList<Item>). An argument is a type, "?"
// (a wildcard, or a type not known there), "+T" for ? extends T, "-T"
// for ? super T; a class's own type variable in a fact is "^T", and a
// result or field of that type reads ?typevar^T (see expr.go).
//
// The resolver reads them into tref.args, resolved where they were
// written. Reading a member of a value substitutes the value's type
// arguments for the type parameters of the class declaring the member
// (found in its signature), through the supertypes between them, each
// with its own arguments (env). The result of a JDK method comes from
// jdkGenerics, a declared table of the JDK's generic types, their generic
// supertypes and the members whose results, or whose lambda arguments'
// parameters, a type parameter gives: List<Item>.get(0) is an Item,
// Map<K, V>.entrySet() a Set<Map.Entry<K, V>>, list.forEach(i -> ...)
// binds i to an Item; jdkStatics gives the few static methods whose
// result follows their argument (Objects.requireNonNull,
// Collections.unmodifiableList). A for-each over an Iterable<T> gives T.
// A lambda assigned to a variable of a JDK functional interface type
// takes its parameters' types from the variable's type arguments.
// Overriding sees through type arguments too: a class's method taking
// the type its superclass's type variable is bound to overrides the
// superclass's method taking the variable (overridesBound).
//
// What Java erases stays unknown: a raw type's members are erased (a
// generic class's instance member read through a raw type, or a supertype
// named raw, gives no type arguments), as is a type variable no argument
// binds. A wildcard reads as its bound when it is ? extends T; ? and ?
// super T give nothing (but for a lambda's parameter, which ? super T
// types as T, JLS 9.9). A type whose JDK supertypes are not all in the
// table, or that declares a member of the name, is not read through it.

// targ is a type argument.
type targ struct {
	t    tref
	wild byte // 0: exactly t; '+': ? extends t; '-': ? super t; '?': unknown
}

// readable returns the type a value of type argument a has, when it is
// known: t itself, or the bound of ? extends t.
func (a targ) readable() (tref, bool) {
	if (a.wild == 0 || a.wild == '+') && a.t.known() {
		return a.t, true
	}
	return tref{}, false
}

// same reports whether t and u are the same type, arguments included.
func (t tref) same(u tref) bool {
	if t.t != u.t || t.ext != u.ext || t.prim != u.prim || t.dims != u.dims || t.tv != u.tv || len(t.args) != len(u.args) {
		return false
	}
	for i, a := range t.args {
		if b := u.args[i]; a.wild != b.wild || !a.t.same(b.t) {
			return false
		}
	}
	return true
}

// typeParams reads the names of the type parameters of a type from its
// signature ("public class Holder<T extends Item, U>").
func typeParams(sig, name string) []string {
	i := 0
	for {
		j := strings.Index(sig[i:], name)
		if j < 0 {
			return nil
		}
		i += j
		end := i + len(name)
		if (i == 0 || !isIdentByte(sig[i-1])) && !isIdentByte(at(sig, end)) {
			p := skipSpace(sig, end)
			if at(sig, p) != '<' {
				return nil
			}
			q := matching(sig, p)
			if q < 0 {
				return nil
			}
			var out []string
			for _, a := range splitTypeArgs(sig[p+1 : q]) {
				a = strings.TrimSpace(a)
				for strings.HasPrefix(a, "@") {
					a = strings.TrimSpace(a[skipAnnotation(a, 0):])
				}
				n := a[:identEnd(a, 0)]
				if n == "" {
					return nil
				}
				out = append(out, n)
			}
			return out
		}
		i = end
	}
}

// argsText returns the type arguments of a type in Expr form, without
// the angle brackets: "A,B" of "Map<A,B>[]".
func argsText(name string) string {
	i := strings.IndexByte(name, '<')
	j := strings.LastIndexByte(name, '>')
	if i < 0 || j < i {
		return ""
	}
	return name[i+1 : j]
}

// typeRef resolves a type in Expr form, seen from node ctx, with its
// type arguments.
func (r *resolver) typeRef(name string, ctx int32, depth int) (tref, string, string) {
	tr, how, why := r.resolveType(name, ctx, depth)
	if a := argsText(name); a != "" && tr.prim == "" && (tr.t != nil || tr.ext != "") {
		tr.args = r.typeArgs(a, ctx, depth+1)
	}
	return tr, how, why
}

// typeArgs resolves the type arguments a, seen from node ctx.
func (r *resolver) typeArgs(a string, ctx int32, depth int) []targ {
	parts := splitTypeArgs(a)
	out := make([]targ, len(parts))
	for i, p := range parts {
		var wild byte
		if p != "" && (p[0] == '+' || p[0] == '-') {
			wild, p = p[0], p[1:]
		}
		switch {
		case p == "?" || p == "" || depth > maxDepth:
			out[i] = targ{wild: '?'}
			continue
		case p[0] == '^':
			out[i] = targ{t: tref{tv: p[1:]}, wild: wild}
			continue
		}
		tr, _, _ := r.typeRef(p, ctx, depth)
		if !tr.known() {
			out[i] = targ{wild: '?'}
			continue
		}
		out[i] = targ{t: tr, wild: wild}
	}
	return out
}

// thisType is the type of this in t: t with its own type variables as
// arguments.
func thisType(t *typeInfo) tref {
	tr := tref{t: t}
	for _, p := range t.tparams {
		tr.args = append(tr.args, targ{t: tref{tv: p}})
	}
	return tr
}

// params returns the type parameters of t: a type of the snapshot's, or
// a JDK type of jdkGenerics.
func params(t tref) []string {
	switch {
	case t.t != nil:
		return t.t.tparams
	case jdkGenerics[t.ext] != nil:
		return jdkGenerics[t.ext].params
	}
	return nil
}

// env binds the type parameters of t to its arguments; ok is false for
// a raw type (or arguments of another number).
func env(t tref) (map[string]targ, bool) {
	ps := params(t)
	if len(ps) == 0 {
		return nil, true
	}
	if len(ps) != len(t.args) || t.dims > 0 {
		return nil, false
	}
	m := make(map[string]targ, len(ps))
	for i, p := range ps {
		m[p] = t.args[i]
	}
	return m, true
}

// subst replaces the type variables in t by what e binds them to: an
// unbound one becomes an unknown argument, and so does a wildcard within
// a wildcard.
func subst(t tref, e map[string]targ) targ {
	if t.tv != "" {
		if a, ok := e[t.tv]; ok {
			return a
		}
		return targ{wild: '?'}
	}
	if len(t.args) == 0 {
		return targ{t: t}
	}
	out := t
	out.args = make([]targ, len(t.args))
	for i, a := range t.args {
		s := subst(a.t, e)
		switch {
		case a.wild == '?' || s.wild == '?':
			s = targ{wild: '?'}
		case a.wild != 0 && s.wild != 0:
			s = targ{wild: '?'}
		case a.wild != 0:
			s.wild = a.wild
		}
		out.args[i] = s
	}
	return targ{t: out}
}

// supersOf lists the direct supertypes of t with t's type arguments
// substituted; ok is false when t is raw (its supertypes are erased) or
// a JDK type jdkGenerics does not list.
func (r *resolver) supersOf(t tref) ([]tref, bool) {
	e, ok := env(t)
	if !ok {
		return nil, false
	}
	var ss []tref
	switch {
	case t.t != nil:
		ss = t.t.supertypes()
	case jdkGenerics[t.ext] != nil:
		ss = jdkGenerics[t.ext].supers
	default:
		return nil, false
	}
	out := make([]tref, 0, len(ss))
	for _, s := range ss {
		a := subst(s, e)
		if a.wild != 0 {
			return nil, false
		}
		out = append(out, a.t)
	}
	return out, true
}

// asSuper returns the type arguments of t seen as its supertype want, a
// type of the snapshot. Java lets no type be a subtype of two
// parameterizations of one generic type, so the first path found is the
// one; ok is false when none is, or when a raw type on the way erases
// the arguments.
func (r *resolver) asSuper(t tref, want *typeInfo, depth int) ([]targ, bool) {
	if t.t == want {
		if _, ok := env(t); !ok {
			return nil, false
		}
		return t.args, true
	}
	if t.t == nil || depth > maxDepth {
		return nil, false
	}
	ss, ok := r.supersOf(t)
	if !ok {
		return nil, false
	}
	for _, s := range ss {
		if s.t != nil && r.isSubtype(s.t, want, 0) {
			return r.asSuper(s, want, depth+1)
		}
	}
	return nil, false
}

// memberEnv binds the type parameters of the class declaring member m
// (and of the classes around it), read through a value of type recv, or
// the this of self when recv is nil. ok is false where Java erases the
// member's type: read through a raw type, or through nothing known.
func (r *resolver) memberEnv(m int32, recv *tref, self *typeInfo) (map[string]targ, bool) {
	d := r.types[r.parent(m)]
	if d == nil || len(d.tparams) == 0 || r.nodes[m].IsStatic {
		return nil, true
	}
	var t tref
	switch {
	case recv != nil:
		t = *recv
	case self != nil:
		t = thisType(self)
	default:
		return nil, false
	}
	args, ok := r.asSuper(t, d, 0)
	if !ok {
		return nil, false
	}
	return env(tref{t: d, args: args})
}

// memberValue is the value of a member's type or result fact e (an Expr
// "{T}" or a reason), declared by member m and read through recv or the
// this of self: the type arguments substituted, or erased.
func (r *resolver) memberValue(e string, m int32, recv *tref, self *typeInfo) value {
	env, ok := r.memberEnv(m, recv, self)
	if name, isVar := classVar(e); isVar && ok && env != nil {
		if a, bound := env[name]; bound {
			if tr, ok := a.readable(); ok {
				return value{kind: vValue, t: tr, how: schemas.ResolvedReceiver, conf: 1}
			}
		}
	}
	e = r.bound(e, m, self)
	if !isTypeExpr(e) {
		return none(reasonOf(e))
	}
	tr, _, why := r.typeRef(e[1:len(e)-1], m, 0)
	if !tr.known() {
		return none(why)
	}
	if len(tr.args) > 0 {
		if ok {
			tr = subst(tr, env).t
		} else {
			tr.args = nil
		}
	}
	return value{kind: vValue, t: tr, how: schemas.ResolvedReceiver, conf: 1}
}

// classVar returns the name of the class's type variable a fact
// ?typevar^T{B} stands for.
func classVar(e string) (string, bool) {
	rest, ok := strings.CutPrefix(e, exprTypeVar+"^")
	if !ok {
		return "", false
	}
	if i := strings.IndexByte(rest, '{'); i >= 0 {
		rest = rest[:i]
	}
	return rest, rest != ""
}

// closedFor reports whether the members named name of the snapshot's
// type t are all known: t's hierarchy declares none, and each of its
// supertypes outside the snapshot is one jdkGenerics or knownTypes
// lists.
func (r *resolver) closedFor(t *typeInfo, name string) bool {
	if l := r.methods(t, name); len(l.cands) > 0 {
		return false
	}
	visited := make(map[*typeInfo]bool)
	var walk func(u *typeInfo, depth int) bool
	walk = func(u *typeInfo, depth int) bool {
		if visited[u] {
			return true
		}
		if depth > maxDepth {
			return false
		}
		visited[u] = true
		for _, s := range u.supertypes() {
			switch {
			case s.t != nil:
				if !walk(s.t, depth+1) {
					return false
				}
			case jdkGenerics[s.ext] == nil && knownTypes[s.ext] == nil:
				return false
			}
		}
		return true
	}
	return walk(t, 0)
}

// jdkMember finds the member name taking n arguments that jdkGenerics
// lists for t or its supertypes, and binds the type parameters of the
// type listing it.
func (r *resolver) jdkMember(t tref, name string, n int, depth int) (*genericMember, map[string]targ, bool) {
	if depth > maxDepth || t.dims > 0 || t.prim != "" {
		return nil, nil, false
	}
	if t.t != nil && depth == 0 && !r.closedFor(t.t, name) {
		return nil, nil, false
	}
	if t.t == nil {
		g := jdkGenerics[t.ext]
		if g == nil {
			return nil, nil, false
		}
		if m := g.members[name+"/"+strconv.Itoa(n)]; m != nil {
			e, ok := env(t)
			return m, e, ok
		}
	}
	ss, ok := r.supersOf(t)
	if !ok {
		return nil, nil, false
	}
	for _, s := range ss {
		if m, e, ok := r.jdkMember(s, name, n, depth+1); ok || m != nil {
			return m, e, ok
		}
	}
	return nil, nil, false
}

// genericResult is the value recv.name(args) returns by jdkGenerics.
func (r *resolver) genericResult(recv value, name string, args []string, src int32) (value, bool) {
	if recv.kind == vType && recv.t.t == nil && recv.t.ext != "" {
		return r.staticResult(recv.t.ext, name, args, src)
	}
	if recv.kind != vValue {
		return value{}, false
	}
	m, e, ok := r.jdkMember(recv.t, name, len(args), 0)
	if !ok || m.result == nil {
		return value{}, false
	}
	tr, ok := subst(*m.result, e).readable()
	if !ok {
		return value{}, false
	}
	return value{kind: vValue, t: tr, how: schemas.ResolvedReceiver, conf: recv.conf}, true
}

// staticResult is the value the static JDK method q.name(args) returns
// by jdkStatics.
func (r *resolver) staticResult(q, name string, args []string, src int32) (value, bool) {
	res, ok := jdkStatics[q+"."+name+"/"+strconv.Itoa(len(args))]
	if !ok {
		return value{}, false
	}
	as, _ := strings.CutSuffix(res, "($0)")
	if res != "$0" && as == res {
		return value{}, false
	}
	a, tg := r.eval(args[0], src)
	if a.kind == vNone { // a call: what it returns
		a = r.callResult(tg, src)
	}
	if a.kind != vValue || !a.t.known() {
		return value{}, false
	}
	if res == "$0" {
		return a, true
	}
	args0, ok := r.jdkArgs(a.t, as, 0)
	if !ok {
		return value{}, false
	}
	return value{kind: vValue, t: tref{ext: as, args: args0}, how: schemas.ResolvedReceiver, conf: a.conf}, true
}

// jdkArgs returns the type arguments of t seen as the JDK type q.
func (r *resolver) jdkArgs(t tref, q string, depth int) ([]targ, bool) {
	if t.t == nil && t.ext == q && t.dims == 0 {
		if _, ok := env(t); !ok {
			return nil, false
		}
		return t.args, true
	}
	if depth > maxDepth {
		return nil, false
	}
	ss, ok := r.supersOf(t)
	if !ok {
		return nil, false
	}
	for _, s := range ss {
		if a, ok := r.jdkArgs(s, q, depth+1); ok {
			return a, true
		}
	}
	return nil, false
}

// lambdaParam is the value of parameter k of the lambda that is argument
// j of recv.name(args), by jdkGenerics.
func (r *resolver) lambdaParam(recv value, name string, n int, jk string) value {
	if recv.kind != vValue {
		return none(indexer.ReasonUnknownType)
	}
	js, ks, _ := strings.Cut(jk, ".")
	j, _ := strconv.Atoi(js)
	k, _ := strconv.Atoi(ks)
	m, e, ok := r.jdkMember(recv.t, name, n, 0)
	if !ok || m.lambda != j || k >= len(m.params) {
		return none(indexer.ReasonUnknownType)
	}
	tr, ok := subst(m.params[k], e).readable()
	if !ok {
		return none(indexer.ReasonUnknownType)
	}
	return value{kind: vValue, t: tr, how: schemas.ResolvedReceiver, conf: recv.conf}
}

// element is the value of the variable of a for-each over v, an
// Iterable.
func (r *resolver) element(v value) value {
	args, ok := r.jdkArgs(v.t, "java.lang.Iterable", 0)
	if !ok || len(args) != 1 {
		return none(indexer.ReasonExpr)
	}
	if tr, ok := args[0].readable(); ok {
		return value{kind: vValue, t: tr, how: schemas.ResolvedReceiver, conf: v.conf}
	}
	return none(indexer.ReasonExpr)
}

// functionParam is the value of parameter k of a lambda whose target is
// a value v of a JDK functional interface type (functionalParams): the
// type argument that types it. A wildcard ? extends T or ? super T
// gives T there (JLS 9.9).
func (r *resolver) functionParam(v value, k string) value {
	i, _ := strconv.Atoi(k)
	if v.kind != vValue || v.t.t != nil || v.t.dims > 0 {
		return none(indexer.ReasonUnknownType)
	}
	for _, fp := range functionalParams {
		if fp.name != v.t.ext || len(v.t.args) != fp.n || i >= len(fp.params) {
			continue
		}
		if a := v.t.args[fp.params[i]]; a.wild != '?' && a.t.known() {
			return value{kind: vValue, t: a.t, how: schemas.ResolvedReceiver, conf: v.conf}
		}
	}
	return none(indexer.ReasonUnknownType)
}

// overridesBound reports whether method m of type t overrides method
// sm of its supertype st whose parameters are typed by st's type
// variable, bound to a type by t's view of st (write(JsonWriter,
// JsonElement) of a TypeAdapter<JsonElement> overrides its
// write(JsonWriter, T)). Params facts mark such a parameter with ^ and
// its erasure, not its name: st must have one type parameter.
func (r *resolver) overridesBound(m int32, t *typeInfo, sm int32, st *typeInfo) bool {
	s, ss := r.sigs[m], r.sigs[sm]
	if len(st.tparams) != 1 || r.nodes[m].Name != r.nodes[sm].Name || s.n != ss.n || s.varargs != ss.varargs ||
		!strings.Contains(strings.Join(ss.types, ","), "^") || !r.isSubtype(t, st, 0) {
		return false
	}
	args, ok := r.asSuper(thisType(t), st, 0)
	if !ok || len(args) != 1 || args[0].wild != 0 || !args[0].t.known() {
		return false
	}
	for i, p := range ss.types {
		if !strings.HasPrefix(p, "^") {
			if simpleName(p) != simpleName(s.types[i]) {
				return false
			}
			continue
		}
		_, dims := splitDims(p)
		want := args[0].t
		want.dims += dims
		got, _, _ := r.resolveType(s.types[i], m, 0)
		if got.t != want.t || got.ext != want.ext || got.prim != want.prim || got.dims != want.dims || want.tv != "" {
			return false
		}
	}
	return true
}
