package ruby

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every Ruby file and the
// refs extraction recorded (requires, superclasses, mixins, calls and
// instantiations). A class or module reopened in several places is one
// type, whose members are those of every declaration. Every type's
// ancestors are linked first; then the refs resolve.
//
// Approximations, all on the side of leaving an edge out: method_missing,
// define_method, refinements, `extend self` and reopened core classes are
// not followed; a constant is looked up in the lexical nesting of the
// code, the superclasses of the innermost class, then the top level (not
// in the mixins of the nesting).

// Reasons of unresolved edges.
const (
	reasonExternal     = "external "
	reasonExternalBase = "member of external ancestor "
	reasonUnknown      = "unknown method "
	reasonAmbiguous    = "defined in several files"
	reasonNotClass     = "not a class "
	reasonNotModule    = "not a module "
	reasonConstValue   = "method of a constant's value"
	reasonLocal        = "local of unknown class"
	reasonCall         = "result of a call"
	reasonIvar         = "instance variable"
	reasonCvar         = "class variable"
	reasonGlobal       = "global variable"
	reasonLiteral      = "literal"
	reasonNoSelf       = "no enclosing class"
	reasonMissingFile  = "missing file "
	reasonOutside      = "outside the tree"
)

const maxDepth = 32

type typeInfo struct {
	qname  string
	kind   string
	decls  []int32 // its declarations, by file and position
	inst   map[string][]int32
	sing   map[string][]int32
	supers []ref
	mixins []mixin
	state  uint8

	super    *typeInfo
	superExt string
	prepends []entry // in order of declaration
	includes []entry
	extends  []entry
}

// entry is an ancestor: a type of the snapshot, or the name of one outside.
type entry struct {
	t   *typeInfo
	ext string
}

type ref struct {
	expr string
	ctx  int32
}

type mixin struct {
	how string // include, extend, prepend
	ref
}

type resolver struct {
	nodes    []schemas.Node
	index    map[uint64]int32
	types    map[string]*typeInfo
	byNode   map[int32]*typeInfo
	consts   map[string][]int32
	funcs    map[string]map[string][]int32 // top-level methods by file and name
	files    map[string]int32              // Ruby files → their file node
	requires map[string][]string           // files each file requires, resolved
}

func byPlace(nodes []schemas.Node) func(a, b int32) int {
	return func(a, b int32) int {
		return cmp.Or(cmp.Compare(nodes[a].File, nodes[b].File), cmp.Compare(nodes[a].StartByte, nodes[b].StartByte))
	}
}

// resolve turns the refs of every Ruby file into edges.
func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{
		nodes: nodes, index: map[uint64]int32{}, types: map[string]*typeInfo{}, byNode: map[int32]*typeInfo{},
		consts: map[string][]int32{}, funcs: map[string]map[string][]int32{}, files: map[string]int32{},
		requires: map[string][]string{},
	}
	r.load(refs)
	for _, q := range slices.Sorted(maps.Keys(r.types)) {
		r.link(r.types[q], 0)
	}
	var edges []schemas.Edge
	for rf, src := range indexer.RefsFrom(refs, r.index) {
		edges = r.ref(edges, rf, src)
	}
	return nil, edges
}

