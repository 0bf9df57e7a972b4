package golang

import (
	"cmp"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every Go file and the
// refs extraction recorded (package clauses, imports, declared types,
// first results, embeddings and calls).

type typeInfo struct {
	pkg     *pkgInfo
	name    string
	nodes   []int32
	iface   bool
	alias   *fact // type A = B
	methods map[string][]int32
	fields  map[string][]int32
	embeds  []fact
	sigs    map[string]string // of its own methods (ownSigs), once asked
}

type pkgInfo struct {
	key     string // dir + "\x00" + package name
	path    string // import path
	name    string
	dir     string
	files   []string
	members map[string][]int32
	types   map[string]*typeInfo
	node    uint64
}

type fileInfo struct {
	path    string
	pkg     *pkgInfo
	imports map[string]string // import name → import path
	dots    []string          // dot-imported paths
	id      uint64
	built   bool // compiled by default (defaultBuild), set by load
}

// fact is an expression to evaluate in the context of a file.
type fact struct {
	expr string
	file *fileInfo
}

type resolver struct {
	nodes      []schemas.Node
	ids        []uint64 // the nodes' ids by row (see row)
	files      map[string]*fileInfo
	pkgs       map[string]*pkgInfo   // by key
	byPath     map[string][]*pkgInfo // by import path
	typeOf     map[int32]fact        // fields, variables, constants, receivers, type definitions
	result     map[int32]fact        // functions and methods
	typeIdx    []*typeInfo           // by node row: a type node's type, else nil
	embeds     map[uint64][]fact     // struct or interface node → embedded types
	constraint map[string]string     // file → its //go:build expression
	edges      []schemas.Edge
}

// Resolve links Go calls, imports, embeddings and interface satisfaction.
func (l *Language) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	newNodes, parts := l.ResolveParts(nodes, refs)
	return newNodes, slices.Concat(parts...)
}

// ResolveParts is Resolve with the edges as its workers made them, one
// slice each, and one more of interface satisfaction (see
// indexer.PartsResolver).
func (l *Language) ResolveParts(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, [][]schemas.Edge) {
	return l.resolve(nodes, refs, nil)
}

// ResolveFiles is ResolveParts with only the edges whose File is in files
// (see indexer.FilesResolver): the references of other files are read for
// what they declare, not resolved, and interfaces are satisfied by the
// types declared in files alone.
func (l *Language) ResolveFiles(nodes []schemas.Node, refs []schemas.Ref, files map[string]bool) ([]schemas.Node, [][]schemas.Edge) {
	return l.resolve(nodes, refs, files)
}

// resolve is ResolveParts, or ResolveFiles when files is not nil.
func (l *Language) resolve(nodes []schemas.Node, refs []schemas.Ref, files map[string]bool) ([]schemas.Node, [][]schemas.Edge) {
	r := &resolver{
		nodes: nodes, ids: make([]uint64, len(nodes)),
		files: make(map[string]*fileInfo), pkgs: make(map[string]*pkgInfo),
		byPath: make(map[string][]*pkgInfo),
		typeOf: make(map[int32]fact), result: make(map[int32]fact), typeIdx: make([]*typeInfo, len(nodes)),
		embeds: make(map[uint64][]fact), constraint: make(map[string]string),
	}
	for i := range nodes {
		r.ids[i] = nodes[i].ID
	}
	r.load(refs)
	newNodes := r.packageNodes()
	r.declare()
	for _, p := range r.pkgs {
		for _, t := range p.types {
			r.embedsOf(t) // filled now: from here on the resolver only reads
		}
	}
	// References resolve in parallel, in contiguous chunks whose edges are
	// joined in order, so the result does not depend on the schedule.
	// Interface satisfaction, which reads what the references do and
	// writes only r.edges, runs beside them.
	resolved := refs
	if files != nil {
		resolved = nil
		for lo := 0; lo < len(refs); { // a file's refs come together
			hi := lo + 1
			for hi < len(refs) && refs[hi].File == refs[lo].File {
				hi++
			}
			if files[refs[lo].File] {
				resolved = append(resolved, refs[lo:hi]...)
			}
			lo = hi
		}
	}
	refs = resolved
	chunks := make([][]schemas.Edge, runtime.GOMAXPROCS(0))
	size := (len(refs) + len(chunks) - 1) / len(chunks)
	var wg sync.WaitGroup
	wg.Go(func() { r.implements(files) })
	for c := range chunks {
		lo, hi := min(c*size, len(refs)), min((c+1)*size, len(refs))
		wg.Go(func() {
			out := &chunks[c]
			n := 0
			for _, ref := range refs[lo:hi] {
				switch ref.Kind {
				case schemas.EdgeCalls, schemas.EdgeImports, schemas.RefEmbeds, schemas.EdgeReferences, schemas.EdgeInstantiates:
					n++ // about one edge each
				}
			}
			*out = make([]schemas.Edge, 0, n)
			// A function's calls come one after another: its row is
			// looked up once for them all.
			var src uint64
			known := false
			for _, ref := range refs[lo:hi] {
				switch ref.Kind {
				case schemas.EdgeCalls:
					if ref.Src != src || src == 0 {
						src = ref.Src
						_, known = r.row(src)
					}
					if known {
						r.call(out, ref)
					}
				case schemas.EdgeImports:
					r.importEdge(out, ref)
				case schemas.RefEmbeds:
					r.embedEdge(out, ref)
				case schemas.EdgeReferences, schemas.EdgeInstantiates:
					r.typeUse(out, ref)
				}
			}
		})
	}
	wg.Wait()
	return newNodes, append(chunks, r.edges)
}

