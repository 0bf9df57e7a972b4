package rust

import (
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// evalType evaluates a normalized type (see expr.go) seen from node at.
func (r *resolver) evalType(t string, at int32) *typeVal {
	k := typeKey{t, at}
	if v, ok := r.typeMemo[k]; ok {
		return v
	}
	if r.busy[k] || r.depth > maxHops {
		return &typeVal{node: -1, why: reasonTooDeep}
	}
	r.busy[k] = true
	r.depth++
	v := r.evalTypeWith(t, at, nil)
	r.depth--
	delete(r.busy, k)
	r.typeMemo[k] = v
	return v
}

// evalTypeWith evaluates t with the generic parameters of a type alias
// bound to the arguments it was given.
func (r *resolver) evalTypeWith(t string, at int32, subst map[string]*typeVal) *typeVal {
	switch {
	case t == "" || t == "_":
		return unknownType
	case t == "Self":
		if s := r.selfType(at); s != nil {
			return s
		}
		return &typeVal{node: -1, why: reasonNoSelf}
	case t[0] == '[':
		return stdType("slice", []*typeVal{r.evalTypeWith(strings.TrimSuffix(t[1:], "]"), at, subst)})
	case strings.HasPrefix(t, "impl ") || strings.HasPrefix(t, "dyn "):
		_, bounds, _ := strings.Cut(t, " ")
		out := &typeVal{node: -1, dyn: true}
		for _, b := range strings.Split(bounds, "+") {
			segs, abs := splitPath(b)
			v := r.path(segs, abs, at, nsType, false)
			switch {
			case v.kind == vType && r.kind(v.node) == schemas.KindTrait:
				out.traits = append(out.traits, v.node)
			case v.kind == vExternal && out.crate == "":
				out.crate = v.reason
			}
		}
		return out
	}
	p, argText, _ := strings.Cut(t, "<")
	var args []*typeVal
	if argText != "" {
		for _, a := range splitTop(strings.TrimSuffix(argText, ">"), ',') {
			args = append(args, r.evalTypeWith(a, at, subst))
		}
	}
	if subst != nil {
		if s, ok := subst[p]; ok {
			return s
		}
	}
	segs, abs := splitPath(p)
	v := r.path(segs, abs, at, nsType, false)
	switch v.kind {
	case vType:
		switch r.kind(v.node) {
		case schemas.KindTrait:
			return &typeVal{node: -1, dyn: true, traits: []int32{v.node}}
		case schemas.KindTypeAlias:
			return r.alias(v.node, args)
		}
		return &typeVal{node: v.node}
	case vExternal:
		if v.reason == "std" || v.reason == "core" || v.reason == "alloc" {
			return stdType(v.name, args)
		}
		return &typeVal{node: -1, crate: v.reason, std: v.name}
	case vVariant: // Self { .. } and variant literals name a variant's enum
		return &typeVal{node: r.parent(v.node)}
	}
	why := v.reason
	if why == "" {
		why = indexer.ReasonUnknownType
	}
	return &typeVal{node: -1, why: why}
}

// alias evaluates a type alias given arguments: its generic parameters,
// read from its signature, stand for them.
func (r *resolver) alias(a int32, args []*typeVal) *typeVal {
	t, ok := r.typeFact[a]
	if !ok {
		return unknownType
	}
	if len(args) == 0 {
		return r.evalType(t, r.parent(a))
	}
	sig := r.nodes[a].Signature
	name := r.nodes[a].Name
	i := strings.Index(sig, name+"<")
	if i < 0 {
		return r.evalType(t, r.parent(a))
	}
	e := angleEnd(sig, i+len(name), len(sig))
	if e <= i {
		return r.evalType(t, r.parent(a))
	}
	g := &genScope{}
	g.addGenerics(sig[i+len(name) : e])
	subst := make(map[string]*typeVal)
	for k, n := range g.names {
		if k < len(args) {
			subst[n] = args[k]
		}
	}
	if r.depth > maxHops {
		return &typeVal{node: -1, why: reasonTooDeep}
	}
	r.depth++
	defer func() { r.depth-- }()
	return r.evalTypeWith(t, r.parent(a), subst)
}

// splitPath splits a::b::c, or ::a::b.
func splitPath(p string) (segs []string, abs bool) {
	if rest, ok := strings.CutPrefix(p, "::"); ok {
		abs, p = true, rest
	}
	return strings.Split(p, "::"), abs
}

// step is one step of an Expr after its head.
type step struct {
	op   byte // '.', '(', '?', '[' or ':' (a ::name after a qualified head)
	name string
}

// splitExpr splits an Expr into its head and steps.
func splitExpr(e string) (head string, steps []step, ok bool) {
	i := 0
	switch {
	case strings.HasPrefix(e, "<{"):
		j := strings.Index(e, "}>")
		if j < 0 {
			return "", nil, false
		}
		i = j + 2
	case strings.HasPrefix(e, "{"):
		depth := 0
		for i = 0; i < len(e); i++ {
			if e[i] == '{' {
				depth++
			} else if e[i] == '}' {
				if depth--; depth == 0 {
					i++
					break
				}
			}
		}
	default:
		for i < len(e) && e[i] != '.' && e[i] != '(' && e[i] != '?' && e[i] != '[' {
			i++
		}
	}
	head, s := e[:i], e[i:]
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "()"):
			steps, s = append(steps, step{op: '('}), s[2:]
		case strings.HasPrefix(s, "[]"):
			steps, s = append(steps, step{op: '['}), s[2:]
		case s[0] == '?':
			steps, s = append(steps, step{op: '?'}), s[1:]
		case s[0] == '.' || strings.HasPrefix(s, "::"):
			op, n := byte('.'), 1
			if s[0] == ':' {
				op, n = ':', 2
			}
			j := n
			for j < len(s) && s[j] != '.' && s[j] != '(' && s[j] != '?' && s[j] != '[' && s[j] != ':' {
				j++
			}
			steps, s = append(steps, step{op: op, name: s[n:j]}), s[j:]
		default:
			return head, steps, false
		}
	}
	return head, steps, true
}

