package swift

import (
	"maps"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every Swift file and the
// refs extraction recorded. It sets no ParentID, and reads only those
// extraction set.
//
// Approximations, all on the side of leaving an edge out: closures,
// if let and guard let bindings and pattern variables are of unknown
// type; implicit member expressions (.init(), .member) and subscripts are
// not followed; operators are not calls; a property of function type
// called is left unresolved.

// Reasons of unresolved edges.
const (
	reasonAmbiguous     = "ambiguous overload"
	reasonAmbiguousType = "ambiguous type "
	reasonExternal      = "external "
	reasonExternalBase  = "member of external supertype "
	reasonUnknownName   = "unknown name "
	reasonUnknownMember = "unknown member "
	reasonNoOverload    = "no overload taking "
	reasonNoInit        = "no initializer taking "
	reasonImplicitInit  = "implicit initializer"
	reasonClosure       = "property of function type"
	reasonEnumCase      = "enum case"
	reasonProtocol      = "protocol instantiated"
)

// maxDepth bounds the chains of types and of evaluations followed.
const maxDepth = 32

type param struct {
	label    string
	typ      string // as the params fact writes it, "" when not compared
	def      bool
	variadic bool
}

func parseParams(e string) []param {
	if e == "" {
		return nil
	}
	var out []param
	for _, p := range strings.Split(e, ",") {
		var q param
		if rest, ok := strings.CutPrefix(p, "..."); ok {
			q.variadic, p = true, rest
		}
		if rest, ok := strings.CutSuffix(p, "="); ok {
			q.def, p = true, rest
		}
		q.label, q.typ, _ = strings.Cut(p, ":")
		out = append(out, q)
	}
	return out
}

// matches reports whether a call with these argument labels can call a
// declaration with these parameters.
func matches(ps []param, call []string) bool {
	i := 0
	for _, p := range ps {
		if i < len(call) && (call[i] == p.label || call[i] == "*") {
			i++
			if p.variadic {
				for i < len(call) && call[i] == "_" {
					i++
				}
			}
			continue
		}
		if p.def || p.variadic {
			continue
		}
		return false
	}
	return i == len(call)
}

type conformance struct {
	ref  int
	typ  string
	file string
	p    string
}

type resolver struct {
	nodes    []schemas.Node
	refs     []schemas.Ref
	index    map[uint64]int32
	byName   map[string][]int32 // types by qualified name
	members  map[int32]map[string][]int32
	extMem   map[int32]map[string][]int32
	topLevel map[string]map[string][]int32 // module → name → top-level functions and properties
	fileMod  map[string]string
	imports  map[string][]string
	testable map[string]bool // file and module: an @testable import
	modules  map[string]uint64
	recv     map[int32]string
	recvT    map[int32]int32
	typeOf   map[int32]string
	results  map[int32]string
	params   map[int32][]param
	parents  map[int32][]string
	confs    []conformance
	supers   map[int32][]int32
	open     map[int32]string
	state    map[int32]uint8
}

// resolve turns the refs of every Swift file into module nodes and edges.
func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{
		nodes: nodes, refs: refs, index: map[uint64]int32{}, byName: map[string][]int32{},
		members: map[int32]map[string][]int32{}, extMem: map[int32]map[string][]int32{},
		topLevel: map[string]map[string][]int32{}, fileMod: map[string]string{}, imports: map[string][]string{}, testable: map[string]bool{},
		modules: map[string]uint64{}, recv: map[int32]string{}, recvT: map[int32]int32{},
		typeOf: map[int32]string{}, results: map[int32]string{}, params: map[int32][]param{},
		parents: map[int32][]string{}, supers: map[int32][]int32{}, open: map[int32]string{}, state: map[int32]uint8{},
	}
	out := r.load()
	var edges []schemas.Edge
	for ref, src := range indexer.RefsFrom(refs, r.index) {
		edges = r.ref(edges, ref, src)
	}
	return out, edges
}

