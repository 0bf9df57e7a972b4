package rust

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Reasons of unresolved edges. Calls into a crate outside the snapshot
// read "external crate NAME".
const (
	reasonLocal        = "local variable or closure"
	reasonNoMember     = "no such item"
	reasonNoMethod     = "method not found"
	reasonExtTrait     = "method of an external trait"
	reasonBlanket      = "blanket impl"
	reasonNotCallable  = "not callable"
	reasonValueCall    = "call of a value"
	reasonTooDeep      = "path chain too long"
	reasonNoModule     = "module not declared"
	reasonUnknownMacro = "unknown macro"
	reasonNoSelf       = "no Self here"
	reasonExpr         = "expression"
	reasonLiteral      = "method of a primitive"
	reasonSelfType     = "self type not in snapshot"
	reasonDynamic      = "dynamic dispatch"
	reasonGeneric      = "generic parameter"
)

// maxHops bounds the use chains and evaluations the resolver follows.
const maxHops = 16

func external(name string) string { return "external crate " + name }

// vkind is what a path or expression evaluates to.
type vkind uint8

const (
	vUnknown  vkind = iota
	vModule         // a module
	vType           // a struct, union, enum, trait or type alias itself
	vFunc           // a function, method, constructor or macro
	vVariant        // an enum variant
	vConst          // a constant or static
	vValue          // a value of type t
	vExternal       // something of a crate outside the snapshot
)

// value is the result of evaluating (part of) an Expr.
type value struct {
	kind   vkind
	node   int32    // index in resolver.nodes, or -1
	t      *typeVal // vValue: its type; vExternal: the receiver of a std method
	res    string   // how the node was found
	reason string   // vUnknown: why; vExternal: the crate
	name   string   // vExternal: the last name reached (a std type or method)
	amb    bool     // vUnknown: several candidates
}

func unknown(reason string) value { return value{kind: vUnknown, node: -1, reason: reason} }

func ambiguous(reason string) value {
	return value{kind: vUnknown, node: -1, reason: reason, amb: true}
}

func ext(crate, name string) value {
	return value{kind: vExternal, node: -1, reason: crate, name: name}
}

func (v value) same(o value) bool {
	return v.kind == o.kind && v.node == o.node && v.reason == o.reason && v.name == o.name && v.t == o.t
}

// typeVal is a type a value has.
type typeVal struct {
	node   int32      // a struct, union or enum of the snapshot, or -1
	std    string     // a standard type whose methods we follow: Vec, Option, …
	crate  string     // the crate of a type outside the snapshot
	args   []*typeVal // the generic arguments of a standard type
	traits []int32    // impl or dyn bounds: the traits of the snapshot among them
	dyn    bool       // an impl or dyn type, a generic parameter
	why    string     // a type we could not evaluate: why
}

var unknownType = &typeVal{node: -1, why: indexer.ReasonUnknownType}

type childKey struct {
	parent uint64
	name   string
}

// useRef is one name a use declaration binds in a scope.
type useRef struct {
	scope int32 // the module or function holding the use
	segs  []string
	abs   bool
	glob  bool
	pub   bool
	ref   *schemas.Ref
}

// implInfo is the impl block an item belongs to.
type implInfo struct {
	self, trait string
}

// fileLink is a `mod name;` or an include! of a file: where it is, and
// what it brings in.
type fileLink struct {
	file     string // the file declaring (declAt) or brought in (links)
	line     uint32
	scope    int32 // the module holding the mod item or include!
	include  bool
	macroUse bool // #[macro_use] mod name;
}

type traitItem struct {
	trait int32  // the trait, or -1 outside the snapshot
	crate string // the trait's crate when outside
	item  int32
}

