package java

import (
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every Java file and the
// refs extraction recorded (package declarations, imports, supertypes,
// declared types, results and parameters, calls, instantiations and
// references). Every type's supertypes are linked first; then the refs
// resolve in parallel, reading only.

// Reasons of unresolved edges.
const (
	reasonAmbiguous       = "ambiguous overload"
	reasonExternal        = "external type "
	reasonExternalPackage = "external package "
	reasonUnknownType     = "unknown type "
	reasonUnknownName     = "unknown name "
	reasonUnknownMethod   = "unknown method "
	reasonUnknownMember   = "unknown member "
	reasonUnknownResult   = "unknown result type"
	reasonTypeVar         = "type variable"
	reasonAnonymous       = "member of an anonymous class"
	reasonArray           = "member of an array"
	reasonPrimitive       = "member of a primitive"
	reasonNotStatic       = "instance method called on a type"
)

// maxDepth bounds the chains the resolver follows (types, receivers).
const maxDepth = 16

type fileInfo struct {
	path         string
	pkg          string
	root, module string              // the source folder (src/main/java) and what holds it
	single       map[string][]string // simple name → single-type imports
	demand       []string            // on-demand imports
	staticSingle map[string][]string // member name → its type, by single static import
	staticDemand []string            // types, by static on-demand import
	id           uint64
}

type pkgInfo struct {
	name  string
	types map[string][]*typeInfo // top-level types by simple name
	files []string
	id    uint64
}

type typeInfo struct {
	node    int32
	name    string
	file    *fileInfo
	iface   bool
	enum    bool
	record  bool
	methods map[string][]int32
	ctors   []int32
	fields  map[string][]int32
	nested  map[string][]*typeInfo
	tparams []string // the names of its type parameters
	comps   int      // record components
	canon   sig      // records: the components' types

	super  tref   // the superclass (none for interfaces)
	ifaces []tref // implemented or extended interfaces
	open   string // an external supertype whose members are not known, if any
	state  uint8  // 0 new, 1 linking, 2 linked
}

// tref is a type: a type of the snapshot, a type outside it (ext, its
// qualified name), or a primitive; dims counts array dimensions. args
// are its type arguments, when written (see generic.go); tv names a
// class's type variable, before it is substituted.
type tref struct {
	t    *typeInfo
	ext  string
	prim string
	dims int
	args []targ
	tv   string
}

func (t tref) known() bool { return t.t != nil || t.ext != "" || t.prim != "" }

type sig struct {
	n       int
	varargs bool
	types   []string
	key     string // name and simple parameter types: what overriding compares
}

type resolver struct {
	nodes    []schemas.Node
	index    map[uint64]int32 // Java nodes by id
	kids     map[uint64][]int32
	files    map[string]*fileInfo
	pkgs     map[string]*pkgInfo
	prefixes map[string]bool // every prefix of a package name
	types    map[int32]*typeInfo
	byName   map[string][]*typeInfo // by qualified name
	typeOf   map[int32]string
	results  map[int32]string
	sigs     map[int32]sig
	supers   map[uint64][]*schemas.Ref
}

// resolve turns the refs of every Java file into edges, and makes the
// package nodes.
func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{
		nodes: nodes, index: make(map[uint64]int32), kids: make(map[uint64][]int32),
		files: make(map[string]*fileInfo), pkgs: make(map[string]*pkgInfo), prefixes: make(map[string]bool),
		types: make(map[int32]*typeInfo), byName: make(map[string][]*typeInfo),
		typeOf: make(map[int32]string), results: make(map[int32]string), sigs: make(map[int32]sig),
		supers: make(map[uint64][]*schemas.Ref),
	}
	r.load(refs)
	pkgNodes := r.packageNodes()
	r.declare()
	for _, i := range slices.Sorted(maps.Keys(r.types)) {
		r.link(r.types[i], 0)
	}
	for _, i := range slices.Sorted(maps.Keys(r.types)) {
		r.openness(r.types[i], 0)
	}
	return pkgNodes, indexer.ResolveRefs(refs, r.index, r.ref)
}

