package csharp

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every C# file and the
// refs extraction recorded (using directives, base types, declared types,
// results and parameters, calls, instantiations and attributes). Every
// type's bases are linked first, in order; then the refs resolve in
// parallel, reading only.
//
// Approximations, all on the side of leaving an edge out: a using
// directive inside a namespace block applies to its whole file; global
// usings apply to every file of the snapshot (not only their project);
// extension methods, conditional access (a?.M()), delegates and awaited
// values are not followed.

// Reasons of unresolved edges.
const (
	reasonAmbiguous       = "ambiguous overload"
	reasonAmbiguousType   = "ambiguous type "
	reasonExternal        = "external "
	reasonExternalBase    = "member of external base "
	reasonUnknownMethod   = "unknown method "
	reasonUnknownMember   = "unknown member "
	reasonNoOverload      = "no overload taking "
	reasonNotStatic       = "instance member called on a type"
	reasonDelegate        = "delegate invoked"
	reasonLocalFn         = "local function"
	reasonAwait           = "member of an awaited value"
	reasonImplicitCtor    = "implicit constructor"
	reasonBaseKindUnknown = " (base class or interface)"
)

const maxDepth = 16

// objectMembers are the methods every type inherits from System.Object.
var objectMembers = map[string]bool{
	"Equals": true, "GetHashCode": true, "ToString": true, "GetType": true, "ReferenceEquals": true,
	"MemberwiseClone": true, "Finalize": true,
}

// isOpen reports whether t or one of its bases in the snapshot has a base
// outside it.
func (r *resolver) isOpen(t *typeInfo, depth int) bool {
	if t.open != "" {
		return true
	}
	if depth > maxDepth {
		return true
	}
	for _, s := range t.supers {
		if r.isOpen(s, depth+1) {
			return true
		}
	}
	return false
}

type typeInfo struct {
	qname   string
	kind    string
	nodes   []int32 // its declarations (partial ones), by file and position
	members map[string][]int32
	bases   []baseRef
	state   uint8 // 0 new, 1 linking, 2 linked
	class   *typeInfo
	supers  []*typeInfo // base class first, then interfaces
	open    string      // the first base outside the snapshot
	convert bool        // it declares an implicit conversion operator
	lost    bool        // a base did not resolve, in or out of the snapshot
}

type baseRef struct {
	expr  string
	ctx   int32
	iface bool // an implements ref: necessarily an interface
}

type fileInfo struct {
	usings  []string
	statics []string
	aliases map[string]string
}

type sig struct {
	required, total int
	variadic        bool
	types           []string // the parameter types, the params array's last
}

func (s sig) accepts(n int) bool {
	return n >= s.required && (n <= s.total || s.variadic)
}

func parseSig(e string) sig {
	if e == "" {
		return sig{}
	}
	var s sig
	for _, p := range strings.Split(e, ",") {
		s.total++
		switch {
		case strings.HasPrefix(p, "params "):
			s.variadic = true
			s.total--
		case strings.HasSuffix(p, "="):
		default:
			s.required++
		}
		p = strings.TrimPrefix(strings.TrimPrefix(p, "params "), "this ")
		s.types = append(s.types, strings.TrimSuffix(p, "="))
	}
	return s
}

type resolver struct {
	nodes   []schemas.Node
	index   map[uint64]int32
	types   map[string]*typeInfo
	byNode  map[int32]*typeInfo
	nsNodes map[string][]int32 // namespace declarations by name
	nsNames map[string]bool    // namespaces and their prefixes
	files   map[string]*fileInfo
	global  fileInfo
	typeOf  map[int32]string
	results map[int32]string
	sigs    map[int32]sig
}

func isTypeKind(k string) bool {
	switch k {
	case schemas.KindClass, schemas.KindStruct, schemas.KindInterface, schemas.KindEnum, schemas.KindType:
		return true
	}
	return false
}