// DeclaresAlike: the resolver reads, of a file, only its nodes (but for
// where they are, their docs and body hashes) and its refs other than
// calls and type uses (but for where they are) to resolve another file's
// references (see load and declare); the file's calls and type uses, and
// where anything stands in it, matter to its own edges alone.
func (l *Language) DeclaresAlike(baseNodes, nodes []schemas.Node, baseRefs, refs []schemas.Ref) bool {
	if len(baseNodes) != len(nodes) {
		return false
	}
	byID := slices.Clone(nodes)
	slices.SortFunc(byID, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
	for i := range byID {
		if !sameDeclaration(&baseNodes[i], &byID[i]) {
			return false
		}
	}
	facts := func(refs []schemas.Ref) []schemas.Ref {
		out := make([]schemas.Ref, 0, len(refs)/4)
		for _, r := range refs {
			switch r.Kind {
			case schemas.EdgeCalls, schemas.EdgeReferences, schemas.EdgeInstantiates:
			default:
				r.Line, r.Col = 0, 0
				out = append(out, r)
			}
		}
		return out
	}
	return slices.Equal(facts(baseRefs), facts(refs))
}

// sameDeclaration compares two nodes but for where they stand, their docs
// and body hashes, and a method's parent.
func sameDeclaration(a, b *schemas.Node) bool {
	// A method's parent is its receiver type's node, which declare
	// sets: a base's rows hold it, a parse the file.
	method := a.Kind == schemas.KindMethod && !a.IsAbstract
	return a.ID == b.ID && a.Kind == b.Kind && a.Name == b.Name && a.QualifiedName == b.QualifiedName &&
		a.Language == b.Language && a.File == b.File && (a.ParentID == b.ParentID || method) && a.Signature == b.Signature &&
		a.Visibility == b.Visibility && a.Exported == b.Exported && a.IsAsync == b.IsAsync && a.IsStatic == b.IsStatic &&
		a.IsAbstract == b.IsAbstract && a.IsTest == b.IsTest && slices.Equal(a.Decorators, b.Decorators)
}

// TakesAllRefs: the resolver knows a file by its package clause, and
// only a Go file's counts (see load); it skips the refs of any other
// file (indexer.AllRefsResolver).
func (l *Language) TakesAllRefs() {}

// load reads package clauses and imports, making files and packages. The
// files are Go files: other languages' refs may be among refs (Java and
// Kotlin have package clauses too), and are skipped.
func (r *resolver) load(refs []schemas.Ref) {
	for _, ref := range refs {
		if ref.Kind != schemas.RefPackage || !strings.HasSuffix(ref.File, ".go") {
			continue
		}
		dir := path.Dir(ref.File)
		key := dir + "\x00" + ref.Target
		p := r.pkgs[key]
		if p == nil {
			p = &pkgInfo{key: key, path: ref.Expr, name: ref.Target, dir: dir} // maps: declarePackage
			r.pkgs[key] = p
			r.byPath[p.path] = append(r.byPath[p.path], p)
		}
		p.files = append(p.files, ref.File)
		r.files[ref.File] = &fileInfo{path: ref.File, pkg: p, imports: make(map[string]string), id: indexer.FileID(ref.File)}
	}
	var f *fileInfo // of the ref before: a file's refs come together
	for _, ref := range refs {
		if f == nil || f.path != ref.File {
			if f = r.files[ref.File]; f == nil {
				continue
			}
		}
		switch ref.Kind {
		case schemas.EdgeImports:
			switch name := ref.Expr; name {
			case "_":
			case ".":
				f.dots = append(f.dots, ref.Target)
			case "":
				f.imports[r.packageName(ref.Target, f)] = ref.Target
			default:
				f.imports[name] = ref.Target
			}
		case schemas.RefType:
			if i, ok := r.row(ref.Src); ok {
				r.typeOf[i] = fact{ref.Expr, f}
			}
		case schemas.RefResult:
			if i, ok := r.row(ref.Src); ok {
				r.result[i] = fact{ref.Expr, f}
			}
		case schemas.RefEmbeds:
			r.embeds[ref.Src] = append(r.embeds[ref.Src], fact{ref.Expr, f})
		case schemas.RefBuild:
			r.constraint[ref.File] = ref.Expr
		}
	}
	// Whether each file is built, once: pick asks it for each candidate
	// of each call to a function declared for several platforms.
	for p, f := range r.files {
		f.built = defaultBuild(p, r.constraint[p])
	}
}

// packageName is the name a plain import binds: the package's own name
// when it is in the snapshot, else the last element of its path.
func (r *resolver) packageName(ipath string, from *fileInfo) string {
	if p := r.lookupPath(ipath, from); p != nil {
		return p.name
	}
	base := path.Base(ipath)
	if len(base) >= 2 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(ipath)) // example.com/mod/v2
	}
	base = strings.TrimPrefix(base, "go-")
	if i := strings.IndexAny(base, ".-"); i > 0 {
		base = base[:i]
	}
	return base
}

