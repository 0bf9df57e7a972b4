package typescript

import (
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Reasons of unresolved edges.
const (
	reasonExternal    = "external module"
	reasonNotFound    = "module not found"
	reasonThis        = "unknown this"
	reasonNotCallable = "not a function"
	reasonBase        = "base outside the snapshot"
	reasonOverloads   = "overloads return different types"
)

// maxHops bounds the import, re-export and evaluation chains followed.
const maxHops = 8

// resolve turns the refs of every TypeScript, TSX and JavaScript file into
// edges.
func resolve(all []schemas.Node, refs []schemas.Ref) []schemas.Edge {
	r := newResolver(all, refs)
	var edges []schemas.Edge
	for ref, src := range indexer.RefsFrom(refs, r.byID) {
		switch ref.Kind {
		case schemas.EdgeImports:
			edges = r.importEdge(edges, ref)
		case schemas.EdgeExtends, schemas.EdgeImplements:
			edges = r.heritageEdge(edges, ref, src)
		case schemas.EdgeReferences:
			if strings.HasPrefix(ref.Expr, "type ") {
				edges = r.typeUseEdge(edges, ref, src)
			} else {
				edges = r.callEdges(edges, ref, src)
			}
		case schemas.EdgeCalls, schemas.EdgeInstantiates:
			edges = r.callEdges(edges, ref, src)
		}
	}
	return edges
}

type childKey struct {
	parent uint64
	name   string
}

// imp is one parsed imports Expr.
type imp struct {
	what  string // "", "*", "=", "default" or an exported name
	local string // the name bound, or the name a re-export exports
	spec  string
	star  bool // export * from
	re    bool // a re-export
	file  string
}

// parseImport reads an imports Expr (see expr.go).
func parseImport(expr, file string) imp {
	m := imp{file: file}
	head, spec, ok := strings.Cut(expr, " from ")
	if !ok {
		m.spec = strings.TrimPrefix(expr, "from ")
		return m
	}
	m.spec = spec
	if rest, ok := strings.CutPrefix(head, "export "); ok {
		m.re = true
		head = rest
		if head == "*" {
			m.star = true
			return m
		}
	}
	m.what, m.local, ok = strings.Cut(head, " as ")
	if !ok {
		m.local = m.what
	}
	return m
}

type resolver struct {
	nodes    []schemas.Node
	byID     map[uint64]int32     // our nodes by id
	children map[childKey][]int32 // our nodes by parent and name, in node order
	modules  map[string]int32     // file → its module node
	imports  map[childKey][]imp   // by scope node and local name
	reexp    map[uint64][]imp     // re-exports by module
	exports  map[childKey][]string
	cjs      map[childKey][]string
	whole    map[uint64][]string // module.exports = by module
	commonjs map[uint64]bool     // modules with CommonJS exports
	kids     map[uint64][]int32  // functions and classes by parent
	hasKids  map[uint64]bool
	types    map[uint64][]*schemas.Ref
	results  map[uint64][]*schemas.Ref
	bases    map[uint64][]*schemas.Ref // extends refs by class or interface, in order
	sameNS   map[string][]int32        // namespaces by file and qualified name
	entries  map[string][]string       // bare specifier (stemmed) → stems of the modules it names ("/" then a tree path)

	chains map[int32][]chainEntry
	vars   map[int32]value
	busy   map[int32]bool
	depth  int
}

func newResolver(all []schemas.Node, refs []schemas.Ref) *resolver {
	r := &resolver{
		nodes: all, byID: make(map[uint64]int32), children: make(map[childKey][]int32), modules: make(map[string]int32),
		imports: make(map[childKey][]imp), reexp: make(map[uint64][]imp), exports: make(map[childKey][]string),
		cjs: make(map[childKey][]string), whole: make(map[uint64][]string), commonjs: make(map[uint64]bool),
		kids: make(map[uint64][]int32), hasKids: make(map[uint64]bool), types: make(map[uint64][]*schemas.Ref),
		results: make(map[uint64][]*schemas.Ref), bases: make(map[uint64][]*schemas.Ref), sameNS: make(map[string][]int32),
		entries: make(map[string][]string),
		chains:  make(map[int32][]chainEntry), vars: make(map[int32]value), busy: make(map[int32]bool),
	}
	for i := range all {
		n := &all[i]
		if !isOurs(n.Language) || n.Kind == schemas.KindFile {
			continue
		}
		r.byID[n.ID] = int32(i)
		switch n.Kind {
		case schemas.KindModule:
			r.modules[n.File] = int32(i)
		case schemas.KindNamespace:
			k := n.File + "\x00" + n.QualifiedName
			r.sameNS[k] = append(r.sameNS[k], int32(i))
		}
	}
	for i := range all {
		n := &all[i]
		if _, ok := r.byID[n.ID]; !ok || n.Kind == schemas.KindModule {
			continue
		}
		k := childKey{n.ParentID, n.Name}
		r.children[k] = append(r.children[k], int32(i))
		if n.Kind == schemas.KindClass || indexer.IsFunc(n.Kind) {
			r.kids[n.ParentID] = append(r.kids[n.ParentID], int32(i))
		}
		if indexer.IsFunc(n.Kind) || n.Kind == schemas.KindClass {
			r.hasKids[n.ParentID] = true
		}
	}
	for i := range refs {
		ref := &refs[i]
		switch ref.Kind {
		case schemas.EdgeImports:
			m := parseImport(ref.Expr, ref.File)
			switch {
			case m.re:
				r.reexp[ref.Src] = append(r.reexp[ref.Src], m)
			case m.local != "":
				k := childKey{ref.Src, m.local}
				r.imports[k] = append(r.imports[k], m)
			}
		case refExport:
			name, e, _ := strings.Cut(ref.Expr, "=")
			switch {
			case name == "module.exports":
				r.whole[ref.Src] = append(r.whole[ref.Src], e)
				r.commonjs[ref.Src] = true
			case strings.HasPrefix(name, "exports."):
				k := childKey{ref.Src, strings.TrimPrefix(name, "exports.")}
				r.cjs[k] = append(r.cjs[k], e)
				r.commonjs[ref.Src] = true
			default:
				k := childKey{ref.Src, name}
				r.exports[k] = append(r.exports[k], e)
			}
		case schemas.RefType:
			r.types[ref.Src] = append(r.types[ref.Src], ref)
		case schemas.RefResult:
			r.results[ref.Src] = append(r.results[ref.Src], ref)
		case schemas.EdgeExtends:
			r.bases[ref.Src] = append(r.bases[ref.Src], ref)
		case schemas.RefEntry:
			if s := "/" + stem(ref.File); !slices.Contains(r.entries[ref.Target], s) {
				r.entries[ref.Target] = append(r.entries[ref.Target], s)
			}
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

func (r *resolver) isKind(i int32, kinds ...string) bool {
	return i >= 0 && slices.Contains(kinds, r.nodes[i].Kind)
}

// isJS reports whether file is JavaScript (which resolves extensions the
// way Node.js does).
func (r *resolver) isJS(file string) bool {
	if m, ok := r.modules[file]; ok {
		return r.nodes[m].Language == JavaScriptName
	}
	return false
}

// lookup finds a name from c.scope outwards: the declarations and imports
// of enclosing functions, namespaces and the module, then the globals.
// Class bodies bind no names; types are found only when types is set.
func (r *resolver) lookup(name string, c ctx, types bool) value {
	for s := c.scope; s >= 0; s = r.outer(s) {
		n := &r.nodes[s]
		switch n.Kind {
		case schemas.KindClass, schemas.KindInterface, schemas.KindEnum, schemas.KindVariable, schemas.KindConstant, schemas.KindField:
			continue
		}
		res := schemas.ResolvedLocal
		if v, ok := r.inScope(s, name, res, types); ok {
			return v
		}
		if n.Kind == schemas.KindModule {
			break
		}
	}
	if globals[name] || types && primitives[name] {
		return value{kind: vBuiltin, node: -1}
	}
	return unknown(indexer.ReasonUnknownName)
}

// inScope looks name up among the declarations and imports of scope s.
func (r *resolver) inScope(s int32, name, res string, types bool) (value, bool) {
	k := childKey{r.nodes[s].ID, name}
	// A function's members (F.prototype.m) are no names of its body.
	nodes := slices.DeleteFunc(r.inSpace(r.children[k], types), func(i int32) bool { return r.nodes[i].Kind == schemas.KindMethod })
	imps := r.imports[k]
	if r.nodes[s].Kind == schemas.KindNamespace { // merged declarations
		for _, ns := range r.sameNS[r.nodes[s].File+"\x00"+r.nodes[s].QualifiedName] {
			if ns != s {
				for _, i := range r.children[childKey{r.nodes[ns].ID, name}] {
					if r.nodes[i].Visibility == schemas.Public {
						nodes = append(nodes, i)
					}
				}
			}
		}
	}
	if len(nodes)+len(imps) == 0 {
		return value{}, false
	}
	var cands []value
	for _, i := range r.overloads(nodes) {
		cands = append(cands, r.nodeValue(i, res))
	}
	for _, m := range imps {
		cands = append(cands, r.importValue(m, 1, types))
	}
	return r.pick(cands), true
}

// inSpace keeps the nodes that declare a type when types is set, else
// those that declare a value.
func (r *resolver) inSpace(nodes []int32, types bool) []int32 {
	var out []int32
	for _, i := range nodes {
		switch r.nodes[i].Kind {
		case schemas.KindInterface, schemas.KindTypeAlias:
			if !types {
				continue
			}
		case schemas.KindFunction, schemas.KindVariable, schemas.KindConstant:
			if types {
				continue
			}
		}
		out = append(out, i)
	}
	return out
}

// overloads keeps one of a function's overloads and implementation (the
// last, the implementation), and the class or function of a declaration
// merged with a namespace or interface.
func (r *resolver) overloads(nodes []int32) []int32 {
	if len(nodes) < 2 {
		return nodes
	}
	var funcs, classes, others []int32
	for _, i := range nodes {
		switch n := &r.nodes[i]; {
		case indexer.IsFunc(n.Kind):
			funcs = append(funcs, i)
		case n.Kind == schemas.KindClass:
			classes = append(classes, i)
		default:
			others = append(others, i)
		}
	}
	out := others
	if len(funcs) > 0 {
		same := true
		for _, i := range funcs {
			same = same && r.nodes[i].ParentID == r.nodes[funcs[0]].ParentID && r.nodes[i].Kind == r.nodes[funcs[0]].Kind
		}
		if same {
			funcs = []int32{slices.MaxFunc(funcs, r.bySource)}
		}
		out = append(out, funcs...)
	}
	out = append(out, classes...)
	if len(out) > 1 && len(funcs)+len(classes) == 1 {
		// A function or class merged with namespaces or interfaces: the value.
		return append(funcs, classes...)
	}
	return out
}

// pick returns the one value the candidates agree on, or an ambiguous
// unknown.
func (r *resolver) pick(cands []value) value {
	var distinct []value
	known := false
	for _, v := range cands {
		known = known || v.kind != vUnknown
		if !slices.ContainsFunc(distinct, func(d value) bool { return d.kind == v.kind && d.node == v.node && d.object == v.object }) {
			distinct = append(distinct, v)
		}
	}
	if len(distinct) > 1 && known {
		return ambiguous(len(distinct))
	}
	return distinct[0]
}

func (r *resolver) nodeValue(i int32, res string) value {
	v := value{node: i, res: res, conf: 1, recv: -1}
	switch n := &r.nodes[i]; {
	case n.Kind == schemas.KindModule:
		v.kind = vModule
	case n.Kind == schemas.KindNamespace || n.Kind == schemas.KindEnum:
		v.kind = vNamespace
	case n.Kind == schemas.KindClass || n.Kind == schemas.KindInterface:
		v.kind = vClass
	case indexer.IsFunc(n.Kind):
		v.kind = vFunc
	default:
		v.kind = vVar
	}
	return v
}

// importValue is what an import binds.
func (r *resolver) importValue(m imp, hops int, types bool) value {
	mod := r.module(m.spec, m.file)
	var v value
	switch m.what {
	case "*":
		v = mod
	case "=":
		v = r.moduleValue(mod, hops)
	default:
		v = r.member(mod, m.what, hops, types)
	}
	if v.kind != vUnknown || v.res != schemas.Ambiguous {
		v.res = schemas.ResolvedImport
	}
	return v
}

// jsExts and tsExts are the extensions probed, in order, for a specifier
// written without one, from a JavaScript or a TypeScript file.
var (
	jsExts = []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".d.ts"}
	tsExts = []string{".ts", ".tsx", ".d.ts", ".mts", ".cts", ".d.mts", ".d.cts", ".js", ".jsx", ".mjs", ".cjs"}
	// A TypeScript file imports the output of another as ./x.js.
	outputOf = map[string][]string{
		".js": {".ts", ".tsx", ".d.ts"}, ".jsx": {".tsx"}, ".mjs": {".mts", ".d.mts"}, ".cjs": {".cts", ".d.cts"},
	}
)

// module returns the module a specifier names, imported from file.
func (r *resolver) module(spec, file string) value {
	if strings.HasPrefix(spec, "?") {
		return unknown(reasonNotFound)
	}
	exts := tsExts
	if r.isJS(file) {
		exts = jsExts
	}
	for alt := range strings.SplitSeq(spec, "|") {
		p, ok := strings.CutPrefix(alt, "/")
		if !ok {
			return r.bare(alt, exts)
		}
		if m, ok := r.probe(p, exts); ok {
			return value{kind: vModule, node: m, res: schemas.ResolvedImport, conf: 1}
		}
	}
	return unknown(reasonNotFound)
}

// bare returns the module a package specifier names: a package of the
// snapshot (a workspace of a monorepo, or another repository's package
// in a join) whose entry facts name one module; else it is external.
func (r *resolver) bare(spec string, exts []string) value {
	stems := r.entries[stem(spec)]
	switch {
	case len(stems) > 1:
		return ambiguous(len(stems))
	case len(stems) == 1:
		if m, ok := r.probe(stems[0][1:], exts); ok {
			return value{kind: vModule, node: m, res: schemas.ResolvedImport, conf: 1}
		}
	}
	return unknown(reasonExternal)
}

// probe finds the module file of tree path p: p itself, p with an
// extension, the TypeScript source of an output file, p/index.
func (r *resolver) probe(p string, exts []string) (int32, bool) {
	if m, ok := r.modules[p]; ok {
		return m, true
	}
	for _, e := range exts {
		if m, ok := r.modules[p+e]; ok {
			return m, true
		}
	}
	for out, srcs := range outputOf {
		if base, ok := strings.CutSuffix(p, out); ok {
			for _, e := range srcs {
				if m, ok := r.modules[base+e]; ok {
					return m, true
				}
			}
		}
	}
	for _, e := range exts {
		if m, ok := r.modules[p+"/index"+e]; ok {
			return m, true
		}
	}
	return -1, false
}

// moduleValue is what require() of a module gives: what module.exports
// was set to, or the module's namespace.
func (r *resolver) moduleValue(m value, hops int) value {
	if m.kind != vModule || m.node < 0 {
		return m
	}
	ws := r.whole[r.nodes[m.node].ID]
	if len(ws) == 0 {
		return m
	}
	if hops > maxHops {
		return unknown(indexer.ReasonChainTooLong)
	}
	var cands []value
	for _, w := range ws {
		cands = append(cands, r.deref(r.eval(w, ctx{scope: m.node, class: -1})))
	}
	v := r.pick(cands)
	if v.kind != vUnknown {
		v.res = schemas.ResolvedImport
	}
	return v
}

// member looks name up among what module m exports: its export facts and
// exported declarations, its re-exports, CommonJS exports, what
// module.exports was set to, then its export * re-exports. A name
// declared both as a value and as a type (a function and an interface
// merged) is the type when types is set, else the value.
func (r *resolver) member(m value, name string, hops int, types bool) value {
	if m.kind != vModule {
		if types {
			return r.typeAttr(m, name)
		}
		return r.attr(m, name)
	}
	if hops > maxHops {
		return unknown(indexer.ReasonChainTooLong)
	}
	id := r.nodes[m.node].ID
	k := childKey{id, name}
	mc := ctx{scope: m.node, class: -1}
	var cands []value
	for _, e := range r.exports[k] {
		if types && isDotted(e) {
			cands = append(cands, r.evalType(e, mc))
			continue
		}
		cands = append(cands, r.eval(e, mc))
	}
	var nodes []int32
	for _, i := range r.children[k] {
		if r.nodes[i].Exported {
			nodes = append(nodes, i)
		}
	}
	for _, i := range r.overloads(r.inSpace(nodes, types)) {
		cands = append(cands, r.nodeValue(i, schemas.ResolvedImport))
	}
	for _, re := range r.reexp[id] {
		switch {
		case re.star:
		case re.what == "*" && re.local == name:
			cands = append(cands, r.module(re.spec, re.file))
		case re.local == name:
			cands = append(cands, r.member(r.module(re.spec, re.file), re.what, hops+1, types))
		}
	}
	for _, e := range r.cjs[k] {
		cands = append(cands, r.eval(e, mc))
	}
	if len(cands) > 0 {
		cands = r.keepFuncs(cands)
		return r.withRes(r.pick(cands), schemas.ResolvedImport)
	}
	if len(r.whole[id]) > 0 {
		return r.withRes(r.attr(r.moduleValue(m, hops+1), name), schemas.ResolvedImport)
	}
	if name != "default" {
		// Names two export * give differently are exported by neither.
		external := false
		var found []value
		for _, re := range r.reexp[id] {
			if !re.star {
				continue
			}
			sub := r.module(re.spec, re.file)
			if sub.kind != vModule {
				external = true
				continue
			}
			if v := r.member(sub, name, hops+1, types); v.kind != vUnknown || v.res == schemas.Ambiguous || v.reason == reasonExternal {
				found = append(found, v)
			}
		}
		switch {
		case len(found) > 0:
			return r.pick(found)
		case external:
			return unknown(reasonExternal)
		}
	} else if r.commonjs[id] {
		return m // CommonJS: the default import is module.exports
	}
	return unknown(indexer.ReasonNoMember)
}

// keepFuncs drops, among the candidates for one exported name, the
// overloads a function's implementation stands for.
func (r *resolver) keepFuncs(cands []value) []value {
	var nodes []int32
	for _, v := range cands {
		if v.kind != vFunc {
			return cands
		}
		nodes = append(nodes, v.node)
	}
	nodes = r.overloads(nodes)
	if len(nodes) == 1 {
		for _, v := range cands {
			if v.node == nodes[0] {
				return []value{v}
			}
		}
	}
	return cands
}

func (r *resolver) withRes(v value, res string) value {
	if v.kind != vUnknown && v.kind != vBuiltin {
		v.res = res
	}
	return v
}

// importEdge links an import to the module or symbol it names.
func (r *resolver) importEdge(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	m := parseImport(ref.Expr, ref.File)
	var v value
	switch {
	case m.star || m.what == "" || m.what == "*" || m.what == "=":
		v = r.module(m.spec, m.file)
	default:
		mod := r.module(m.spec, m.file)
		if v = r.member(mod, m.what, 0, false); v.kind == vUnknown && v.res != schemas.Ambiguous {
			if t := r.member(mod, m.what, 0, true); t.kind != vUnknown {
				v = t
			}
		}
	}
	if v.kind == vVar || v.kind == vObject {
		return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[v.node].ID, schemas.ResolvedImport))
	}
	if v.kind != vUnknown {
		v.res = schemas.ResolvedImport
	}
	return r.emit(edges, ref, schemas.EdgeImports, v)
}

// heritageEdge links a class or interface to what it extends or
// implements.
func (r *resolver) heritageEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	if ref.Expr == indexer.ExprExpr {
		return append(edges, indexer.UnresolvedEdge(ref, ref.Kind, indexer.ReasonDynamic))
	}
	outside := ctx{scope: r.parent(src), class: -1}
	var v value
	if ref.Kind == schemas.EdgeImplements || r.isKind(src, schemas.KindInterface) {
		v = r.evalType(ref.Expr, outside)
	} else {
		v = r.eval(ref.Expr, outside)
	}
	v = r.deref(v)
	if v.kind == vUnknown && v.reason == "" {
		v.reason = indexer.ReasonUnknownType
	}
	return r.emit(edges, ref, ref.Kind, v)
}

