package python

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Reasons of unresolved edges.
const (
	reasonExternal  = "not in snapshot"
	reasonNamespace = "namespace package"
)

// maxHops bounds the import and evaluation chains the resolver follows.
const maxHops = 8

// resolve turns the refs of every Python file into edges.
func resolve(all []schemas.Node, refs []schemas.Ref) []schemas.Edge {
	r := newResolver(all, refs)
	var edges []schemas.Edge
	for ref, src := range indexer.RefsFrom(refs, r.byID) {
		switch ref.Kind {
		case schemas.EdgeImports:
			edges = r.importEdge(edges, ref)
		case schemas.EdgeExtends:
			v := r.deref(r.eval(ref.Expr, r.outside(src)))
			edges = r.emit(edges, ref, schemas.EdgeExtends, v)
		case schemas.EdgeCalls:
			edges = r.callEdges(edges, ref, src)
		case schemas.EdgeReferences:
			edges = r.typeUse(edges, ref, src)
		}
	}
	return edges
}

// vkind is what an expression evaluates to.
type vkind uint8

const (
	vUnknown      vkind = iota
	vBuiltin            // a builtin function or method, or an instance of a builtin class: no edge
	vBuiltinClass       // a builtin class
	vModule             // a module (node is -1 for a namespace package)
	vClass              // the class object
	vInstance           // an instance of the class
	vFunc               // a function or method
	vVar                // a variable, constant, field or type alias, not yet read
	vSuperFn            // the builtin super
	vSuper              // super() in class node
)

// value is the result of evaluating (part of) an Expr.
type value struct {
	kind vkind
	node int32   // index in resolver.nodes, or -1
	path string  // vModule: its name; vUnknown: the external name reached, if any
	res  string  // how the last step was found
	conf float32 // 1, or less when a base outside the snapshot could interfere
	// vUnknown: why; "" until the use decides between a dynamic call and an
	// unknown receiver type.
	reason string
	// items: a container's or iterator's items (list[T] holds T), or nil;
	// elems: a tuple's, by position (tuple[A, B]).
	items *value
	elems []value
	// recv: for a method read from an instance (or a classmethod read
	// from a class), the class of that instance, which self (or cls)
	// stands for in its body; bound says it is set.
	recv  int32
	bound bool
}

func unknown(reason string) value { return value{kind: vUnknown, node: -1, reason: reason} }

type childKey struct {
	parent uint64
	name   string
}

// imp is one name an import binds in a scope.
type imp struct {
	module string // the module imported, or whose member is imported
	name   string // from m import name; "" for import m
	bound  string // import m: the module the local name is bound to
	file   string
}

// parseImport reads an imports Expr (see expr.go).
func parseImport(expr, file string) (local string, m imp) {
	expr, alias, aliased := strings.Cut(expr, " as ")
	m.file = file
	if mod, name, ok := strings.Cut(expr, ":"); ok {
		m.module, m.name, local = mod, name, name
	} else {
		m.module, m.bound = expr, expr
		if !aliased {
			m.bound, _, _ = strings.Cut(expr, ".")
		}
		local = m.bound
	}
	if aliased {
		local = alias
	}
	return local, m
}

// mroEntry is one class of a linearization: a node, or a base outside the
// snapshot (ext, its Expr) that may be a builtin.
type mroEntry struct {
	node    int32
	ext     string
	builtin bool
}

func (e mroEntry) same(o mroEntry) bool {
	if e.node >= 0 || o.node >= 0 {
		return e.node == o.node
	}
	return e.ext == o.ext
}

type resolver struct {
	nodes    []schemas.Node
	byID     map[uint64]int32          // Python nodes by id
	children map[childKey][]int32      // Python nodes by parent and name, in node order
	modules  map[string][]int32        // module and package nodes by qualified name
	prefixes map[string]bool           // qualified names of the folders above modules
	fileMod  map[string]int32          // file → its module node
	imports  map[childKey][]imp        // by scope node and local name
	stars    map[uint64][]imp          // from m import * by scope node
	kids     map[uint64][]int32        // Python functions and classes by parent
	types    map[uint64][]*schemas.Ref // type facts by node
	results  map[uint64][]string       // result facts by function
	bases    map[uint64][]*schemas.Ref // extends refs by class, in the order written

	mros  map[int32][]mroEntry
	vars  map[int32]value
	busy  map[int32]bool
	depth int
}