// lookupPath finds the package an import path names from a file. When
// several folders hold that path (vendored copies), the one sharing the
// longest folder prefix with the importing file wins, then the package
// with more files (a folder may also hold a build-ignored generator).
func (r *resolver) lookupPath(ipath string, from *fileInfo) *pkgInfo {
	cands := r.byPath[ipath]
	var best *pkgInfo
	bestLen := -1
	for _, p := range cands {
		if p.name == "main" {
			continue // never importable; often a generator beside a library
		}
		n := commonPrefix(p.dir, path.Dir(from.path))
		if n > bestLen || (n == bestLen && (len(p.files) > len(best.files) ||
			len(p.files) == len(best.files) && p.key < best.key)) {
			best, bestLen = p, n
		}
	}
	return best
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// packageNodes makes one node per package and parents file nodes to it.
func (r *resolver) packageNodes() []schemas.Node {
	keys := make([]string, 0, len(r.pkgs))
	for k := range r.pkgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []schemas.Node
	ordinal := make(map[[2]string]int)
	for _, k := range keys {
		p := r.pkgs[k]
		o := [2]string{p.path, p.dir}
		id := indexer.NodeID("go", schemas.KindPackage, p.path, p.dir, ordinal[o])
		ordinal[o]++
		p.node = id
		out = append(out, schemas.Node{
			ID: id, Kind: schemas.KindPackage, Name: p.name, QualifiedName: p.path,
			Language: "go", File: p.dir, Exported: true, Visibility: schemas.Public,
		})
		for _, f := range p.files {
			if i, ok := r.row(indexer.FileID(f)); ok {
				r.nodes[i].ParentID = id
			}
		}
	}
	return out
}

// declare indexes package members, types, methods and fields.
func (r *resolver) declare() {
	// Packages declare apart, on every core: what a package's nodes
	// declare is its own (members, types, their methods and fields, the
	// type of each type node and the parent of each method). Each takes
	// its nodes in row order, as one pass over every node would.
	workers := runtime.GOMAXPROCS(0)
	pkgOf := make([]*pkgInfo, len(r.nodes))
	var wg sync.WaitGroup
	size := (len(r.nodes) + workers - 1) / workers
	for w := range workers {
		lo, hi := min(w*size, len(r.nodes)), min((w+1)*size, len(r.nodes))
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				if n := &r.nodes[i]; n.Language == "go" {
					if f := r.files[n.File]; f != nil {
						pkgOf[i] = f.pkg
					}
				}
			}
		})
	}
	wg.Wait()
	rows := make(map[*pkgInfo][]int32, len(r.pkgs))
	for i, p := range pkgOf {
		if p != nil {
			rows[p] = append(rows[p], int32(i))
		}
	}
	pkgs := make(chan *pkgInfo, len(rows))
	for p := range rows {
		pkgs <- p
	}
	close(pkgs)
	for range workers {
		wg.Go(func() {
			for p := range pkgs {
				r.declarePackage(p, rows[p])
			}
		})
	}
	wg.Wait()
}