func (r *resolver) load(refs []schemas.Ref) {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name {
			continue
		}
		r.index[n.ID] = int32(i)
		switch n.Kind {
		case schemas.KindFile:
			r.files[n.File] = int32(i)
		case schemas.KindClass, schemas.KindModule:
			t := r.types[n.QualifiedName]
			if t == nil {
				t = &typeInfo{qname: n.QualifiedName, kind: n.Kind, inst: map[string][]int32{}, sing: map[string][]int32{}}
				r.types[n.QualifiedName] = t
			}
			t.decls = append(t.decls, int32(i))
			r.byNode[int32(i)] = t
		case schemas.KindConstant:
			r.consts[n.QualifiedName] = append(r.consts[n.QualifiedName], int32(i))
		case schemas.KindFunction:
			m := r.funcs[n.File]
			if m == nil {
				m = map[string][]int32{}
				r.funcs[n.File] = m
			}
			m[n.Name] = append(m[n.Name], int32(i))
		}
	}
	for _, t := range r.types {
		slices.SortFunc(t.decls, byPlace(r.nodes))
		if r.nodes[t.decls[0]].Kind != t.kind {
			t.kind = r.nodes[t.decls[0]].Kind
		}
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name {
			continue
		}
		switch n.Kind {
		case schemas.KindMethod, schemas.KindConstructor, schemas.KindField:
			p, ok := r.index[n.ParentID]
			if t := r.byNode[p]; ok && t != nil {
				if n.IsStatic {
					t.sing[n.Name] = append(t.sing[n.Name], int32(i))
				} else {
					t.inst[n.Name] = append(t.inst[n.Name], int32(i))
				}
			}
		}
	}
	for _, t := range r.types {
		for _, m := range []map[string][]int32{t.inst, t.sing} {
			for _, v := range m {
				slices.SortFunc(v, byPlace(r.nodes))
			}
		}
	}
	for rf, src := range indexer.RefsFrom(refs, r.index) {
		switch rf.Kind {
		case schemas.EdgeExtends:
			if t := r.byNode[src]; t != nil {
				t.supers = append(t.supers, ref{rf.Expr, src})
			}
		case schemas.EdgeReferences:
			how, e, _ := strings.Cut(rf.Expr, " ")
			if t := r.byNode[src]; t != nil {
				t.mixins = append(t.mixins, mixin{how, ref{e, src}})
			}
		case schemas.EdgeImports:
			if p, _, _ := r.require(rf); p != "" {
				r.requires[rf.File] = append(r.requires[rf.File], p)
			}
		}
	}
	for _, t := range r.types {
		slices.SortStableFunc(t.supers, func(a, b ref) int { return byPlace(r.nodes)(a.ctx, b.ctx) })
		slices.SortStableFunc(t.mixins, func(a, b mixin) int { return byPlace(r.nodes)(a.ctx, b.ctx) })
	}
}