// load indexes the Java nodes and reads the file-level refs and the facts.
func (r *resolver) load(refs []schemas.Ref) {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name {
			continue
		}
		r.index[n.ID] = int32(i)
		if n.Kind == schemas.KindFile {
			r.files[n.File] = &fileInfo{path: n.File, id: n.ID, single: map[string][]string{}, staticSingle: map[string][]string{}}
			continue
		}
		r.kids[n.ParentID] = append(r.kids[n.ParentID], int32(i))
	}
	for i := range refs {
		ref := &refs[i]
		f := r.files[ref.File]
		if f == nil {
			continue
		}
		switch ref.Kind {
		case schemas.RefPackage:
			f.pkg = ref.Expr
		case schemas.EdgeImports:
			e, static := strings.CutPrefix(ref.Expr, "static ")
			dot := strings.LastIndexByte(e, '.')
			if dot < 0 {
				continue
			}
			owner, last := e[:dot], e[dot+1:]
			switch {
			case static && last == "*":
				f.staticDemand = append(f.staticDemand, owner)
			case static:
				f.staticSingle[last] = append(f.staticSingle[last], owner)
			case last == "*":
				f.demand = append(f.demand, owner)
			default:
				f.single[last] = append(f.single[last], e)
			}
		case schemas.RefType, schemas.RefResult, RefParams:
			i, ok := r.index[ref.Src]
			if !ok {
				continue
			}
			switch ref.Kind {
			case schemas.RefType:
				r.typeOf[i] = ref.Expr
			case schemas.RefResult:
				r.results[i] = ref.Expr
			default:
				r.sigs[i] = parseSig(r.nodes[i].Name, ref.Expr)
			}
		case schemas.EdgeExtends, schemas.EdgeImplements:
			r.supers[ref.Src] = append(r.supers[ref.Src], ref)
		}
	}
	for _, s := range r.supers {
		slices.SortFunc(s, indexer.ByPosition)
	}
	for _, f := range r.files {
		f.root, f.module = roots(f.path, f.pkg)
	}
}

// parseSig reads a params fact.
func parseSig(name, e string) sig {
	s := sig{}
	e, s.varargs = strings.CutSuffix(e, "...")
	if e != "" {
		s.types = strings.Split(e, ",")
	}
	s.n = len(s.types)
	simple := make([]string, len(s.types))
	for i, t := range s.types {
		simple[i] = simpleName(t)
	}
	s.key = name + "(" + strings.Join(simple, ",") + ")"
	return s
}

// simpleName returns the last part of a parameter type of a params fact.
func simpleName(t string) string {
	return strings.TrimPrefix(t[strings.LastIndexByte(t, '.')+1:], "^")
}

// roots returns the source folder of a file in package pkg (the folder
// its package path starts from) and the module holding it (the folder
// above src/main/java or src/test/java).
func roots(file, pkg string) (root, module string) {
	dir := path.Dir(file)
	root = dir
	if pkg != "" {
		p := strings.ReplaceAll(pkg, ".", "/")
		if dir == p {
			root = "."
		} else if strings.HasSuffix(dir, "/"+p) {
			root = dir[:len(dir)-len(p)-1]
		}
	}
	module = root
	parts := strings.Split(root, "/")
	if n := len(parts); n >= 3 && parts[n-3] == "src" {
		module = strings.Join(parts[:n-3], "/")
	}
	return root, module
}

// packageNodes makes one node per package name and parents the files of
// the package to it.
func (r *resolver) packageNodes() []schemas.Node {
	for _, f := range r.files { // the unnamed package too, with no node
		p := r.pkgs[f.pkg]
		if p == nil {
			p = &pkgInfo{name: f.pkg, types: make(map[string][]*typeInfo)}
			r.pkgs[f.pkg] = p
		}
		p.files = append(p.files, f.path)
	}
	names := slices.Sorted(maps.Keys(r.pkgs))
	out := make([]schemas.Node, 0, len(names))
	for _, name := range names {
		p := r.pkgs[name]
		if name == "" {
			continue
		}
		sort.Strings(p.files)
		p.id = indexer.NodeID(Name, schemas.KindPackage, name, "", 0)
		out = append(out, schemas.Node{
			ID: p.id, Kind: schemas.KindPackage, Name: name[strings.LastIndexByte(name, '.')+1:], QualifiedName: name,
			Language: Name, File: path.Dir(p.files[0]), Visibility: schemas.Public, Exported: true,
		})
		for _, f := range p.files {
			if i, ok := r.index[r.files[f].id]; ok {
				r.nodes[i].ParentID = p.id
			}
		}
		for q := name; q != ""; q = indexer.ParentName(q) {
			r.prefixes[q] = true
		}
	}
	return out
}

func isTypeKind(k string) bool {
	return k == schemas.KindClass || k == schemas.KindInterface || k == schemas.KindEnum
}