// declarePackage indexes the members, types, methods and fields of
// package p, whose nodes are rows, in row order.
func (r *resolver) declarePackage(p *pkgInfo, rows []int32) {
	// The maps are made at their size: grown one insert at a time, they
	// took a tenth of the resolver's time on GOROOT/src.
	members, types := 0, 0
	for _, idx := range rows {
		switch r.nodes[idx].Kind {
		case schemas.KindFunction, schemas.KindVariable, schemas.KindConstant:
			members++
		case schemas.KindStruct, schemas.KindInterface, schemas.KindType, schemas.KindTypeAlias:
			members++
			types++
		}
	}
	p.members, p.types = make(map[string][]int32, members), make(map[string]*typeInfo, types)
	typeFor := func(name string) *typeInfo {
		t := p.types[name]
		if t == nil {
			t = &typeInfo{pkg: p, name: name, methods: make(map[string][]int32), fields: make(map[string][]int32)}
			p.types[name] = t
		}
		return t
	}
	for _, idx := range rows {
		n := &r.nodes[idx]
		switch n.Kind {
		case schemas.KindFunction, schemas.KindVariable, schemas.KindConstant:
			p.members[n.Name] = append(p.members[n.Name], idx)
		case schemas.KindStruct, schemas.KindInterface, schemas.KindType, schemas.KindTypeAlias:
			p.members[n.Name] = append(p.members[n.Name], idx)
			t := typeFor(n.Name)
			t.nodes = append(t.nodes, idx)
			t.iface = t.iface || n.Kind == schemas.KindInterface
			r.typeIdx[idx] = t
			if n.Kind == schemas.KindTypeAlias {
				if ft, ok := r.typeOf[idx]; ok {
					t.alias = &ft
				}
			}
		}
	}
	for _, idx := range rows {
		n := &r.nodes[idx]
		switch n.Kind {
		case schemas.KindMethod:
			if n.IsAbstract { // an interface method, a child of its interface
				if parent, ok := r.row(n.ParentID); ok && r.typeIdx[parent] != nil {
					t := r.typeIdx[parent]
					t.methods[n.Name] = append(t.methods[n.Name], idx)
				}
				continue
			}
			// A method is extracted as a child of its file and becomes its
			// receiver type's below. Rows reused from a base snapshot come
			// reparented already: start again from the file, so the result
			// does not depend on where the row came from.
			n.ParentID = indexer.FileID(n.File)
			recv, ok := r.typeOf[idx]
			if !ok {
				continue
			}
			t := typeFor(strings.Trim(recv.expr, "{}"))
			t.methods[n.Name] = append(t.methods[n.Name], idx)
			// The type's declaration in the method's file, if any: of a
			// type declared in several files (for several builds), the
			// one built with the method.
			for _, tn := range t.nodes {
				if r.nodes[tn].File == n.File {
					n.ParentID = r.nodes[tn].ID
					break
				}
			}
		case schemas.KindField:
			if parent, ok := r.row(n.ParentID); ok && r.typeIdx[parent] != nil {
				t := r.typeIdx[parent]
				t.fields[n.Name] = append(t.fields[n.Name], idx)
			}
		}
	}
}