// eval evaluates an Expr seen from node at. callee: the Expr is the callee
// of a call, whose last .name is a method.
func (r *resolver) eval(e string, at int32, callee bool) value {
	if e == "" {
		return unknown(reasonExpr)
	}
	if e[0] == '?' {
		switch e {
		case indexer.ExprLocal:
			return unknown(reasonLocal)
		case indexer.ExprLiteral:
			return ext("std", "")
		case exprReceiver:
			return unknown(indexer.ReasonUnknownType)
		case exprGeneric:
			return unknown(reasonGeneric)
		}
		return unknown(reasonExpr)
	}
	head, steps, ok := splitExpr(e)
	if !ok {
		return unknown(reasonExpr)
	}
	var v value
	switch {
	case head == "self":
		t := r.selfType(at)
		if t == nil {
			return unknown(reasonNoSelf)
		}
		v = value{kind: vValue, node: -1, t: t, res: schemas.ResolvedReceiver}
	case strings.HasPrefix(head, "<{"):
		v = r.qualified(head, at, steps)
		if len(steps) > 0 && steps[0].op == ':' {
			steps = steps[1:]
		}
	case head[0] == '{':
		v = value{kind: vValue, node: -1, t: r.evalType(head[1:len(head)-1], at), res: schemas.ResolvedReceiver}
	default:
		want := nsValue
		segs, abs := splitPath(head)
		v = r.path(segs, abs, at, want, false)
	}
	for i, st := range steps {
		if v.kind == vUnknown {
			if v.reason == reasonLocal || v.reason == reasonExpr {
				v.reason = indexer.ReasonUnknownType
			}
			return v
		}
		switch st.op {
		case '.':
			if i+1 < len(steps) && steps[i+1].op == '(' || i == len(steps)-1 && callee {
				v = r.method(v, st.name)
			} else {
				v = r.field(v, st.name)
			}
		case ':':
			v = r.member(v, st.name, nsValue)
		case '(':
			v = r.callResult(v)
		case '?':
			v = r.try(v)
		case '[':
			v = r.element(v)
		}
	}
	return v
}