func newResolver(all []schemas.Node, refs []schemas.Ref) *resolver {
	r := &resolver{
		nodes: all, byID: make(map[uint64]int32), children: make(map[childKey][]int32),
		modules: make(map[string][]int32), prefixes: make(map[string]bool), fileMod: make(map[string]int32),
		imports: make(map[childKey][]imp), stars: make(map[uint64][]imp), kids: make(map[uint64][]int32), types: make(map[uint64][]*schemas.Ref),
		results: make(map[uint64][]string), bases: make(map[uint64][]*schemas.Ref),
		mros: make(map[int32][]mroEntry), vars: make(map[int32]value), busy: make(map[int32]bool),
	}
	for i := range all {
		n := &all[i]
		if n.Language != Name {
			continue
		}
		r.byID[n.ID] = int32(i)
		switch n.Kind {
		case schemas.KindModule, schemas.KindPackage:
			r.modules[n.QualifiedName] = append(r.modules[n.QualifiedName], int32(i))
			r.fileMod[n.File] = int32(i)
			for q := n.QualifiedName; ; {
				j := strings.LastIndexByte(q, '.')
				if j < 0 {
					break
				}
				q = q[:j]
				r.prefixes[q] = true
			}
		}
	}
	for i := range all {
		n := &all[i]
		if n.Language == Name && n.Kind != schemas.KindModule && n.Kind != schemas.KindPackage {
			k := childKey{n.ParentID, n.Name}
			r.children[k] = append(r.children[k], int32(i))
			if n.Kind == schemas.KindClass || indexer.IsFunc(n.Kind) {
				r.kids[n.ParentID] = append(r.kids[n.ParentID], int32(i))
			}
		}
	}
	for i := range refs {
		ref := &refs[i]
		switch ref.Kind {
		case schemas.EdgeImports:
			local, m := parseImport(ref.Expr, ref.File)
			if m.name == "*" {
				r.stars[ref.Src] = append(r.stars[ref.Src], m)
			} else {
				k := childKey{ref.Src, local}
				r.imports[k] = append(r.imports[k], m)
			}
		case schemas.RefType:
			r.types[ref.Src] = append(r.types[ref.Src], ref)
		case schemas.RefResult:
			r.results[ref.Src] = append(r.results[ref.Src], ref.Expr)
		case schemas.EdgeExtends:
			r.bases[ref.Src] = append(r.bases[ref.Src], ref)
		}
	}
	for _, bases := range r.bases {
		slices.SortFunc(bases, indexer.ByPosition)
	}
	return r
}

func (r *resolver) parent(i int32) int32 {
	return indexer.ParentOf(r.nodes, r.byID, i)
}

// ctx is where an Expr is evaluated: the scope node name lookup starts at
// (its own scope visible even when it is a class body) and the class self
// and cls stand for (-1 for none).
type ctx struct {
	scope, class int32
}

// at is the context of code whose symbol is src.
func (r *resolver) at(src int32) ctx {
	return ctx{scope: src, class: indexer.MethodClass(r.nodes, r.byID, src)}
}

// outside is the context around a class statement, where its bases are
// evaluated.
func (r *resolver) outside(class int32) ctx { return ctx{scope: r.parent(class), class: -1} }