// declare makes the types and their members.
func (r *resolver) declare() {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name || !isTypeKind(n.Kind) {
			continue
		}
		f := r.files[n.File]
		if f == nil {
			continue
		}
		t := &typeInfo{
			node: int32(i), name: n.Name, file: f, iface: n.Kind == schemas.KindInterface, enum: n.Kind == schemas.KindEnum,
			record:  n.Kind == schemas.KindClass && strings.HasPrefix(n.Signature, "record"),
			methods: make(map[string][]int32), fields: make(map[string][]int32), nested: make(map[string][]*typeInfo),
		}
		if !strings.HasPrefix(n.Signature, "new ") {
			t.tparams = typeParams(n.Signature, n.Name)
		}
		r.types[int32(i)] = t
		r.byName[n.QualifiedName] = append(r.byName[n.QualifiedName], t)
		if n.ParentID == f.id || r.pkgs[f.pkg] != nil && n.ParentID == r.pkgs[f.pkg].id {
			if p := r.pkgs[f.pkg]; p != nil {
				p.types[n.Name] = append(p.types[n.Name], t)
			}
		}
	}
	for i, t := range r.types {
		t.canon = r.sigs[i]
		for _, k := range r.kids[r.nodes[i].ID] {
			n := &r.nodes[k]
			switch n.Kind {
			case schemas.KindMethod:
				t.methods[n.Name] = append(t.methods[n.Name], k)
			case schemas.KindConstructor:
				t.ctors = append(t.ctors, k)
			case schemas.KindField, schemas.KindConstant:
				t.fields[n.Name] = append(t.fields[n.Name], k)
				if t.record && n.Kind == schemas.KindField && !n.IsStatic {
					t.comps++
				}
			default:
				if nt := r.types[k]; nt != nil {
					t.nested[n.Name] = append(t.nested[n.Name], nt)
				}
			}
		}
	}
}

func (r *resolver) parent(i int32) int32 {
	return indexer.ParentOf(r.nodes, r.index, i)
}

// fileOf returns the file of node i.
func (r *resolver) fileOf(i int32) *fileInfo { return r.files[r.nodes[i].File] }

// link resolves the supertypes of t. Types are linked once, in node
// order, before any ref resolves.
func (r *resolver) link(t *typeInfo, depth int) {
	if t.state != 0 || depth > maxDepth {
		return
	}
	t.state = 1
	ctx := r.parent(t.node)
	if ctx < 0 {
		ctx = t.node
	}
	declared := false
	for _, ref := range r.supers[r.nodes[t.node].ID] {
		tr, _, _ := r.typeRef(ref.Expr, ctx, depth+1)
		if !tr.known() {
			tr = tref{ext: typeName(ref.Expr)} // an unknown name: some type outside the snapshot
		}
		if ref.Kind == schemas.EdgeExtends && !t.iface && (tr.t == nil || !tr.t.iface) { // an anonymous class's may be an interface
			t.super, declared = tr, true
		} else {
			t.ifaces = append(t.ifaces, tr)
		}
	}
	switch {
	case t.iface || declared:
	case t.enum:
		t.super = tref{ext: "java.lang.Enum"}
	case t.record:
		t.super = tref{ext: "java.lang.Record"}
	default:
		t.super = tref{ext: "java.lang.Object"}
	}
	t.state = 2
}

// supertypes lists the superclass, then the interfaces.
func (t *typeInfo) supertypes() []tref {
	if t.super.known() {
		return append([]tref{t.super}, t.ifaces...)
	}
	return t.ifaces
}

// openness sets t.open: the first supertype outside the snapshot whose
// members are not known.
func (r *resolver) openness(t *typeInfo, depth int) string {
	if t.state == 3 || depth > maxDepth {
		return t.open
	}
	t.state = 3
	for _, s := range t.supertypes() {
		switch {
		case s.t != nil:
			if o := r.openness(s.t, depth+1); o != "" {
				t.open = o
			}
		case s.ext != "" && knownTypes[s.ext] == nil:
			t.open = s.ext
		}
		if t.open != "" {
			break
		}
	}
	return t.open
}

// pick narrows types of the same name to the ones in the module of the
// file they are named from, then to the ones in its source folder.
func pick(ts []*typeInfo, from *fileInfo) []*typeInfo {
	ts = dedupe(ts)
	if len(ts) < 2 || from == nil {
		return ts
	}
	keep := func(ok func(t *typeInfo) bool) {
		var out []*typeInfo
		for _, t := range ts {
			if ok(t) {
				out = append(out, t)
			}
		}
		if len(out) > 0 {
			ts = out
		}
	}
	keep(func(t *typeInfo) bool { return t.file.module == from.module })
	keep(func(t *typeInfo) bool { return t.file.root == from.root })
	return ts
}

