package scala

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every Scala file and the
// refs extraction recorded. It never reads ParentID values it did not
// find in extraction's rows (it sets none).
//
// Approximations, all on the side of leaving an edge out: imports apply
// to their whole file, wherever they stand; implicit conversions,
// extension methods, operators and infix calls (a op b) are not followed;
// a parameterless def named without a receiver (total rather than
// this.total) makes no edge.

// Reasons of unresolved edges.
const (
	reasonAmbiguous     = "ambiguous overload"
	reasonAmbiguousName = "ambiguous import of "
	reasonExternal      = "external "
	reasonExternalBase  = "member of external parent "
	reasonUnknownName   = "unknown name "
	reasonUnknownMember = "unknown member "
	reasonNoOverload    = "no overload taking "
	reasonApplyValue    = "apply of a value"
	reasonNoApply       = "class without companion apply"
	reasonTrait         = "instantiated trait"
)

// anyRefMembers are the methods every class inherits from scala.AnyRef.
var anyRefMembers = map[string]bool{
	"toString": true, "equals": true, "hashCode": true, "getClass": true, "eq": true, "ne": true,
	"isInstanceOf": true, "asInstanceOf": true, "synchronized": true, "wait": true, "notify": true, "notifyAll": true,
	"copy": true, "productArity": true, "productElement": true, "productIterator": true, "productPrefix": true,
}

// maxDepth bounds the chains of types and of evaluations followed.
const maxDepth = 32

type sig struct {
	required, total int
	variadic        bool
}

func (s sig) accepts(n int) bool { return n >= s.required && (n <= s.total || s.variadic) }

func parseSig(e string) sig {
	var s sig
	if e == "" {
		return s
	}
	for _, p := range strings.Split(e, ",") {
		switch {
		case strings.HasPrefix(p, "..."):
			s.variadic = true
		case strings.HasSuffix(p, "="):
			s.total++
		default:
			s.total++
			s.required++
		}
	}
	return s
}

type fileInfo struct {
	pkgs  []string          // the packages its clauses open
	named map[string]string // imported name → qualified name
	wild  []string          // wildcard imports: packages and objects
}

type resolver struct {
	nodes   []schemas.Node
	index   map[uint64]int32
	qnames  map[string][]int32 // by qualified name (members of a package object also under the package's)
	members map[int32]map[string][]int32
	pkgMem  map[string]map[string][]int32
	pkgs    map[string]uint64
	files   map[string]*fileInfo
	typeOf  map[int32]string
	results map[int32]string
	sigs    map[int32]sig
	ptypes  map[int32][]string // the params facts, split
	hasSig  map[int32]bool
	parents map[int32][]baseRef
	supers  map[int32][]int32
	open    map[int32]string
	state   map[int32]uint8
	lost    map[int32]bool // a parent outside the snapshot the rules do not know, or not found

	convOwner map[int32]bool  // templates declaring an implicit conversion
	pkgConv   map[string]bool // packages declaring one, top-level or in their package object
	safeFiles map[string]bool // files whose imports bring none
	safeCtx   map[int32]bool  // nodes in whose scope none is
	safeTypes map[int32]bool  // templates in whose implicit scope none is
	inherits  map[int32]bool  // templates that declare or inherit one
	generic   map[int32]bool  // vals and defs whose declared type has type arguments, templates with such a parent
}

type baseRef struct {
	expr string
}

// resolve turns the refs of every Scala file into package nodes and edges.
func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{
		nodes: nodes, index: map[uint64]int32{}, qnames: map[string][]int32{}, members: map[int32]map[string][]int32{},
		pkgMem: map[string]map[string][]int32{}, pkgs: map[string]uint64{}, files: map[string]*fileInfo{},
		typeOf: map[int32]string{}, results: map[int32]string{}, sigs: map[int32]sig{}, hasSig: map[int32]bool{},
		parents: map[int32][]baseRef{}, supers: map[int32][]int32{}, open: map[int32]string{}, state: map[int32]uint8{},
		ptypes: map[int32][]string{}, lost: map[int32]bool{}, convOwner: map[int32]bool{}, pkgConv: map[string]bool{}, safeFiles: map[string]bool{},
		safeCtx: map[int32]bool{}, safeTypes: map[int32]bool{}, inherits: map[int32]bool{}, generic: map[int32]bool{},
	}
	out := r.load(refs)
	r.loadConversions()
	var edges []schemas.Edge
	for ref, src := range indexer.RefsFrom(refs, r.index) {
		edges = r.ref(edges, ref, src)
	}
	return out, edges
}

func (r *resolver) file(name string) *fileInfo {
	f := r.files[name]
	if f == nil {
		f = &fileInfo{named: map[string]string{}}
		r.files[name] = f
	}
	return f
}

func lastName(q string) string { return q[strings.LastIndexByte(q, '.')+1:] }