// eval evaluates an Expr.
func (r *resolver) eval(expr string, c ctx) value {
	if expr == "" || expr[0] == '?' {
		switch expr {
		case indexer.ExprLiteral:
			return value{kind: vBuiltin, node: -1}
		case exprReceiver:
			return unknown(indexer.ReasonUnknownType)
		}
		return unknown("")
	}
	if r.depth > maxHops {
		return unknown(indexer.ReasonChainTooLong)
	}
	r.depth++
	defer func() { r.depth-- }()

	var v value
	rest := expr
	if expr[0] == '{' {
		end := strings.IndexByte(expr, '}')
		if end < 0 {
			return unknown(indexer.ReasonDynamic)
		}
		v, rest = r.typeValue(expr[1:end], c), expr[end+1:]
	} else {
		end := strings.IndexAny(expr, ".([")
		if end < 0 {
			end = len(expr)
		}
		name := expr[:end]
		rest = expr[end:]
		switch {
		case name == "self" && c.class >= 0:
			v = value{kind: vInstance, node: c.class, res: schemas.ResolvedReceiver, conf: 1}
		case name == "cls" && c.class >= 0:
			v = value{kind: vClass, node: c.class, res: schemas.ResolvedReceiver, conf: 1}
		default:
			v = r.lookup(name, c)
		}
	}
	for rest != "" {
		if strings.HasPrefix(rest, "()") {
			v, rest = r.call(v, c), rest[2:]
			continue
		}
		if strings.HasPrefix(rest, "[]") {
			v, rest = r.item(v), rest[2:]
			continue
		}
		if rest[0] == '[' {
			end := strings.IndexByte(rest, ']')
			n, err := strconv.Atoi(rest[1:max(1, end)])
			if err != nil {
				return unknown(indexer.ReasonDynamic)
			}
			v, rest = r.nth(v, n), rest[end+1:]
			continue
		}
		end := strings.IndexAny(rest[1:], ".([")
		if end < 0 {
			end = len(rest) - 1
		}
		v, rest = r.attr(v, rest[1:end+1]), rest[end+1:]
	}
	return v
}

// typeValue is an instance of the annotated type t: a dotted name, or a
// container of iterables with the type of its items, C[T].
func (r *resolver) typeValue(t string, c ctx) value {
	open := strings.IndexByte(t, '[')
	if open < 0 || !strings.HasSuffix(t, "]") {
		return r.instanceOf(r.eval(t, c))
	}
	base := t[:open]
	v := r.deref(r.eval(base, c))
	if v.kind == vClass { // a class of the snapshot, not the container
		return r.instanceOf(v)
	}
	if !isIterable(v, base) {
		return unknown(indexer.ReasonUnknownType)
	}
	args := splitTop(t[open+1:len(t)-1], ',')
	if len(args) == 1 {
		items := r.typeValue(args[0], c)
		return value{kind: vBuiltin, node: -1, items: &items}
	}
	v = value{kind: vBuiltin, node: -1, elems: make([]value, len(args))}
	for i, a := range args {
		v.elems[i] = unknown(indexer.ReasonUnknownType)
		if a != "?" {
			v.elems[i] = r.typeValue(a, c)
		}
	}
	return v
}

// nth is the item at position n of v, as unpacking binds it: of a tuple
// by its position, of another iterable any item.
func (r *resolver) nth(v value, n int) value {
	switch v = r.deref(v); {
	case v.elems != nil && n < len(v.elems):
		return v.elems[n]
	case v.elems != nil:
		return unknown(indexer.ReasonUnknownType)
	}
	return r.item(v)
}

// isIterable reports whether v, the value of the annotation's name base, is
// one of the iterables of the builtins, typing, collections or
// collections.abc.
func isIterable(v value, base string) bool {
	name := base[strings.LastIndexByte(base, '.')+1:]
	switch v.kind {
	case vBuiltinClass:
		return base == name
	case vUnknown:
		mod, n, _ := cutLast(v.path)
		return n == name && (mod == "typing" || mod == "typing_extensions" || mod == "collections" || mod == "collections.abc")
	}
	return false
}

// cutLast splits a dotted name at its last dot.
func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return "", s, false
	}
	return s[:i], s[i+1:], true
}

// item is an item of v, as a for loop over v binds it: the items of an
// annotated container, or what the __iter__ of v's class yields.
func (r *resolver) item(v value) value {
	switch v = r.deref(v); {
	case v.items != nil:
		return *v.items
	case v.kind == vInstance:
		if it := r.classMember(v, "__iter__", false); it.kind == vFunc {
			return r.item(r.result(it))
		}
	case v.kind == vUnknown:
		return v
	}
	return unknown(indexer.ReasonUnknownType)
}

// instanceOf turns the value of a type annotation into an instance of it.
func (r *resolver) instanceOf(v value) value {
	switch v = r.deref(v); v.kind {
	case vClass:
		v.kind = vInstance
	case vBuiltinClass:
		v.kind = vBuiltin
	case vBuiltin, vUnknown:
	default:
		return unknown(indexer.ReasonUnknownType)
	}
	return v
}