type resolver struct {
	nodes      []schemas.Node
	byID       map[uint64]int32
	lex        map[int32]int32       // lexical parent of every Rust node, -1 for a file's module
	kids       map[childKey][]int32  // items by lexical parent and name (impl items left out)
	fileMod    map[string]int32      // file → its module node
	manifest   map[string]string     // file → folder of its Cargo.toml
	libs       map[string][]int32    // library crate name → root modules
	decl       map[int32]int32       // file module → the module declaring it
	crates     map[string][]int32    // file → the crate roots it belongs to
	orphans    map[string][]int32    // file no mod reaches → the crates of its name
	declAt     map[int32]fileLink    // file module → where `mod` declares it
	includedAt map[int32]fileLink    // file module → where include! brings it in
	links      map[string][]fileLink // file → the files its mod items and include!s bring in
	uses       map[childKey][]*useRef
	globs      map[int32][]*useRef
	impls      map[int32]implInfo // impl item → its impl block
	typeFact   map[int32]string
	result     map[int32]string
	supers     map[int32][]string
	macros     map[string][]int32 // macro_rules! nodes by name (with its !)
	implRefs   []*schemas.Ref

	inherent   map[int32]map[string][]int32 // type → name → items of inherent impls
	traitItems map[int32]map[string][]traitItem
	traitsOf   map[int32][]traitItem // type → the traits it implements (item -1)
	blanket    map[string][]int32    // name → items of blanket impls
	selfOf     map[int32]*typeVal    // impl item → its self type

	typeMemo map[typeKey]*typeVal
	useMemo  map[useKey]value
	inUse    map[*useRef]bool // the uses being evaluated
	busy     map[any]bool
	depth    int
}

type typeKey struct {
	expr  string
	scope int32
}

type useKey struct {
	u  *useRef
	ns ns
}

// ns is a namespace: a path's last name is looked up in the one its use
// wants; the names before it are types and modules.
type ns uint8

const (
	nsAny ns = iota
	nsType
	nsValue
	nsMacro
)

// resolve turns the refs of every Rust file into edges, and sets the
// parents of impl items and of file modules.
func resolve(all []schemas.Node, refs []schemas.Ref) []schemas.Edge {
	r := newResolver(all, refs)
	r.indexImpls()
	var edges []schemas.Edge
	for ref, src := range indexer.RefsFrom(refs, r.byID) {
		switch ref.Kind {
		case schemas.EdgeImports:
			edges = r.importEdges(edges, ref, src)
		case schemas.EdgeCalls:
			edges = r.callEdge(edges, ref, src)
		case schemas.EdgeInstantiates:
			edges = r.newEdge(edges, ref, src)
		case schemas.EdgeReferences:
			edges = r.typeEdge(edges, ref, src)
		case schemas.EdgeExtends:
			edges = r.extendsEdge(edges, ref, src)
		case schemas.EdgeImplements:
			edges = r.implementsEdge(edges, ref, src)
		}
	}
	r.reparent()
	return edges
}