// require resolves an imports ref to the path of a file of the tree, or
// says why it cannot, and whether several files would do.
func (r *resolver) require(rf *schemas.Ref) (string, string, bool) {
	if p, ok := strings.CutPrefix(rf.Expr, "relative "); ok {
		if _, ok := r.files[p]; ok {
			return p, "", false
		}
		return "", reasonMissingFile + p, false
	}
	name, ok := strings.CutPrefix(rf.Expr, "require ")
	if !ok {
		return "", reasonOutside, false
	}
	if !strings.HasSuffix(name, ".rb") {
		name += ".rb"
	}
	var found []string
	for p := range r.files {
		if !strings.HasSuffix(p, name) {
			continue
		}
		dir := strings.TrimSuffix(strings.TrimSuffix(p, name), "/")
		if len(dir)+len(name) < len(p) && !strings.HasSuffix(p[:len(p)-len(name)], "/") {
			continue
		}
		base := path.Base(dir)
		if dir == "" || base == "lib" || base == "test" || base == "spec" {
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		return "", reasonExternal + strings.TrimSuffix(name, ".rb"), false
	}
	// Several load paths hold the file (a tree of several gems): the one
	// nearest the requiring file, when it is alone.
	best, tie := indexer.Nearest(found, rf.File)
	if tie {
		return "", reasonAmbiguous, true
	}
	return best, "", false
}

// nesting returns the classes and modules around node i, innermost first
// (i itself when it is one): Module.nesting of its code.
func (r *resolver) nesting(i int32) []*typeInfo {
	var out []*typeInfo
	for d := 0; i >= 0 && d < 64; d++ {
		if t := r.byNode[i]; t != nil {
			out = append(out, t)
		}
		p, ok := r.index[r.nodes[i].ParentID]
		if !ok || r.nodes[p].Kind == schemas.KindFile {
			break
		}
		i = p
	}
	return out
}

// self returns the class or module whose instance (or, when singleton,
// itself) is self in the code of node i.
func (r *resolver) self(i int32) (*typeInfo, bool) {
	n := &r.nodes[i]
	switch n.Kind {
	case schemas.KindClass, schemas.KindModule:
		return r.byNode[i], true
	case schemas.KindMethod, schemas.KindConstructor, schemas.KindField:
		if p, ok := r.index[n.ParentID]; ok {
			return r.byNode[p], n.IsStatic
		}
	}
	return nil, false
}

func (r *resolver) exists(q string) bool { return r.types[q] != nil || len(r.consts[q]) > 0 }

// constant resolves a constant path seen from node ctx: to a type, to a
// constant node, or to the name of something outside the snapshot.
func (r *resolver) constant(p string, ctx int32) (*typeInfo, int32, string) {
	abs := strings.HasPrefix(p, "::")
	p = strings.TrimPrefix(p, "::")
	first, rest, _ := strings.Cut(p, "::")
	base := ""
	if !abs {
		nest := r.nesting(ctx)
		for _, t := range nest {
			if q := t.qname + "::" + first; r.exists(q) {
				base = q
				break
			}
		}
		if base == "" && len(nest) > 0 {
			for t, d := nest[0].super, 0; t != nil && d < maxDepth; t, d = t.super, d+1 {
				if q := t.qname + "::" + first; r.exists(q) {
					base = q
					break
				}
			}
		}
	}
	if base == "" && r.exists(first) {
		base = first
	}
	if base == "" {
		return nil, -1, p
	}
	full := base
	if rest != "" {
		full += "::" + rest
	}
	if t := r.types[full]; t != nil {
		return t, -1, ""
	}
	if c := r.consts[full]; len(c) > 0 {
		return nil, c[0], ""
	}
	return nil, -1, full
}

// link resolves the superclass and the mixins of t.
func (r *resolver) link(t *typeInfo, depth int) {
	if t.state != 0 || depth > maxDepth {
		return
	}
	t.state = 1
	for _, s := range t.supers {
		st, _, ext := r.constant(s.expr, s.ctx)
		switch {
		case st != nil && st != t && st.kind == schemas.KindClass && t.kind == schemas.KindClass:
			r.link(st, depth+1)
			if !r.inherits(st, t, 0) {
				t.super = st
			}
		case st == nil && ext != "":
			t.superExt = ext
		default:
			continue
		}
		break
	}
	for _, m := range t.mixins {
		mt, _, ext := r.constant(m.expr, m.ctx)
		e := entry{ext: ext}
		if mt != nil && mt.kind == schemas.KindModule && mt != t {
			e = entry{t: mt}
			r.link(mt, depth+1)
		} else if ext == "" {
			continue
		}
		switch m.how {
		case "include":
			t.includes = append(t.includes, e)
		case "prepend":
			t.prepends = append(t.prepends, e)
		case "extend":
			t.extends = append(t.extends, e)
		}
	}
	t.state = 2
}

// inherits reports whether a has b among its superclasses.
func (r *resolver) inherits(a, b *typeInfo, depth int) bool {
	for ; a != nil && depth < maxDepth; a, depth = a.super, depth+1 {
		if a == b {
			return true
		}
	}
	return false
}

// ancestors appends the ancestors of t, in method lookup order: its
// prepended modules (the last first), t, its included modules (the last
// first), then those of its superclass.
func (r *resolver) ancestors(out []entry, t *typeInfo, depth int) []entry {
	if depth > maxDepth {
		return out
	}
	for _, e := range out {
		if e.t == t {
			return out
		}
	}
	for i := len(t.prepends) - 1; i >= 0; i-- {
		out = r.module(out, t.prepends[i], depth)
	}
	out = append(out, entry{t: t})
	for i := len(t.includes) - 1; i >= 0; i-- {
		out = r.module(out, t.includes[i], depth)
	}
	switch {
	case t.super != nil:
		out = r.ancestors(out, t.super, depth+1)
	case t.superExt != "":
		out = append(out, entry{ext: t.superExt})
	}
	return out
}

func (r *resolver) module(out []entry, e entry, depth int) []entry {
	if e.t == nil {
		return append(out, e)
	}
	return r.ancestors(out, e.t, depth+1)
}

// singletons lists where a singleton method of t is looked up: t's
// singleton methods, its extended modules' instance methods, then those of
// its superclass.
func (r *resolver) singletons(t *typeInfo) []entry {
	var out []entry
	for d := 0; t != nil && d < maxDepth; d++ {
		out = append(out, entry{t: t})
		for i := len(t.extends) - 1; i >= 0; i-- {
			if t.extends[i].t != nil {
				for _, a := range r.ancestors(nil, t.extends[i].t, 0) {
					if a.t != nil {
						a.ext = extended
					}
					out = append(out, a)
				}
			} else {
				out = append(out, t.extends[i])
			}
		}
		if t.super == nil && t.superExt != "" {
			out = append(out, entry{ext: t.superExt})
		}
		t = t.super
	}
	return out
}

// target is what a call evaluates to: a node, or why there is none.
type target struct {
	node int32
	how  string
	why  string
	amb  bool
}

func fail(why string) target { return target{node: -1, why: why} }

// pick chooses among the definitions of a method in one type: the last
// when they are in one file (Ruby keeps the last), none when they are in
// several.
func (r *resolver) pick(c []int32) target {
	last := c[len(c)-1]
	for _, m := range c {
		if r.nodes[m].File != r.nodes[last].File {
			return target{node: -1, why: reasonAmbiguous, amb: true}
		}
	}
	return target{node: last, how: schemas.ResolvedReceiver}
}

// extended marks, in a singleton lookup list, a module reached through
// extend: its instance methods are singleton methods of the type.
const extended = "\x00"

// lookup finds method name along the ancestors es.
func (r *resolver) lookup(es []entry, name string, singleton bool) target {
	for _, e := range es {
		switch {
		case e.t == nil:
			return fail(reasonExternalBase + e.ext)
		case singleton && e.ext == "":
			if c := e.t.sing[name]; len(c) > 0 {
				return r.pick(c)
			}
		default:
			if c := e.t.inst[name]; len(c) > 0 {
				return r.pick(c)
			}
		}
	}
	return fail(reasonUnknown + name)
}

func (r *resolver) methods(t *typeInfo, name string, singleton bool) target {
	var tg target
	if singleton {
		tg = r.lookup(r.singletons(t), name, true)
	} else {
		tg = r.lookup(r.ancestors(nil, t, 0), name, false)
	}
	if strings.HasPrefix(tg.why, reasonUnknown) && kernel[name] {
		return fail(reasonExternal + "Kernel")
	}
	return tg
}

// kernel are methods every object has from Object and Kernel (and every
// class from Module), which the snapshot does not declare.
var kernel = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`class raise fail puts print p pp require require_relative load send __send__
		public_send respond_to? is_a? kind_of? instance_of? nil? freeze frozen? dup clone to_s inspect hash
		equal? eql? instance_variable_get instance_variable_set instance_variable_defined? instance_variables
		tap then yield_self format sprintf printf loop lambda proc define_method method methods object_id
		extend catch throw sleep rand srand Integer Float String Array Hash Rational Complex warn block_given?
		binding caller exit exit! abort at_exit gets open system spawn exec trap singleton_class itself display
		attr_accessor attr_reader attr_writer include prepend private protected public module_function
		private_constant const_get const_set const_defined? class_eval instance_eval instance_exec
		class_exec module_eval name ancestors instance_methods method_defined? alias_method remove_method
		undef_method allocate superclass autoload __method__ __dir__ enum_for to_enum`) {
		kernel[m] = true
	}
}