// resolve turns the refs of every C# file into edges.
func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{
		nodes: nodes, index: map[uint64]int32{}, types: map[string]*typeInfo{}, byNode: map[int32]*typeInfo{},
		nsNodes: map[string][]int32{}, nsNames: map[string]bool{}, files: map[string]*fileInfo{},
		typeOf: map[int32]string{}, results: map[int32]string{}, sigs: map[int32]sig{},
		global: fileInfo{aliases: map[string]string{}},
	}
	r.load(refs)
	for _, q := range slices.Sorted(maps.Keys(r.types)) {
		r.link(r.types[q], 0)
	}
	return nil, indexer.ResolveRefs(refs, r.index, r.ref)
}

func (r *resolver) load(refs []schemas.Ref) {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name && n.Kind != schemas.KindFile {
			continue
		}
		r.index[n.ID] = int32(i)
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name {
			continue
		}
		switch {
		case n.Kind == schemas.KindNamespace:
			r.nsNodes[n.QualifiedName] = append(r.nsNodes[n.QualifiedName], int32(i))
			for q := n.QualifiedName; q != ""; q = indexer.ParentName(q) {
				r.nsNames[q] = true
			}
		case isTypeKind(n.Kind):
			t := r.types[n.QualifiedName]
			if t == nil {
				t = &typeInfo{qname: n.QualifiedName, kind: n.Kind, members: map[string][]int32{}}
				r.types[n.QualifiedName] = t
			}
			t.nodes = append(t.nodes, int32(i))
			r.byNode[int32(i)] = t
		}
	}
	for _, t := range r.types {
		slices.SortFunc(t.nodes, func(a, b int32) int {
			return cmp.Or(cmp.Compare(r.nodes[a].File, r.nodes[b].File), cmp.Compare(r.nodes[a].StartByte, r.nodes[b].StartByte))
		})
		t.kind = r.nodes[t.nodes[0]].Kind
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.Language != Name {
			continue
		}
		if p, ok := r.index[n.ParentID]; ok {
			if t := r.byNode[p]; t != nil {
				t.members[n.Name] = append(t.members[n.Name], int32(i))
			}
		}
	}
	for _, t := range r.types {
		for _, m := range t.members {
			slices.SortFunc(m, func(a, b int32) int {
				return cmp.Or(cmp.Compare(r.nodes[a].File, r.nodes[b].File), cmp.Compare(r.nodes[a].StartByte, r.nodes[b].StartByte))
			})
		}
	}
	for ref, src := range indexer.RefsFrom(refs, r.index) {
		switch ref.Kind {
		case schemas.EdgeImports:
			f := r.file(ref.File)
			e, global := strings.CutPrefix(ref.Expr, "global ")
			if global {
				f = &r.global
			}
			if alias, target, ok := strings.Cut(e, " = "); ok {
				f.aliases[alias] = target
			} else if t, ok := strings.CutPrefix(e, "static "); ok {
				f.statics = append(f.statics, t)
			} else {
				f.usings = append(f.usings, e)
			}
		case schemas.EdgeExtends, schemas.EdgeImplements:
			if t := r.byNode[src]; t != nil {
				t.bases = append(t.bases, baseRef{ref.Expr, src, ref.Kind == schemas.EdgeImplements})
			}
		case schemas.RefType:
			r.typeOf[src] = ref.Expr
		case schemas.RefResult:
			r.results[src] = ref.Expr
		case schemas.RefParams:
			if t := r.byNode[src]; t != nil {
				t.convert = t.convert || ref.Expr == "implicit"
				continue
			}
			r.sigs[src] = parseSig(ref.Expr)
		}
	}
	slices.Sort(r.global.usings)
	r.global.usings = slices.Compact(r.global.usings)
	slices.Sort(r.global.statics)
	r.global.statics = slices.Compact(r.global.statics)
}

func (r *resolver) file(name string) *fileInfo {
	f := r.files[name]
	if f == nil {
		f = &fileInfo{aliases: map[string]string{}}
		r.files[name] = f
	}
	return f
}