func newResolver(all []schemas.Node, refs []schemas.Ref) *resolver {
	r := &resolver{
		nodes: all, byID: make(map[uint64]int32), lex: make(map[int32]int32), kids: make(map[childKey][]int32),
		fileMod: make(map[string]int32), manifest: make(map[string]string), libs: make(map[string][]int32),
		decl: make(map[int32]int32), crates: make(map[string][]int32), orphans: make(map[string][]int32),
		declAt: make(map[int32]fileLink), includedAt: make(map[int32]fileLink), links: make(map[string][]fileLink), uses: make(map[childKey][]*useRef),
		globs: make(map[int32][]*useRef), impls: make(map[int32]implInfo), typeFact: make(map[int32]string),
		result: make(map[int32]string), supers: make(map[int32][]string), macros: make(map[string][]int32),
		inherent: make(map[int32]map[string][]int32), traitItems: make(map[int32]map[string][]traitItem),
		traitsOf: make(map[int32][]traitItem), blanket: make(map[string][]int32), selfOf: make(map[int32]*typeVal),
		typeMemo: make(map[typeKey]*typeVal), useMemo: make(map[useKey]value), inUse: make(map[*useRef]bool), busy: make(map[any]bool),
	}
	for i := range all {
		if all[i].Language == Name && all[i].Kind != schemas.KindFile {
			r.byID[all[i].ID] = int32(i)
		}
	}
	var modRefs []*schemas.Ref
	for ref, src := range indexer.RefsFrom(refs, r.byID) {
		switch ref.Kind {
		case refCrate:
			r.fileMod[ref.File] = src
			r.manifest[ref.File] = ref.Expr
		case refMod:
			modRefs = append(modRefs, ref)
		case refImpl:
			self, trait, _ := strings.Cut(ref.Expr, " as ")
			r.impls[src] = implInfo{strings.Trim(self, "{}"), strings.Trim(trait, "{}")}
		case schemas.RefType:
			r.typeFact[src] = strings.Trim(ref.Expr, "{}")
		case schemas.RefResult:
			r.result[src] = strings.Trim(ref.Expr, "{}")
		case schemas.EdgeExtends:
			r.supers[src] = append(r.supers[src], ref.Expr)
		case schemas.EdgeImplements:
			r.implRefs = append(r.implRefs, ref)
		case schemas.EdgeImports:
			u := parseUse(ref.Expr)
			u.scope, u.ref = src, ref
			if u.glob {
				r.globs[src] = append(r.globs[src], u)
			} else if local := u.local(); local != "" && local != "_" {
				k := childKey{ref.Src, local}
				r.uses[k] = append(r.uses[k], u)
			}
		}
	}
	r.lexParents()
	order := make([]int32, 0, len(r.lex))
	for i := range r.lex {
		order = append(order, i)
	}
	slices.Sort(order)
	for _, i := range order {
		n := &r.nodes[i]
		p := r.lex[i]
		if _, isImpl := r.impls[i]; isImpl || p < 0 {
			continue
		}
		k := childKey{r.nodes[p].ID, n.Name}
		r.kids[k] = append(r.kids[k], i)
		if n.Kind == schemas.KindFunction && strings.HasSuffix(n.Name, "!") {
			r.macros[n.Name] = append(r.macros[n.Name], i)
		}
	}
	for _, file := range slices.Sorted(maps.Keys(r.fileMod)) {
		m := r.fileMod[file]
		n := &r.nodes[m]
		if strings.Contains(n.QualifiedName, "::") {
			continue
		}
		if path.Base(file) == "lib.rs" {
			r.libs[n.QualifiedName] = append(r.libs[n.QualifiedName], m)
		}
		r.crates[file] = []int32{m}
	}
	// The module tree: `mod x;` names a file's module, which joins the
	// crates of the declaring file.
	children := make(map[string][]string) // file → files its mod items name
	for _, ref := range modRefs {
		m := r.byID[ref.Src]
		for _, cand := range strings.Split(ref.Expr, "|") {
			child, ok := r.fileMod[cand]
			if !ok {
				continue
			}
			link := fileLink{file: cand, line: ref.Line, scope: m}
			name, macroUse := strings.CutPrefix(ref.Target, "#[macro_use] ")
			switch {
			case strings.HasPrefix(ref.Target, "include!"):
				link.include = true
				if _, has := r.includedAt[child]; !has {
					r.includedAt[child] = fileLink{file: ref.File, line: ref.Line, scope: m}
				}
			default:
				// A file may be both a crate root and another crate's module:
				// tests/a.rs is a test crate, and `mod a;` in tests/all.rs.
				if _, has := r.decl[child]; has {
					break
				}
				r.decl[child] = m
				r.declAt[child] = fileLink{file: ref.File, line: ref.Line, scope: m}
				k := childKey{r.nodes[m].ID, name}
				r.kids[k] = append(r.kids[k], child)
				link.macroUse = macroUse
			}
			children[ref.File] = append(children[ref.File], cand)
			r.links[ref.File] = append(r.links[ref.File], link)
			break
		}
	}
	roots := make([]string, 0, len(r.crates))
	for f := range r.crates {
		roots = append(roots, f)
	}
	slices.Sort(roots)
	for _, f := range roots {
		root := r.crates[f][0]
		seen := map[string]bool{f: true}
		queue := []string{f}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			for _, c := range children[cur] {
				if seen[c] {
					continue
				}
				seen[c] = true
				if !slices.Contains(r.crates[c], root) {
					r.crates[c] = append(r.crates[c], root)
				}
				queue = append(queue, c)
			}
		}
	}
	return r
}