// callEdges turns one call, instantiation or JSX element into edges: a
// calls edge to a function, an instantiates edge to a class and a calls
// edge to its constructor, a references edge to a component, or an
// unresolved one.
func (r *resolver) callEdges(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	c := r.at(src)
	if ref.Kind == schemas.EdgeCalls && ref.Expr == "super" {
		if c.class < 0 {
			return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeCalls, reasonThis))
		}
		init, ok := r.constructorOf(c.class, true)
		if !ok && init.kind == vUnknown && init.reason != "" {
			return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeCalls, init.reason))
		}
		if ok {
			edges = r.emit(edges, ref, schemas.EdgeCalls, init)
		}
		return edges
	}
	v := r.deref(r.eval(ref.Expr, c))
	switch ref.Kind {
	case schemas.EdgeInstantiates:
		switch {
		case v.kind == vClass && r.isKind(v.node, schemas.KindClass):
			edges = r.emit(edges, ref, schemas.EdgeInstantiates, v)
			if init, ok := r.constructorOf(v.node, false); ok {
				init.res = v.res
				edges = r.emit(edges, ref, schemas.EdgeCalls, init)
			}
			return edges
		case v.kind == vFunc:
			return r.emit(edges, ref, schemas.EdgeCalls, v)
		}
		return r.emit(edges, ref, schemas.EdgeInstantiates, v)
	case schemas.EdgeReferences:
		if v.kind == vClass && r.isKind(v.node, schemas.KindClass) {
			return r.emit(edges, ref, schemas.EdgeReferences, value{kind: vFunc, node: v.node, res: v.res, conf: v.conf})
		}
		return r.emit(edges, ref, schemas.EdgeReferences, v)
	}
	if v.kind == vInstance { // an object with a call signature
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeCalls, indexer.ReasonDynamic))
	}
	if v.kind == vClass || v.kind == vModule || v.kind == vNamespace || v.kind == vObject {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeCalls, reasonNotCallable))
	}
	return r.emit(edges, ref, schemas.EdgeCalls, v)
}