// link resolves the bases of t: its base class (the first base, when it
// is a class) and its interfaces.
func (r *resolver) link(t *typeInfo, depth int) {
	if t.state != 0 || depth > maxDepth {
		return
	}
	t.state = 1
	for _, b := range t.bases {
		bt, ext, _, _ := r.resolveType(b.expr, b.ctx, depth+1)
		switch {
		case bt != nil && bt != t:
			if slices.Contains(t.supers, bt) {
				continue
			}
			if bt.kind == schemas.KindClass && t.kind == schemas.KindClass && t.class == nil {
				t.class = bt
				t.supers = slices.Insert(t.supers, 0, bt)
			} else {
				t.supers = append(t.supers, bt)
			}
		case ext != "" && t.open == "" && (!b.iface || t.kind == schemas.KindInterface):
			// An external interface of a class or struct adds no member
			// its instances or its code can reach by simple name.
			t.open = ext
		case bt == nil && ext == "":
			t.lost = true
		}
	}
	t.state = 2
}

// parentOf returns the index of node i's parent, or -1.
func (r *resolver) parentOf(i int32) int32 {
	return indexer.ParentOf(r.nodes, r.index, i)
}

// enclosing returns the types around node i, innermost first (i itself
// when it is one), and the namespace it is declared in.
func (r *resolver) enclosing(i int32) ([]*typeInfo, string) {
	var ts []*typeInfo
	for d := 0; i >= 0 && d < 64; d++ {
		n := &r.nodes[i]
		if n.Kind == schemas.KindNamespace {
			return ts, n.QualifiedName
		}
		if t := r.byNode[i]; t != nil {
			ts = append(ts, t)
		}
		i = r.parentOf(i)
	}
	return ts, ""
}

// fileOf returns the usings of the file of node i.
func (r *resolver) fileOf(i int32) *fileInfo {
	if f := r.files[r.nodes[i].File]; f != nil {
		return f
	}
	return &fileInfo{}
}

// nested returns the member type of t (or of its bases) named name.
func (r *resolver) nested(t *typeInfo, name string, depth int) *typeInfo {
	if depth > maxDepth {
		return nil
	}
	if nt := r.types[t.qname+"."+name]; nt != nil {
		return nt
	}
	for _, s := range t.supers {
		if nt := r.nested(s, name, depth+1); nt != nil {
			return nt
		}
	}
	return nil
}

// resolveType resolves a type name as written (Expr syntax, no braces)
// seen from node ctx. It returns the type, or the name of an external
// one, how it was found and, when it was not, why.
func (r *resolver) resolveType(name string, ctx int32, depth int) (*typeInfo, string, string, string) {
	parts := strings.Split(name, ".")
	t, how, why := r.simpleType(parts[0], ctx, depth)
	if t == nil && why != "" {
		return nil, "", "", why
	}
	if t != nil {
		for _, p := range parts[1:] {
			if t = r.nested(t, p, depth+1); t == nil {
				return nil, name, "", reasonExternal + name
			}
		}
		return t, "", how, ""
	}
	// A qualified name: from the global namespace, the enclosing
	// namespaces, an alias.
	_, ns := r.enclosing(ctx)
	for p := ns; ; p = indexer.ParentName(p) {
		if t := r.qualified(indexer.JoinName(p, name), depth); t != nil {
			return t, "", schemas.ResolvedScope, ""
		}
		if p == "" {
			break
		}
	}
	f := r.fileOf(ctx)
	for _, aliases := range []map[string]string{f.aliases, r.global.aliases} {
		if target, ok := aliases[parts[0]]; ok {
			if t := r.qualified(target+name[len(parts[0]):], depth); t != nil {
				return t, "", schemas.ResolvedImport, ""
			}
		}
	}
	return nil, name, "", reasonExternal + name
}

