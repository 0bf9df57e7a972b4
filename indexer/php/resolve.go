package php

import (
	"cmp"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every PHP file and the
// refs extraction recorded, whose names are already fully qualified (see
// expr.go). Classes, interfaces, traits, enums and functions are looked up
// case-insensitively, as PHP does; a name declared more than once in the
// snapshot (polyfills, conditional declarations) is ambiguous. A member
// is looked up in the type, then its used traits, then its parent chain,
// then its interfaces. Nothing is guessed by name alone: a call on a value
// of unknown type stays unresolved.

// Reasons of unresolved edges.
const (
	reasonExternalClass = "external class "
	reasonExternalFunc  = "external function "
	reasonExternalConst = "external constant "
	reasonExternal      = "external "
	reasonAmbiguous     = "ambiguous "
	reasonUnknownMethod = "unknown method "
	reasonUnknownProp   = "unknown property "
	reasonExternalBase  = "member of external base "
	reasonMagic         = "magic method __call"
	reasonParam         = "untyped parameter"
	reasonType          = "builtin or unknown type"
	reasonThis          = "$this outside a class"
	reasonNoType        = "member of unknown type"
	reasonDynamicPath   = "dynamic path"
	reasonOutside       = "path outside the tree"
	reasonAbsolute      = "absolute path"
	reasonMissingFile   = "no such file "
)

var exprReasons = map[string]string{
	indexer.ExprLocal: indexer.ReasonLocal, "?param": reasonParam, "?type": reasonType, "?this": reasonThis,
	indexer.ExprExpr: indexer.ReasonExpr, "?deep": indexer.ReasonTooDeep,
}

type typeInfo struct {
	node    int32
	methods map[string][]int32 // by lower-case name
	props   map[string]int32
	consts  map[string]int32
	parent  string   // fully qualified, with leading backslash
	traits  []string // in order of use
	ifaces  []string
}

type resolver struct {
	nodes   []schemas.Node
	types   map[string][]*typeInfo // by lower-case name without leading backslash
	byNode  map[uint64]*typeInfo
	funcs   map[string][]int32 // by lower-case name
	consts  map[string][]int32 // namespace constants by name
	nss     map[string][]int32 // namespaces by lower-case name
	files   map[string]int32   // file nodes by path
	results map[uint64]string  // method or function → result Expr
	ptypes  map[uint64]string  // property → type Expr
}

func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{
		nodes: nodes, types: map[string][]*typeInfo{}, byNode: map[uint64]*typeInfo{}, funcs: map[string][]int32{},
		consts: map[string][]int32{}, nss: map[string][]int32{}, files: map[string]int32{},
		results: map[uint64]string{}, ptypes: map[uint64]string{},
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Kind == schemas.KindFile {
			r.files[n.QualifiedName] = int32(i)
			continue
		}
		if n.Language != Name {
			continue
		}
		switch n.Kind {
		case schemas.KindClass, schemas.KindInterface, schemas.KindTrait, schemas.KindEnum:
			t := &typeInfo{node: int32(i), methods: map[string][]int32{}, props: map[string]int32{}, consts: map[string]int32{}}
			k := strings.ToLower(n.QualifiedName)
			r.types[k] = append(r.types[k], t)
			r.byNode[n.ID] = t
		case schemas.KindNamespace:
			k := strings.ToLower(n.QualifiedName)
			r.nss[k] = append(r.nss[k], int32(i))
		case schemas.KindFunction:
			k := strings.ToLower(n.QualifiedName)
			r.funcs[k] = append(r.funcs[k], int32(i))
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Language != Name {
			continue
		}
		t := r.byNode[n.ParentID]
		switch {
		case t != nil && (n.Kind == schemas.KindMethod || n.Kind == schemas.KindConstructor):
			k := strings.ToLower(n.Name)
			t.methods[k] = append(t.methods[k], int32(i))
		case t != nil && n.Kind == schemas.KindField:
			t.props[n.Name] = int32(i)
		case t != nil && n.Kind == schemas.KindConstant:
			t.consts[n.Name] = int32(i)
		case t == nil && n.Kind == schemas.KindConstant:
			r.consts[n.QualifiedName] = append(r.consts[n.QualifiedName], int32(i))
		}
	}
	for i := range refs {
		ref := &refs[i]
		switch ref.Kind {
		case schemas.RefResult:
			r.results[ref.Src] = ref.Expr
		case schemas.RefType:
			r.ptypes[ref.Src] = ref.Expr
		case schemas.EdgeExtends, schemas.EdgeImplements:
			t := r.byNode[ref.Src]
			if t == nil {
				continue
			}
			switch {
			case strings.HasPrefix(ref.Expr, "use "):
				t.traits = append(t.traits, ref.Expr[4:])
			case ref.Kind == schemas.EdgeExtends && r.nodes[t.node].Kind == schemas.KindClass:
				t.parent = ref.Expr
			default:
				t.ifaces = append(t.ifaces, ref.Expr)
			}
		}
	}
	var edges []schemas.Edge
	for i := range refs {
		ref := &refs[i]
		switch ref.Kind {
		case schemas.EdgeImports:
			edges = append(edges, r.importEdge(ref))
		case schemas.EdgeExtends, schemas.EdgeImplements:
			name := strings.TrimPrefix(ref.Expr, "use ")
			t, why := r.typ(name)
			if t == nil {
				edges = append(edges, indexer.UnresolvedEdge(ref, ref.Kind, why))
				continue
			}
			edges = append(edges, indexer.ResolvedEdge(ref, ref.Kind, r.nodes[t.node].ID, schemas.ResolvedScope))
		case schemas.EdgeInstantiates:
			edges = r.instantiate(edges, ref)
		case schemas.EdgeReferences:
			q, attr := strings.CutPrefix(ref.Expr, "@")
			t, why := r.typ(q)
			switch {
			case t != nil:
				edges = append(edges, indexer.ResolvedEdge(ref, schemas.EdgeReferences, r.nodes[t.node].ID, schemas.ResolvedScope))
			case !attr:
				e := indexer.UnresolvedEdge(ref, schemas.EdgeReferences, why)
				if strings.HasPrefix(why, reasonAmbiguous) {
					e.Resolution = schemas.Ambiguous
				}
				edges = append(edges, e)
			}
		case schemas.EdgeCalls:
			edges = append(edges, r.call(ref))
		}
	}
	return nil, edges
}

// typ returns the one type of the fully qualified name q, or why none.
func (r *resolver) typ(q string) (*typeInfo, string) {
	ts := r.types[strings.ToLower(strings.TrimPrefix(q, "\\"))]
	switch len(ts) {
	case 0:
		return nil, reasonExternalClass + q
	case 1:
		return ts[0], ""
	}
	return nil, reasonAmbiguous + "class " + q
}

// method finds the method named name (lower case) of t, its traits, its
// parents and its interfaces. It returns the node, or why there is none.
func (r *resolver) method(t *typeInfo, name string, depth int) (int32, string) {
	if depth > maxDepth {
		return -1, indexer.ReasonTooDeep
	}
	if ms := t.methods[name]; len(ms) == 1 {
		return ms[0], ""
	} else if len(ms) > 1 {
		return -1, reasonAmbiguous + "method " + name
	}
	why := ""
	for _, group := range [][]string{t.traits, {t.parent}, t.ifaces} {
		for _, s := range group {
			if s == "" {
				continue
			}
			st, _ := r.typ(s)
			if st == nil {
				if why == "" {
					why = reasonExternalBase + s
				}
				continue
			}
			m, w := r.method(st, name, depth+1)
			if m >= 0 {
				return m, ""
			}
			if why == "" && !strings.HasPrefix(w, reasonUnknownMethod) {
				why = w
			}
		}
	}
	if why != "" {
		return -1, why
	}
	if name != "__call" && name != "__callstatic" {
		if m, _ := r.method(t, "__call", depth+1); m >= 0 {
			return -1, reasonMagic
		}
	}
	return -1, reasonUnknownMethod + name
}

// prop finds the property named name of t, its traits and its parents.
func (r *resolver) prop(t *typeInfo, name string, depth int) (int32, string) {
	if depth > maxDepth {
		return -1, indexer.ReasonTooDeep
	}
	if p, ok := t.props[name]; ok {
		return p, ""
	}
	for _, s := range append(slices.Clip(t.traits), t.parent) {
		if s == "" {
			continue
		}
		st, _ := r.typ(s)
		if st == nil {
			return -1, reasonExternalBase + s
		}
		if p, why := r.prop(st, name, depth+1); p >= 0 || !strings.HasPrefix(why, reasonUnknownProp) {
			return p, why
		}
	}
	return -1, reasonUnknownProp + name
}

// fn finds the function of the fully qualified name q.
func (r *resolver) fn(q string) (int32, string) {
	fs := r.funcs[strings.ToLower(strings.TrimPrefix(q, "\\"))]
	switch len(fs) {
	case 0:
		return -1, reasonExternalFunc + q
	case 1:
		return fs[0], ""
	}
	return -1, reasonAmbiguous + "function " + q
}

// target is what evaluating an Expr found: the last callee, and the type
// of the value.
type target struct {
	node int32  // the callee of the last step, -1 if none
	how  string // its resolution
	val  *typeInfo
	why  string // why the evaluation stopped
	head bool   // the head was found (a function or class of the snapshot)
}

// eval evaluates one alternative of an Expr.
func (r *resolver) eval(e string) target {
	how := schemas.ResolvedScope
	if strings.HasPrefix(e, "^") {
		how, e = schemas.ResolvedImport, e[1:]
	}
	var tg target
	var rest string
	switch {
	case strings.HasPrefix(e, "{"):
		end := strings.IndexByte(e, '}')
		if end < 0 {
			return target{node: -1, why: indexer.ReasonExpr}
		}
		t, why := r.typ(e[1:end])
		tg = target{node: -1, val: t, why: why, head: t != nil}
		rest = e[end+1:]
		how = schemas.ResolvedReceiver
	default:
		end := strings.IndexAny(e, ":(")
		if end < 0 {
			return target{node: -1, why: indexer.ReasonExpr}
		}
		name := e[:end]
		if strings.HasPrefix(e[end:], "::") {
			t, why := r.typ(name)
			if t == nil {
				return target{node: -1, why: why}
			}
			rest = e[end+2:]
			mname, after, ok := strings.Cut(rest, "()")
			if !ok {
				return target{node: -1, why: indexer.ReasonExpr}
			}
			m, why := r.method(t, strings.ToLower(mname), 0)
			tg = target{node: m, how: how, why: why, head: true}
			rest = after
		} else {
			f, why := r.fn(name)
			tg = target{node: f, how: how, why: why, head: f >= 0 || strings.HasPrefix(why, reasonAmbiguous)}
			rest = strings.TrimPrefix(e[end:], "()")
		}
		if tg.node < 0 {
			return tg
		}
		tg.val, tg.why = r.result(tg.node)
	}
	for rest != "" {
		if !strings.HasPrefix(rest, "->") {
			return target{node: -1, why: indexer.ReasonExpr, head: tg.head}
		}
		rest = rest[2:]
		end := strings.Index(rest, "->")
		if end < 0 {
			end = len(rest)
		}
		step := rest[:end]
		rest = rest[end:]
		if tg.val == nil {
			if tg.why == "" {
				tg.why = reasonNoType
			}
			return target{node: -1, why: tg.why, head: tg.head}
		}
		if name, ok := strings.CutSuffix(step, "()"); ok {
			m, why := r.method(tg.val, strings.ToLower(name), 0)
			if m < 0 {
				return target{node: -1, why: why, head: tg.head}
			}
			tg.node, tg.how = m, schemas.ResolvedReceiver
			tg.val, tg.why = r.result(m)
			continue
		}
		p, why := r.prop(tg.val, step, 0)
		if p < 0 {
			return target{node: -1, why: why, head: tg.head}
		}
		tg.node = -1
		tg.val, tg.why = r.declared(r.ptypes[r.nodes[p].ID])
	}
	return tg
}

// result returns the type a call of node n gives, or why none.
func (r *resolver) result(n int32) (*typeInfo, string) {
	return r.declared(r.results[r.nodes[n].ID])
}

// declared returns the type of a {\T} Expr, or why none.
func (r *resolver) declared(e string) (*typeInfo, string) {
	if len(e) < 3 || e[0] != '{' {
		return nil, reasonNoType
	}
	return r.typ(e[1 : len(e)-1])
}

// call resolves a calls ref: its Expr's alternatives in order, the first
// whose head the snapshot declares.
func (r *resolver) call(ref *schemas.Ref) schemas.Edge {
	if why, ok := exprReasons[ref.Expr]; ok {
		return indexer.UnresolvedEdge(ref, schemas.EdgeCalls, why)
	}
	var tg target
	for alt := range strings.SplitSeq(ref.Expr, "|") {
		tg = r.eval(alt)
		if tg.head {
			break
		}
	}
	if tg.node < 0 {
		why := tg.why
		if why == "" {
			why = indexer.ReasonExpr
		}
		res := schemas.Unresolved
		if strings.HasPrefix(why, reasonAmbiguous) {
			res = schemas.Ambiguous
		}
		e := indexer.UnresolvedEdge(ref, schemas.EdgeCalls, why)
		e.Resolution = res
		return e
	}
	return indexer.ResolvedEdge(ref, schemas.EdgeCalls, r.nodes[tg.node].ID, tg.how)
}

// instantiate resolves `new \T(n)`: an instantiates edge to the class and
// a calls edge to its constructor, when the snapshot declares one.
func (r *resolver) instantiate(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	q, ok := strings.CutPrefix(ref.Expr, "new ")
	if !ok {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, exprReasons[ref.Expr]))
	}
	if i := strings.IndexByte(q, '('); i >= 0 {
		q = q[:i]
	}
	t, why := r.typ(q)
	if t == nil {
		e := indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, why)
		if strings.HasPrefix(why, reasonAmbiguous) {
			e.Resolution = schemas.Ambiguous
		}
		return append(edges, e)
	}
	edges = append(edges, indexer.ResolvedEdge(ref, schemas.EdgeInstantiates, r.nodes[t.node].ID, schemas.ResolvedScope))
	if m, _ := r.method(t, "__construct", 0); m >= 0 {
		edges = append(edges, indexer.ResolvedEdge(ref, schemas.EdgeCalls, r.nodes[m].ID, schemas.ResolvedScope))
	}
	return edges
}