// qualified evaluates <T as Trait>::name: T's item of that impl, else the
// trait's own item.
func (r *resolver) qualified(head string, at int32, steps []step) value {
	typ, trait, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(head, "<{"), "}>"), "} as {")
	if len(steps) == 0 || steps[0].op != ':' {
		return unknown(reasonExpr)
	}
	name := steps[0].name
	segs, abs := splitPath(trait)
	tr := r.path(segs, abs, at, nsType, false)
	if tr.kind == vExternal {
		return ext(tr.reason, name)
	}
	if tr.kind != vType || r.kind(tr.node) != schemas.KindTrait {
		return unknown(indexer.ReasonUnknownName)
	}
	t := r.evalType(typ, at)
	if t.node >= 0 {
		var cands []value
		for _, ti := range r.traitItems[t.node][name] {
			if ti.trait == tr.node {
				cands = append(cands, r.nodeValue(ti.item, schemas.ResolvedReceiver))
			}
		}
		if len(cands) > 0 {
			return pick(cands)
		}
	}
	if items := r.traitMember(tr.node, name, 0); len(items) > 0 {
		var cands []value
		for _, i := range items {
			cands = append(cands, r.nodeValue(i, tr.res))
		}
		return pick(cands)
	}
	return unknown(reasonNoMember)
}

// traitMember returns the items named name of trait t and its supertraits.
func (r *resolver) traitMember(t int32, name string, depth int) []int32 {
	if depth > maxHops {
		return nil
	}
	if items := r.kids[childKey{r.nodes[t].ID, name}]; len(items) > 0 {
		return items
	}
	var out []int32
	for _, s := range r.supers[t] {
		segs, abs := splitPath(s)
		if v := r.path(segs, abs, r.parent(t), nsType, false); v.kind == vType && r.kind(v.node) == schemas.KindTrait && v.node != t {
			for _, i := range r.traitMember(v.node, name, depth+1) {
				if !slices.Contains(out, i) {
					out = append(out, i)
				}
			}
		}
	}
	return out
}

// externalSuper reports whether trait t has a supertrait outside the
// snapshot, whose methods its values have too.
func (r *resolver) externalSuper(t int32, depth int) bool {
	if depth > maxHops {
		return false
	}
	for _, s := range r.supers[t] {
		segs, abs := splitPath(s)
		switch v := r.path(segs, abs, r.parent(t), nsType, false); {
		case v.kind == vExternal:
			return true
		case v.kind == vType && r.kind(v.node) == schemas.KindTrait && v.node != t && r.externalSuper(v.node, depth+1):
			return true
		}
	}
	return false
}

// instance returns the type of the values v stands for, if v is a value.
func (r *resolver) instance(v value) (*typeVal, bool) {
	switch v.kind {
	case vValue:
		return v.t, true
	case vConst:
		if t, ok := r.typeFact[v.node]; ok {
			return r.evalType(t, r.parent(v.node)), true
		}
		return unknownType, true
	case vVariant:
		return &typeVal{node: r.parent(v.node)}, true
	case vType:
		if r.kind(v.node) == schemas.KindStruct { // a unit struct
			return &typeVal{node: v.node}, true
		}
	}
	return nil, false
}

// method evaluates v.name where name is called: the method.
func (r *resolver) method(v value, name string) value {
	if v.kind == vExternal {
		return ext(v.reason, name)
	}
	t, ok := r.instance(v)
	if !ok {
		return unknown(indexer.ReasonUnknownType)
	}
	return r.methodOf(t, name, 0)
}

func (r *resolver) methodOf(t *typeVal, name string, depth int) value {
	switch {
	case depth > 4:
		return unknown(reasonTooDeep)
	case t.node >= 0:
		out := r.assoc(t.node, name)
		if out.kind == vFunc || out.kind == vConst {
			out.res = schemas.ResolvedReceiver
		}
		return out
	case t.dyn:
		var items []int32
		for _, tr := range t.traits {
			for _, i := range r.traitMember(tr, name, 0) {
				if !slices.Contains(items, i) {
					items = append(items, i)
				}
			}
		}
		switch {
		case len(items) == 1:
			return unknown(reasonDynamic + " via " + r.nodes[items[0]].QualifiedName)
		case len(items) > 1:
			return ambiguous(strconv.Itoa(len(items)) + " traits provide " + name)
		case t.crate != "":
			return ext(t.crate, name)
		case len(t.traits) == 0:
			return unknown("generic receiver without bounds")
		}
		for _, tr := range t.traits {
			if r.externalSuper(tr, 0) {
				return unknown(reasonExtTrait)
			}
		}
		return unknown(reasonNoMethod)
	case t.std != "" && stdKinds[t.std] == "ptr" && !pointerMethods[name]:
		return r.methodOf(t.arg(0), name, depth+1)
	case t.crate != "":
		out := ext(t.crate, name)
		out.t = t
		return out
	}
	why := t.why
	if why == "" {
		why = indexer.ReasonUnknownType
	}
	return unknown(why)
}