// lookup finds a name from c.scope outwards: the scope itself (a class
// body only when it is where the code runs), enclosing functions, the
// module, the module's star imports, the builtins.
func (r *resolver) lookup(name string, c ctx) value {
	for s, first := c.scope, true; s >= 0; s, first = r.parent(s), false {
		n := &r.nodes[s]
		if n.Kind == schemas.KindClass && !first {
			continue
		}
		res := schemas.ResolvedLocal
		if n.Kind == schemas.KindClass {
			res = schemas.ResolvedScope
		}
		if v, ok := r.inScope(s, name, res, 0, false); ok {
			return v
		}
		if n.Kind == schemas.KindModule || n.Kind == schemas.KindPackage {
			if v, ok := r.starred(s, name, 1); ok {
				return v
			}
			break
		}
	}
	if name == "super" {
		return value{kind: vSuperFn, node: -1}
	}
	if class, ok := builtins[name]; ok {
		if class {
			return value{kind: vBuiltinClass, node: -1}
		}
		return value{kind: vBuiltin, node: -1}
	}
	return unknown(indexer.ReasonUnknownName)
}

// inScope looks name up among the definitions and imports of scope s.
// As a member of a package, `from . import name` in the package itself is
// left out: it binds the submodule, which member finds next.
func (r *resolver) inScope(s int32, name, res string, hops int, asMember bool) (value, bool) {
	k := childKey{r.nodes[s].ID, name}
	nodes, imps := r.children[k], r.imports[k]
	if asMember {
		imps = slices.DeleteFunc(slices.Clone(imps), func(m imp) bool {
			return m.name == name && m.module == r.nodes[s].QualifiedName
		})
	}
	if len(nodes)+len(imps) == 0 {
		return value{}, false
	}
	if len(nodes)+len(imps) > 1 {
		nodes = r.notNone(nodes, len(imps) > 0)
	}
	var cands []value
	for _, i := range r.preferred(nodes) {
		cands = append(cands, r.nodeValue(i, res))
	}
	for _, m := range imps {
		cands = append(cands, r.importValue(m, hops+1))
	}
	return pick(forPOSIX(cands)), true
}

// windowsOnly are the modules of the standard library that exist on
// Windows alone.
var windowsOnly = map[string]bool{"ntpath": true, "nt": true, "msvcrt": true, "winreg": true, "_winapi": true, "nturl2path": true, "winsound": true, "_overlapped": true}

// forPOSIX drops, from the modules a name may be bound to, the ones that
// exist on Windows alone, when another is left: a snapshot is of the code
// as it runs on a POSIX system, where os.path is posixpath (os.py binds
// path to posixpath or to ntpath by platform).
func forPOSIX(cands []value) []value {
	if len(cands) < 2 || !slices.ContainsFunc(cands, func(v value) bool { return v.kind == vModule && windowsOnly[v.path] }) {
		return cands
	}
	kept := slices.DeleteFunc(slices.Clone(cands), func(v value) bool { return v.kind == vModule && windowsOnly[v.path] })
	if len(kept) == 0 {
		return cands
	}
	return kept
}

// notNone drops from the definitions of a name the variables only ever
// assigned None (they have no type fact), when another definition or an
// import is left: `f = None` beside `def f` in another branch. Where the
// name is called or its attribute read, the value is the other one.
func (r *resolver) notNone(nodes []int32, imports bool) []int32 {
	none := func(i int32) bool {
		n := &r.nodes[i]
		return (n.Kind == schemas.KindVariable || n.Kind == schemas.KindConstant || n.Kind == schemas.KindField) && len(r.types[n.ID]) == 0
	}
	if !slices.ContainsFunc(nodes, none) || !imports && !slices.ContainsFunc(nodes, func(i int32) bool { return !none(i) }) {
		return nodes
	}
	return slices.DeleteFunc(slices.Clone(nodes), none)
}

// preferred drops the @overload stubs and property setters and deleters
// of a name defined several times, when the real definition is there.
func (r *resolver) preferred(nodes []int32) []int32 {
	if len(nodes) < 2 {
		return nodes
	}
	var out []int32
	for _, i := range nodes {
		n := &r.nodes[i]
		if hasDecorator(n.Decorators, "overload") ||
			hasDecorator(n.Decorators, n.Name+".setter", n.Name+".deleter") {
			continue
		}
		out = append(out, i)
	}
	if len(out) == 0 {
		return nodes
	}
	return out
}

