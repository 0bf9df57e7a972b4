package typescript

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Reasons of unresolved edges.
const (
	reasonUnknownType = "unknown receiver type"
	reasonExternal    = "external module"
	reasonNotFound    = "module not found"
	reasonDynamic     = "dynamic call"
	reasonUnknownName = "unknown name"
	reasonNoMember    = "unknown member"
	reasonTooDeep     = "import chain too long"
	reasonThis        = "unknown this"
	reasonNotCallable = "not a function"
	reasonBase        = "base outside the snapshot"
)

// maxHops bounds the import, re-export and evaluation chains followed.
const maxHops = 8

// inheritedConfidence is the confidence of a member found on a base that
// comes after a base outside the snapshot: that base might declare it too.
const inheritedConfidence = 0.8

// resolve turns the refs of every TypeScript, TSX and JavaScript file into
// edges.
func resolve(all []schemas.Node, refs []schemas.Ref) []schemas.Edge {
	r := newResolver(all, refs)
	var edges []schemas.Edge
	for i := range refs {
		ref := &refs[i]
		src, ok := r.byID[ref.Src]
		if !ok {
			continue
		}
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

// vkind is what an expression evaluates to.
type vkind uint8

const (
	vUnknown   vkind = iota
	vBuiltin         // a builtin, a global, or a value of a builtin type: no edge
	vModule          // a module's namespace
	vNamespace       // a TypeScript namespace or an enum
	vClass           // a class (or, as a type, an interface)
	vInstance        // an instance of the class or interface
	vFunc            // a function or method
	vVar             // a variable, constant, field or type alias, not yet read
	vObject          // a variable holding an object literal with functions
	vSuper           // super: members of the bases of class node
)

// value is the result of evaluating (part of) an Expr.
type value struct {
	kind   vkind
	node   int32   // index in resolver.nodes, or -1
	res    string  // how the last step was found
	conf   float32 // 1, or less when a base outside the snapshot could interfere
	reason string  // vUnknown: why; "" until the use decides
	recv   int32   // vFunc: the class or interface of the instance a method was read from, or -1
	object string  // vObject: the members of its literal (see objectExpr), "" when unknown
	in     ctx     // vObject: where the members of object are evaluated
}

func unknown(reason string) value { return value{kind: vUnknown, node: -1, reason: reason, recv: -1} }

func ambiguous(n int) value {
	v := unknown(strconv.Itoa(n) + " candidates")
	v.res = schemas.Ambiguous
	return v
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
	results  map[uint64][]string
	bases    map[uint64][]*schemas.Ref // extends refs by class or interface, in order
	sameNS   map[string][]int32        // namespaces by file and qualified name
	entries  map[string][]string       // bare specifier (stemmed) → stems of the modules it names ("/" then a tree path)

	chains map[int32][]chainEntry
	vars   map[int32]value
	busy   map[int32]bool
	depth  int
}

// chainEntry is one class or interface of a heritage chain, or a base
// outside the snapshot.
type chainEntry struct {
	node     int32
	external bool
	builtin  bool
}

func newResolver(all []schemas.Node, refs []schemas.Ref) *resolver {
	r := &resolver{
		nodes: all, byID: make(map[uint64]int32), children: make(map[childKey][]int32), modules: make(map[string]int32),
		imports: make(map[childKey][]imp), reexp: make(map[uint64][]imp), exports: make(map[childKey][]string),
		cjs: make(map[childKey][]string), whole: make(map[uint64][]string), commonjs: make(map[uint64]bool),
		kids: make(map[uint64][]int32), hasKids: make(map[uint64]bool), types: make(map[uint64][]*schemas.Ref),
		results: make(map[uint64][]string), bases: make(map[uint64][]*schemas.Ref), sameNS: make(map[string][]int32),
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
		if n.Kind == schemas.KindClass || isFunc(n) {
			r.kids[n.ParentID] = append(r.kids[n.ParentID], int32(i))
		}
		if isFunc(n) || n.Kind == schemas.KindClass {
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
			r.results[ref.Src] = append(r.results[ref.Src], ref.Expr)
		case schemas.EdgeExtends:
			r.bases[ref.Src] = append(r.bases[ref.Src], ref)
		case schemas.RefEntry:
			if s := "/" + stem(ref.File); !slices.Contains(r.entries[ref.Target], s) {
				r.entries[ref.Target] = append(r.entries[ref.Target], s)
			}
		}
	}
	for _, bases := range r.bases {
		slices.SortFunc(bases, func(a, b *schemas.Ref) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
	}
	return r
}

func (r *resolver) parent(i int32) int32 {
	if p, ok := r.byID[r.nodes[i].ParentID]; ok {
		return p
	}
	return -1
}

func (r *resolver) isKind(i int32, kinds ...string) bool {
	return i >= 0 && slices.Contains(kinds, r.nodes[i].Kind)
}

func isFunc(n *schemas.Node) bool {
	return n.Kind == schemas.KindFunction || n.Kind == schemas.KindMethod || n.Kind == schemas.KindConstructor
}

// isJS reports whether file is JavaScript (which resolves extensions the
// way Node.js does).
func (r *resolver) isJS(file string) bool {
	if m, ok := r.modules[file]; ok {
		return r.nodes[m].Language == JavaScriptName
	}
	return false
}

// ctx is where an Expr is evaluated: the node name lookup starts at, and
// the class this stands for (-1 for none).
type ctx struct {
	scope, class int32
}

// at is the context of code whose symbol is src: this is the class of the
// nearest method above (extraction wrote ?this where it is not).
func (r *resolver) at(src int32) ctx {
	c := ctx{scope: src, class: -1}
	for i := src; i >= 0 && isFunc(&r.nodes[i]); {
		if i = r.parent(i); r.isKind(i, schemas.KindClass) {
			c.class = i
			break
		}
	}
	if r.isKind(src, schemas.KindClass) {
		c.class = src
	}
	return c
}

// eval evaluates an Expr.
func (r *resolver) eval(expr string, c ctx) value {
	if expr == "" || expr[0] == '?' {
		switch expr {
		case exprLiteral:
			return value{kind: vBuiltin, node: -1}
		case exprReceiver:
			return unknown(reasonUnknownType)
		case exprThis:
			return unknown(reasonThis)
		}
		return unknown("")
	}
	if r.depth > maxHops*4 {
		return unknown(reasonTooDeep)
	}
	r.depth++
	defer func() { r.depth-- }()

	var v value
	rest := expr
	switch {
	case expr[0] == '{':
		end := closingBrace(expr)
		if end < 0 {
			return unknown(reasonDynamic)
		}
		if inner := expr[1:end]; isDotted(inner) {
			v = r.instanceOf(r.evalType(inner, c))
		} else {
			v = value{kind: vObject, node: -1, res: schemas.ResolvedLocal, conf: 1, recv: -1, object: inner, in: c}
		}
		rest = expr[end+1:]
	case expr[0] == '#':
		end := strings.IndexAny(expr, ".(<@")
		if end < 0 {
			end = len(expr)
		}
		id, err := strconv.ParseUint(expr[1:end], 16, 64)
		i, ok := r.byID[id]
		if err != nil || !ok {
			return unknown(reasonUnknownName)
		}
		v, rest = r.nodeValue(i, schemas.ResolvedLocal), expr[end:]
	case strings.HasPrefix(expr, "require("):
		end := strings.IndexByte(expr, ')')
		if end < 0 {
			return unknown(reasonDynamic)
		}
		v, rest = r.moduleValue(r.module(expr[len("require("):end], r.nodes[c.scope].File), 0), expr[end+1:]
	default:
		end := strings.IndexAny(expr, ".(<@")
		if end < 0 {
			end = len(expr)
		}
		name := expr[:end]
		rest = expr[end:]
		switch name {
		case "this", "class":
			if c.class < 0 {
				return unknown(reasonThis)
			}
			v = value{kind: vInstance, node: c.class, res: schemas.ResolvedReceiver, conf: 1}
			if name == "class" {
				v.kind = vClass
			}
		case "super":
			if c.class < 0 {
				return unknown(reasonThis)
			}
			v = value{kind: vSuper, node: c.class, res: schemas.ResolvedReceiver, conf: 1}
		default:
			v = r.lookup(name, c, false)
		}
	}
	for rest != "" {
		if strings.HasPrefix(rest, "()") {
			v, rest = r.call(v, false), rest[2:]
			continue
		}
		if strings.HasPrefix(rest, "<>()") {
			v, rest = r.call(v, true), rest[4:]
			continue
		}
		end := strings.IndexAny(rest[1:], ".(<@")
		if end < 0 {
			end = len(rest) - 1
		}
		if rest[0] == '@' {
			v, rest = r.callbackParam(v, rest[1:end+1]), rest[end+1:]
			continue
		}
		if end < 0 {
			end = len(rest) - 1
		}
		v, rest = r.attr(v, rest[1:end+1]), rest[end+1:]
	}
	return v
}

// evalType evaluates a dotted type name.
func (r *resolver) evalType(name string, c ctx) value {
	first, rest, _ := strings.Cut(name, ".")
	v := r.lookup(first, c, true)
	for rest != "" {
		var part string
		part, rest, _ = strings.Cut(rest, ".")
		v = r.typeAttr(v, part)
	}
	return v
}

// typeAttr evaluates the type v.name: a member of a module or namespace
// that is a type (a class, interface, type alias, enum or namespace).
func (r *resolver) typeAttr(v value, name string) value {
	if v = r.deref(v); v.kind == vModule {
		return r.member(v, name, 0, true)
	}
	return r.attr(v, name)
}

// instanceOf turns the value of a type into an instance of it.
func (r *resolver) instanceOf(v value) value {
	if v.kind == vVar && r.isKind(v.node, schemas.KindTypeAlias) {
		facts := r.types[r.nodes[v.node].ID]
		if len(facts) != 1 {
			return unknown(reasonUnknownType)
		}
		return r.eval(facts[0].Expr, ctx{scope: v.node, class: -1})
	}
	switch v.kind {
	case vClass:
		v.kind = vInstance
	case vBuiltin, vUnknown:
	default:
		return unknown(reasonUnknownType)
	}
	return v
}

// lookup finds a name from c.scope outwards: the declarations and imports
// of enclosing functions, namespaces and the module, then the globals.
// Class bodies bind no names; types are found only when types is set.
func (r *resolver) lookup(name string, c ctx, types bool) value {
	for s := c.scope; s >= 0; s = r.parent(s) {
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
	return unknown(reasonUnknownName)
}

// inScope looks name up among the declarations and imports of scope s.
func (r *resolver) inScope(s int32, name, res string, types bool) (value, bool) {
	k := childKey{r.nodes[s].ID, name}
	nodes := r.inSpace(r.children[k], types)
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
		case isFunc(n):
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
	case isFunc(n):
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
		return unknown(reasonTooDeep)
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
		return unknown(reasonTooDeep)
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
	return unknown(reasonNoMember)
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

// deref reads a variable: the one value its type facts agree on. A
// variable holding an object literal with functions is that object.
func (r *resolver) deref(v value) value {
	if v.kind != vVar {
		return v
	}
	if r.hasKids[r.nodes[v.node].ID] && !r.isKind(v.node, schemas.KindTypeAlias) && !r.declaresType(v.node) {
		v.kind = vObject
		for _, f := range r.types[r.nodes[v.node].ID] {
			if f.Expr[0] == '{' && !isDotted(f.Expr[1:len(f.Expr)-1]) {
				v.object, v.in = f.Expr[1:len(f.Expr)-1], r.within(r.parent(v.node), f.Line, f.Col)
			}
		}
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
	if out.kind != vUnknown && out.kind != vBuiltin {
		out.res = v.res
	}
	out.conf = min(out.conf, v.conf)
	return out
}

func (r *resolver) varValue(i int32) value {
	if r.isKind(i, schemas.KindTypeAlias) {
		return unknown(reasonUnknownType)
	}
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
	return r.pick(cands)
}

// within returns the context of the code at line:col inside scope s: the
// innermost function or class there, s itself when there is none.
func (r *resolver) within(s int32, line, col uint32) ctx {
	for s >= 0 {
		inner := int32(-1)
		for _, k := range r.kids[r.nodes[s].ID] {
			n := &r.nodes[k]
			if (n.StartLine < line || n.StartLine == line && n.StartCol <= col) &&
				(line < n.EndLine || line == n.EndLine && col < n.EndCol) {
				inner = k
				break
			}
		}
		if inner < 0 {
			break
		}
		s = inner
	}
	if s < 0 {
		return ctx{scope: -1, class: -1}
	}
	return r.at(s)
}

// attr evaluates v.name.
func (r *resolver) attr(v value, name string) value {
	switch v = r.deref(v); v.kind {
	case vModule:
		return r.member(v, name, 0, false)
	case vNamespace:
		var nodes []int32
		n := &r.nodes[v.node]
		for _, ns := range r.sameNS[n.File+"\x00"+n.QualifiedName] {
			for _, i := range r.children[childKey{r.nodes[ns].ID, name}] {
				if r.nodes[i].Visibility == schemas.Public {
					nodes = append(nodes, i)
				}
			}
		}
		if n.Kind == schemas.KindEnum {
			nodes = r.children[childKey{n.ID, name}]
		}
		if len(nodes) == 0 {
			return unknown(reasonNoMember)
		}
		var cands []value
		for _, i := range r.overloads(nodes) {
			cands = append(cands, r.nodeValue(i, v.res))
		}
		return r.pick(cands)
	case vObject:
		if v.object != "" {
			return r.objectMember(v, name)
		}
		nodes := r.children[childKey{r.nodes[v.node].ID, name}]
		if len(nodes) == 0 {
			if objectMembers[name] {
				return value{kind: vBuiltin, node: -1}
			}
			return unknown(reasonNoMember)
		}
		var cands []value
		for _, i := range r.overloads(nodes) {
			cands = append(cands, r.nodeValue(i, v.res))
		}
		return r.pick(cands)
	case vClass:
		return r.classMember(v, name, true, false)
	case vInstance:
		return r.classMember(v, name, false, false)
	case vSuper:
		return r.classMember(v, name, false, true)
	case vBuiltin, vFunc:
		return value{kind: vBuiltin, node: -1}
	case vUnknown:
		if v.reason == "" {
			v.reason = reasonUnknownType
		}
		return v
	}
	return unknown(reasonUnknownType)
}

// objectMember evaluates o.name for an object literal o: the last of its
// members that defines name, a spread defining it when its value is known
// to; unknown when a spread of a value we cannot list comes after the
// last definition.
func (r *resolver) objectMember(o value, name string) value {
	members := splitTop(o.object, ',')
	for k := len(members) - 1; k >= 0; k-- {
		m := members[k]
		if spread, ok := strings.CutPrefix(m, "..."); ok {
			v := r.attr(r.eval(spread, o.in), name)
			if v.kind == vUnknown && v.reason == reasonNoMember && v.res != schemas.Ambiguous {
				continue
			}
			return v
		}
		key, e, _ := strings.Cut(m, "=")
		switch {
		case key != name:
			continue
		case e != "":
			return r.eval(e, o.in)
		case o.node < 0:
			return unknown(reasonNoMember)
		}
		var cands []value
		for _, i := range r.overloads(r.children[childKey{r.nodes[o.node].ID, name}]) {
			cands = append(cands, r.nodeValue(i, o.res))
		}
		if len(cands) == 0 {
			return unknown(reasonNoMember)
		}
		return r.pick(cands)
	}
	if objectMembers[name] {
		return value{kind: vBuiltin, node: -1}
	}
	return unknown(reasonNoMember)
}

// declaresType reports whether variable node i has a type annotation
// (const p: Provider = {...}): its members are then those of the type.
func (r *resolver) declaresType(i int32) bool {
	n := &r.nodes[i]
	for w := range strings.FieldsSeq(n.Signature) {
		if rest, ok := strings.CutPrefix(w, n.Name); ok && rest != "" && !isIdentByte(rest[0]) {
			return strings.HasPrefix(strings.TrimPrefix(rest, "!"), ":")
		} else if ok {
			return false
		}
	}
	return false
}

// closingBrace returns the index of the brace that closes the one e
// starts with, or -1.
func closingBrace(e string) int {
	depth := 0
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// call evaluates v(), v<T>() when typeArgs is set.
func (r *resolver) call(v value, typeArgs bool) value {
	switch v = r.deref(v); v.kind {
	case vClass:
		if r.isKind(v.node, schemas.KindClass) {
			v.kind = vInstance
			return v
		}
	case vFunc:
		return r.result(v, typeArgs)
	case vBuiltin:
		return v
	case vUnknown:
		return v
	}
	return unknown("")
}

// result is the value a call of function f returns, from the result
// annotations of the signatures a caller can choose: those of its
// overloads (the implementation's is not visible beside them), which must
// agree. An overload with the parameters of an earlier one without type
// parameters is chosen only by explicit type arguments, so it counts only
// for a call with them. A
// result of type this is the receiver the method was read from.
func (r *resolver) result(f value, typeArgs bool) value {
	var out []value
	var plain []string // the parameters of the overloads without type parameters
	for _, s := range r.signatures(f.node) {
		p, generic := paramList(r.nodes[s].Signature)
		if !typeArgs && slices.Contains(plain, p) {
			continue
		}
		if !generic {
			plain = append(plain, p)
		}
		facts := r.results[r.nodes[s].ID]
		if len(facts) != 1 {
			return unknown("")
		}
		var v value
		if facts[0] == "this" && f.recv >= 0 {
			v = value{kind: vInstance, node: f.recv, res: schemas.ResolvedReceiver, conf: 1}
		} else {
			v = r.deref(r.eval(facts[0], ctx{scope: s, class: r.at(s).class}))
		}
		v.conf = min(v.conf, f.conf)
		out = append(out, v)
	}
	if len(out) == 0 {
		return unknown("")
	}
	v := r.pick(out)
	if v.kind == vUnknown && v.res == schemas.Ambiguous {
		return unknown("overloads with different results")
	}
	return v
}

// callbackParam evaluates the step "@" arg ":" param: the type callee f
// declares for parameter param of the function passed as its argument
// arg, when its signatures (its overloads, or the constructors of a
// class) agree on one.
func (r *resolver) callbackParam(f value, step string) value {
	a, p, _ := strings.Cut(step, ":")
	arg, err1 := strconv.Atoi(a)
	param, err2 := strconv.Atoi(p)
	if err1 != nil || err2 != nil {
		return unknown(reasonDynamic)
	}
	var sigs []int32
	switch f = r.deref(f); {
	case f.kind == vFunc:
		sigs = r.signatures(f.node)
	case f.kind == vClass && r.isKind(f.node, schemas.KindClass):
		init, ok := r.constructorOf(f.node, false)
		if !ok {
			return unknown(reasonUnknownType)
		}
		sigs = r.signatures(init.node)
	default:
		return unknown(reasonUnknownType)
	}
	var out []value
	for _, s := range sigs {
		t := callbackParamType(r.nodes[s].Signature, arg, param)
		head := typeHead(t, r.typeParams(s), func(string) bool { return false })
		if head == "" || head[0] != '{' {
			return unknown(reasonUnknownType)
		}
		out = append(out, r.eval(head, ctx{scope: s, class: r.at(s).class}))
	}
	if len(out) == 0 {
		return unknown(reasonUnknownType)
	}
	return r.pick(out)
}

// typeParams returns a test for the names of the type parameters function
// s and its class or interface declare.
func (r *resolver) typeParams(s int32) func(string) bool {
	names := typeParamNames(r.nodes[s].Signature)
	if p := r.parent(s); r.isKind(p, schemas.KindClass, schemas.KindInterface) {
		names = append(names, typeParamNames(r.nodes[p].Signature)...)
	}
	return func(name string) bool { return slices.Contains(names, name) }
}

// signatures returns the signatures callers of function or method f
// see, in source order: its overloads, or f alone.
func (r *resolver) signatures(f int32) []int32 {
	n := &r.nodes[f]
	if isGetter(n) {
		return []int32{f}
	}
	var sigs []int32
	for _, i := range r.children[childKey{n.ParentID, n.Name}] {
		if m := &r.nodes[i]; m.Kind == n.Kind && m.IsStatic == n.IsStatic && !isAccessor(m) {
			sigs = append(sigs, i)
		}
	}
	if len(sigs) < 2 {
		return []int32{f}
	}
	slices.SortFunc(sigs, r.bySource)
	if last := sigs[len(sigs)-1]; r.nodes[last].BodyHash != noBody {
		sigs = sigs[:len(sigs)-1] // the implementation
	}
	return sigs
}

// noBody is the body hash of a declaration without a body.
var noBody = xxhash.Sum64String("")

func (r *resolver) bySource(a, b int32) int {
	x, y := &r.nodes[a], &r.nodes[b]
	return cmp.Or(cmp.Compare(x.StartLine, y.StartLine), cmp.Compare(x.StartCol, y.StartCol))
}

// paramList returns the parameter list of a function signature (the text
// from the first parenthesis after its name and type parameters to the
// one matching it) and whether it has type parameters.
func paramList(sig string) (params string, generic bool) {
	depth := 0
	for i := 0; i < len(sig); i++ {
		switch sig[i] {
		case '<':
			depth++
			generic = true
		case '>':
			depth--
		case '(':
			if depth == 0 {
				if end := matchingClose([]byte(sig), i, len(sig)); end > i {
					return sig[i:end], generic
				}
				return sig[i:], generic
			}
		}
	}
	return "", generic
}

// isGetter reports whether method node n is a get accessor.
func isGetter(n *schemas.Node) bool { return accessor(n) == "get" }

// isAccessor reports whether method node n is a get or set accessor.
func isAccessor(n *schemas.Node) bool { return accessor(n) != "" }

// accessor returns "get" or "set" for an accessor, "" for others.
func accessor(n *schemas.Node) string {
	for w := range strings.FieldsSeq(n.Signature) {
		switch w {
		case "public", "private", "protected", "static", "override", "abstract", "declare", "readonly":
			continue
		case "get", "set":
			return w
		}
		return ""
	}
	return ""
}

// classMember looks name up along the heritage chain of v's class (after
// the class itself for super): static members for the class itself,
// instance members for an instance.
func (r *resolver) classMember(v value, name string, static, after bool) value {
	conf := v.conf
	external, builtin := false, false
	for i, e := range r.chain(v.node) {
		switch {
		case after && i == 0:
		case e.builtin:
			builtin = true
		case e.external:
			external = true
			conf = min(conf, inheritedConfidence)
		default:
			var nodes []int32
			for _, n := range r.children[childKey{r.nodes[e.node].ID, name}] {
				if node := &r.nodes[n]; node.IsStatic == static && node.Kind != schemas.KindConstructor {
					nodes = append(nodes, n)
				}
			}
			if len(nodes) == 0 {
				continue
			}
			var getters []int32
			for _, n := range nodes {
				if isGetter(&r.nodes[n]) {
					getters = append(getters, n)
				}
			}
			if len(getters) > 0 {
				m := r.nodeValue(getters[len(getters)-1], schemas.ResolvedReceiver)
				m.conf = conf
				if !static {
					m.recv = v.node
				}
				return r.result(m, false)
			}
			var cands []value
			for _, n := range r.overloads(nodes) {
				m := r.nodeValue(n, schemas.ResolvedReceiver)
				m.conf = conf
				if !static {
					m.recv = v.node
				}
				cands = append(cands, m)
			}
			return r.pick(cands)
		}
	}
	switch {
	case external:
		return unknown(reasonBase)
	case builtin || objectMembers[name] || static && (name == "name" || name == "length" || name == "prototype" || name == "call" || name == "apply" || name == "bind"):
		return value{kind: vBuiltin, node: -1}
	}
	return unknown(reasonNoMember)
}

// constructorOf finds the constructor an instantiation of class c runs,
// along its chain (from its first base for super()).
func (r *resolver) constructorOf(c int32, after bool) (value, bool) {
	for i, e := range r.chain(c) {
		switch {
		case after && i == 0:
		case e.external:
			return unknown(reasonBase), false
		case e.builtin:
			return value{}, false
		default:
			var nodes []int32
			for _, n := range r.children[childKey{r.nodes[e.node].ID, "constructor"}] {
				if r.nodes[n].Kind == schemas.KindConstructor {
					nodes = append(nodes, n)
				}
			}
			if len(nodes) > 0 {
				return r.nodeValue(r.overloads(nodes)[0], schemas.ResolvedReceiver), true
			}
		}
	}
	return value{}, false
}

// chain returns the class or interface c followed by its bases: the
// class's extends chain, an interface's extended interfaces breadth first.
func (r *resolver) chain(c int32) []chainEntry {
	if ch, ok := r.chains[c]; ok {
		return ch
	}
	self := []chainEntry{{node: c}}
	r.chains[c] = self // a cycle of bases ends here
	out := self
	seen := map[int32]bool{c: true}
	queue := []int32{c}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		outside := ctx{scope: r.parent(cur), class: -1}
		for _, b := range r.bases[r.nodes[cur].ID] {
			var v value
			if r.isKind(cur, schemas.KindInterface) {
				v = r.evalType(b.Expr, outside)
			} else {
				v = r.eval(b.Expr, outside)
			}
			v = r.deref(v)
			switch {
			case v.kind == vClass && !seen[v.node]:
				seen[v.node] = true
				out = append(out, chainEntry{node: v.node})
				queue = append(queue, v.node)
			case v.kind == vClass:
			case v.kind == vBuiltin:
				out = append(out, chainEntry{node: -1, builtin: true})
			default:
				out = append(out, chainEntry{node: -1, external: true})
			}
		}
	}
	r.chains[c] = out
	return out
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
		return append(edges, resolvedEdge(ref, schemas.EdgeImports, r.nodes[v.node].ID, schemas.ResolvedImport, 1))
	}
	if v.kind != vUnknown {
		v.res = schemas.ResolvedImport
	}
	return r.emit(edges, ref, schemas.EdgeImports, v)
}

// heritageEdge links a class or interface to what it extends or
// implements.
func (r *resolver) heritageEdge(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	if ref.Expr == exprExpr {
		return append(edges, unresolvedEdge(ref, ref.Kind, schemas.Unresolved, reasonDynamic))
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
		v.reason = reasonUnknownType
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
			return append(edges, unresolvedEdge(ref, schemas.EdgeCalls, schemas.Unresolved, reasonThis))
		}
		init, ok := r.constructorOf(c.class, true)
		if !ok && init.kind == vUnknown && init.reason != "" {
			return append(edges, unresolvedEdge(ref, schemas.EdgeCalls, schemas.Unresolved, init.reason))
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
		return append(edges, unresolvedEdge(ref, schemas.EdgeCalls, schemas.Unresolved, reasonDynamic))
	}
	if v.kind == vClass || v.kind == vModule || v.kind == vNamespace || v.kind == vObject {
		return append(edges, unresolvedEdge(ref, schemas.EdgeCalls, schemas.Unresolved, reasonNotCallable))
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
			return append(edges, unresolvedEdge(ref, kind, schemas.Ambiguous, v.reason))
		}
		if v.reason == "" {
			v.reason = reasonDynamic
		}
		return append(edges, unresolvedEdge(ref, kind, schemas.Unresolved, v.reason))
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
		return append(edges, unresolvedEdge(ref, kind, schemas.Unresolved, reasonDynamic))
	}
	return append(edges, resolvedEdge(ref, kind, r.nodes[v.node].ID, v.res, v.conf))
}

func resolvedEdge(ref *schemas.Ref, kind string, dst uint64, res string, conf float32) schemas.Edge {
	return indexer.RefEdge(ref, kind, dst, res, conf, "")
}

func unresolvedEdge(ref *schemas.Ref, kind, res, reason string) schemas.Edge {
	return indexer.RefEdge(ref, kind, 0, res, 0, reason)
}