// function finds a top-level method of the file of node src, or of a file
// it requires.
func (r *resolver) function(name string, src int32) target {
	file := r.nodes[src].File
	if c := r.funcs[file][name]; len(c) > 0 {
		return target{node: c[len(c)-1], how: schemas.ResolvedLocal}
	}
	var found []int32
	for _, p := range r.requires[file] {
		if c := r.funcs[p][name]; len(c) > 0 {
			found = append(found, c[len(c)-1])
		}
	}
	switch {
	case len(found) == 0 && kernel[name]:
		return fail(reasonExternal + "Kernel")
	case len(found) == 0:
		return fail(reasonUnknown + name)
	case len(found) == 1:
		return target{node: found[0], how: schemas.ResolvedImport}
	}
	return target{node: -1, why: reasonAmbiguous, amb: true}
}

// call evaluates the Expr of a call made by node src.
func (r *resolver) call(e string, src int32) target {
	if strings.HasPrefix(e, "?") {
		return fail(reasonOf(e))
	}
	if e == "super" {
		return r.super(src)
	}
	e = strings.TrimPrefix(e, "~")
	recv, name, dotted := cutLast(e)
	if !dotted || recv == "self" {
		if !dotted {
			name = e
		}
		t, singleton := r.self(src)
		if t == nil {
			return r.function(name, src)
		}
		tg := r.methods(t, name, singleton)
		if tg.node >= 0 {
			tg.how = schemas.ResolvedScope
			return tg
		}
		if strings.HasPrefix(tg.why, reasonUnknown) && !dotted {
			if f := r.function(name, src); f.node >= 0 || f.amb {
				return f
			}
		}
		return tg
	}
	if strings.HasPrefix(recv, "{") {
		p := recv[1 : len(recv)-1]
		var t *typeInfo
		if p == "self" {
			st, singleton := r.self(src)
			if st == nil || !singleton {
				return fail(reasonNoSelf)
			}
			t = st
		} else {
			ct, c, ext := r.constant(p, src)
			switch {
			case ext != "":
				return fail(reasonExternal + ext)
			case c >= 0:
				return fail(reasonConstValue)
			}
			t = ct
		}
		if t.kind != schemas.KindClass {
			return fail(reasonNotClass + t.qname)
		}
		return r.methods(t, name, false)
	}
	t, c, ext := r.constant(recv, src)
	switch {
	case ext != "":
		return fail(reasonExternal + ext)
	case c >= 0:
		return fail(reasonConstValue)
	}
	tg := r.methods(t, name, true)
	if tg.node >= 0 {
		tg.how = schemas.ResolvedScope
	}
	return tg
}