func (r *resolver) isRoot(m int32) bool {
	return !strings.Contains(r.nodes[m].QualifiedName, "::") && r.fileMod[r.nodes[m].File] == m
}

// lexParents computes where every Rust node is declared: its ParentID as
// extracted, except for what resolution itself moves (impl items, which
// may now hang under their type, and file modules, under the module that
// declares them), whose place is found again from the rows: the innermost
// module or function of the same file whose range holds them.
func (r *resolver) lexParents() {
	type scopeNode struct {
		start, end uint32
		i          int32
	}
	scopes := make(map[string][]scopeNode)
	for _, i := range r.byID {
		n := &r.nodes[i]
		switch n.Kind {
		case schemas.KindModule, schemas.KindFunction, schemas.KindMethod, schemas.KindConstructor:
			scopes[n.File] = append(scopes[n.File], scopeNode{n.StartByte, n.EndByte, i})
		}
	}
	for _, s := range scopes {
		slices.SortFunc(s, func(a, b scopeNode) int {
			return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end), cmp.Compare(a.i, b.i))
		})
	}
	fileMods := make(map[int32]bool, len(r.fileMod))
	for _, m := range r.fileMod {
		fileMods[m] = true
	}
	for _, i := range r.byID {
		n := &r.nodes[i]
		switch {
		case fileMods[i]:
			r.lex[i] = -1
		case r.hasImpl(i):
			p := int32(-1)
			s := scopes[n.File]
			k, _ := slices.BinarySearchFunc(s, n.StartByte+1, func(a scopeNode, t uint32) int { return cmp.Compare(a.start, t) })
			for k--; k >= 0; k-- {
				if c := s[k]; c.i != i && c.start <= n.StartByte && c.end >= n.EndByte {
					p = c.i
					break
				}
			}
			if p < 0 {
				p = r.fileMod[n.File]
			}
			r.lex[i] = p
		default:
			if p, ok := r.byID[n.ParentID]; ok {
				r.lex[i] = p
			} else if m, ok := r.fileMod[n.File]; ok {
				r.lex[i] = m
			} else {
				r.lex[i] = -1
			}
		}
	}
}

func (r *resolver) hasImpl(i int32) bool { _, ok := r.impls[i]; return ok }

// parseUse reads an imports Expr (see expr.go).
func parseUse(e string) *useRef {
	u := &useRef{}
	if rest, ok := strings.CutPrefix(e, "pub "); ok {
		u.pub, e = true, rest
	}
	p, alias, _ := strings.Cut(e, " as ")
	if rest, ok := strings.CutPrefix(p, "::"); ok {
		u.abs, p = true, rest
	}
	u.segs = strings.Split(p, "::")
	if u.segs[len(u.segs)-1] == "*" {
		u.glob = true
		u.segs = u.segs[:len(u.segs)-1]
	}
	if alias != "" {
		u.segs = append(u.segs, " as "+alias)
	}
	return u
}

// path returns the imported path, without its alias.
func (u *useRef) path() []string {
	if n := len(u.segs); n > 0 && strings.HasPrefix(u.segs[n-1], " as ") {
		return u.segs[:n-1]
	}
	return u.segs
}

// local is the name the use binds.
func (u *useRef) local() string {
	n := len(u.segs)
	if n == 0 {
		return ""
	}
	if a, ok := strings.CutPrefix(u.segs[n-1], " as "); ok {
		return a
	}
	last := u.segs[n-1]
	if last == "self" && n > 1 {
		return u.segs[n-2]
	}
	return last
}

func (r *resolver) parent(i int32) int32 {
	if p, ok := r.lex[i]; ok {
		return p
	}
	return -1
}

func (r *resolver) kind(i int32) string {
	if i < 0 {
		return ""
	}
	return r.nodes[i].Kind
}

// moduleOf returns the module node i is in (i itself for a module).
func (r *resolver) moduleOf(i int32) int32 {
	for i >= 0 && r.kind(i) != schemas.KindModule {
		i = r.parent(i)
	}
	return i
}