func isTypeKind(k string) bool {
	switch k {
	case schemas.KindClass, schemas.KindStruct, schemas.KindEnum, schemas.KindInterface, schemas.KindTypeAlias:
		return true
	}
	return false
}

func isCallable(k string) bool {
	return k == schemas.KindMethod || k == schemas.KindFunction
}

func add(m map[int32]map[string][]int32, t int32, name string, i int32) {
	mm := m[t]
	if mm == nil {
		mm = map[string][]int32{}
		m[t] = mm
	}
	mm[name] = append(mm[name], i)
}

func (r *resolver) load() []schemas.Node {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language == Name || n.Kind == schemas.KindFile {
			r.index[n.ID] = int32(i)
		}
	}
	for k := range r.refs {
		ref := &r.refs[k]
		src, ok := r.index[ref.Src]
		if !ok {
			continue
		}
		switch ref.Kind {
		case schemas.RefPackage:
			r.fileMod[ref.File] = ref.Expr
		case schemas.EdgeImports:
			m, testable := strings.CutPrefix(ref.Expr, "@testable ")
			r.imports[ref.File] = append(r.imports[ref.File], m)
			if testable {
				r.testable[ref.File+"\x00"+m] = true
			}
		case schemas.EdgeExtends:
			r.parents[src] = append(r.parents[src], ref.Expr)
		case schemas.EdgeImplements:
			if t, p, ok := strings.Cut(ref.Expr, ": "); ok {
				r.confs = append(r.confs, conformance{ref: k, typ: t, file: ref.File, p: p})
			}
		case schemas.RefType:
			r.typeOf[src] = ref.Expr
		case schemas.RefResult:
			r.results[src] = ref.Expr
		case schemas.RefParams:
			r.params[src] = parseParams(ref.Expr)
		case schemas.RefReceiver:
			r.recv[src] = strings.Trim(ref.Expr, "{}")
		}
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name || n.Kind == schemas.KindFile {
			continue
		}
		if isTypeKind(n.Kind) {
			q := n.QualifiedName
			if m := r.fileMod[n.File]; m != "" {
				q = strings.TrimPrefix(q, m+".")
			}
			r.byName[q] = append(r.byName[q], int32(i))
		}
		if p := r.parentOf(int32(i)); p >= 0 {
			add(r.members, p, n.Name, int32(i))
		} else if _, ext := r.recv[int32(i)]; !ext && !isTypeKind(n.Kind) {
			mm := r.topLevel[r.fileMod[n.File]]
			if mm == nil {
				mm = map[string][]int32{}
				r.topLevel[r.fileMod[n.File]] = mm
			}
			mm[n.Name] = append(mm[n.Name], int32(i))
		}
	}
	for _, i := range slices.Sorted(maps.Keys(r.recv)) {
		t, _, _ := r.resolveTop(r.recv[i], r.nodes[i].File)
		if t < 0 {
			continue
		}
		r.recvT[i] = t
		add(r.extMem, t, r.nodes[i].Name, i)
	}
	for _, c := range r.confs {
		if t, _, _ := r.resolveTop(c.typ, c.file); t >= 0 {
			r.parents[t] = append(r.parents[t], "\x00"+c.file+"\x00"+c.p)
		}
	}
	var out []schemas.Node
	mods := map[string]bool{}
	for _, m := range r.fileMod {
		mods[m] = true
	}
	for _, m := range slices.Sorted(maps.Keys(mods)) {
		id := indexer.NodeID(Name, schemas.KindModule, m, "", 0)
		r.modules[m] = id
		out = append(out, schemas.Node{ID: id, Kind: schemas.KindModule, Name: m, QualifiedName: m,
			Language: Name, Visibility: schemas.Public, Exported: true})
	}
	return out
}

// parentOf returns the index of node i's parent declaration, or -1 when
// it is its file.
func (r *resolver) parentOf(i int32) int32 {
	if p, ok := r.index[r.nodes[i].ParentID]; ok && r.nodes[p].Kind != schemas.KindFile {
		return p
	}
	return -1
}