// assoc finds the item name of type t: in its inherent impls, then in its
// trait impls (several traits: ambiguous), then among the default items
// of the traits it implements.
func (r *resolver) assoc(t int32, name string) value {
	if items := r.inherent[t][name]; len(items) > 0 {
		var cands []value
		for _, i := range items {
			cands = append(cands, r.nodeValue(i, schemas.ResolvedReceiver))
		}
		return pick(cands)
	}
	if tis := r.traitItems[t][name]; len(tis) > 0 {
		var traits []string
		var cands []value
		for _, ti := range tis {
			key := ti.crate
			if ti.trait >= 0 {
				key = strconv.Itoa(int(ti.trait))
			}
			if !slices.Contains(traits, key) {
				traits = append(traits, key)
			}
			cands = append(cands, r.nodeValue(ti.item, schemas.ResolvedReceiver))
		}
		switch {
		case len(traits) > 1:
			return ambiguous(strconv.Itoa(len(traits)) + " traits provide " + name)
		case r.otherBlanket(name, tis[0]):
			return ambiguous("a blanket impl provides " + name + " too")
		}
		return pick(cands)
	}
	var defaults []int32
	external := false
	for _, ti := range r.traitsOf[t] {
		if ti.trait < 0 {
			external = true
			continue
		}
		for _, i := range r.traitMember(ti.trait, name, 0) {
			if !r.nodes[i].IsAbstract && !slices.Contains(defaults, i) {
				defaults = append(defaults, i)
			}
		}
	}
	switch {
	case len(defaults) == 1:
		return r.nodeValue(defaults[0], schemas.ResolvedReceiver)
	case len(defaults) > 1:
		return ambiguous(strconv.Itoa(len(defaults)) + " traits provide " + name)
	case len(r.blanket[name]) > 0:
		return unknown(reasonBlanket)
	case external || stdTraitMethods[name] || r.derives(t):
		return unknown(reasonExtTrait)
	}
	return unknown(reasonNoMethod)
}

// otherBlanket reports whether a blanket impl of another trait than ti's
// (or of a trait it cannot tell) provides name: `impl<T: Display> Ext for
// T` may give any type an Ext::name. A blanket impl of the same trait (for
// &T, say) does not compete with the type's own impl.
func (r *resolver) otherBlanket(name string, ti traitItem) bool {
	for _, i := range r.blanket[name] {
		segs, abs := splitPath(r.impls[i].trait)
		tr := r.path(segs, abs, r.parent(i), nsType, false)
		if ti.trait < 0 || tr.kind != vType || tr.node != ti.trait {
			return true
		}
	}
	return false
}

// derives reports whether type t has a derive attribute.
func (r *resolver) derives(t int32) bool {
	for _, d := range r.nodes[t].Decorators {
		if strings.HasPrefix(d, "derive") {
			return true
		}
	}
	return false
}

// field evaluates v.name where name is read: a field.
func (r *resolver) field(v value, name string) value {
	t, ok := r.instance(v)
	if !ok {
		return unknown(indexer.ReasonUnknownType)
	}
	for range 4 {
		if t.std != "" && stdKinds[t.std] == "ptr" {
			t = t.arg(0)
			continue
		}
		break
	}
	if t.node < 0 {
		if t.crate != "" {
			return unknown(indexer.ReasonUnknownType)
		}
		return unknown(t.why)
	}
	for _, k := range r.kids[childKey{r.nodes[t.node].ID, name}] {
		if r.kind(k) != schemas.KindField {
			continue
		}
		ft, ok := r.typeFact[k]
		if !ok {
			return unknown(indexer.ReasonUnknownType)
		}
		return value{kind: vValue, node: -1, t: r.evalType(ft, t.node), res: schemas.ResolvedReceiver}
	}
	return unknown("unknown field")
}

// callResult evaluates v(..).
func (r *resolver) callResult(v value) value {
	switch v.kind {
	case vFunc:
		rt, ok := r.result[v.node]
		if !ok {
			return unknown("no result")
		}
		return value{kind: vValue, node: -1, t: r.evalType(rt, v.node), res: schemas.ResolvedReceiver}
	case vType:
		if r.kind(v.node) == schemas.KindStruct {
			return value{kind: vValue, node: -1, t: &typeVal{node: v.node}, res: schemas.ResolvedReceiver}
		}
		if r.kind(v.node) == schemas.KindTypeAlias {
			return value{kind: vValue, node: -1, t: r.aliasTarget(v.node), res: schemas.ResolvedReceiver}
		}
	case vVariant:
		return value{kind: vValue, node: -1, t: &typeVal{node: r.parent(v.node)}, res: schemas.ResolvedReceiver}
	case vExternal:
		if v.t != nil {
			if t, ok := stdResult(v.t, v.name); ok {
				return value{kind: vValue, node: -1, t: t, res: schemas.ResolvedReceiver}
			}
		}
		return unknown(indexer.ReasonUnknownType)
	}
	return unknown(indexer.ReasonUnknownType)
}