// parentModule returns the module holding module m: the enclosing one of
// an inline module, the declaring one of a file's module.
func (r *resolver) parentModule(m int32) int32 {
	if p := r.parent(m); p >= 0 {
		return r.moduleOf(p)
	}
	if d, ok := r.decl[m]; ok {
		return r.moduleOf(d) // a mod item may sit in a function
	}
	return -1
}

// descends reports whether module a is m or lies under it.
func (r *resolver) descends(a, m int32) bool {
	for range maxHops {
		if a == m {
			return true
		}
		if a < 0 {
			return false
		}
		a = r.parentModule(a)
	}
	return false
}

// rootsOf returns the crate roots the file of node i belongs to: the
// crates whose module tree reaches it, or for a file no `mod` reaches,
// the crates of its name under the same Cargo.toml.
func (r *resolver) rootsOf(i int32) []int32 {
	file := r.nodes[i].File
	if roots := r.crates[file]; len(roots) > 0 {
		return roots
	}
	if roots, ok := r.orphans[file]; ok {
		return roots
	}
	roots := r.orphanRoots(file)
	r.orphans[file] = roots
	return roots
}

func (r *resolver) orphanRoots(file string) []int32 {
	m, ok := r.fileMod[file]
	if !ok {
		return nil
	}
	name, _, _ := strings.Cut(r.nodes[m].QualifiedName, "::")
	var out []int32
	for _, f := range slices.Sorted(maps.Keys(r.crates)) {
		root := r.crates[f][0]
		if r.nodes[root].File == f && r.nodes[root].QualifiedName == name && r.manifest[f] == r.manifest[file] {
			out = append(out, root)
		}
	}
	return out
}

// inNS reports whether node i's name lives in namespace want.
func (r *resolver) inNS(i int32, want ns) bool {
	n := &r.nodes[i]
	macro := strings.HasSuffix(n.Name, "!")
	switch want {
	case nsMacro:
		return macro
	case nsAny:
		return true
	}
	if macro {
		return false
	}
	switch n.Kind {
	case schemas.KindModule, schemas.KindEnum, schemas.KindTrait, schemas.KindTypeAlias:
		return want == nsType
	case schemas.KindStruct:
		return true
	case schemas.KindConstant:
		return want == nsValue || r.kind(r.parent(i)) == schemas.KindEnum
	case schemas.KindField:
		return false
	}
	return want == nsValue
}

// nsName is the name an item of namespace want has in rows: a macro's
// ends with "!".
func nsName(name string, want ns) string {
	if want == nsMacro {
		return name + "!"
	}
	return name
}

func (r *resolver) nodeValue(i int32, res string) value {
	v := value{node: i, res: res}
	switch n := &r.nodes[i]; n.Kind {
	case schemas.KindModule:
		v.kind = vModule
	case schemas.KindStruct, schemas.KindEnum, schemas.KindTrait, schemas.KindTypeAlias:
		v.kind = vType
	case schemas.KindFunction, schemas.KindMethod, schemas.KindConstructor:
		v.kind = vFunc
	case schemas.KindConstant:
		if r.kind(r.parent(i)) == schemas.KindEnum {
			v.kind = vVariant
		} else {
			v.kind = vConst
		}
	case schemas.KindVariable:
		v.kind = vConst
	default:
		return unknown(reasonNoMember)
	}
	return v
}

// pick returns the one value candidates agree on, or an ambiguous unknown.
func pick(cands []value) value {
	var distinct []value
	for _, v := range cands {
		if !slices.ContainsFunc(distinct, v.same) {
			distinct = append(distinct, v)
		}
	}
	switch len(distinct) {
	case 0:
		return unknown(reasonNoMember)
	case 1:
		return distinct[0]
	}
	return ambiguous(strconv.Itoa(len(distinct)) + " candidates")
}