// load indexes the nodes and facts, and makes the package nodes.
func (r *resolver) load(refs []schemas.Ref) []schemas.Node {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language == Name || n.Kind == schemas.KindFile {
			r.index[n.ID] = int32(i)
		}
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name || n.Kind == schemas.KindFile {
			continue
		}
		r.qnames[n.QualifiedName] = append(r.qnames[n.QualifiedName], int32(i))
		p := r.parentOf(int32(i))
		switch {
		case p < 0:
			r.addPkgMember(indexer.ParentName(n.QualifiedName), n.Name, int32(i))
		default:
			m := r.members[p]
			if m == nil {
				m = map[string][]int32{}
				r.members[p] = m
			}
			m[n.Name] = append(m[n.Name], int32(i))
			if pn := &r.nodes[p]; pn.Kind == schemas.KindModule {
				pkg := indexer.ParentName(pn.QualifiedName)
				r.addPkgMember(pkg, n.Name, int32(i))
				r.qnames[indexer.JoinName(pkg, n.Name)] = append(r.qnames[indexer.JoinName(pkg, n.Name)], int32(i))
			}
		}
	}
	pkgFiles := map[string][]string{}
	var givens []int32
	for ref, src := range indexer.RefsFrom(refs, r.index) {
		switch ref.Kind {
		case schemas.RefPackage:
			f := r.file(ref.File)
			f.pkgs = append(f.pkgs, ref.Expr)
			pkgFiles[ref.Expr] = append(pkgFiles[ref.Expr], ref.File)
		case schemas.EdgeImports:
			f := r.file(ref.File)
			q, alias, _ := strings.Cut(ref.Expr, " as ")
			switch {
			case strings.HasSuffix(q, "._"):
				f.wild = append(f.wild, strings.TrimSuffix(q, "._"))
			case alias != "":
				f.named[alias] = q
			default:
				f.named[lastName(q)] = q
			}
		case schemas.EdgeExtends:
			r.parents[src] = append(r.parents[src], baseRef{ref.Expr})
			if strings.Contains(ref.Target, "[") {
				r.generic[src] = true // its type arguments' companions are in its implicit scope
			}
		case schemas.RefType:
			if ref.Expr == exprGiven {
				givens = append(givens, src)
				continue
			}
			r.typeOf[src] = ref.Expr
			r.generic[src] = strings.Contains(ref.Target, "[")
		case schemas.RefResult:
			r.results[src] = ref.Expr
			r.generic[src] = strings.Contains(ref.Target, "[")
		case schemas.RefParams:
			r.sigs[src] = parseSig(ref.Expr)
			r.hasSig[src] = true
			if ref.Expr != "" {
				r.ptypes[src] = strings.Split(ref.Expr, ",")
			}
		}
	}
	for _, g := range givens {
		if n := &r.nodes[g]; n.Kind != schemas.KindFile {
			r.convOwner[g] = true
			if n.Kind == schemas.KindModule {
				r.pkgConv[indexer.ParentName(n.QualifiedName)] = true
			}
			continue
		}
		for _, p := range r.file(r.nodes[g].File).pkgs {
			r.pkgConv[p] = true
		}
		if len(r.file(r.nodes[g].File).pkgs) == 0 {
			r.pkgConv[""] = true
		}
	}
	var out []schemas.Node
	for _, p := range slices.Sorted(maps.Keys(pkgFiles)) {
		files := pkgFiles[p]
		slices.Sort(files)
		id := indexer.NodeID(Name, schemas.KindPackage, p, "", 0)
		r.pkgs[p] = id
		out = append(out, schemas.Node{ID: id, Kind: schemas.KindPackage, Name: lastName(p), QualifiedName: p,
			Language: Name, File: path.Dir(files[0]), Visibility: schemas.Public, Exported: true})
	}
	return out
}

func (r *resolver) addPkgMember(pkg, name string, i int32) {
	m := r.pkgMem[pkg]
	if m == nil {
		m = map[string][]int32{}
		r.pkgMem[pkg] = m
	}
	m[name] = append(m[name], i)
}

// parentOf returns the index of node i's parent declaration, or -1 when
// it is its file.
func (r *resolver) parentOf(i int32) int32 {
	if p, ok := r.index[r.nodes[i].ParentID]; ok && r.nodes[p].Kind != schemas.KindFile {
		return p
	}
	return -1
}

// isObject reports whether node i is an object (a term).
func (r *resolver) isObject(i int32) bool {
	n := &r.nodes[i]
	if n.Kind != schemas.KindClass || !n.IsStatic {
		return false
	}
	for _, w := range strings.Fields(n.Signature) {
		if w == "object" {
			return true
		}
		if w == "class" || strings.HasPrefix(w, n.Name) {
			return false
		}
	}
	return false
}

func (r *resolver) isCaseClass(i int32) bool {
	n := &r.nodes[i]
	if n.Kind != schemas.KindClass || r.isObject(i) {
		return false
	}
	for _, w := range strings.Fields(n.Signature) {
		if w == "case" {
			return true
		}
		if w == "class" {
			return false
		}
	}
	return false
}

// isTemplate reports whether node i has members: a class, object, trait,
// enum or package object.
func (r *resolver) isTemplate(i int32) bool {
	switch r.nodes[i].Kind {
	case schemas.KindClass, schemas.KindTrait, schemas.KindEnum, schemas.KindModule:
		return true
	}
	return false
}