// try evaluates v? on an Option or a Result.
func (r *resolver) try(v value) value {
	t, ok := r.instance(v)
	if !ok {
		return unknown(indexer.ReasonUnknownType)
	}
	if k := stdKinds[t.std]; k == "option" || k == "result" {
		return value{kind: vValue, node: -1, t: t.arg(0), res: v.res}
	}
	return unknown(indexer.ReasonUnknownType)
}

// element evaluates v[i], and the items a for loop takes from v.
func (r *resolver) element(v value) value {
	t, ok := r.instance(v)
	if !ok {
		return unknown(indexer.ReasonUnknownType)
	}
	if e, ok := stdElement(t); ok {
		return value{kind: vValue, node: -1, t: e, res: v.res}
	}
	return unknown(indexer.ReasonUnknownType)
}

// indexImpls files the items of every impl block under their type.
func (r *resolver) indexImpls() {
	items := make([]int32, 0, len(r.impls))
	for i := range r.impls {
		items = append(items, i)
	}
	slices.Sort(items)
	for _, i := range items {
		info := r.impls[i]
		self := r.implSelf(i)
		name := r.nodes[i].Name
		switch {
		case self.node >= 0 && info.trait == "":
			if r.inherent[self.node] == nil {
				r.inherent[self.node] = make(map[string][]int32)
			}
			r.inherent[self.node][name] = append(r.inherent[self.node][name], i)
		case self.node >= 0:
			segs, abs := splitPath(info.trait)
			tr := r.path(segs, abs, r.parent(i), nsType, false)
			ti := traitItem{trait: -1, item: i, crate: tr.reason}
			if tr.kind == vType && r.kind(tr.node) == schemas.KindTrait {
				ti.trait, ti.crate = tr.node, ""
			}
			if r.traitItems[self.node] == nil {
				r.traitItems[self.node] = make(map[string][]traitItem)
			}
			r.traitItems[self.node][name] = append(r.traitItems[self.node][name], ti)
		case info.trait != "" && (self.dyn || self.why == indexer.ReasonUnknownType):
			r.blanket[name] = append(r.blanket[name], i)
		}
	}
	for _, ref := range r.implRefs {
		src := r.byID[ref.Src]
		self, trait, _ := strings.Cut(ref.Expr, " as ")
		t := r.evalType(strings.Trim(self, "{}"), src)
		if t.node < 0 {
			continue
		}
		segs, abs := splitPath(strings.Trim(trait, "{}"))
		tr := r.path(segs, abs, src, nsType, false)
		ti := traitItem{trait: -1, item: -1, crate: tr.reason}
		if tr.kind == vType && r.kind(tr.node) == schemas.KindTrait {
			ti.trait, ti.crate = tr.node, ""
		}
		r.traitsOf[t.node] = append(r.traitsOf[t.node], ti)
	}
}

// reparent sets the parents resolution decides: an impl item goes under
// its type when the type is declared in the same file, else under the
// module or function holding the impl block; a file's module goes under
// the module whose `mod` declares it (the module around the function, for
// a mod item in a function).
func (r *resolver) reparent() {
	for i := range r.impls {
		n := &r.nodes[i]
		if t := r.implSelf(i); t.node >= 0 && r.nodes[t.node].File == n.File {
			n.ParentID = r.nodes[t.node].ID
		} else if p := r.parent(i); p >= 0 {
			n.ParentID = r.nodes[p].ID
		} else {
			n.ParentID = indexer.FileID(n.File)
		}
	}
	for _, m := range r.fileMod {
		if d, ok := r.decl[m]; ok && r.moduleOf(d) >= 0 {
			r.nodes[m].ParentID = r.nodes[r.moduleOf(d)].ID
		} else {
			r.nodes[m].ParentID = indexer.FileID(r.nodes[m].File)
		}
	}
}