// qualified returns the type with the qualified name q, also when q
// names a member type.
func (r *resolver) qualified(q string, depth int) *typeInfo {
	if t := r.types[q]; t != nil {
		return t
	}
	p := indexer.ParentName(q)
	if p == "" || depth > maxDepth {
		return nil
	}
	if o := r.qualified(p, depth+1); o != nil {
		return r.nested(o, q[len(p)+1:], depth+1)
	}
	return nil
}

// simpleType resolves a simple type name seen from node ctx: member types
// of the enclosing types, the enclosing namespaces, aliases, using
// directives. It returns nil with no reason when the name names no type.
func (r *resolver) simpleType(name string, ctx int32, depth int) (*typeInfo, string, string) {
	if name == "" || depth > maxDepth {
		return nil, "", indexer.ReasonTooDeep
	}
	ts, ns := r.enclosing(ctx)
	for _, t := range ts {
		if t.qname == name || strings.HasSuffix(t.qname, "."+name) && r.types[indexer.JoinName(indexer.ParentName(t.qname), name)] == t {
			return t, schemas.ResolvedScope, ""
		}
		if t.state == 1 { // its bases are being linked
			if nt := r.types[t.qname+"."+name]; nt != nil {
				return nt, schemas.ResolvedScope, ""
			}
			continue
		}
		r.link(t, depth+1)
		if nt := r.nested(t, name, depth+1); nt != nil {
			return nt, schemas.ResolvedScope, ""
		}
	}
	for p := ns; ; p = indexer.ParentName(p) {
		if t := r.types[indexer.JoinName(p, name)]; t != nil {
			return t, schemas.ResolvedScope, ""
		}
		if p == "" {
			break
		}
	}
	f := r.fileOf(ctx)
	for _, aliases := range []map[string]string{f.aliases, r.global.aliases} {
		if target, ok := aliases[name]; ok {
			if t := r.qualified(target, depth+1); t != nil {
				return t, schemas.ResolvedImport, ""
			}
			return nil, "", reasonExternal + target
		}
	}
	var found []*typeInfo
	for _, usings := range [][]string{f.usings, r.global.usings} {
		for _, u := range usings {
			if t := r.types[u+"."+name]; t != nil && !slices.Contains(found, t) {
				found = append(found, t)
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, "", ""
	case 1:
		return found[0], schemas.ResolvedImport, ""
	}
	return nil, "", reasonAmbiguousType + name
}

// target is what an Expr evaluates to: a node, or why there is none.
type target struct {
	node  int32
	how   string
	why   string
	amb   bool
	maybe bool // an enclosing type has a base outside the snapshot that may declare the name
}

func fail(why string) target { return target{node: -1, why: why} }

// val is the value of a receiver: an instance of a type, a type named
// statically, a namespace, or an external type.
type val struct {
	t      *typeInfo
	static bool
	ns     string
	ext    string
	how    string
	why    string
	maybe  bool // see target.maybe
}

func reasonOf(e string) string {
	switch e {
	case exprLocalFn:
		return reasonLocalFn
	case exprAwait:
		return reasonAwait
	}
	return indexer.ExprReason(e)
}

// args are the arguments of a call: their types as the Expr records them,
// ctx the node whose code makes the call.
type args struct {
	types []string
	ctx   int32
}

// callSeg splits name(args) into the name and the argument types.
func callSeg(s string) (string, []string, bool) {
	i := strings.IndexByte(s, '(')
	if i < 0 || !strings.HasSuffix(s, ")") {
		return s, nil, false
	}
	if i+2 == len(s) {
		return s[:i], []string{}, true
	}
	return s[:i], strings.Split(s[i+1:len(s)-1], ","), true
}

// call evaluates the Expr of a call made by node src.
func (r *resolver) call(e string, src int32) target {
	if strings.HasPrefix(e, "?") {
		return fail(reasonOf(e))
	}
	segs := srctext.SplitTop(e, '.', "{(", "})") // the steps of the Expr
	name, types, ok := callSeg(segs[len(segs)-1])
	if !ok {
		return fail(indexer.ReasonExpr)
	}
	a := args{types, src}
	if len(segs) == 1 {
		switch name {
		case "this", "base":
			return r.ctorCall(name, a)
		}
		return r.unqualified(name, a, 0)
	}
	v := r.value(segs[:len(segs)-1], src, 0)
	return r.member(v, name, a, 0)
}

// ctorCall resolves a constructor initializer, this(args) or base(args).
func (r *resolver) ctorCall(which string, a args) target {
	ts, _ := r.enclosing(a.ctx)
	if len(ts) == 0 {
		return fail(indexer.ReasonExpr)
	}
	t := ts[0]
	if which == "base" {
		if t.class == nil {
			if t.open != "" {
				return fail(reasonExternal + t.open)
			}
			return fail(reasonImplicitCtor)
		}
		t = t.class
	}
	return r.constructor(t, a, schemas.ResolvedScope)
}

// constructor returns the constructor of t that takes the arguments a.
func (r *resolver) constructor(t *typeInfo, a args, how string) target {
	n := len(a.types)
	var cands []int32
	any := false
	for _, m := range t.members[r.nodes[t.nodes[0]].Name] {
		if r.nodes[m].Kind != schemas.KindConstructor || r.nodes[m].IsStatic {
			continue
		}
		any = true
		if r.sigs[m].accepts(n) {
			cands = append(cands, m)
		}
	}
	switch {
	case !any:
		return fail(reasonImplicitCtor)
	case len(cands) == 0:
		return fail(reasonNoOverload + strconv.Itoa(n) + " arguments")
	}
	switch m, outcome := r.byTypes(cands, a); outcome {
	case overload.Chosen:
		return target{node: m, how: how}
	case overload.None:
		return fail(reasonNoOverload + "these arguments")
	}
	return target{node: -1, why: reasonAmbiguous, amb: true}
}

// methods looks name up as a method of t, its base class and its
// interfaces, level by level: the first level with a method of that name
// that may take the arguments decides, by their number and then their
// types. found reports whether the name was seen at all (as a method, or
// as another member: a delegate field).
func (r *resolver) methods(t *typeInfo, name string, a args, static bool, depth int) (tg target, found bool) {
	n := len(a.types)
	level := []*typeInfo{t}
	seen := map[*typeInfo]bool{t: true}
	open := ""
	noOverload := false
	for d := 0; len(level) > 0 && d < maxDepth; d++ {
		var cands []int32
		var next []*typeInfo
		for _, lt := range level {
			r.link(lt, depth+1)
			if open == "" {
				open = lt.open
			}
			for _, m := range lt.members[name] {
				node := &r.nodes[m]
				switch node.Kind {
				case schemas.KindMethod:
					found = true
					if r.sigs[m].accepts(n) && !slices.Contains(cands, m) {
						cands = append(cands, m)
					} else {
						noOverload = true
					}
				case schemas.KindField, schemas.KindConstant:
					if len(cands) == 0 {
						return fail(reasonDelegate), true
					}
				}
			}
			for _, s := range lt.supers {
				if !seen[s] {
					seen[s] = true
					next = append(next, s)
				}
			}
		}
		if len(cands) > 0 {
			switch m, outcome := r.byTypes(cands, a); outcome {
			case overload.Chosen:
				if static && !r.nodes[m].IsStatic {
					return fail(reasonNotStatic), true
				}
				return target{node: m, how: schemas.ResolvedReceiver}, true
			case overload.Ambiguous:
				return target{node: -1, why: reasonAmbiguous, amb: true}, true
			}
			noOverload = true // none applies: C# looks in the bases
		}
		level = next
	}
	switch {
	case open != "":
		return fail(reasonExternalBase + open), found
	case t.kind == schemas.KindEnum && !found:
		return fail(reasonExternal + "System.Enum"), true
	case objectMembers[name] && !found:
		// Every type derives from System.Object: the name is found there.
		return fail(reasonExternal + "System.Object"), true
	case noOverload:
		return fail(reasonNoOverload + strconv.Itoa(n) + " arguments"), found
	}
	return fail(reasonUnknownMethod + name), found
}

// unqualified resolves name(args): a method of the enclosing types,
// innermost first, then of the types of using static directives.
func (r *resolver) unqualified(name string, a args, depth int) target {
	src := a.ctx
	ts, _ := r.enclosing(src)
	open := ""
	for _, t := range ts {
		tg, found := r.methods(t, name, a, false, depth+1)
		if found {
			tg.how, tg.maybe = schemas.ResolvedScope, open != ""
			return tg
		}
		if open == "" && strings.HasPrefix(tg.why, reasonExternalBase) {
			open = tg.why
		}
	}
	f := r.fileOf(src)
	for _, statics := range [][]string{f.statics, r.global.statics} {
		for _, s := range statics {
			t := r.qualified(s, depth+1)
			if t == nil {
				continue
			}
			if tg, found := r.methods(t, name, a, true, depth+1); found {
				tg.how, tg.maybe = schemas.ResolvedImport, open != ""
				return tg
			}
		}
	}
	if open != "" {
		return fail(open)
	}
	if len(f.statics)+len(r.global.statics) > 0 {
		return fail(reasonExternal + name)
	}
	return fail(reasonUnknownMethod + name)
}

// member resolves v.name(args).
func (r *resolver) member(v val, name string, a args, depth int) target {
	switch {
	case v.why != "":
		return fail(v.why)
	case v.ext != "":
		return fail(reasonExternal + v.ext)
	case v.ns != "":
		return fail(reasonExternal + v.ns + "." + name)
	}
	tg, _ := r.methods(v.t, name, a, v.static, depth+1)
	if tg.node >= 0 && v.how != "" {
		tg.how = v.how
	}
	tg.maybe = tg.maybe || v.maybe
	return tg
}

// typed returns the value of the type fact e ("{T}") of node ctx.
func (r *resolver) typed(e string, ctx int32, depth int) val {
	if len(e) < 2 || e[0] != '{' || e[len(e)-1] != '}' {
		return val{why: indexer.ReasonExpr}
	}
	t, ext, _, why := r.resolveType(e[1:len(e)-1], ctx, depth+1)
	switch {
	case t != nil:
		return val{t: t, how: schemas.ResolvedReceiver}
	case ext != "":
		return val{ext: ext}
	}
	return val{why: why}
}

// value evaluates the receiver segs seen from node src.
func (r *resolver) value(segs []string, src int32, depth int) val {
	if depth > maxDepth {
		return val{why: indexer.ReasonTooDeep}
	}
	head := segs[0]
	var v val
	ts, _ := r.enclosing(src)
	switch {
	case head == "this":
		if len(ts) == 0 {
			return val{why: indexer.ReasonExpr}
		}
		v = val{t: ts[0], how: schemas.ResolvedScope}
	case head == "base":
		if len(ts) == 0 {
			return val{why: indexer.ReasonExpr}
		}
		switch t := ts[0]; {
		case t.class != nil:
			v = val{t: t.class, how: schemas.ResolvedScope}
		case t.open != "":
			v = val{ext: t.open}
		default:
			v = val{ext: "System.Object"}
		}
	case strings.HasPrefix(head, "{"):
		v = r.typed(head, src, depth)
	default:
		if name, types, ok := callSeg(head); ok {
			tg := r.unqualified(name, args{types, src}, depth+1)
			v = r.result(tg, depth)
			v.maybe = tg.maybe
		} else {
			v = r.name(head, src, ts, depth)
		}
	}
	maybe := v.maybe
	for _, s := range segs[1:] {
		v = r.step(v, s, src, depth+1)
		maybe = maybe || v.maybe
	}
	v.maybe = maybe
	return v
}

// result returns the value a call's target returns.
func (r *resolver) result(tg target, depth int) val {
	if tg.node < 0 {
		return val{why: tg.why}
	}
	e, ok := r.results[tg.node]
	if !ok {
		return val{why: indexer.ReasonExpr}
	}
	return r.typed(e, tg.node, depth+1)
}

// name evaluates a simple name: a field or property of the enclosing
// types, a type, a namespace.
func (r *resolver) name(name string, src int32, ts []*typeInfo, depth int) val {
	open := false
	for _, t := range ts {
		if m, ok := r.field(t, name, depth); ok {
			v := r.fieldValue(m, t, depth)
			v.maybe = open
			return v
		}
		open = open || r.isOpen(t, depth)
	}
	t, ext, how, why := r.resolveType(name, src, depth+1)
	if t != nil {
		return val{t: t, static: true, how: how, maybe: open}
	}
	if why != "" && !strings.HasPrefix(why, reasonExternal) {
		return val{why: why}
	}
	_, ns := r.enclosing(src)
	for p := ns; ; p = indexer.ParentName(p) {
		if r.nsNames[indexer.JoinName(p, name)] {
			return val{ns: indexer.JoinName(p, name)}
		}
		if p == "" {
			break
		}
	}
	if ext == "" {
		ext = name
	}
	return val{ext: ext}
}

// field finds a field, property, event or constant of t (or its bases)
// named name.
func (r *resolver) field(t *typeInfo, name string, depth int) (int32, bool) {
	if depth > maxDepth {
		return -1, false
	}
	r.link(t, depth+1)
	for _, m := range t.members[name] {
		switch r.nodes[m].Kind {
		case schemas.KindField, schemas.KindConstant:
			return m, true
		}
	}
	for _, s := range t.supers {
		if m, ok := r.field(s, name, depth+1); ok {
			return m, true
		}
	}
	return -1, false
}

// fieldValue returns the value of field m of t: its declared type; an
// enum member's value is of its enum.
func (r *resolver) fieldValue(m int32, t *typeInfo, depth int) val {
	if e, ok := r.typeOf[m]; ok {
		return r.typed(e, m, depth+1)
	}
	if p := r.byNode[r.parentOf(m)]; p != nil && p.kind == schemas.KindEnum {
		return val{t: p, how: schemas.ResolvedReceiver}
	}
	return val{why: reasonUnknownMember + r.nodes[m].Name}
}

// step evaluates v.s, seen from node src.
func (r *resolver) step(v val, s string, src int32, depth int) val {
	switch {
	case v.why != "" || v.ext != "":
		if v.ext != "" && !strings.Contains(s, "(") && v.t == nil && v.static {
			return val{ext: v.ext + "." + s}
		}
		return v
	case v.ns != "":
		q := v.ns + "." + s
		if t := r.types[q]; t != nil {
			return val{t: t, static: true, how: schemas.ResolvedScope}
		}
		if r.nsNames[q] {
			return val{ns: q}
		}
		return val{ext: q}
	}
	if name, types, ok := callSeg(s); ok {
		tg, _ := r.methods(v.t, name, args{types, src}, v.static, depth+1)
		return r.result(tg, depth)
	}
	if m, ok := r.field(v.t, s, depth); ok {
		if v.static && !r.nodes[m].IsStatic {
			return val{why: reasonNotStatic}
		}
		return r.fieldValue(m, v.t, depth)
	}
	if v.static {
		if nt := r.nested(v.t, s, depth+1); nt != nil {
			return val{t: nt, static: true, how: v.how}
		}
	}
	if v.t.open != "" {
		return val{why: reasonExternalBase + v.t.open}
	}
	return val{why: reasonUnknownMember + s}
}

// ref appends the edges of one ref, made by node src.
func (r *resolver) ref(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	switch ref.Kind {
	case schemas.EdgeImports:
		return r.importEdge(edges, ref)
	case schemas.EdgeExtends, schemas.EdgeImplements:
		t, ext, how, why := r.resolveType(ref.Expr, src, 0)
		kind := ref.Kind
		if t != nil {
			if t.kind == schemas.KindInterface && r.nodes[src].Kind != schemas.KindInterface {
				kind = schemas.EdgeImplements
			}
			if how == "" {
				how = schemas.ResolvedScope
			}
			return append(edges, indexer.ResolvedEdge(ref, kind, r.nodes[t.nodes[0]].ID, how))
		}
		if ext != "" {
			why = reasonExternal + ext
			if kind == schemas.EdgeExtends && r.nodes[src].Kind != schemas.KindInterface {
				why += reasonBaseKindUnknown
			}
		}
		return append(edges, indexer.UnresolvedEdge(ref, kind, why))
	case schemas.EdgeCalls:
		return r.emit(edges, ref, schemas.EdgeCalls, r.call(ref.Expr, src))
	case schemas.EdgeInstantiates:
		return r.newEdges(edges, ref, src)
	case schemas.EdgeReferences:
		if name, ok := strings.CutPrefix(ref.Expr, "@"); ok {
			for _, n := range []string{name + "Attribute", name} {
				if t, _, how, _ := r.resolveType(n, src, 0); t != nil {
					return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeReferences, r.nodes[t.nodes[0]].ID, how))
				}
			}
			return edges
		}
		if name, ok := strings.CutPrefix(ref.Expr, exprIsType); ok {
			if t, _, how, _ := r.resolveType(name, src, 0); t != nil {
				return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeReferences, r.nodes[t.nodes[0]].ID, how))
			}
			return edges
		}
		t, ext, how, why := r.resolveType(ref.Expr, src, 0)
		if t != nil {
			return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeReferences, r.nodes[t.nodes[0]].ID, how))
		}
		if ext != "" {
			why = reasonExternal + ext
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeReferences, why))
	}
	return edges
}