// isType reports whether node i is in the type namespace.
func (r *resolver) isType(i int32) bool {
	switch r.nodes[i].Kind {
	case schemas.KindTrait, schemas.KindEnum, schemas.KindTypeAlias:
		return true
	case schemas.KindClass:
		return !r.isObject(i)
	}
	return false
}

// isTerm reports whether node i is in the term namespace.
func (r *resolver) isTerm(i int32) bool {
	switch r.nodes[i].Kind {
	case schemas.KindClass:
		return r.isObject(i)
	case schemas.KindTrait, schemas.KindTypeAlias, schemas.KindModule, schemas.KindConstructor:
		return false
	}
	return true // an enum (its cases), a def, a val, a var, a field
}

// enclosing returns the templates around node i, innermost first (i
// itself when it is one).
func (r *resolver) enclosing(i int32) []int32 {
	var ts []int32
	for d := 0; i >= 0 && d < 64; d++ {
		if r.isTemplate(i) && r.nodes[i].Kind != schemas.KindModule {
			ts = append(ts, i)
		}
		i = r.parentOf(i)
	}
	return ts
}

// packagesOf returns the packages whose members code of node i sees by
// simple name, innermost first: its own, then those the clauses of its
// file open around it.
func (r *resolver) packagesOf(i int32) []string {
	top := i
	for p := r.parentOf(top); p >= 0; p = r.parentOf(top) {
		top = p
	}
	own := indexer.ParentName(r.nodes[top].QualifiedName)
	if r.nodes[top].Kind == schemas.KindModule {
		own = indexer.ParentName(own)
	}
	out := []string{own}
	if f := r.files[r.nodes[i].File]; f != nil {
		for k := len(f.pkgs) - 1; k >= 0; k-- {
			if p := f.pkgs[k]; p != own && strings.HasPrefix(own, p+".") && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	if own != "" {
		out = append(out, "")
	}
	return out
}

// isPackage reports whether q is a package of the snapshot or a prefix
// of one.
func (r *resolver) isPackage(q string) bool {
	if _, ok := r.pkgs[q]; ok {
		return true
	}
	for p := range r.pkgs {
		if strings.HasPrefix(p, q+".") {
			return true
		}
	}
	return false
}

// link resolves the parents of template t.
func (r *resolver) link(t int32, depth int) {
	if r.state[t] != 0 || depth > maxDepth {
		return
	}
	r.state[t] = 1
	for _, b := range r.parents[t] {
		p, ext, _ := r.resolveType(b.expr, t, depth+1)
		switch {
		case p >= 0 && p != t:
			if !slices.Contains(r.supers[t], p) {
				r.supers[t] = append(r.supers[t], p)
			}
		case ext != "" && r.open[t] == "":
			r.open[t] = ext
		}
		if p < 0 && !knownParents[ext] {
			r.lost[t] = true
		}
	}
	r.state[t] = 2
}

// inMembers looks name up among the members of template t and its
// parents, level by level: the first level with a member of that name
// that want accepts decides. open reports a parent outside the snapshot
// on the way.
func (r *resolver) inMembers(t int32, name string, want func(int32) bool, depth int) (found []int32, open string) {
	level := []int32{t}
	seen := map[int32]bool{t: true}
	for d := 0; len(level) > 0 && d < maxDepth; d++ {
		var next []int32
		for _, lt := range level {
			r.link(lt, depth+1)
			if open == "" {
				open = r.open[lt]
			}
			for _, m := range r.members[lt][name] {
				if want(m) && !slices.Contains(found, m) {
					found = append(found, m)
				}
			}
			for _, s := range r.supers[lt] {
				if !seen[s] {
					seen[s] = true
					next = append(next, s)
				}
			}
		}
		if len(found) > 0 {
			return found, open
		}
		level = next
	}
	return nil, open
}

// byQName returns the nodes named q that want accepts and that an import
// may name: top-level ones, members of objects and of package objects.
func (r *resolver) byQName(q string, want func(int32) bool) []int32 {
	var out []int32
	for _, i := range r.qnames[q] {
		if !want(i) {
			continue
		}
		if p := r.parentOf(i); p >= 0 && !r.isObject(p) && r.nodes[p].Kind != schemas.KindModule && r.nodes[p].Kind != schemas.KindEnum {
			continue
		}
		out = append(out, i)
	}
	return out
}

// lookup finds name seen from node ctx: in the enclosing templates (and
// their parents), the enclosing packages, the named imports, the
// wildcard imports. It returns the candidates of the first scope that has
// any, how they were found, whether a template passed on the way has a
// parent outside the snapshot, and why none was found.
func (r *resolver) lookup(name string, ctx int32, want func(int32) bool, depth int) (cands []int32, how string, maybe bool, why string) {
	if depth > maxDepth {
		return nil, "", false, indexer.ReasonTooDeep
	}
	for _, t := range r.enclosing(ctx) {
		found, open := r.inMembers(t, name, want, depth+1)
		if len(found) > 0 {
			return found, schemas.ResolvedScope, maybe, ""
		}
		maybe = maybe || open != ""
	}
	pkgs := r.packagesOf(ctx)
	for _, p := range pkgs[:len(pkgs)-1] {
		if found := filter(r.pkgMem[p][name], want); len(found) > 0 {
			return found, schemas.ResolvedScope, maybe, ""
		}
	}
	f := r.files[r.nodes[ctx].File]
	if f != nil {
		if q, ok := f.named[name]; ok {
			if found := r.byQName(q, want); len(found) > 0 {
				return found, schemas.ResolvedImport, maybe, ""
			}
			if _, isPkg := r.pkgs[indexer.ParentName(q)]; !isPkg && len(r.qnames[indexer.ParentName(q)]) == 0 {
				return nil, "", maybe, reasonExternal + q
			}
		}
		var found []int32
		var from string
		for _, w := range f.wild {
			got := r.byQName(indexer.JoinName(w, name), want)
			if len(got) == 0 {
				continue
			}
			if from != "" && from != w {
				return nil, "", maybe, reasonAmbiguousName + name
			}
			from = w
			found = append(found, got...)
		}
		if len(found) > 0 {
			return found, schemas.ResolvedImport, maybe, ""
		}
	}
	if len(pkgs) > 0 && pkgs[len(pkgs)-1] == "" {
		if found := filter(r.pkgMem[""][name], want); len(found) > 0 {
			return found, schemas.ResolvedScope, maybe, ""
		}
	}
	return nil, "", maybe, reasonUnknownName + name
}

func filter(in []int32, want func(int32) bool) []int32 {
	var out []int32
	for _, i := range in {
		if want(i) {
			out = append(out, i)
		}
	}
	return out
}

// resolveType resolves a type as written (Expr syntax, no braces) seen
// from node ctx, following type aliases. It returns the type, or the name
// of an external one, or why there is none.
func (r *resolver) resolveType(name string, ctx int32, depth int) (int32, string, string) {
	if depth > maxDepth {
		return -1, "", indexer.ReasonTooDeep
	}
	head, rest, dotted := strings.Cut(name, ".")
	var t int32 = -1
	if !dotted {
		found, _, _, why := r.lookup(name, ctx, r.isType, depth+1)
		switch {
		case len(found) == 1:
			t = found[0]
		case len(found) > 1:
			return -1, "", reasonAmbiguousName + name
		case strings.HasPrefix(why, reasonAmbiguousName):
			return -1, "", why
		default:
			return -1, name, ""
		}
	} else {
		if found := filter(r.qnames[name], r.isType); len(found) == 1 {
			t = found[0]
		} else if objs, _, _, _ := r.lookup(head, ctx, r.isObject, depth+1); len(objs) == 1 {
			cur := objs[0]
			parts := strings.Split(rest, ".")
			for k, p := range parts {
				want := r.isObject
				if k == len(parts)-1 {
					want = r.isType
				}
				m := filter(r.members[cur][p], want)
				if len(m) != 1 {
					return -1, name, ""
				}
				cur = m[0]
			}
			t = cur
		} else {
			return -1, name, ""
		}
	}
	if r.nodes[t].Kind == schemas.KindTypeAlias {
		e, ok := r.typeOf[t]
		if !ok || len(e) < 2 || e[0] != '{' {
			return -1, r.nodes[t].QualifiedName, ""
		}
		return r.resolveType(e[1:len(e)-1], t, depth+1)
	}
	return t, "", ""
}

// target is what a call evaluates to: a node, or why there is none.
type target struct {
	node   int32
	how    string
	why    string
	amb    bool
	maybe  bool
	create bool // a case class applied: an instantiation
	drop   bool // a selection that names no method: no call
	none   bool // by the arguments' types, no alternative applies
}

func fail(why string) target { return target{node: -1, why: why} }

// val is the value of a receiver: an instance of a template, an object,
// a package, or an external value.
type val struct {
	t     int32
	super bool // super: the members of the parents of t
	pkg   string
	ext   string
	how   string
	why   string
	maybe bool
}

// step is one step of an Expr after its head: a member (with its
// arguments when called) or an application of the value; ctx is the node
// whose code makes it.
type step struct {
	name string
	n    int
	args []string
	call bool
	ctx  int32
}

// called returns the step that calls name with args, made by node ctx.
func called(name string, args []string, ctx int32) step {
	return step{name: name, n: len(args), args: args, call: true, ctx: ctx}
}

// parse splits an Expr into its head (with its arguments when the head
// is called) and its steps.
func parse(e string) (head string, headArgs []string, headCall bool, steps []step, ok bool) {
	head, ok = indexer.ExprHead(e)
	if !ok {
		return "", nil, false, nil, false
	}
	i := len(head)
	pending := -1 // the step a following argument list applies to
	for i < len(e) {
		switch e[i] {
		case '.':
			j := indexer.NameEnd(e, i+1)
			steps = append(steps, step{name: e[i+1 : j]})
			pending = len(steps) - 1
			i = j
		case '(':
			j := strings.IndexByte(e[i:], ')')
			if j < 0 {
				return "", nil, false, nil, false
			}
			args := splitArgs(e[i+1 : i+j])
			switch {
			case pending >= 0:
				steps[pending].n, steps[pending].args, steps[pending].call = len(args), args, true
			case len(steps) == 0 && !headCall:
				headArgs, headCall = args, true
			default:
				steps = append(steps, step{name: "apply", n: len(args), args: args, call: true})
			}
			pending = -1
			i += j + 1
		default:
			return "", nil, false, nil, false
		}
	}
	return head, headArgs, headCall, steps, true
}

// splitArgs splits the arguments of an argument list: none when empty.
func splitArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// eval evaluates an Expr made by node src: the target of its last step,
// and the value of what comes before.
func (r *resolver) eval(e string, src int32, depth int) target {
	if strings.HasPrefix(e, "?") {
		return fail(indexer.ExprReason(e))
	}
	if depth > maxDepth {
		return fail(indexer.ReasonTooDeep)
	}
	head, headArgs, headCall, steps, ok := parse(e)
	if !ok {
		return fail(indexer.ReasonExpr)
	}
	for k := range steps {
		steps[k].ctx = src
	}
	if len(steps) == 0 {
		if !headCall {
			return fail(indexer.ReasonExpr)
		}
		return r.unqualified(head, headArgs, src, depth+1)
	}
	var v val
	switch {
	case headCall:
		tg := r.unqualified(head, headArgs, src, depth+1)
		v = r.resultOf(tg, depth+1)
	default:
		v = r.headValue(head, src, depth+1)
	}
	for _, s := range steps[:len(steps)-1] {
		v = r.stepValue(v, s, depth+1)
	}
	last := steps[len(steps)-1]
	tg := r.member(v, last, depth+1)
	tg.maybe = tg.maybe || v.maybe
	return tg
}

// headValue evaluates the head of an Expr that is not called.
func (r *resolver) headValue(head string, src int32, depth int) val {
	ts := r.enclosing(src)
	switch {
	case head == "this":
		if len(ts) == 0 {
			return val{why: indexer.ReasonExpr}
		}
		return val{t: ts[0], how: schemas.ResolvedScope}
	case head == "super":
		if len(ts) == 0 {
			return val{why: indexer.ReasonExpr}
		}
		return val{t: ts[0], super: true, how: schemas.ResolvedScope}
	case strings.HasPrefix(head, "{"):
		return r.typed(head, src, depth)
	}
	cands, how, maybe, why := r.lookup(head, src, r.isTerm, depth+1)
	if len(cands) == 0 {
		if strings.HasPrefix(why, reasonUnknownName) {
			for _, p := range r.packagesOf(src) {
				if q := indexer.JoinName(p, head); r.isPackage(q) {
					return val{pkg: q}
				}
			}
			return val{ext: head}
		}
		return val{why: why}
	}
	if len(cands) > 1 {
		return val{why: reasonAmbiguousName + head}
	}
	v := r.termValue(cands[0], depth)
	v.maybe = v.maybe || maybe
	if r.isObject(cands[0]) || r.nodes[cands[0]].Kind == schemas.KindEnum {
		v.how = how // the object itself, found in scope or through an import
	}
	return v
}

// termValue is the value of a term node: an object, or the declared type
// of a val, or the result of a parameterless def.
func (r *resolver) termValue(i int32, depth int) val {
	n := &r.nodes[i]
	switch {
	case r.isObject(i) || n.Kind == schemas.KindEnum:
		return val{t: i, how: schemas.ResolvedReceiver}
	case n.Kind == schemas.KindFunction || n.Kind == schemas.KindMethod:
		return r.resultOf(target{node: i}, depth)
	case n.Kind == schemas.KindConstant && r.parentOf(i) >= 0 && r.nodes[r.parentOf(i)].Kind == schemas.KindEnum:
		return val{t: r.parentOf(i), how: schemas.ResolvedReceiver}
	}
	e, ok := r.typeOf[i]
	if !ok {
		return val{why: reasonUnknownMember + n.Name}
	}
	return r.value(e, i, depth+1)
}

// value evaluates a type or result fact: {T} or an Expr.
func (r *resolver) value(e string, ctx int32, depth int) val {
	if depth > maxDepth {
		return val{why: indexer.ReasonTooDeep}
	}
	if len(e) >= 2 && e[0] == '{' && e[len(e)-1] == '}' {
		return r.typed(e, ctx, depth)
	}
	return r.resultOf(r.eval(e, ctx, depth+1), depth)
}

// typed returns the value of type "{T}" seen from node ctx.
func (r *resolver) typed(e string, ctx int32, depth int) val {
	t, ext, why := r.resolveType(e[1:len(e)-1], ctx, depth+1)
	switch {
	case t >= 0:
		return val{t: t, how: schemas.ResolvedReceiver}
	case ext != "":
		return val{ext: ext}
	}
	return val{why: why}
}

// resultOf returns the value a call's target returns.
func (r *resolver) resultOf(tg target, depth int) val {
	if tg.node < 0 {
		if tg.why == "" {
			return val{why: indexer.ReasonExpr}
		}
		return val{why: tg.why}
	}
	if tg.create {
		return val{t: tg.node, how: schemas.ResolvedReceiver}
	}
	e, ok := r.results[tg.node]
	if !ok {
		return val{why: reasonUnknownMember + r.nodes[tg.node].Name}
	}
	return r.value(e, tg.node, depth+1)
}

// stepValue evaluates v.s (or v.s(args)).
func (r *resolver) stepValue(v val, s step, depth int) val {
	switch {
	case v.why != "" || v.ext != "":
		return v
	case v.pkg != "":
		q := indexer.JoinName(v.pkg, s.name)
		if s.call {
			return r.resultOf(r.member(v, s, depth), depth)
		}
		if found := r.byQName(q, r.isTerm); len(found) == 1 {
			return r.termValue(found[0], depth)
		}
		if r.isPackage(q) {
			return val{pkg: q}
		}
		return val{ext: q}
	}
	if s.call {
		return r.resultOf(r.member(v, s, depth), depth)
	}
	found, open := r.membersOf(v, s.name, r.isTerm, depth)
	switch {
	case len(found) == 1:
		return r.termValue(found[0], depth)
	case len(found) > 1:
		return val{why: reasonAmbiguous}
	case open != "":
		return val{why: reasonExternalBase + open}
	}
	return val{why: reasonUnknownMember + s.name}
}

// membersOf looks name up in the members of v's template (or of its
// parents, for super).
func (r *resolver) membersOf(v val, name string, want func(int32) bool, depth int) ([]int32, string) {
	if !v.super {
		return r.inMembers(v.t, name, want, depth+1)
	}
	r.link(v.t, depth+1)
	open := r.open[v.t]
	var found []int32
	for _, s := range r.supers[v.t] {
		got, o := r.inMembers(s, name, want, depth+1)
		if open == "" {
			open = o
		}
		for _, g := range got {
			if !slices.Contains(found, g) {
				found = append(found, g)
			}
		}
	}
	return found, open
}

func isDef(k string) bool { return k == schemas.KindMethod || k == schemas.KindFunction }

// member resolves the last step of a call on v.
func (r *resolver) member(v val, s step, depth int) target {
	switch {
	case v.why != "":
		return target{node: -1, why: v.why, drop: !s.call}
	case v.ext != "":
		return target{node: -1, why: reasonExternal + v.ext, drop: !s.call}
	case v.pkg != "":
		found := r.byQName(indexer.JoinName(v.pkg, s.name), r.isTerm)
		if len(found) == 0 {
			return target{node: -1, why: reasonExternal + indexer.JoinName(v.pkg, s.name), drop: !s.call}
		}
		tg := r.pick(found, s, schemas.ResolvedScope)
		return tg
	}
	found, open := r.membersOf(v, s.name, r.isTerm, depth)
	if len(found) == 0 {
		why := reasonUnknownMember + s.name
		switch {
		case open != "":
			why = reasonExternalBase + open
		case anyRefMembers[s.name]:
			why = reasonExternal + "scala.AnyRef"
		}
		return target{node: -1, why: why, drop: !s.call}
	}
	how := v.how
	if how == "" {
		how = schemas.ResolvedReceiver
	}
	tg := r.pick(found, s, how)
	for t, d := v.t, 0; tg.none && !v.super && d < maxDepth; d++ {
		// Up a chain of single parents, whose members are the
		// alternatives left: each derives from all above it.
		r.link(t, depth+1)
		if len(r.supers[t]) != 1 || r.lost[t] {
			break
		}
		t = r.supers[t][0]
		var up []int32
		for _, m := range r.members[t][s.name] {
			if r.isTerm(m) && r.nodes[m].Visibility != schemas.Private {
				up = append(up, m)
			}
		}
		if len(up) > 0 {
			tg = r.pick(up, s, how)
		}
	}
	return tg
}

// pick chooses among the members named by a step: the def taking its
// argument count; an object's apply; a case class's instantiation.
func (r *resolver) pick(found []int32, s step, how string) target {
	var defs []int32
	for _, m := range found {
		if isDef(r.nodes[m].Kind) {
			defs = append(defs, m)
		}
	}
	if len(defs) == 0 {
		if !s.call {
			return target{node: -1, drop: true} // a val, an object: no call
		}
		if len(found) == 1 && (r.isObject(found[0]) || r.nodes[found[0]].Kind == schemas.KindEnum) {
			return r.apply(found[0], s, how)
		}
		return fail(reasonApplyValue)
	}
	var cands []int32
	for _, m := range defs {
		if !r.hasSig[m] && s.n == 0 || r.sigs[m].accepts(s.n) {
			cands = append(cands, m)
		}
	}
	if len(cands) > 0 && s.call {
		switch m, outcome := r.byTypes(cands, s.args, s.ctx); {
		case outcome == overload.Chosen:
			return target{node: m, how: how}
		case outcome == overload.None:
			// None applies: an inherited alternative may.
			return target{node: -1, why: reasonNoOverload + strconv.Itoa(s.n) + " arguments", none: true}
		}
	}
	switch {
	case len(cands) == 1:
		return target{node: cands[0], how: how}
	case len(cands) > 1:
		return target{node: -1, why: reasonAmbiguous, amb: true}
	case !s.call:
		return target{node: -1, drop: true} // a def taking arguments, named: not called
	}
	return fail(reasonNoOverload + strconv.Itoa(s.n) + " arguments")
}

// apply resolves obj(args), s the step applying obj: the apply def of an
// object.
func (r *resolver) apply(obj int32, s step, how string) target {
	found, open := r.inMembers(obj, "apply", isDefNode(r), 0)
	if len(found) == 0 {
		if open != "" {
			return fail(reasonExternalBase + open)
		}
		return fail(reasonUnknownMember + "apply")
	}
	if c := r.caseCompanion(obj); c >= 0 {
		return r.caseApply(found, c, s, how)
	}
	return r.pick(found, called("apply", s.args, s.ctx), how)
}

// caseCompanion returns the case class whose companion object obj is, or
// -1.
func (r *resolver) caseCompanion(obj int32) int32 {
	for _, c := range r.qnames[r.nodes[obj].QualifiedName] {
		if r.isCaseClass(c) {
			return c
		}
	}
	return -1
}

// caseApply resolves obj(args) on the companion of case class c: one of
// the applies the object declares, or the one the compiler adds, which
// instantiates c.
func (r *resolver) caseApply(found []int32, c int32, s step, how string) target {
	var cands []int32
	for _, m := range found {
		if r.sigs[m].accepts(s.n) {
			cands = append(cands, m)
		}
	}
	if r.sigs[c].accepts(s.n) {
		cands = append(cands, c)
	}
	m, outcome := int32(-1), overload.None
	switch len(cands) {
	case 0:
		return fail(reasonNoOverload + strconv.Itoa(s.n) + " arguments")
	case 1:
		m, outcome = cands[0], overload.Chosen
	default:
		m, outcome = r.byTypes(cands, s.args, s.ctx)
	}
	switch {
	case outcome != overload.Chosen:
		return target{node: -1, why: reasonAmbiguous, amb: true}
	case m == c:
		return target{node: c, how: how, create: true}
	}
	return target{node: m, how: how}
}

func isDefNode(r *resolver) func(int32) bool {
	return func(i int32) bool { return isDef(r.nodes[i].Kind) }
}

// unqualified resolves name(args) called from node src: a def in scope,
// an object's apply, a case class's instantiation.
func (r *resolver) unqualified(name string, args []string, src int32, depth int) target {
	s := called(name, args, src)
	if name == "this" && r.nodes[src].Kind == schemas.KindConstructor {
		return r.delegation(args, src)
	}
	if name == "this" {
		ts := r.enclosing(src)
		if len(ts) == 0 {
			return fail(indexer.ReasonExpr)
		}
		return r.member(val{t: ts[0], how: schemas.ResolvedScope}, called("apply", args, src), depth+1)
	}
	if name == "super" {
		return fail(indexer.ReasonExpr)
	}
	want := func(i int32) bool { return r.isTerm(i) || r.isCaseClass(i) }
	cands, how, maybe, why := r.lookup(name, src, want, depth+1)
	if len(cands) == 0 {
		return fail(why)
	}
	var objs, classes []int32
	for _, c := range cands {
		switch {
		case r.isObject(c):
			objs = append(objs, c)
		case r.isCaseClass(c):
			classes = append(classes, c)
		}
	}
	var tg target
	switch {
	case len(objs) == 1:
		tg = r.apply(objs[0], s, how)
		if tg.why == reasonUnknownMember+"apply" && len(classes) == 1 {
			tg = target{node: classes[0], how: how, create: true}
		}
	case len(classes) == 1 && len(objs) == 0:
		tg = target{node: classes[0], how: how, create: true}
	default:
		tg = r.pick(cands, s, how)
	}
	tg.maybe = tg.maybe || maybe
	return tg
}

// delegation resolves this(args) in a secondary constructor: another
// secondary constructor, or the primary one (no node: no edge).
func (r *resolver) delegation(args []string, src int32) target {
	ts := r.enclosing(src)
	if len(ts) == 0 {
		return fail(indexer.ReasonExpr)
	}
	switch c, outcome := r.constructor(ts[0], args, src); {
	case c == ts[0]:
		return target{node: -1, drop: true}
	case outcome == overload.Chosen:
		return target{node: c, how: schemas.ResolvedScope}
	case outcome == overload.None:
		return fail(reasonNoOverload + strconv.Itoa(len(args)) + " arguments")
	}
	return target{node: -1, why: reasonAmbiguous, amb: true}
}

// constructor returns the constructor of class t a call with arguments
// args made by node ctx invokes: a secondary constructor, or t for the
// primary one. When it is ambiguous and the primary one may be it, it
// returns t.
func (r *resolver) constructor(t int32, args []string, ctx int32) (int32, overload.Outcome) {
	n := len(args)
	var cands []int32
	if r.sigs[t].accepts(n) {
		cands = append(cands, t)
	}
	for _, m := range r.members[t]["this"] {
		if m != ctx && r.nodes[m].Kind == schemas.KindConstructor && r.sigs[m].accepts(n) {
			cands = append(cands, m)
		}
	}
	switch len(cands) {
	case 0:
		return -1, overload.None
	case 1:
		return cands[0], overload.Chosen
	}
	c, outcome := r.byTypes(cands, args, ctx)
	if outcome != overload.Chosen && cands[0] == t {
		return t, outcome
	}
	return c, outcome
}

// ref appends the edges of one ref, made by node src.
func (r *resolver) ref(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	switch ref.Kind {
	case schemas.EdgeImports:
		return r.importEdge(edges, ref)
	case schemas.EdgeExtends:
		t, ext, why := r.resolveType(ref.Expr, src, 0)
		if t >= 0 {
			kind := schemas.EdgeExtends
			if r.nodes[t].Kind == schemas.KindTrait && r.nodes[src].Kind != schemas.KindTrait {
				kind = schemas.EdgeImplements
			}
			return append(edges, indexer.ResolvedEdge(ref, kind, r.nodes[t].ID, schemas.ResolvedScope))
		}
		if ext != "" {
			why = reasonExternal + ext
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeExtends, why))
	case schemas.EdgeCalls:
		tg := r.eval(ref.Expr, src, 0)
		if tg.drop {
			return edges
		}
		if tg.create {
			return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeInstantiates, r.nodes[tg.node].ID, tg.how))
		}
		return r.emit(edges, ref, schemas.EdgeCalls, tg)
	case schemas.EdgeInstantiates:
		return r.newEdges(edges, ref, src)
	case schemas.EdgeReferences:
		name, annot := strings.CutPrefix(ref.Expr, "@")
		t, ext, why := r.resolveType(name, src, 0)
		if i := strings.LastIndexByte(name, '.'); t < 0 && i > 0 {
			// E.C: a case of enum E, in a pattern.
			if e, _, _ := r.resolveType(name[:i], src, 0); e >= 0 && r.nodes[e].Kind == schemas.KindEnum {
				if m := r.members[e][name[i+1:]]; len(m) == 1 {
					t, ext, why = m[0], "", ""
				}
			}
		}
		switch {
		case t >= 0:
			return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeReferences, r.nodes[t].ID, schemas.ResolvedScope))
		case annot || builtinTypes[strings.TrimPrefix(name, "scala.")]:
			return edges // an annotation outside the snapshot, a builtin type
		case ext != "":
			why = reasonExternal + ext
		}
		e := indexer.UnresolvedEdge(ref, schemas.EdgeReferences, why)
		if strings.HasPrefix(why, reasonAmbiguousName) {
			e.Resolution = schemas.Ambiguous
		}
		return append(edges, e)
	}
	return edges
}