func dedupe(ts []*typeInfo) []*typeInfo {
	if len(ts) < 2 {
		return ts
	}
	var out []*typeInfo
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// one returns the type when ts holds exactly one, with a reason otherwise.
func one(ts []*typeInfo, name string) (tref, string) {
	switch len(ts) {
	case 0:
		return tref{}, reasonUnknownType + name
	case 1:
		return tref{t: ts[0]}, ""
	}
	return tref{}, strconv.Itoa(len(ts)) + " types named " + name
}

// resolveType resolves a type name as written (Expr syntax, no braces)
// seen from node ctx. It returns the type, how it was found and, when
// nothing was, why.
func (r *resolver) resolveType(name string, ctx int32, depth int) (tref, string, string) {
	if depth > maxDepth {
		return tref{}, "", indexer.ReasonTooDeep
	}
	if strings.IndexByte(name, '<') >= 0 {
		name = typeName(name)
	}
	base, dims := splitDims(name)
	if primitives[base] {
		return tref{prim: base, dims: dims}, schemas.ResolvedScope, ""
	}
	f := r.fileOf(ctx)
	segs := strings.Split(base, ".")
	tr, how, why := r.simpleType(segs[0], ctx, f, depth)
	rest := segs[1:]
	if !tr.known() && len(segs) > 1 {
		// A qualified name: the longest package prefix holding the next name.
		for i := len(segs) - 1; i >= 1; i-- {
			p := r.pkgs[strings.Join(segs[:i], ".")]
			if p == nil {
				continue
			}
			if ts := p.types[segs[i]]; len(ts) > 0 {
				tr, why = one(pick(ts, f), strings.Join(segs[:i+1], "."))
				how, rest = schemas.ResolvedImport, segs[i+1:]
			} else {
				why = reasonUnknownType + base
			}
			break
		}
		if !tr.known() && why == reasonUnknownType+segs[0] && !r.prefixes[segs[0]] {
			return tref{ext: base, dims: dims}, schemas.ResolvedImport, ""
		}
	}
	if !tr.known() {
		return tr, "", why
	}
	for _, s := range rest {
		if tr.ext != "" {
			tr.ext += "." + s
			continue
		}
		ts := r.memberTypes(tr.t, s, 0)
		if tr, why = one(ts, s); !tr.known() {
			return tr, "", why
		}
	}
	tr.dims = dims
	return tr, how, ""
}

// simpleType resolves a simple type name seen from node ctx in file f:
// member and local types of the enclosing scopes, the file's types, its
// single-type imports, its package, its on-demand imports, java.lang.
func (r *resolver) simpleType(name string, ctx int32, f *fileInfo, depth int) (tref, string, string) {
	for n := ctx; n >= 0; n = r.parent(n) {
		node := &r.nodes[n]
		if node.Kind == schemas.KindFile || node.Kind == schemas.KindPackage {
			break
		}
		if t := r.types[n]; t != nil {
			if r.isTypeLinking(t, depth) {
				continue
			}
			if ts := r.memberTypes(t, name, 0); len(ts) > 0 {
				tr, why := one(ts, name)
				return tr, schemas.ResolvedScope, why
			}
			continue
		}
		for _, k := range r.kids[node.ID] { // local classes
			if t := r.types[k]; t != nil && t.name == name {
				return tref{t: t}, schemas.ResolvedScope, ""
			}
		}
	}
	if f == nil {
		return tref{}, "", reasonUnknownType + name
	}
	var local []*typeInfo
	for _, k := range r.kids[f.id] {
		if t := r.types[k]; t != nil && t.name == name {
			local = append(local, t)
		}
	}
	if len(local) > 0 {
		tr, why := one(local, name)
		return tr, schemas.ResolvedScope, why
	}
	if qs := f.single[name]; len(qs) > 0 {
		q := qs[0]
		if ts := r.byName[q]; len(ts) > 0 {
			tr, why := one(pick(ts, f), q)
			return tr, schemas.ResolvedImport, why
		}
		return tref{ext: q}, schemas.ResolvedImport, ""
	}
	for _, q := range f.staticSingle[name] {
		if ts := pick(r.byName[q], f); len(ts) == 1 {
			if m := r.memberTypes(ts[0], name, 0); len(m) > 0 {
				tr, why := one(m, name)
				return tr, schemas.ResolvedImport, why
			}
		} else if len(ts) == 0 {
			return tref{ext: q + "." + name}, schemas.ResolvedImport, ""
		}
	}
	if p := r.pkgs[f.pkg]; p != nil {
		if ts := p.types[name]; len(ts) > 0 {
			tr, why := one(pick(ts, f), name)
			return tr, schemas.ResolvedScope, why
		}
	}
	// On-demand imports bring in the accessible types only.
	var found []*typeInfo
	external := false
	for _, d := range f.demand {
		if p := r.pkgs[d]; p != nil {
			found = append(found, r.accessible(pick(p.types[name], f), f)...)
		} else if ts := pick(r.byName[d], f); len(ts) == 1 {
			found = append(found, r.accessible(r.memberTypes(ts[0], name, 0), f)...)
		} else {
			external = true
		}
	}
	for _, q := range f.staticDemand {
		if ts := pick(r.byName[q], f); len(ts) == 1 {
			found = append(found, r.accessible(r.memberTypes(ts[0], name, 0), f)...)
		}
	}
	if found = dedupe(found); len(found) > 0 {
		tr, why := one(found, name)
		return tr, schemas.ResolvedImport, why
	}
	if p := r.pkgs["java.lang"]; p != nil && len(p.types[name]) > 0 {
		tr, why := one(pick(p.types[name], f), name)
		return tr, schemas.ResolvedImport, why
	}
	if javaLang[name] {
		return tref{ext: "java.lang." + name}, schemas.ResolvedImport, ""
	}
	if external {
		return tref{ext: name}, schemas.ResolvedImport, ""
	}
	return tref{}, "", reasonUnknownType + name
}

// accessible keeps the types code in file f may name from another
// package: the public ones (and protected member types).
func (r *resolver) accessible(ts []*typeInfo, f *fileInfo) []*typeInfo {
	var out []*typeInfo
	for _, t := range ts {
		if v := r.nodes[t.node].Visibility; t.file.pkg == f.pkg || v == schemas.Public || v == schemas.Protected {
			out = append(out, t)
		}
	}
	return out
}

// isTypeLinking reports whether t's supertypes are being linked: its
// inherited member types are not known yet. It links t first when it is
// new.
func (r *resolver) isTypeLinking(t *typeInfo, depth int) bool {
	if t.state == 0 {
		r.link(t, depth+1)
	}
	return t.state == 1
}

// memberTypes returns the member types of t named name, its own or
// inherited (not private ones, nor package-private ones of another
// package).
func (r *resolver) memberTypes(t *typeInfo, name string, _ int) []*typeInfo {
	var find func(u *typeInfo, depth int) []*typeInfo
	find = func(u *typeInfo, depth int) []*typeInfo {
		var out []*typeInfo
		for _, n := range u.nested[name] {
			if u == t || r.inherits(t, u, n.node) {
				out = append(out, n)
			}
		}
		if len(out) > 0 || depth > maxDepth || u.state == 1 {
			return out
		}
		for _, s := range u.supertypes() {
			if s.t != nil {
				out = append(out, find(s.t, depth+1)...)
			}
		}
		return dedupe(out)
	}
	return find(t, 0)
}

// enclosingType returns the innermost type around node i (i itself when
// it is one), or nil.
func (r *resolver) enclosingType(i int32) *typeInfo {
	for ; i >= 0; i = r.parent(i) {
		if t := r.types[i]; t != nil {
			return t
		}
		if k := r.nodes[i].Kind; k == schemas.KindFile || k == schemas.KindPackage {
			return nil
		}
	}
	return nil
}

// outer returns the type lexically enclosing t, or nil.
func (r *resolver) outer(t *typeInfo) *typeInfo {
	return r.enclosingType(r.parent(t.node))
}

// ref appends the edges of one ref.
func (r *resolver) ref(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	switch ref.Kind {
	case schemas.EdgeImports:
		return r.importEdge(edges, ref)
	case schemas.EdgeExtends, schemas.EdgeImplements:
		ctx := r.parent(src)
		if ctx < 0 {
			ctx = src
		}
		tr, how, why := r.resolveType(ref.Expr, ctx, 0)
		return r.typeEdge(edges, ref, ref.Kind, tr, how, why)
	case schemas.EdgeCalls:
		_, tg := r.eval(ref.Expr, src)
		return r.emit(edges, ref, schemas.EdgeCalls, tg)
	case schemas.EdgeInstantiates:
		return r.newEdges(edges, ref, src)
	case schemas.EdgeReferences:
		if isTypeExpr(ref.Expr) {
			return r.typeUse(edges, ref, src)
		}
		if name, ok := strings.CutPrefix(ref.Expr, "@"); ok { // an annotation: only the snapshot's own
			if tr, how, _ := r.resolveType(name, src, 0); tr.t != nil && tr.dims == 0 {
				return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeReferences, r.nodes[tr.t.node].ID, how))
			}
			return edges
		}
		_, tg := r.eval(ref.Expr, src)
		return r.emit(edges, ref, schemas.EdgeReferences, tg)
	}
	return edges
}