// itemsIn returns the values the items of scope s named name have in
// namespace want: its own items, then its uses, then its globs (visible
// from module from).
func (r *resolver) itemsIn(s int32, name string, want ns, res string, from int32) (value, bool) {
	id := r.nodes[s].ID
	var cands []value
	for _, k := range r.kids[childKey{id, nsName(name, want)}] {
		if r.inNS(k, want) {
			cands = append(cands, r.nodeValue(k, res))
		}
	}
	if len(cands) > 0 {
		return pick(cands), true
	}
	for _, u := range r.uses[childKey{id, name}] {
		if r.inUse[u] || from >= 0 && !u.pub && !r.descends(from, r.moduleOf(s)) {
			continue // a use never names itself: `use regex;` names the crate
		}
		v := r.useValue(u, want)
		if v.kind == vUnknown && !v.amb && v.reason == reasonNoMember {
			continue // the name in another namespace
		}
		if v.kind != vUnknown || v.amb {
			if v.kind != vExternal {
				v.res = schemas.ResolvedImport
			}
			cands = append(cands, v)
		} else {
			cands = append(cands, v)
		}
	}
	if len(cands) > 0 {
		return pick(cands), true
	}
	return r.globbed(s, name, want, from)
}

// globbed looks name up through the glob imports of scope s. A glob of a
// crate outside the snapshot may bring any name; a name two globs of the
// snapshot bring is ambiguous (Rust refuses it), unless both bring the
// same item.
func (r *resolver) globbed(s int32, name string, want ns, from int32) (value, bool) {
	gs := r.globs[s]
	if len(gs) == 0 {
		return value{}, false
	}
	key := [3]any{"glob", s, name}
	if r.busy[key] {
		return value{}, false
	}
	r.busy[key] = true
	defer delete(r.busy, key)
	var cands []value
	externalCrate := ""
	for _, g := range gs {
		if from >= 0 && !g.pub && !r.descends(from, r.moduleOf(s)) {
			continue
		}
		t := r.useValue(g, nsType)
		switch t.kind {
		case vModule:
			all := r.descends(r.moduleOf(s), t.node)
			if v, ok := r.memberVis(t.node, name, want, all, r.moduleOf(s)); ok {
				if v.kind != vExternal && !v.amb {
					v.res = schemas.ResolvedImport
				}
				cands = append(cands, v)
			}
		case vType:
			if r.kind(t.node) == schemas.KindEnum {
				for _, k := range r.kids[childKey{r.nodes[t.node].ID, name}] {
					cands = append(cands, r.nodeValue(k, schemas.ResolvedImport))
				}
			}
		case vExternal:
			if externalCrate == "" {
				externalCrate = t.reason
			}
		}
	}
	if len(cands) > 0 {
		return pick(cands), true
	}
	if externalCrate != "" {
		if v, ok := prelude(name, want); ok {
			return v, true // a glob of another crate seldom shadows the prelude
		}
		return ext(externalCrate, name), true
	}
	return value{}, false
}

// memberVis looks name up in module m: all its items, or (all false) only
// those visible outside it.
func (r *resolver) memberVis(m int32, name string, want ns, all bool, from int32) (value, bool) {
	id := r.nodes[m].ID
	var cands []value
	for _, k := range r.kids[childKey{id, nsName(name, want)}] {
		if r.inNS(k, want) && (all || r.nodes[k].Visibility != schemas.Private) {
			cands = append(cands, r.nodeValue(k, schemas.ResolvedImport))
		}
	}
	if len(cands) > 0 {
		return pick(cands), true
	}
	if want == nsMacro && r.isRoot(m) {
		if v, ok := r.crateMacro(name+"!", []int32{m}, true); ok {
			return v, true // #[macro_export] puts a macro at the crate's root
		}
	}
	for _, u := range r.uses[childKey{id, name}] {
		if r.inUse[u] || !all && !u.pub {
			continue
		}
		v := r.useValue(u, want)
		if v.kind == vUnknown && !v.amb && v.reason == reasonNoMember {
			continue
		}
		cands = append(cands, v)
	}
	if len(cands) > 0 {
		return pick(cands), true
	}
	if all {
		return r.globbed(m, name, want, -1)
	}
	return r.globbed(m, name, want, from)
}

// useValue evaluates the path a use imports, in namespace want.
func (r *resolver) useValue(u *useRef, want ns) value {
	k := useKey{u, want}
	if v, ok := r.useMemo[k]; ok {
		return v
	}
	if r.busy[k] || r.depth > maxHops {
		return unknown(reasonTooDeep)
	}
	r.busy[k] = true
	r.inUse[u] = true
	r.depth++
	p := u.path()
	var v value
	if len(p) == 1 && p[0] == "self" {
		v = unknown(reasonNoMember)
	} else {
		v = r.path(p, u.abs, u.scope, want, true)
	}
	r.depth--
	delete(r.busy, k)
	delete(r.inUse, u)
	r.useMemo[k] = v
	return v
}