// builtinTypes are Scala's value types and the roots of its type system:
// a use of one makes no edge.
var builtinTypes = map[string]bool{
	"Any": true, "AnyRef": true, "AnyVal": true, "Nothing": true, "Null": true, "Unit": true,
	"Boolean": true, "Byte": true, "Short": true, "Char": true, "Int": true, "Long": true,
	"Float": true, "Double": true, "String": true,
}

func (r *resolver) emit(edges []schemas.Edge, ref *schemas.Ref, kind string, tg target) []schemas.Edge {
	t := indexer.Target{Node: tg.node, How: tg.how, Why: tg.why, Amb: tg.amb, Maybe: tg.maybe}
	return append(edges, t.Edge(ref, kind, r.nodes))
}

// newEdges resolves new T(args): an instantiates edge to T and, when
// the call takes a secondary constructor, a calls edge to it.
func (r *resolver) newEdges(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	e, ok := strings.CutPrefix(ref.Expr, "new ")
	i := strings.IndexByte(e, '(')
	if !ok || i < 0 || !strings.HasSuffix(e, ")") {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, indexer.ExprReason(ref.Expr)))
	}
	args := splitArgs(e[i+1 : len(e)-1])
	t, ext, why := r.resolveType(e[:i], src, 0)
	if t < 0 {
		if ext != "" {
			why = reasonExternal + ext
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, why))
	}
	if r.nodes[t].Kind == schemas.KindTrait {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, reasonTrait))
	}
	edges = append(edges, indexer.ResolvedEdge(ref, schemas.EdgeInstantiates, r.nodes[t].ID, schemas.ResolvedScope))
	switch c, outcome := r.constructor(t, args, src); {
	case c == t || outcome == overload.None:
		return edges
	case outcome == overload.Chosen:
		return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeCalls, r.nodes[c].ID, schemas.ResolvedScope))
	}
	e2 := indexer.UnresolvedEdge(ref, schemas.EdgeCalls, reasonAmbiguous)
	e2.Resolution = schemas.Ambiguous
	return append(edges, e2)
}

// importEdge links an import to the declaration or package it names.
func (r *resolver) importEdge(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	q, _, _ := strings.Cut(ref.Expr, " as ")
	q = strings.TrimSuffix(q, "._")
	if id, ok := r.pkgs[q]; ok {
		return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, id, schemas.ResolvedImport))
	}
	found := r.byQName(q, func(int32) bool { return true })
	if len(found) > 0 {
		slices.SortFunc(found, func(a, b int32) int {
			return cmp.Or(cmp.Compare(r.nodes[a].File, r.nodes[b].File), cmp.Compare(r.nodes[a].StartByte, r.nodes[b].StartByte))
		})
		return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[found[0]].ID, schemas.ResolvedImport))
	}
	return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternal+q))
}