// visible reports whether a type of the file's module or of a module it
// imports may be named from file.
func (r *resolver) visible(i int32, file string) bool {
	m := r.fileMod[r.nodes[i].File]
	if m == r.fileMod[file] {
		return true
	}
	return slices.Contains(r.imports[file], m) && (r.nodes[i].Visibility == schemas.Public || r.testable[file+"\x00"+m])
}

// resolveTop resolves a type name as written at the top level of file.
func (r *resolver) resolveTop(name, file string) (int32, string, string) {
	parts := strings.Split(name, ".")
	var found []int32
	for _, i := range r.byName[parts[0]] {
		if r.visible(i, file) && r.reachable(i, file) {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return -1, name, ""
	}
	if len(found) > 1 {
		// The file's own module first.
		var own []int32
		for _, i := range found {
			if r.fileMod[r.nodes[i].File] == r.fileMod[file] {
				own = append(own, i)
			}
		}
		if len(own) != 1 {
			return -1, "", reasonAmbiguousType + parts[0]
		}
		found = own
	}
	t := found[0]
	for _, p := range parts[1:] {
		if t = r.nested(t, p, 0); t < 0 {
			return -1, name, ""
		}
	}
	return r.alias(t, 0)
}

// alias follows a type alias to the type it names.
func (r *resolver) alias(t int32, depth int) (int32, string, string) {
	if r.nodes[t].Kind != schemas.KindTypeAlias {
		return t, "", ""
	}
	e, ok := r.typeOf[t]
	if !ok || depth > maxDepth {
		return -1, r.nodes[t].QualifiedName, ""
	}
	return r.resolveType(strings.Trim(e, "{}"), t, depth+1)
}

// nested returns the member type of t (declared in it or in an extension
// of it) named name.
func (r *resolver) nested(t int32, name string, depth int) int32 {
	for _, m := range [2]map[int32]map[string][]int32{r.members, r.extMem} {
		for _, i := range m[t][name] {
			if isTypeKind(r.nodes[i].Kind) {
				return i
			}
		}
	}
	return -1
}

// enclosing returns the types around node i, innermost first (i itself
// when it is one); in an extension, the extended type and those around
// it.
func (r *resolver) enclosing(i int32) []int32 {
	var ts []int32
	for d := 0; i >= 0 && d < 64; d++ {
		if isTypeKind(r.nodes[i].Kind) && r.nodes[i].Kind != schemas.KindTypeAlias {
			ts = append(ts, i)
		}
		if t, ok := r.recvT[i]; ok {
			i = t
			continue
		}
		i = r.parentOf(i)
	}
	return ts
}

// resolveType resolves a type as written (Expr syntax, no braces) seen
// from node ctx.
func (r *resolver) resolveType(name string, ctx int32, depth int) (int32, string, string) {
	if depth > maxDepth {
		return -1, "", indexer.ReasonTooDeep
	}
	head, rest, dotted := strings.Cut(name, ".")
	for _, e := range r.enclosing(ctx) {
		if r.nodes[e].Name == head && r.parentOf(e) < 0 {
			break // the type itself, from the top level
		}
		if t := r.nested(e, head, depth+1); t >= 0 {
			for _, p := range strings.Split(rest, ".") {
				if !dotted {
					break
				}
				if t = r.nested(t, p, depth+1); t < 0 {
					return -1, name, ""
				}
			}
			return r.alias(t, depth+1)
		}
	}
	return r.resolveTop(name, r.nodes[ctx].File)
}

// link resolves the supertypes of type t.
func (r *resolver) link(t int32, depth int) {
	if r.state[t] != 0 || depth > maxDepth {
		return
	}
	r.state[t] = 1
	for _, e := range r.parents[t] {
		var p int32
		var ext string
		if strings.HasPrefix(e, "\x00") {
			parts := strings.Split(e, "\x00")
			p, ext, _ = r.resolveTop(parts[2], parts[1])
		} else {
			p, ext, _ = r.resolveType(e, t, depth+1)
		}
		switch {
		case p >= 0 && p != t:
			if !slices.Contains(r.supers[t], p) {
				r.supers[t] = append(r.supers[t], p)
			}
		case ext != "" && r.open[t] == "" && r.nodes[t].Kind != schemas.KindEnum && r.nodes[t].Kind != schemas.KindStruct:
			// A class's external superclass, or a protocol's external
			// parent, may declare members. An external protocol of a
			// struct or enum adds only what extensions declare.
			r.open[t] = ext
		}
	}
	r.state[t] = 2
}

// inMembers looks name up in type t, its extensions and its supertypes,
// level by level; a type's own members come before its extensions'.
func (r *resolver) inMembers(t int32, name string, want func(int32) bool, depth int) (found []int32, open string) {
	level := []int32{t}
	seen := map[int32]bool{t: true}
	for d := 0; len(level) > 0 && d < maxDepth; d++ {
		var next []int32
		for _, m := range [2]map[int32]map[string][]int32{r.members, r.extMem} {
			for _, lt := range level {
				for _, i := range m[lt][name] {
					if want(i) && !slices.Contains(found, i) {
						found = append(found, i)
					}
				}
			}
			if len(found) > 0 {
				return found, open
			}
		}
		for _, lt := range level {
			r.link(lt, depth+1)
			if open == "" {
				open = r.open[lt]
			}
			for _, s := range r.supers[lt] {
				if !seen[s] {
					seen[s] = true
					next = append(next, s)
				}
			}
		}
		level = next
	}
	return nil, open
}

func any32(int32) bool { return true }

// target is what a call evaluates to.
type target struct {
	node    int32
	how     string
	why     string
	amb     bool
	maybe   bool
	create  bool  // node is a type instantiated
	init    int32 // with create: the initializer called, or -1
	initWhy string
	initAmb bool
}

func fail(why string) target { return target{node: -1, init: -1, why: why} }

// val is the value of a receiver.
type val struct {
	t      int32
	static bool
	super  bool
	mod    string
	ext    string
	typ    string // ext names a type: the value is of that type
	how    string
	why    string
	maybe  bool
}

type step struct {
	name   string
	labels []string
	args   []string // the arguments' Exprs
	call   bool
}

// splitTop splits e at the commas outside parentheses.
func splitTop(e string) []string {
	var out []string
	for {
		i := topIndex(e, ',')
		if i < 0 {
			return append(out, e)
		}
		out, e = append(out, e[:i]), e[i+1:]
	}
}

// parse splits an Expr into its head and its steps; a called head is
// its first step, named by the head.
func parse(e string) (head string, steps []step, ok bool) {
	head, ok = indexer.ExprHead(e)
	if !ok {
		return "", nil, false
	}
	i := len(head)
	pending := -1
	for i < len(e) {
		switch e[i] {
		case '.':
			j := indexer.NameEnd(e, i+1)
			steps = append(steps, step{name: e[i+1 : j]})
			pending = len(steps) - 1
			i = j
		case '(':
			j := indexer.Closing(e[i:], '(', ')')
			if j < 0 {
				return "", nil, false
			}
			var labels, args []string
			if in := e[i+1 : i+j]; in != "" {
				for _, a := range splitTop(in) {
					l, v, _ := strings.Cut(a, ":")
					labels, args = append(labels, l), append(args, v)
				}
			}
			c := step{labels: labels, args: args, call: true}
			switch {
			case pending >= 0:
				c.name = steps[pending].name
				steps[pending] = c
			case len(steps) == 0:
				c.name = head
				steps = append(steps, c)
				head = ""
			default:
				c.name = "callAsFunction"
				steps = append(steps, c)
			}
			pending = -1
			i += j + 1
		default:
			return "", nil, false
		}
	}
	return head, steps, true
}

// eval evaluates a call's Expr made by node src.
func (r *resolver) eval(e string, src int32, depth int) target {
	if strings.HasPrefix(e, "?") {
		return fail(indexer.ExprReason(e))
	}
	if depth > maxDepth {
		return fail(indexer.ReasonTooDeep)
	}
	head, steps, ok := parse(e)
	if !ok || len(steps) == 0 {
		return fail(indexer.ReasonExpr)
	}
	var v val
	if head == "" {
		if len(steps) == 1 {
			return r.unqualified(steps[0], src, depth+1)
		}
		v = r.resultOf(r.unqualified(steps[0], src, depth+1), depth+1)
		steps = steps[1:]
	} else {
		v = r.headValue(head, src, depth+1)
	}
	for _, s := range steps[:len(steps)-1] {
		v = r.stepValue(v, s, src, depth+1)
	}
	tg := r.member(v, steps[len(steps)-1], src, depth+1)
	tg.maybe = tg.maybe || v.maybe
	return tg
}

func (r *resolver) isProp(i int32) bool {
	switch r.nodes[i].Kind {
	case schemas.KindField, schemas.KindConstant, schemas.KindVariable:
		return true
	}
	return false
}

// headValue evaluates the head of an Expr.
func (r *resolver) headValue(head string, src int32, depth int) val {
	ts := r.enclosing(src)
	switch {
	case head == "self":
		if len(ts) == 0 {
			return val{why: indexer.ReasonExpr}
		}
		return val{t: ts[0], how: schemas.ResolvedScope, static: r.nodes[src].IsStatic}
	case head == "super":
		if len(ts) == 0 {
			return val{why: indexer.ReasonExpr}
		}
		return val{t: ts[0], super: true, how: schemas.ResolvedScope}
	case strings.HasPrefix(head, "{"):
		return r.typed(head, src, depth)
	}
	maybe := false
	for _, t := range ts {
		found, open := r.inMembers(t, head, r.isProp, depth+1)
		if len(found) > 0 {
			v := r.propValue(found[0], depth)
			v.maybe = v.maybe || maybe
			return v
		}
		maybe = maybe || open != ""
	}
	if t, ext, why := r.resolveType(head, src, depth+1); t >= 0 {
		return val{t: t, static: true, how: r.howType(t, src), maybe: maybe}
	} else if why != "" {
		return val{why: why}
	} else if ext != head {
		return val{ext: ext}
	}
	for _, i := range r.topLevel[r.fileMod[r.nodes[src].File]][head] {
		if r.isProp(i) && r.reachable(i, r.nodes[src].File) {
			v := r.propValue(i, depth)
			v.maybe = v.maybe || maybe
			return v
		}
	}
	if _, ok := r.modules[head]; ok {
		return val{mod: head}
	}
	return val{ext: head}
}

// propValue is the value of a property or enum case.
func (r *resolver) propValue(i int32, depth int) val {
	if e, ok := r.typeOf[i]; ok {
		return r.value(e, i, depth+1)
	}
	if p := r.parentOf(i); p >= 0 && r.nodes[p].Kind == schemas.KindEnum && r.nodes[i].Kind == schemas.KindConstant && r.nodes[i].IsStatic {
		return val{t: p, how: schemas.ResolvedReceiver}
	}
	return val{why: reasonUnknownMember + r.nodes[i].Name}
}

// value evaluates a type fact: {T} or an Expr.
func (r *resolver) value(e string, ctx int32, depth int) val {
	if depth > maxDepth {
		return val{why: indexer.ReasonTooDeep}
	}
	if strings.HasPrefix(e, "{") && strings.HasSuffix(e, "}") {
		return r.typed(e, ctx, depth)
	}
	return r.resultOf(r.eval(e, ctx, depth+1), depth)
}

func (r *resolver) typed(e string, ctx int32, depth int) val {
	t, ext, why := r.resolveType(strings.Trim(e, "{}"), ctx, depth+1)
	switch {
	case t >= 0:
		return val{t: t, how: schemas.ResolvedReceiver}
	case ext != "":
		v := val{ext: ext}
		if ext == strings.Trim(e, "{}") {
			v.typ = ext
		}
		return v
	}
	return val{why: why}
}

// resultOf returns the value a call's target returns.
func (r *resolver) resultOf(tg target, depth int) val {
	switch {
	case tg.node < 0:
		if tg.why == "" {
			return val{why: indexer.ReasonExpr}
		}
		return val{why: tg.why}
	case tg.create:
		return val{t: tg.node, how: schemas.ResolvedReceiver}
	}
	e, ok := r.results[tg.node]
	if !ok {
		return val{why: reasonUnknownMember + r.nodes[tg.node].Name}
	}
	return r.value(e, tg.node, depth+1)
}

// stepValue evaluates v.s.
func (r *resolver) stepValue(v val, s step, src int32, depth int) val {
	switch {
	case v.why != "" || v.ext != "":
		v.typ = ""
		return v
	case v.mod != "":
		if s.call {
			return val{ext: v.mod + "." + s.name}
		}
		for _, i := range r.byName[s.name] {
			if r.fileMod[r.nodes[i].File] == v.mod {
				return val{t: i, static: true, how: schemas.ResolvedImport}
			}
		}
		return val{ext: v.mod + "." + s.name}
	}
	if s.call {
		return r.resultOf(r.member(v, s, src, depth), depth)
	}
	found, open := r.membersOf(v, s.name, any32, depth)
	if len(found) == 0 {
		if open != "" {
			return val{why: reasonExternalBase + open}
		}
		return val{why: reasonUnknownMember + s.name}
	}
	i := found[0]
	switch {
	case isTypeKind(r.nodes[i].Kind):
		t, ext, why := r.alias(i, depth+1)
		if t < 0 {
			return val{ext: ext, why: why}
		}
		return val{t: t, static: true, how: v.how}
	case r.isProp(i):
		return r.propValue(i, depth)
	}
	return val{why: indexer.ReasonExpr}
}

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

// member resolves the last step of a call on v.
func (r *resolver) member(v val, s step, src int32, depth int) target {
	switch {
	case v.why != "":
		return fail(v.why)
	case v.ext != "":
		return fail(reasonExternal + v.ext)
	case v.mod != "":
		return fail(reasonExternal + v.mod + "." + s.name)
	}
	how := v.how
	if how == "" {
		how = schemas.ResolvedReceiver
	}
	if s.name == "init" {
		t := v.t
		if v.super {
			r.link(t, depth+1)
			t = -1
			for _, p := range r.supers[v.t] {
				if r.nodes[p].Kind == schemas.KindClass {
					t = p
				}
			}
			if t < 0 {
				return fail(reasonExternal + r.open[v.t])
			}
		}
		tg := r.instantiate(t, s, how, src)
		if !v.static || v.super || r.nodes[src].Kind == schemas.KindConstructor && !v.static {
			// self.init(...), super.init(...): a delegation, no instance.
			if tg.init < 0 {
				why := tg.initWhy
				if why == "" {
					why = reasonImplicitInit
				}
				if tg.why != "" {
					why = tg.why
				}
				return target{node: -1, init: -1, why: why, amb: tg.initAmb}
			}
			return target{node: tg.init, init: -1, how: how}
		}
		return tg
	}
	found, open := r.membersOf(v, s.name, any32, depth)
	if len(found) == 0 {
		if open != "" {
			return fail(reasonExternalBase + open)
		}
		return fail(reasonUnknownMember + s.name)
	}
	return r.pick(found, s, how, src)
}

// pick chooses among the members a call from src names.
func (r *resolver) pick(found []int32, s step, how string, src int32) target {
	var fns []int32
	for _, m := range found {
		if isCallable(r.nodes[m].Kind) {
			fns = append(fns, m)
		}
	}
	if len(fns) == 0 {
		i := found[0]
		switch {
		case isTypeKind(r.nodes[i].Kind):
			t, ext, why := r.alias(i, 0)
			if t < 0 {
				if ext != "" {
					why = reasonExternal + ext
				}
				return fail(why)
			}
			return r.instantiate(t, s, how, src)
		case r.nodes[i].Kind == schemas.KindConstant && r.nodes[i].IsStatic && r.parentOf(i) >= 0 && r.nodes[r.parentOf(i)].Kind == schemas.KindEnum:
			return fail(reasonEnumCase)
		}
		return fail(reasonClosure)
	}
	var cands []int32
	for _, m := range fns {
		if matches(r.params[m], s.labels) {
			cands = append(cands, m)
		}
	}
	if m := r.byTypes(cands, s, src); m >= 0 {
		return target{node: m, init: -1, how: how}
	}
	switch len(cands) {
	case 0:
		return fail(reasonNoOverload + "(" + labelText(s.labels) + ")")
	}
	return target{node: -1, init: -1, why: reasonAmbiguous, amb: true}
}

func labelText(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, ":") + ":"
}