// lookup finds name seen from node at: the items and uses of the
// functions around it and of its module, then the crates of the extern
// prelude, then the standard prelude.
func (r *resolver) lookup(name string, at int32, want ns, asPath bool) value {
	if want != nsValue && want != nsMacro && primitives[name] {
		return ext("std", name)
	}
	for s := at; s >= 0; s = r.parent(s) {
		k := r.kind(s)
		if indexer.IsFunc(k) || k == schemas.KindConstant || k == schemas.KindVariable {
			if v, ok := r.itemsIn(s, name, want, schemas.ResolvedLocal, -1); ok {
				return v
			}
		}
		if k == schemas.KindModule {
			if v, ok := r.itemsIn(s, name, want, schemas.ResolvedScope, -1); ok {
				return v
			}
			break
		}
	}
	if want != nsValue && want != nsMacro || asPath {
		if v, ok := r.externCrate(name, at); ok {
			return v
		}
	}
	if v, ok := prelude(name, want); ok {
		return v
	}
	if asPath && name[0] >= 'a' && name[0] <= 'z' {
		return ext(name, name) // a crate of the extern prelude, outside the snapshot
	}
	return unknown(indexer.ReasonUnknownName)
}

// externCrate returns the crate name names: a library crate of the
// snapshot (the one of the same Cargo.toml when several have the name),
// or a crate outside it.
func (r *resolver) externCrate(name string, at int32) (value, bool) {
	if cands := r.libs[name]; len(cands) > 0 {
		if len(cands) > 1 {
			own := r.manifest[r.nodes[at].File]
			var same []int32
			for _, c := range cands {
				if r.manifest[r.nodes[c].File] == own {
					same = append(same, c)
				}
			}
			if len(same) != 1 {
				return ambiguous(strconv.Itoa(len(cands)) + " crates named " + name), true
			}
			cands = same
		}
		return value{kind: vModule, node: cands[0], res: schemas.ResolvedImport}, true
	}
	switch name {
	case "std", "core", "alloc", "proc_macro", "test":
		return ext(name, name), true
	}
	return value{}, false
}

// path evaluates a path seen from node at; want is the namespace of its
// last name. forUse: the path of a use declaration.
func (r *resolver) path(segs []string, abs bool, at int32, want ns, forUse bool) value {
	if len(segs) == 0 {
		return unknown(reasonNoMember)
	}
	if r.depth > maxHops {
		return unknown(reasonTooDeep)
	}
	r.depth++
	defer func() { r.depth-- }()
	ns0 := nsType
	if len(segs) == 1 {
		ns0 = want
	}
	var v value
	rest := segs[1:]
	switch first := segs[0]; {
	case abs:
		if c, ok := r.externCrate(first, at); ok {
			v = c
		} else {
			v = ext(first, first)
		}
	case first == "crate":
		roots := r.rootsOf(at)
		if len(roots) == 0 {
			return unknown(reasonNoModule)
		}
		var cands []value
		for _, root := range roots {
			c := value{kind: vModule, node: root, res: schemas.ResolvedScope}
			cands = append(cands, r.members(c, rest, want))
		}
		return pick(cands)
	case first == "self" && len(segs) > 1:
		v = value{kind: vModule, node: r.moduleOf(at), res: schemas.ResolvedScope}
	case first == "super":
		m := r.moduleOf(at)
		rest = segs
		for len(rest) > 0 && rest[0] == "super" {
			if m = r.parentModule(m); m < 0 {
				return unknown(reasonNoModule)
			}
			rest = rest[1:]
		}
		v = value{kind: vModule, node: m, res: schemas.ResolvedScope}
	case first == "Self":
		t := r.selfType(at)
		if t == nil {
			return unknown(reasonNoSelf)
		}
		switch {
		case t.node >= 0:
			v = value{kind: vType, node: t.node, res: schemas.ResolvedReceiver}
		case t.dyn && len(t.traits) == 1 && len(rest) > 0:
			// Self::f() in a trait: the implementor's f, whichever it is.
			if items := r.traitMember(t.traits[0], rest[0], 0); len(items) == 1 {
				return unknown(reasonDynamic + " via " + r.nodes[items[0]].QualifiedName)
			}
			return unknown(reasonDynamic)
		case t.crate != "":
			v = ext(t.crate, t.std)
		default:
			return unknown(indexer.ReasonUnknownType)
		}
	default:
		v = r.lookup(first, at, ns0, len(segs) > 1 || forUse)
		if len(segs) == 1 && v.kind == vExternal && !forUse && v.name == first && v.reason == first {
			v = unknown(indexer.ReasonUnknownName)
		}
	}
	return r.members(v, rest, want)
}