// pick returns the one value the candidates agree on, or an ambiguous
// unknown. Candidates that are all unknown (two modules outside the
// snapshot) make an unknown.
func pick(cands []value) value {
	var distinct []value
	known := false
	for _, v := range cands {
		known = known || v.kind != vUnknown
		if !slices.ContainsFunc(distinct, v.same) {
			distinct = append(distinct, v)
		}
	}
	if len(distinct) > 1 && known {
		v := unknown(strconv.Itoa(len(distinct)) + " candidates")
		v.res = schemas.Ambiguous
		return v
	}
	return distinct[0]
}

// same reports whether v and o are the same value: kind, node, path and
// items.
func (v value) same(o value) bool {
	if v.kind != o.kind || v.node != o.node || v.path != o.path || (v.items == nil) != (o.items == nil) || len(v.elems) != len(o.elems) {
		return false
	}
	for i := range v.elems {
		if !v.elems[i].same(o.elems[i]) {
			return false
		}
	}
	return v.items == nil || v.items.same(*o.items)
}

func (r *resolver) nodeValue(i int32, res string) value {
	v := value{node: i, res: res, conf: 1}
	switch n := &r.nodes[i]; {
	case n.Kind == schemas.KindModule || n.Kind == schemas.KindPackage:
		v.kind, v.path = vModule, n.QualifiedName
	case n.Kind == schemas.KindClass:
		v.kind = vClass
	case indexer.IsFunc(n.Kind):
		v.kind = vFunc
	default:
		v.kind = vVar
	}
	return v
}

// importValue is what an import binds.
func (r *resolver) importValue(m imp, hops int) value {
	if m.name == "" {
		return r.module(m.bound, m.file)
	}
	return r.member(r.module(m.module, m.file), m.name, hops)
}

// module returns the module of that name, as imported from file.
func (r *resolver) module(name, file string) value {
	cands := r.modules[name]
	if len(cands) > 1 {
		cands = r.closest(cands, file)
	}
	switch {
	case len(cands) == 1:
		return value{kind: vModule, node: cands[0], path: name, res: schemas.ResolvedImport, conf: 1}
	case len(cands) > 1:
		v := unknown(strconv.Itoa(len(cands)) + " candidates")
		v.res = schemas.Ambiguous
		return v
	case r.prefixes[name]:
		return value{kind: vModule, node: -1, path: name, res: schemas.ResolvedImport, conf: 1}
	}
	v := unknown(reasonExternal)
	v.path = name
	return v
}

// closest picks among modules of the same name the sources over the stubs,
// then the ones under the same root folder as file.
func (r *resolver) closest(cands []int32, file string) []int32 {
	keep := func(ok func(n *schemas.Node) bool) {
		var out []int32
		for _, i := range cands {
			if ok(&r.nodes[i]) {
				out = append(out, i)
			}
		}
		if len(out) > 0 {
			cands = out
		}
	}
	keep(func(n *schemas.Node) bool { return strings.HasSuffix(n.File, ".py") })
	if from, ok := r.fileMod[file]; ok {
		keep(func(n *schemas.Node) bool { return root(n) == root(&r.nodes[from]) })
	}
	return cands
}

// root returns the folder a module's dotted name starts from.
func root(n *schemas.Node) string {
	p := n.File
	k := strings.Count(n.QualifiedName, ".") + 1
	if n.Kind == schemas.KindPackage {
		k++
	}
	for range k {
		p = path.Dir(p)
	}
	return p
}

// member looks name up in a module: its definitions and imports (so a
// package re-exports what its __init__ imports), its submodules, its star
// imports.
func (r *resolver) member(m value, name string, hops int) value {
	if m.kind != vModule {
		return r.attr(m, name)
	}
	if hops > maxHops {
		return unknown(indexer.ReasonChainTooLong)
	}
	if m.node >= 0 {
		if v, ok := r.inScope(m.node, name, schemas.ResolvedImport, hops, true); ok {
			if v.res != schemas.Ambiguous {
				v.res = schemas.ResolvedImport
			}
			return v
		}
	}
	file := ""
	if m.node >= 0 {
		file = r.nodes[m.node].File
	}
	if sub := r.module(m.path+"."+name, file); sub.kind == vModule || sub.res == schemas.Ambiguous {
		return sub
	}
	if m.node >= 0 {
		if v, ok := r.starred(m.node, name, hops+1); ok {
			return v
		}
	}
	return unknown(indexer.ReasonNoMember)
}