// variant returns, of rows that declare one name in one package (a type or
// a method declared in several files, each for its own builds), one of
// those built by default (pick), the first by path and place: a choice
// that does not depend on the order of the rows, which is that of their
// ids.
func (r *resolver) variant(rows []int32) int32 {
	return slices.MinFunc(r.pick(rows), func(x, y int32) int {
		a, b := &r.nodes[x], &r.nodes[y]
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.StartByte, b.StartByte))
	})
}

// row returns the row of the node whose id is id.
func (r *resolver) row(id uint64) (int32, bool) {
	i, ok := schemas.RowOf(r.ids, id)
	return int32(i), ok
}

func (r *resolver) typeByNode(id uint64) *typeInfo {
	if i, ok := r.row(id); ok {
		return r.typeIdx[i]
	}
	return nil
}

// Values an expression evaluates to.
type valueKind int

const (
	vNone     valueKind = iota
	vPackage            // an imported package
	vTypeName           // a type itself (conversion, method expression)
	vValue              // a value of a named type
	vFuncs              // one or more functions or methods (several: build variants)
	vBuiltin            // a builtin function
	vElems              // a slice, array or map of values of a named type (t)
)

type value struct {
	kind  valueKind
	pkg   *pkgInfo
	t     *typeInfo
	funcs []int32
	how   string // resolution so far
}

const maxDepth = 8

// resolveType evaluates "{T}" or "{pkg.T}" in a file, through aliases.
func (r *resolver) resolveType(expr string, f *fileInfo, depth int) (*typeInfo, string) {
	if depth > maxDepth {
		return nil, "type too deep"
	}
	t, _, why := r.typeNamed(expr, f)
	if t == nil {
		return nil, why
	}
	if t.alias != nil {
		return r.resolveType(t.alias.expr, t.alias.file, depth+1)
	}
	return t, ""
}

// typed is a value of the type "{T}", "{pkg.T}" or "{[]T}" in a file.
func (r *resolver) typed(expr string, f *fileInfo, depth int) (value, string) {
	kind := vValue
	if elem, ok := strings.CutPrefix(expr, "{[]"); ok {
		kind, expr = vElems, "{"+elem
	}
	t, why := r.resolveType(expr, f, depth)
	if t == nil {
		return value{}, why
	}
	return value{kind: kind, t: t, how: schemas.ResolvedReceiver}, ""
}

// typeNamed finds the type "{T}" or "{pkg.T}" names in a file, an alias
// as itself, and how: through the file's package or an import.
func (r *resolver) typeNamed(expr string, f *fileInfo) (*typeInfo, string, string) {
	name := strings.TrimSuffix(strings.TrimPrefix(expr, "{"), "}")
	how := schemas.ResolvedScope
	var p *pkgInfo
	if alias, tn, ok := strings.Cut(name, "."); ok {
		ipath, known := f.imports[alias]
		if !known {
			return nil, "", "unknown package " + alias
		}
		if p = r.lookupPath(ipath, f); p == nil {
			return nil, "", "package " + ipath + " not in snapshot"
		}
		name, how = tn, schemas.ResolvedImport
	} else {
		p = f.pkg
		if p.types[name] == nil {
			for _, d := range f.dots {
				if dp := r.lookupPath(d, f); dp != nil && dp.types[name] != nil {
					p, how = dp, schemas.ResolvedImport
					break
				}
			}
		}
	}
	t := p.types[name]
	if t == nil || len(t.nodes) == 0 {
		return nil, "", "type " + name + " not found in " + p.path
	}
	return t, how, ""
}

// eval evaluates an expression of the Expr syntax in a file.
func (r *resolver) eval(expr string, f *fileInfo, depth int) (value, string) {
	if depth > maxDepth {
		return value{}, indexer.ReasonTooDeep
	}
	if strings.HasPrefix(expr, "?") {
		return value{}, expr[1:]
	}
	head, rest := splitHead(expr)
	var v value
	if strings.HasPrefix(head, "{") {
		var why string
		if v, why = r.typed(head, f, depth); v.kind == vNone {
			return value{}, why
		}
	} else {
		var why string
		v, why = r.ident(head, f, depth)
		if v.kind == vNone {
			return v, why
		}
	}
	for len(rest) > 0 {
		var seg, why string
		seg, rest = nextSeg(rest)
		v, why = r.step(v, seg, depth)
		if v.kind == vNone {
			return v, why
		}
	}
	return v, ""
}