// typeEdge appends an edge of kind to a type.
func (r *resolver) typeEdge(edges []schemas.Edge, ref *schemas.Ref, kind string, tr tref, how, why string) []schemas.Edge {
	switch {
	case tr.t != nil && tr.dims == 0:
		return append(edges, indexer.ResolvedEdge(ref, kind, r.nodes[tr.t.node].ID, how))
	case tr.known():
		return append(edges, indexer.UnresolvedEdge(ref, kind, externalName(external(tr))))
	case strings.Contains(why, " types named "):
		return append(edges, indexer.RefEdge(ref, kind, 0, schemas.Ambiguous, 0, why))
	}
	return append(edges, indexer.UnresolvedEdge(ref, kind, why))
}

// newEdges resolves new T(args): an instantiates edge to T and a calls
// edge to the constructor that takes args.
func (r *resolver) newEdges(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	e, ok := strings.CutPrefix(ref.Expr, "new ")
	i := strings.IndexByte(e, '(')
	if !ok || i < 0 {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, reasonOf(ref.Expr)))
	}
	args, rest, ok := splitArgs(e[i:])
	if !ok || rest != "" {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, indexer.ReasonExpr))
	}
	tr, how, why := r.resolveType(e[:i], src, 0)
	edges = r.typeEdge(edges, ref, schemas.EdgeInstantiates, tr, how, why)
	if tr.t != nil && tr.dims == 0 {
		edges = r.emit(edges, ref, schemas.EdgeCalls, r.constructor(tr.t, args, src, how))
	}
	return edges
}