// starred looks name up in the modules module node m imports with *. A
// module outside the snapshot may define any name.
func (r *resolver) starred(m int32, name string, hops int) (value, bool) {
	external := false
	for _, s := range r.stars[r.nodes[m].ID] {
		mod := r.module(s.module, s.file)
		if mod.kind != vModule {
			external = true
			continue
		}
		if v := r.member(mod, name, hops); v.kind != vUnknown || v.res == schemas.Ambiguous || v.reason == reasonExternal {
			return v, true
		}
	}
	if external {
		return unknown(reasonExternal), true
	}
	return value{}, false
}

// deref reads a variable: the one value its type facts agree on.
func (r *resolver) deref(v value) value {
	if v.kind != vVar {
		return v
	}
	out, ok := r.vars[v.node]
	if !ok {
		if r.busy[v.node] {
			return unknown("")
		}
		r.busy[v.node] = true
		out = r.varValue(v.node)
		delete(r.busy, v.node)
		r.vars[v.node] = out
	}
	if out.kind != vUnknown {
		out.res = v.res
	}
	out.conf = min(out.conf, v.conf)
	return out
}

func (r *resolver) varValue(i int32) value {
	facts := r.types[r.nodes[i].ID]
	if len(facts) == 0 {
		return unknown("")
	}
	var cands []value
	for _, f := range facts {
		v := r.deref(r.eval(f.Expr, r.within(r.parent(i), f.Line, f.Col)))
		if v.kind == vUnknown {
			return v
		}
		cands = append(cands, v)
	}
	return pick(cands)
}

// within returns the context of the code at line:col inside scope s: the
// innermost function or class there, s itself when there is none. A field's
// value is evaluated where it was assigned, self.x = v in some method.
func (r *resolver) within(s int32, line, col uint32) ctx {
	s = indexer.InnermostAt(r.nodes, r.kids, s, line, col)
	c := r.at(s)
	if s >= 0 && r.nodes[s].Kind == schemas.KindClass {
		c.class = s
	}
	return c
}

// attr evaluates v.name.
func (r *resolver) attr(v value, name string) value {
	switch v = r.deref(v); v.kind {
	case vModule:
		return r.member(v, name, 0)
	case vClass, vInstance:
		return r.classMember(v, name, false)
	case vSuper:
		return r.classMember(v, name, true)
	case vBuiltin, vBuiltinClass, vSuperFn:
		return value{kind: vBuiltin, node: -1}
	case vUnknown:
		if v.path != "" {
			v.path += "." + name
		}
		if v.reason == "" {
			v.reason = indexer.ReasonUnknownType
		}
		return v
	}
	return unknown(indexer.ReasonUnknownType)
}

// call evaluates v().
func (r *resolver) call(v value, c ctx) value {
	switch v = r.deref(v); v.kind {
	case vClass:
		v.kind = vInstance
		return v
	case vFunc:
		return r.result(v)
	case vInstance:
		if m := r.classMember(v, "__call__", false); m.kind == vFunc {
			return r.result(m)
		}
	case vSuperFn:
		if c.class >= 0 {
			return value{kind: vSuper, node: c.class, res: schemas.ResolvedReceiver, conf: 1}
		}
	case vBuiltinClass:
		return value{kind: vBuiltin, node: -1}
	case vUnknown:
		return v
	}
	return unknown("") // what a builtin function returns is not followed
}