// emit appends the edge of kind for ref to v: resolved when v is a node of
// a kind that fits, nothing for a builtin, else unresolved with a reason.
func (r *resolver) emit(edges []schemas.Edge, ref *schemas.Ref, kind string, v value) []schemas.Edge {
	switch v.kind {
	case vBuiltin:
		return edges
	case vUnknown:
		if v.res == schemas.Ambiguous {
			return append(edges, indexer.RefEdge(ref, kind, 0, schemas.Ambiguous, 0, v.reason))
		}
		if v.reason == "" {
			v.reason = indexer.ReasonDynamic
		}
		return append(edges, indexer.UnresolvedEdge(ref, kind, v.reason))
	}
	ok := false
	switch kind {
	case schemas.EdgeCalls, schemas.EdgeReferences:
		ok = v.kind == vFunc
	case schemas.EdgeInstantiates:
		ok = v.kind == vClass && r.isKind(v.node, schemas.KindClass)
	case schemas.EdgeExtends, schemas.EdgeImplements:
		ok = v.kind == vClass
	case schemas.EdgeImports:
		ok = v.node >= 0
	}
	if !ok {
		return append(edges, indexer.UnresolvedEdge(ref, kind, indexer.ReasonDynamic))
	}
	return append(edges, indexer.RefEdge(ref, kind, r.nodes[v.node].ID, v.res, v.conf, ""))
}