// importEdge links an import to the type, member or package it names.
func (r *resolver) importEdge(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	f := r.files[ref.File]
	e, static := strings.CutPrefix(ref.Expr, "static ")
	dot := strings.LastIndexByte(e, '.')
	if f == nil || dot < 0 {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, indexer.ReasonExpr))
	}
	owner, last := e[:dot], e[dot+1:]
	imported := func(ts []*typeInfo, name string) []schemas.Edge {
		tr, why := one(pick(ts, f), name)
		if !tr.known() {
			return append(edges, indexer.RefEdge(ref, schemas.EdgeImports, 0, schemas.Ambiguous, 0, why))
		}
		return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[tr.t.node].ID, schemas.ResolvedImport))
	}
	switch {
	case static:
		ts := pick(r.byName[owner], f)
		if len(ts) != 1 || last == "*" {
			if len(ts) == 0 {
				return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternal+owner))
			}
			return imported(ts, owner)
		}
		t := ts[0]
		var members []int32
		members = append(members, t.fields[last]...)
		members = append(members, t.methods[last]...)
		for _, n := range t.nested[last] {
			members = append(members, n.node)
		}
		if len(members) == 1 {
			return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[members[0]].ID, schemas.ResolvedImport))
		}
		return imported(ts, owner)
	case last == "*":
		if p := r.pkgs[owner]; p != nil {
			return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, p.id, schemas.ResolvedImport))
		}
		if ts := r.byName[owner]; len(ts) > 0 {
			return imported(ts, owner)
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternalPackage+owner))
	}
	if ts := r.byName[e]; len(ts) > 0 {
		return imported(ts, e)
	}
	if r.pkgs[owner] != nil {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonUnknownType+e))
	}
	return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternal+e))
}

// emit appends the edge of kind for ref to tg.
func (r *resolver) emit(edges []schemas.Edge, ref *schemas.Ref, kind string, tg target) []schemas.Edge {
	switch {
	case tg.skip:
		return edges
	case tg.node >= 0:
		return append(edges, indexer.RefEdge(ref, kind, r.nodes[tg.node].ID, tg.how, tg.conf, ""))
	}
	return append(edges, indexer.RefEdge(ref, kind, 0, tg.res, 0, tg.why))
}