// splitHead splits "a.b().c" into "a" and the segments ".b().c" (see
// nextSeg).
func splitHead(expr string) (head, rest string) {
	i := 0
	if strings.HasPrefix(expr, "{") {
		i = strings.IndexByte(expr, '}') + 1
	} else {
		for i < len(expr) && expr[i] != '.' && expr[i] != '(' && expr[i] != '[' {
			i++
		}
	}
	return expr[:i], expr[i:]
}

// nextSeg cuts the first segment off s, a non-empty tail of an
// expression: ".b", "()" or "[]", or "?" for anything else, which ends
// it. Evaluation takes one segment at a time, making no list of them.
func nextSeg(s string) (seg, rest string) {
	switch {
	case strings.HasPrefix(s, "()"), strings.HasPrefix(s, "[]"):
		return s[:2], s[2:]
	case strings.HasPrefix(s, "[r]"):
		return s[:3], s[3:]
	case s[0] == '.':
		j := 1
		for j < len(s) && s[j] != '.' && s[j] != '(' && s[j] != '[' {
			j++
		}
		return s[:j], s[j:]
	}
	return "?", ""
}

var builtinFuncs = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true,
	"new": true, "panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// ident evaluates a name at file scope.
func (r *resolver) ident(name string, f *fileInfo, depth int) (value, string) {
	if ipath, ok := f.imports[name]; ok {
		p := r.lookupPath(ipath, f)
		if p == nil {
			return value{}, "package " + ipath + " not in snapshot"
		}
		return value{kind: vPackage, pkg: p, how: schemas.ResolvedImport}, ""
	}
	if v, why := r.member(f.pkg, name, depth); v.kind != vNone || why != "" {
		if v.how == "" {
			v.how = schemas.ResolvedScope
		}
		return v, why
	}
	for _, d := range f.dots {
		if p := r.lookupPath(d, f); p != nil {
			if v, why := r.member(p, name, depth); v.kind != vNone || why != "" {
				v.how = schemas.ResolvedImport
				return v, why
			}
		}
	}
	if builtinFuncs[name] || builtinTypes[name] {
		return value{kind: vBuiltin}, "builtin"
	}
	return value{}, "undefined: " + name
}

// member evaluates a package-level name of p.
func (r *resolver) member(p *pkgInfo, name string, depth int) (value, string) {
	cands := p.members[name]
	if len(cands) == 0 {
		return value{}, ""
	}
	kind := r.nodes[cands[0]].Kind
	for _, c := range cands[1:] {
		if r.nodes[c].Kind != kind {
			return value{}, "ambiguous: " + name + " declared as different kinds"
		}
	}
	switch kind {
	case schemas.KindFunction:
		return value{kind: vFuncs, funcs: cands}, ""
	case schemas.KindVariable, schemas.KindConstant:
		ft, ok := r.typeOf[cands[0]]
		if !ok {
			return value{}, "unknown type of " + name
		}
		for _, c := range cands[1:] {
			if other, ok := r.typeOf[c]; !ok || other.expr != ft.expr {
				return value{}, "ambiguous type of " + name
			}
		}
		if rest, ok := strings.CutPrefix(ft.expr, "="); ok {
			v, why := r.eval(rest, ft.file, depth+1)
			if v.kind != vValue {
				if why == "" {
					why = "unknown type of " + name
				}
				return value{}, why
			}
			return v, ""
		}
		v, why := r.typed(ft.expr, ft.file, depth+1)
		v.how = ""
		return v, why
	default:
		t := r.typeIdx[cands[0]]
		if t.alias != nil {
			if at, _ := r.resolveType(t.alias.expr, t.alias.file, depth+1); at != nil {
				t = at
			}
		}
		return value{kind: vTypeName, t: t}, ""
	}
}