// members follows the names of a path after its head.
func (r *resolver) members(v value, rest []string, want ns) value {
	for i, seg := range rest {
		w := nsType
		if i == len(rest)-1 {
			w = want
		}
		v = r.member(v, seg, w)
	}
	return v
}

// member evaluates v::name.
func (r *resolver) member(v value, name string, want ns) value {
	res := v.res
	if res == "" || res == schemas.ResolvedLocal {
		res = schemas.ResolvedScope
	}
	switch v.kind {
	case vModule:
		if name == "super" {
			if m := r.parentModule(v.node); m >= 0 {
				return value{kind: vModule, node: m, res: res}
			}
			return unknown(reasonNoModule)
		}
		out, ok := r.memberVis(v.node, name, want, true, -1)
		if !ok {
			return unknown(reasonNoMember)
		}
		if out.kind != vUnknown && out.kind != vExternal {
			out.res = res
		}
		return out
	case vType:
		t := v.node
		if r.kind(t) == schemas.KindTypeAlias {
			tv := r.aliasTarget(t)
			switch {
			case tv.node >= 0:
				t = tv.node
			case tv.crate != "":
				return ext(tv.crate, name)
			default:
				return unknown(indexer.ReasonUnknownType)
			}
		}
		if r.kind(t) == schemas.KindEnum {
			for _, k := range r.kids[childKey{r.nodes[t].ID, name}] {
				out := r.nodeValue(k, res)
				return out
			}
		}
		if r.kind(t) == schemas.KindTrait {
			var cands []value
			for _, k := range r.kids[childKey{r.nodes[t].ID, name}] {
				cands = append(cands, r.nodeValue(k, res))
			}
			if len(cands) > 0 {
				return pick(cands)
			}
			return unknown(reasonNoMember)
		}
		out := r.assoc(t, name)
		if out.kind != vUnknown && out.kind != vExternal {
			out.res = res
		}
		return out
	case vExternal:
		return ext(v.reason, name)
	case vUnknown:
		return v
	}
	return unknown(reasonNoMember)
}

// aliasTarget is the type a type alias stands for.
func (r *resolver) aliasTarget(a int32) *typeVal {
	t, ok := r.typeFact[a]
	if !ok {
		return unknownType
	}
	return r.evalType(t, r.parent(a))
}

// selfType is what Self means at node at: the type of the impl block of
// an impl item, a trait's implementor inside the trait, a type itself in
// its own fields.
func (r *resolver) selfType(at int32) *typeVal {
	for i := at; i >= 0; i = r.parent(i) {
		if r.hasImpl(i) {
			return r.implSelf(i)
		}
		switch r.kind(i) {
		case schemas.KindTrait:
			return &typeVal{node: -1, dyn: true, traits: []int32{i}}
		case schemas.KindStruct, schemas.KindEnum:
			return &typeVal{node: i}
		case schemas.KindModule:
			return nil
		}
	}
	return nil
}

// implSelf is the self type of impl item i's block.
func (r *resolver) implSelf(i int32) *typeVal {
	if t, ok := r.selfOf[i]; ok {
		return t
	}
	t := r.evalType(r.impls[i].self, r.parent(i))
	r.selfOf[i] = t
	return t
}