// super resolves a super call in method src: the method of the same name
// further along the ancestors.
func (r *resolver) super(src int32) target {
	t, singleton := r.self(src)
	n := &r.nodes[src]
	if t == nil || n.Kind == schemas.KindClass || n.Kind == schemas.KindModule {
		return fail(reasonNoSelf)
	}
	var es []entry
	if singleton {
		es = r.singletons(t)
	} else {
		es = r.ancestors(nil, t, 0)
	}
	for i, e := range es {
		if e.t == t && e.ext == "" {
			tg := r.lookup(es[i+1:], n.Name, singleton)
			if tg.node >= 0 {
				tg.how = schemas.ResolvedScope
			}
			return tg
		}
	}
	return fail(reasonUnknown + n.Name)
}

func cutLast(e string) (string, string, bool) {
	i := strings.LastIndexByte(e, '.')
	if i < 0 {
		return "", e, false
	}
	return e[:i], e[i+1:], true
}

func reasonOf(e string) string {
	switch e {
	case indexer.ExprLocal:
		return reasonLocal
	case "?call":
		return reasonCall
	case "?ivar":
		return reasonIvar
	case "?cvar":
		return reasonCvar
	case "?global":
		return reasonGlobal
	case indexer.ExprLiteral:
		return reasonLiteral
	}
	return indexer.ReasonExpr
}