// step applies one segment to a value.
func (r *resolver) step(v value, seg string, depth int) (value, string) {
	switch {
	case seg == "()":
		switch v.kind {
		case vFuncs:
			res, ok := r.result[v.funcs[0]]
			if !ok {
				return value{}, "unknown result type of " + r.nodes[v.funcs[0]].Name
			}
			for _, c := range v.funcs[1:] {
				if other, ok := r.result[c]; !ok || other.expr != res.expr {
					return value{}, "ambiguous result type"
				}
			}
			return r.typed(res.expr, res.file, depth+1)
		case vTypeName:
			return value{kind: vValue, t: v.t, how: schemas.ResolvedReceiver}, ""
		case vBuiltin:
			return value{}, "result of a builtin"
		}
		return value{}, "call of a function value"
	case seg == "[]":
		switch v.kind {
		case vFuncs, vTypeName:
			return v, "" // an instantiation
		case vElems:
			return value{kind: vValue, t: v.t, how: schemas.ResolvedReceiver}, ""
		}
		return value{}, "index expression"
	case seg == "[r]":
		if v.kind == vElems {
			return value{kind: vValue, t: v.t, how: schemas.ResolvedReceiver}, ""
		}
		return value{}, "range variable"
	case strings.HasPrefix(seg, "."):
		name := seg[1:]
		switch v.kind {
		case vPackage:
			m, why := r.member(v.pkg, name, depth)
			if m.kind == vNone && why == "" {
				why = name + " not found in " + v.pkg.path
			}
			m.how = schemas.ResolvedImport
			return m, why
		case vValue, vTypeName:
			return r.selector(v, name, depth)
		}
		return value{}, "selector on a " + kindName(v.kind)
	}
	return value{}, indexer.ReasonExpr
}

func kindName(k valueKind) string {
	switch k {
	case vFuncs:
		return "function"
	case vBuiltin:
		return "builtin"
	case vElems:
		return "slice, array or map"
	}
	return "value"
}

// selector finds a method or field of a type, through embedded fields.
func (r *resolver) selector(v value, name string, depth int) (value, string) {
	// Most selectors end on the type itself: what they need stays on the
	// stack, and the set of types seen is made only for embedded ones.
	var first [1]*typeInfo
	first[0] = v.t
	level := first[:]
	var seen map[*typeInfo]bool
	for d := 0; d < maxDepth && len(level) > 0; d++ {
		var some [2]value
		found := some[:0]
		var next []*typeInfo
		for _, t := range level {
			if ms := t.methods[name]; len(ms) > 0 {
				found = append(found, value{kind: vFuncs, funcs: ms, how: schemas.ResolvedReceiver})
				continue
			}
			if fs := r.pick(t.fields[name]); len(fs) > 0 {
				if v.kind == vTypeName {
					continue
				}
				ft, ok := r.typeOf[fs[0]]
				for _, f := range fs[1:] {
					if other, has := r.typeOf[f]; has != ok || other.expr != ft.expr {
						return value{}, "ambiguous type of field " + name + " (build variants)"
					}
				}
				if !ok {
					found = append(found, value{kind: vBuiltin})
					continue
				}
				fv, _ := r.typed(ft.expr, ft.file, depth+1)
				if fv.kind == vNone {
					found = append(found, value{kind: vBuiltin})
					continue
				}
				found = append(found, fv)
				continue
			}
			for _, e := range r.embedsOf(t) {
				if seen == nil {
					seen = map[*typeInfo]bool{v.t: true}
				}
				if et, _ := r.resolveType(e.expr, e.file, depth+1); et != nil && !seen[et] {
					seen[et] = true
					next = append(next, et)
				}
			}
		}
		switch {
		case len(found) == 1:
			if found[0].kind == vBuiltin {
				return value{}, "field " + name + " of unnamed type"
			}
			return found[0], ""
		case len(found) > 1:
			return value{}, "ambiguous selector " + name
		}
		level = next
	}
	return value{}, name + " not found on " + v.t.pkg.path + "." + v.t.name
}

func (r *resolver) embedsOf(t *typeInfo) []fact {
	if t.embeds != nil {
		return t.embeds
	}
	t.embeds = []fact{}
	for _, i := range t.nodes {
		t.embeds = append(t.embeds, r.embeds[r.nodes[i].ID]...)
	}
	return t.embeds
}