func (r *resolver) emit(edges []schemas.Edge, ref *schemas.Ref, kind string, tg target) []schemas.Edge {
	t := indexer.Target{Node: tg.node, How: tg.how, Why: tg.why, Amb: tg.amb, Maybe: tg.maybe}
	return append(edges, t.Edge(ref, kind, r.nodes))
}

// newEdges resolves new T(args): an instantiates edge to T and a calls edge
// to the constructor taking n arguments, when T declares constructors.
func (r *resolver) newEdges(edges []schemas.Edge, ref *schemas.Ref, src int32) []schemas.Edge {
	e, ok := strings.CutPrefix(ref.Expr, "new ")
	name, types, isCall := callSeg(e)
	if !ok || !isCall {
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, reasonOf(ref.Expr)))
	}
	t, ext, how, why := r.resolveType(name, src, 0)
	if t == nil {
		if ext != "" {
			why = reasonExternal + ext
		}
		return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeInstantiates, why))
	}
	edges = append(edges, indexer.ResolvedEdge(ref, schemas.EdgeInstantiates, r.nodes[t.nodes[0]].ID, how))
	if tg := r.constructor(t, args{types, src}, how); tg.why != reasonImplicitCtor {
		edges = r.emit(edges, ref, schemas.EdgeCalls, tg)
	}
	return edges
}

// importEdge links a using directive to the namespace (its first
// declaration, by file and position) or type it names.
func (r *resolver) importEdge(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	e := strings.TrimPrefix(ref.Expr, "global ")
	if _, target, ok := strings.Cut(e, " = "); ok {
		e = target
	}
	e = strings.TrimPrefix(e, "static ")
	if t := r.qualified(e, 0); t != nil {
		return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[t.nodes[0]].ID, schemas.ResolvedImport))
	}
	if ns := r.nsNodes[e]; len(ns) > 0 {
		first := slices.MinFunc(ns, func(a, b int32) int {
			return cmp.Or(cmp.Compare(r.nodes[a].File, r.nodes[b].File), cmp.Compare(r.nodes[a].StartByte, r.nodes[b].StartByte))
		})
		return append(edges, indexer.ResolvedEdge(ref, schemas.EdgeImports, r.nodes[first].ID, schemas.ResolvedImport))
	}
	return append(edges, indexer.UnresolvedEdge(ref, schemas.EdgeImports, reasonExternal+e))
}