// ref appends the edges of one ref, made by node src.
func (r *resolver) ref(edges []schemas.Edge, rf *schemas.Ref, src int32) []schemas.Edge {
	switch rf.Kind {
	case schemas.EdgeImports:
		p, why, amb := r.require(rf)
		if p == "" {
			e := indexer.UnresolvedEdge(rf, schemas.EdgeImports, why)
			if amb {
				e.Resolution = schemas.Ambiguous
			}
			return append(edges, e)
		}
		return append(edges, indexer.ResolvedEdge(rf, schemas.EdgeImports, r.nodes[r.files[p]].ID, schemas.ResolvedImport))
	case schemas.EdgeExtends:
		t, _, ext := r.constant(rf.Expr, src)
		switch {
		case t != nil && t.kind == schemas.KindClass && r.nodes[src].Kind == schemas.KindClass:
			return append(edges, indexer.ResolvedEdge(rf, schemas.EdgeExtends, r.nodes[t.decls[0]].ID, schemas.ResolvedScope))
		case ext != "":
			return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeExtends, reasonExternal+ext))
		}
		return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeExtends, reasonNotClass+rf.Expr))
	case schemas.EdgeReferences:
		how, e, _ := strings.Cut(rf.Expr, " ")
		t, c, ext := r.constant(e, src)
		if how == "rescue" { // a class (or a module) of exceptions
			switch {
			case t != nil:
				return append(edges, indexer.ResolvedEdge(rf, schemas.EdgeReferences, r.nodes[t.decls[0]].ID, schemas.ResolvedScope))
			case ext != "":
				return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeReferences, reasonExternal+ext))
			case c >= 0:
				return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeReferences, reasonConstValue))
			}
			return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeReferences, reasonNotClass+e))
		}
		switch {
		case t != nil && t.kind == schemas.KindModule:
			return append(edges, indexer.ResolvedEdge(rf, schemas.EdgeReferences, r.nodes[t.decls[0]].ID, schemas.ResolvedScope))
		case ext != "":
			return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeReferences, reasonExternal+ext))
		}
		return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeReferences, reasonNotModule+e))
	case schemas.EdgeCalls:
		tg := r.call(rf.Expr, src)
		if tg.node < 0 && strings.HasPrefix(rf.Expr, "~") {
			return edges // a bare name that may be a local variable of a kind not tracked
		}
		return r.emit(edges, rf, schemas.EdgeCalls, tg)
	case schemas.EdgeInstantiates:
		return r.instantiate(edges, rf, src)
	}
	return edges
}

// instantiate resolves C.new: an instantiates edge to C and a calls edge
// to the initialize C has or inherits, when it is in the snapshot.
func (r *resolver) instantiate(edges []schemas.Edge, rf *schemas.Ref, src int32) []schemas.Edge {
	var t *typeInfo
	how := schemas.ResolvedScope
	if rf.Expr == "self" {
		st, singleton := r.self(src)
		if st == nil || !singleton {
			return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeInstantiates, reasonNoSelf))
		}
		t = st
	} else {
		ct, c, ext := r.constant(rf.Expr, src)
		switch {
		case ext != "":
			return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeInstantiates, reasonExternal+ext))
		case c >= 0:
			return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeInstantiates, reasonConstValue))
		}
		t = ct
	}
	if t.kind != schemas.KindClass {
		return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeInstantiates, reasonNotClass+t.qname))
	}
	if tg := r.methods(t, "new", true); tg.node >= 0 {
		// A singleton new of its own: a call, not necessarily an instance.
		tg.how = how
		return r.emit(edges, rf, schemas.EdgeCalls, tg)
	}
	edges = append(edges, indexer.ResolvedEdge(rf, schemas.EdgeInstantiates, r.nodes[t.decls[0]].ID, how))
	if tg := r.methods(t, "initialize", false); tg.node >= 0 || tg.amb {
		tg.how = how
		edges = r.emit(edges, rf, schemas.EdgeCalls, tg)
	}
	return edges
}

func (r *resolver) emit(edges []schemas.Edge, rf *schemas.Ref, kind string, tg target) []schemas.Edge {
	if tg.node >= 0 {
		return append(edges, indexer.ResolvedEdge(rf, kind, r.nodes[tg.node].ID, tg.how))
	}
	e := indexer.UnresolvedEdge(rf, kind, tg.why)
	if tg.amb {
		e.Resolution = schemas.Ambiguous
	}
	return append(edges, e)
}