// result is the value a call of function f returns, from its annotation
// (evaluated where the def is), or from its return statements ("=expr",
// evaluated in its body). self, in the annotation Self or in the body, is
// the instance the method was read from (cls its class); where that is not
// known, the result is unknown: a subclass's instance would make it wrong.
func (r *resolver) result(f value) value {
	facts := r.results[r.nodes[f.node].ID]
	if len(facts) != 1 {
		return unknown("")
	}
	expr := facts[0]
	var v value
	switch {
	case expr == "self" && f.bound:
		v = value{kind: vInstance, node: f.recv, res: schemas.ResolvedReceiver, conf: 1}
	case expr == "self":
		return unknown("")
	case strings.HasPrefix(expr, "="):
		expr = expr[1:]
		c := r.at(f.node)
		if head := expr[:identEnd(expr, 0, len(expr))]; head == "self" || head == "cls" {
			if !f.bound {
				return unknown("")
			}
			c.class = f.recv
		}
		v = r.deref(r.eval(expr, c))
	default:
		v = r.deref(r.eval(expr, r.at(r.parent(f.node))))
	}
	v.conf = min(v.conf, f.conf)
	return v
}

// classMember looks name up along the MRO of v's class (after the class
// itself for super()).
func (r *resolver) classMember(v value, name string, after bool) value {
	conf := v.conf
	external, builtin := false, false
	for i, e := range r.mro(v.node) {
		switch {
		case after && i == 0:
		case e.node < 0 && e.builtin:
			builtin = true
		case e.node < 0:
			external = true
			conf = min(conf, indexer.InheritedConfidence)
		default:
			nodes := r.preferred(r.children[childKey{r.nodes[e.node].ID, name}])
			if len(nodes) == 0 {
				if m, ok := r.classImport(e.node, name); ok {
					m.conf = min(m.conf, conf)
					return m
				}
				continue
			}
			var cands []value
			for _, n := range nodes {
				m := r.nodeValue(n, schemas.ResolvedReceiver)
				m.conf = conf
				if m.kind == vFunc && (v.kind != vClass || hasDecorator(r.nodes[n].Decorators, "classmethod")) {
					m.recv, m.bound = v.node, true
				}
				if m.kind == vFunc && hasDecorator(r.nodes[n].Decorators, "property", "cached_property") {
					m = r.result(m)
				}
				cands = append(cands, m)
			}
			return pick(cands)
		}
	}
	switch {
	case external:
		return unknown(reasonExternal)
	case builtin || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"):
		return value{kind: vBuiltin, node: -1} // object's or a builtin base's
	}
	return unknown(indexer.ReasonNoMember)
}

// classImport is what an import in the body of class c binds to name
// (class Message: from email.iterators import walk): a function there is
// a method of the class.
func (r *resolver) classImport(c int32, name string) (value, bool) {
	imps := r.imports[childKey{r.nodes[c].ID, name}]
	if len(imps) == 0 {
		return value{}, false
	}
	var cands []value
	for _, m := range imps {
		v := r.deref(r.importValue(m, 1))
		if v.kind != vUnknown {
			v.res = schemas.ResolvedReceiver
		}
		cands = append(cands, v)
	}
	return pick(cands), true
}

// mro returns the C3 linearization of class c; bases outside the snapshot
// are entries of their own.
func (r *resolver) mro(c int32) []mroEntry {
	if m, ok := r.mros[c]; ok {
		return m
	}
	self := []mroEntry{{node: c}}
	r.mros[c] = self // a cycle of bases ends here
	var bases []mroEntry
	for _, b := range r.bases[r.nodes[c].ID] {
		e := b.Expr
		v := r.deref(r.eval(e, r.outside(c)))
		switch {
		case v.kind == vBuiltinClass && e == "object":
		case v.kind == vClass:
			bases = append(bases, mroEntry{node: v.node})
		case v.kind == vBuiltinClass || inertBase(v.path):
			bases = append(bases, mroEntry{node: -1, ext: e, builtin: true})
		default:
			bases = append(bases, mroEntry{node: -1, ext: e})
		}
	}
	var seqs [][]mroEntry
	for _, b := range bases {
		if b.node >= 0 {
			seqs = append(seqs, slices.Clone(r.mro(b.node)))
		} else {
			seqs = append(seqs, []mroEntry{b})
		}
	}
	seqs = append(seqs, bases)
	out := merge(self, seqs)
	r.mros[c] = out
	return out
}