// instantiate resolves T(args) called from src: T, and the initializer
// the arguments select when T declares some.
func (r *resolver) instantiate(t int32, s step, how string, src int32) target {
	labels := s.labels
	if r.nodes[t].Kind == schemas.KindInterface {
		return fail(reasonProtocol)
	}
	tg := target{node: t, how: how, create: true, init: -1}
	found, _ := r.inMembers(t, "init", func(i int32) bool { return r.nodes[i].Kind == schemas.KindConstructor }, 0)
	var cands []int32
	own := false
	for _, m := range found {
		if r.parentOf(m) == t {
			own = true
		}
		if matches(r.params[m], labels) {
			cands = append(cands, m)
		}
	}
	m := r.byTypes(cands, s, src)
	switch {
	case m >= 0:
		tg.init = m
	case len(cands) > 1:
		tg.initWhy, tg.initAmb = reasonAmbiguous, true
	case len(found) > 0 && (own || r.nodes[t].Kind == schemas.KindClass):
		tg.initWhy = reasonNoInit + "(" + labelText(labels) + ")"
	}
	return tg
}

// unqualified resolves name(labels) called from node src: a method of
// the enclosing types (implicit self), a nested or module type, a
// function of the module or of an imported one.
func (r *resolver) unqualified(s step, src int32, depth int) target {
	maybe := false
	openName := ""
	for _, t := range r.enclosing(src) {
		found, open := r.inMembers(t, s.name, any32, depth+1)
		if len(found) > 0 {
			tg := r.pick(found, s, schemas.ResolvedScope, src)
			tg.maybe = maybe
			return tg
		}
		if open != "" && openName == "" {
			openName = open
		}
		maybe = maybe || open != ""
	}
	if t, _, why := r.resolveType(s.name, src, depth+1); t >= 0 {
		tg := r.instantiate(t, s, r.howType(t, src), src)
		tg.maybe = maybe
		return tg
	} else if why != "" {
		return fail(why)
	}
	file := r.nodes[src].File
	var found []int32
	how := schemas.ResolvedScope
	for _, i := range r.topLevel[r.fileMod[file]][s.name] {
		if isCallable(r.nodes[i].Kind) && r.reachable(i, file) {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		how = schemas.ResolvedImport
		for _, m := range r.imports[file] {
			for _, i := range r.topLevel[m][s.name] {
				if isCallable(r.nodes[i].Kind) && m != r.fileMod[file] && r.visible(i, file) {
					found = append(found, i)
				}
			}
		}
	}
	if len(found) == 0 {
		if maybe {
			return fail(reasonExternalBase + openName)
		}
		return fail(reasonUnknownName + s.name)
	}
	tg := r.pick(found, s, how, src)
	if tg.node < 0 && maybe {
		return fail(reasonExternalBase + openName)
	}
	tg.maybe = maybe
	return tg
}

// howType is how a type seen from node src was found: through an
// import when it is of another module.
func (r *resolver) howType(t, src int32) string {
	if r.fileMod[r.nodes[t].File] != r.fileMod[r.nodes[src].File] {
		return schemas.ResolvedImport
	}
	return schemas.ResolvedScope
}

// builtinTypes are the standard library's primitive types: a use of one
// makes no edge.
var builtinTypes = map[string]bool{
	"Int": true, "Int8": true, "Int16": true, "Int32": true, "Int64": true, "UInt": true, "UInt8": true,
	"UInt16": true, "UInt32": true, "UInt64": true, "Float": true, "Double": true, "Bool": true,
	"String": true, "Character": true, "Void": true, "Any": true, "AnyObject": true, "Never": true,
}

// reachable reports whether declaration i may be named from file: a
// private or fileprivate one only from its own file.
func (r *resolver) reachable(i int32, file string) bool {
	return r.nodes[i].Visibility != schemas.Private || r.nodes[i].File == file
}

// ref appends the edges of one ref, made by node src.
func (r *resolver) ref(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	switch ref.Kind {
	case schemas.EdgeImports:
		m := strings.TrimPrefix(ref.Expr, "@testable ")
		if id, ok := r.modules[m]; ok {
			return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, id, schemas.ResolvedImport))
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternal+m))
	case schemas.EdgeExtends:
		t, ext, why := r.resolveType(ref.Expr, src, 0)
		if t >= 0 {
			kind := schemas.EdgeExtends
			if r.nodes[t].Kind == schemas.KindInterface && r.nodes[src].Kind != schemas.KindInterface {
				kind = schemas.EdgeImplements
			}
			return append(edges, indexer.ResolvedEdge(ref, kind, r.nodes[t].ID, schemas.ResolvedScope))
		}
		if ext != "" {
			why = reasonExternal + ext
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeExtends, why))
	case schemas.EdgeImplements:
		tname, p, ok := strings.Cut(ref.Expr, ": ")
		if !ok {
			return edges
		}
		t, _, _ := r.resolveTop(tname, ref.File)
		if t < 0 {
			return edges // no node to start the edge from
		}
		e := *ref
		e.Src = r.nodes[t].ID
		pt, ext, why := r.resolveTop(p, ref.File)
		if pt >= 0 {
			return append(edges, indexer.ResolvedEdge(&e, schemas.EdgeImplements, r.nodes[pt].ID, schemas.ResolvedScope))
		}
		if ext != "" {
			why = reasonExternal + ext
		}
		return append(edges, indexer.UnresolvedEdge(&e, schemas.EdgeImplements, why))
	case schemas.EdgeReferences:
		name, attr := strings.CutPrefix(ref.Expr, "@")
		t, ext, why := r.resolveType(name, src, 0)
		switch {
		case t >= 0:
			return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeReferences, r.nodes[t].ID, schemas.ResolvedScope))
		case attr || builtinTypes[strings.TrimPrefix(name, "Swift.")]:
			return edges // an attribute outside the snapshot, a builtin type
		case ext != "":
			why = reasonExternal + ext
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeReferences, why))
	case schemas.EdgeCalls:
		tg := r.eval(ref.Expr, src, 0)
		if tg.create {
			edges = append(edges, indexer.ResolvedEdge(ref, schemas.EdgeInstantiates, r.nodes[tg.node].ID, tg.how))
			switch {
			case tg.init >= 0:
				return r.emit(edges, ref, target{node: tg.init, how: tg.how, maybe: tg.maybe})
			case tg.initWhy != "":
				return r.emit(edges, ref, target{node: -1, why: tg.initWhy, amb: tg.initAmb})
			}
			return edges
		}
		return r.emit(edges, ref, tg)
	}
	return edges
}

func (r *resolver) emit(edges []schemas.Edge, ref *schemas.Ref, tg target) []schemas.Edge {
	t := indexer.Target{Node: tg.node, How: tg.how, Why: tg.why, Amb: tg.amb, Maybe: tg.maybe}
	return append(edges, t.Edge(ref, schemas.EdgeCalls, r.nodes))
}