// importEdge links a use declaration to the class, namespace, function or
// constant it names, and a require or include to the file.
func (r *resolver) importEdge(ref *schemas.Ref) schemas.Edge {
	e := ref.Expr
	switch {
	case strings.HasPrefix(e, "file "):
		p := e[5:]
		switch p {
		case "?dynamic":
			return indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonDynamicPath)
		case "?outside":
			return indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonOutside)
		case "?absolute":
			return indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonAbsolute)
		}
		if f, ok := r.files[p]; ok {
			return indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[f].ID, schemas.ResolvedImport)
		}
		return indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonMissingFile+p)
	case strings.HasPrefix(e, "function "):
		f, why := r.fn(e[9:])
		if f < 0 {
			return indexer.UnresolvedEdge(ref, schemas.EdgeImports, why)
		}
		return indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[f].ID, schemas.ResolvedImport)
	case strings.HasPrefix(e, "const "):
		cs := r.consts[strings.TrimPrefix(e[6:], "\\")]
		if len(cs) != 1 {
			return indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternalConst+e[6:])
		}
		return indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[cs[0]].ID, schemas.ResolvedImport)
	}
	if t, _ := r.typ(e); t != nil {
		return indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[t.node].ID, schemas.ResolvedImport)
	}
	if ns := r.nss[strings.ToLower(strings.TrimPrefix(e, "\\"))]; len(ns) > 0 {
		first := slices.MinFunc(ns, func(a, b int32) int {
			return cmp.Or(cmp.Compare(r.nodes[a].File, r.nodes[b].File), cmp.Compare(r.nodes[a].StartByte, r.nodes[b].StartByte))
		})
		return indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[first].ID, schemas.ResolvedImport)
	}
	if len(r.types[strings.ToLower(strings.TrimPrefix(e, "\\"))]) > 1 {
		return indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonAmbiguous+"class "+e)
	}
	return indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternal+e)
}