// merge is C3's merge; on an inconsistent hierarchy it appends what is left
// in depth-first order.
func merge(out []mroEntry, seqs [][]mroEntry) []mroEntry {
	has := func(list []mroEntry, e mroEntry) bool {
		return slices.ContainsFunc(list, e.same)
	}
	for {
		seqs = slices.DeleteFunc(seqs, func(s []mroEntry) bool { return len(s) == 0 })
		if len(seqs) == 0 {
			return out
		}
		var head *mroEntry
		for _, s := range seqs {
			ok := true
			for _, t := range seqs {
				if has(t[1:], s[0]) {
					ok = false
					break
				}
			}
			if ok {
				head = &s[0]
				break
			}
		}
		if head == nil {
			for _, s := range seqs {
				for _, e := range s {
					if !has(out, e) {
						out = append(out, e)
					}
				}
			}
			return out
		}
		h := *head
		out = append(out, h)
		for i, s := range seqs {
			if s[0].same(h) {
				seqs[i] = s[1:]
			}
		}
	}
}

// inertBase reports whether an external base only marks a class (Generic,
// Protocol, ABC) and defines none of the members code calls.
func inertBase(name string) bool {
	for _, p := range []string{"typing.", "typing_extensions.", "abc."} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// importEdge links an import to the module or symbol it names.
func (r *resolver) importEdge(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	_, m := parseImport(ref.Expr, ref.File)
	var v value
	switch m.name {
	case "":
		v = r.module(m.module, m.file)
	case "*":
		v = r.module(m.module, m.file)
	default:
		v = r.importValue(m, 0)
	}
	if v.kind == vModule && v.node < 0 {
		return append(edges, unresolvedEdge(ref, schemas.EdgeImports, schemas.Unresolved, reasonNamespace))
	}
	if v.kind == vVar {
		return append(edges, resolvedEdge(ref, schemas.EdgeImports, r.nodes[v.node].ID, schemas.ResolvedImport, 1))
	}
	v.res = schemas.ResolvedImport
	return r.emit(edges, ref, schemas.EdgeImports, v)
}

// callEdges turns one call into edges: a calls edge to a function, an
// instantiates edge to a class (and a calls edge to its __init__), or an
// unresolved one.
func (r *resolver) callEdges(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	c := r.at(src)
	v := r.deref(r.eval(ref.Expr, c))
	switch v.kind {
	case vClass:
		edges = r.emit(edges, ref, schemas.EdgeInstantiates, v)
		if init := r.classMember(v, "__init__", false); init.kind == vFunc {
			init.res = v.res
			edges = r.emit(edges, ref, schemas.EdgeCalls, init)
		}
		return edges
	case vInstance:
		m := r.classMember(v, "__call__", false)
		if m.kind == vBuiltin {
			m = unknown(indexer.ReasonDynamic)
		}
		return r.emit(edges, ref, schemas.EdgeCalls, m)
	}
	return r.emit(edges, ref, schemas.EdgeCalls, v)
}

// emit appends the edge of kind for ref to v: resolved when v is a node of
// a kind that fits, nothing for a builtin, else unresolved with a reason.
func (r *resolver) emit(edges []schemas.Edge, ref *schemas.Ref, kind string, v value) []schemas.Edge {
	switch v.kind {
	case vBuiltin, vBuiltinClass, vSuperFn:
		return edges
	case vUnknown:
		if v.res == schemas.Ambiguous {
			return append(edges, unresolvedEdge(ref, kind, schemas.Ambiguous, v.reason))
		}
		if v.reason == "" {
			v.reason = indexer.ReasonDynamic
		}
		return append(edges, unresolvedEdge(ref, kind, schemas.Unresolved, v.reason))
	}
	ok := false
	switch kind {
	case schemas.EdgeCalls:
		ok = v.kind == vFunc
	case schemas.EdgeInstantiates, schemas.EdgeExtends:
		ok = v.kind == vClass
	case schemas.EdgeImports:
		ok = v.node >= 0
	}
	if !ok {
		return append(edges, unresolvedEdge(ref, kind, schemas.Unresolved, indexer.ReasonDynamic))
	}
	return append(edges, resolvedEdge(ref, kind, r.nodes[v.node].ID, v.res, v.conf))
}

func resolvedEdge(ref *schemas.Ref, kind string, dst uint64, res string, conf float32) schemas.Edge {
	return indexer.RefEdge(ref, kind, dst, res, conf, "")
}

func unresolvedEdge(ref *schemas.Ref, kind, res, reason string) schemas.Edge {
	return indexer.RefEdge(ref, kind, 0, res, 0, reason)
}
