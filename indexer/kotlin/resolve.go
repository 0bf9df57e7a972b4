package kotlin

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/schemas"
)

type fileInfo struct {
	pkg     string
	imports map[string]string // simple name or alias → qualified name
	stars   []string
}

type resolver struct {
	nodes   []schemas.Node
	index   map[uint64]int32
	byQName map[string][]int32
	kids    map[uint64][]int32
	files   map[string]*fileInfo
	pkgs    map[string]uint64
	facts   map[uint64]map[string]*schemas.Ref // src → fact kind → ref
	// extensions holds the names of the extension functions: a call of
	// one of them on a value may go to the extension when no member
	// applies.
	extensions map[string]bool
	// memberNames holds the names of the members of classes.
	memberNames map[string]bool
	supers      map[uint64][]*schemas.Ref
}

func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{nodes: nodes, index: map[uint64]int32{}, byQName: map[string][]int32{}, kids: map[uint64][]int32{},
		files: map[string]*fileInfo{}, pkgs: map[string]uint64{}, facts: map[uint64]map[string]*schemas.Ref{}, supers: map[uint64][]*schemas.Ref{},
		extensions: map[string]bool{}, memberNames: map[string]bool{}}
	for i := range nodes {
		n := &nodes[i]
		r.index[n.ID] = int32(i)
		if n.Language != Name || n.Kind == schemas.KindFile {
			continue
		}
		r.byQName[n.QualifiedName] = append(r.byQName[n.QualifiedName], int32(i))
		r.kids[n.ParentID] = append(r.kids[n.ParentID], int32(i))
	}
	for i := range refs {
		ref := &refs[i]
		fi := r.files[ref.File]
		if fi == nil {
			fi = &fileInfo{imports: map[string]string{}}
			r.files[ref.File] = fi
		}
		switch ref.Kind {
		case schemas.RefPackage:
			fi.pkg = ref.Expr
		case schemas.EdgeImports:
			q, alias, _ := strings.Cut(ref.Expr, " as ")
			q = strings.TrimSpace(q)
			switch {
			case strings.HasSuffix(q, ".*"):
				fi.stars = append(fi.stars, strings.TrimSuffix(q, ".*"))
			case alias != "":
				fi.imports[strings.TrimSpace(alias)] = q
			default:
				fi.imports[q[strings.LastIndexByte(q, '.')+1:]] = q
			}
		case schemas.RefType, schemas.RefResult, schemas.RefParams, RefReceiver:
			m := r.facts[ref.Src]
			if m == nil {
				m = map[string]*schemas.Ref{}
				r.facts[ref.Src] = m
			}
			m[ref.Kind] = ref
		case schemas.EdgeExtends, schemas.EdgeImplements:
			r.supers[ref.Src] = append(r.supers[ref.Src], ref)
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if p, ok := r.index[n.ParentID]; ok && isType(nodes[p].Kind) && !isType(n.Kind) && n.Kind != schemas.KindConstructor {
			r.memberNames[n.Name] = true
		}
	}
	for id, m := range r.facts {
		if i, ok := r.index[id]; ok && m[RefReceiver] != nil {
			r.extensions[r.nodes[i].Name] = true
		}
	}
	var out []schemas.Node
	byPkg := map[string][]string{}
	for name, fi := range r.files {
		if fi.pkg != "" {
			byPkg[fi.pkg] = append(byPkg[fi.pkg], name)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(byPkg)) {
		files := byPkg[p]
		slices.Sort(files)
		id := indexer.NodeID(Name, schemas.KindPackage, p, "", 0)
		r.pkgs[p] = id
		out = append(out, schemas.Node{ID: id, Kind: schemas.KindPackage, Name: p[strings.LastIndexByte(p, '.')+1:], QualifiedName: p,
			Language: Name, File: path.Dir(files[0]), Visibility: schemas.Public, Exported: true})
		for _, f := range files {
			if i, ok := r.index[indexer.FileID(f)]; ok {
				r.nodes[i].ParentID = id
			}
		}
	}
	var edges []schemas.Edge
	for i := range refs {
		edges = r.ref(edges, &refs[i])
	}
	return out, edges
}

func isType(k string) bool {
	return k == schemas.KindClass || k == schemas.KindInterface || k == schemas.KindEnum
}

// typeNode returns the one class-like node of qualified name q, or -1.
func (r *resolver) typeNode(q string) int32 {
	found := int32(-1)
	for _, i := range r.byQName[q] {
		if isType(r.nodes[i].Kind) || r.nodes[i].Kind == schemas.KindTypeAlias {
			if found >= 0 {
				return -2
			}
			found = i
		}
	}
	return found
}

// resolveType finds the type named name (as written) in the context of
// node ctx of file file: -1 when not in the snapshot.
func (r *resolver) resolveType(name, file string, ctx uint64) (int32, string) {
	first, rest, qualified := strings.Cut(name, ".")
	t, how := r.simpleType(first, file, ctx)
	if t < 0 {
		if qualified {
			if i := r.typeNode(name); i >= 0 {
				return i, schemas.ResolvedImport
			}
		}
		return -1, ""
	}
	for qualified && t >= 0 {
		var seg string
		seg, rest, qualified = strings.Cut(rest, ".")
		t = r.typeNode(r.nodes[t].QualifiedName + "." + seg)
	}
	if t < 0 {
		return -1, ""
	}
	return t, how
}

func (r *resolver) simpleType(name, file string, ctx uint64) (int32, string) {
	fi := r.files[file]
	if fi == nil {
		return -1, ""
	}
	for id := ctx; ; { // enclosing classes and their nested types
		i, ok := r.index[id]
		if !ok || r.nodes[i].Kind == schemas.KindFile {
			break
		}
		if isType(r.nodes[i].Kind) {
			if t := r.typeNode(r.nodes[i].QualifiedName + "." + name); t >= 0 {
				return t, schemas.ResolvedScope
			}
			if r.nodes[i].Name == name {
				return i, schemas.ResolvedScope
			}
		}
		id = r.nodes[i].ParentID
	}
	if q, ok := fi.imports[name]; ok {
		return r.typeNode(q), schemas.ResolvedImport
	}
	if t := r.typeNode(indexer.JoinName(fi.pkg, name)); t >= 0 {
		return t, schemas.ResolvedScope
	}
	found := int32(-1)
	for _, s := range fi.stars {
		if t := r.typeNode(s + "." + name); t >= 0 {
			if found >= 0 && found != t {
				return -1, ""
			}
			found = t
		}
	}
	return found, schemas.ResolvedImport
}

func (r *resolver) fileOf(ref *schemas.Ref) *fileInfo { return r.files[ref.File] }

func edge(ref *schemas.Ref, kind string, dst uint64, res, reason string) schemas.Edge {
	e := indexer.RefEdge(ref, kind, dst, res, 0, reason)
	if dst != 0 {
		e.Confidence = 1
	}
	return e
}

func (r *resolver) ref(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	switch ref.Kind {
	case schemas.EdgeImports:
		q, _, _ := strings.Cut(ref.Expr, " as ")
		q = strings.TrimSpace(q)
		if p, ok := strings.CutSuffix(q, ".*"); ok {
			if id, ok := r.pkgs[p]; ok {
				return append(edges, edge(ref, ref.Kind, id, schemas.ResolvedImport, ""))
			}
			if t := r.typeNode(p); t >= 0 {
				return append(edges, edge(ref, ref.Kind, r.nodes[t].ID, schemas.ResolvedImport, ""))
			}
			return append(edges, edge(ref, ref.Kind, 0, schemas.Unresolved, "external"))
		}
		ids := r.byQName[q]
		switch {
		case len(ids) == 0:
			return append(edges, edge(ref, ref.Kind, 0, schemas.Unresolved, "external"))
		case len(ids) > 1 && r.typeNode(q) < 0:
			return append(edges, edge(ref, ref.Kind, 0, schemas.Ambiguous, "overloads"))
		}
		t := ids[0]
		if len(ids) > 1 {
			t = r.typeNode(q)
		}
		return append(edges, edge(ref, ref.Kind, r.nodes[t].ID, schemas.ResolvedImport, ""))
	case schemas.EdgeExtends, schemas.EdgeImplements:
		name := strings.Trim(ref.Expr, "{}")
		t, how := r.resolveType(name, ref.File, ref.Src)
		if t < 0 {
			return append(edges, edge(ref, ref.Kind, 0, schemas.Unresolved, "external"))
		}
		kind := schemas.EdgeExtends
		if src, ok := r.index[ref.Src]; ok && r.nodes[t].Kind == schemas.KindInterface && r.nodes[src].Kind != schemas.KindInterface {
			kind = schemas.EdgeImplements
		}
		_ = how
		return append(edges, edge(ref, kind, r.nodes[t].ID, schemas.ResolvedStructural, ""))
	case schemas.EdgeCalls:
		return r.call(edges, ref)
	case schemas.EdgeReferences:
		return r.typeUse(edges, ref)
	}
	return edges
}

// typeUse resolves a use of a type: an edge to the type it names, none
// for a builtin type, unresolved (external) for any other. An annotation
// (@T) is an edge only to a type of the snapshot.
func (r *resolver) typeUse(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	name, annotation := strings.CutPrefix(ref.Expr, "@")
	t, how := r.resolveType(name, ref.File, ref.Src)
	switch {
	case t >= 0:
		return append(edges, edge(ref, schemas.EdgeReferences, r.nodes[t].ID, how, ""))
	case annotation || builtinTypes[strings.TrimPrefix(name, "kotlin.")]:
		return edges
	}
	return append(edges, edge(ref, schemas.EdgeReferences, 0, schemas.Unresolved, "external"))
}

// builtinTypes are the types of package kotlin a use of which makes no
// edge: the primitives, their arrays, and the roots of the type system.
var builtinTypes = map[string]bool{
	"Any": true, "Unit": true, "Nothing": true, "Boolean": true, "Char": true, "Byte": true, "Short": true,
	"Int": true, "Long": true, "Float": true, "Double": true, "UByte": true, "UShort": true, "UInt": true,
	"ULong": true, "String": true, "CharSequence": true, "Number": true, "Array": true, "BooleanArray": true,
	"CharArray": true, "ByteArray": true, "ShortArray": true, "IntArray": true, "LongArray": true,
	"FloatArray": true, "DoubleArray": true, "UByteArray": true, "UShortArray": true, "UIntArray": true,
	"ULongArray": true,
}

// value is what an expression evaluates to: an instance of a class, the
// class itself used as a qualifier (its companion or the object), or
// nothing known.
type value struct {
	t      int32 // the class-like node
	static bool
	null   overload.Answer // whether it may be null: Yes for a value of nullable type
	how    string
	why    string // when t < 0: the reason
}

func fail(why string) value { return value{t: -1, why: why} }

// enclosing returns the class-like node around node id, or -1.
func (r *resolver) enclosing(id uint64) int32 {
	for {
		i, ok := r.index[id]
		if !ok || r.nodes[i].Kind == schemas.KindFile || r.nodes[i].Kind == schemas.KindPackage {
			return -1
		}
		if isType(r.nodes[i].Kind) {
			return i
		}
		id = r.nodes[i].ParentID
	}
}

// supertypes returns the resolved supertypes of class t and whether some
// could not be resolved.
func (r *resolver) supertypes(t int32) ([]int32, bool) {
	var out []int32
	ext := false
	for _, s := range r.supers[r.nodes[t].ID] {
		if u, _ := r.resolveType(strings.Trim(s.Expr, "{}"), s.File, s.Src); u >= 0 && r.nodes[u].Kind != schemas.KindTypeAlias {
			out = append(out, u)
		} else {
			ext = true
		}
	}
	return out, ext
}

// members returns the members of t named name, the nearest declaring class
// first, and whether an unknown supertype could declare more.
func (r *resolver) members(t int32, name string, depth int) ([]int32, bool) {
	if depth > 16 {
		return nil, true
	}
	var out []int32
	for _, k := range r.kids[r.nodes[t].ID] {
		if r.nodes[k].Name == name && !isType(r.nodes[k].Kind) && r.facts[r.nodes[k].ID][RefReceiver] == nil {
			out = append(out, k)
		}
	}
	if len(out) > 0 {
		return out, false
	}
	sups, ext := r.supertypes(t)
	for _, s := range sups {
		m, e := r.members(s, name, depth+1)
		ext = ext || e
		for _, k := range m {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out, ext
}

// companion returns the companion object of class t, or -1.
func (r *resolver) companion(t int32) int32 {
	for _, k := range r.kids[r.nodes[t].ID] {
		if r.nodes[k].Kind == schemas.KindClass && strings.HasPrefix(r.nodes[k].Signature, "companion object") {
			return k
		}
	}
	return -1
}

func (r *resolver) isObject(t int32) bool {
	s := r.nodes[t].Signature
	return strings.HasPrefix(s, "object ") || strings.HasPrefix(s, "companion object")
}

type step struct {
	name string
	call bool
	args []string // a call's arguments
}

// parse splits an Expr into its head and steps.
func parse(e string) (string, []step, bool) {
	head, ok := indexer.ExprHead(e)
	if !ok {
		return "", nil, false
	}
	p := len(head)
	var steps []step
	for p < len(e) {
		switch e[p] {
		case '.':
			q := indexer.NameEnd(e, p+1)
			steps = append(steps, step{name: e[p+1 : q]})
			p = q
		case '(':
			q := closing(e, p)
			if q < 0 {
				return "", nil, false
			}
			var args []string
			if q > p+1 {
				args = splitTop(e[p+1 : q])
			}
			steps = append(steps, step{call: true, args: args})
			p = q + 1
		default:
			return "", nil, false
		}
	}
	return head, steps, true
}

// implicit reads a name head: ~name is one in a lambda that may have a
// receiver, which is what the name stands for if the receiver has a
// member or an extension of that name. It returns the name, and false
// when some class or extension of the snapshot has one: the receiver
// may be of that class.
func (r *resolver) implicit(head string) (string, bool) {
	name, ok := strings.CutPrefix(head, "~")
	return name, !ok || !r.memberNames[name] && !r.extensions[name]
}

// closing returns the index of the parenthesis that closes the one at
// e[p], or -1.
func closing(e string, p int) int {
	depth := 0
	for i := p; i < len(e); i++ {
		switch e[i] {
		case '(', '{':
			depth++
		case ')', '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

func (r *resolver) call(edges []schemas.Edge, ref *schemas.Ref) []schemas.Edge {
	if strings.HasPrefix(ref.Expr, "?") {
		return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, ref.Expr[1:]))
	}
	head, steps, ok := parse(ref.Expr)
	if !ok || len(steps) == 0 || !steps[len(steps)-1].call {
		return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "expr"))
	}
	last := steps[len(steps)-1]
	steps = steps[:len(steps)-1]
	receiver := strings.HasPrefix(head, "~") // an implicit receiver the code does not tell
	if head, ok = r.implicit(head); !ok {
		return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "receiver"))
	}
	// The callee: a name applied to arguments, after the receiver.
	var recv value
	var name string
	switch {
	case len(steps) == 0 && (head == "this" || head == "super"):
		t := r.enclosing(ref.Src)
		if t < 0 {
			return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "not found"))
		}
		if head == "super" {
			sups, _ := r.supertypes(t)
			t = -1
			for _, s := range sups {
				if r.nodes[s].Kind != schemas.KindInterface {
					t = s
				}
			}
			if t < 0 {
				return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "external"))
			}
		}
		c, _, why := r.choose(ref, r.ctors(t), last.args, 0)
		if c < 0 {
			return append(edges, failEdge(ref, why))
		}
		return append(edges, edge(ref, schemas.EdgeCalls, r.nodes[c].ID, schemas.ResolvedScope, ""))
	case len(steps) == 0:
		return r.bareCall(edges, ref, head, last.args, receiver)
	default:
		recv = r.eval(ref, head, steps[:len(steps)-1], 0)
		name = steps[len(steps)-1].name
		if name == "" {
			return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "expr"))
		}
	}
	if recv.t < 0 {
		return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, recv.why))
	}
	owner := recv.t
	if recv.static && !r.isObject(owner) {
		if c := r.companion(owner); c >= 0 {
			owner = c
		} else {
			// a nested class constructed through its outer class
			if t := r.typeNode(r.nodes[owner].QualifiedName + "." + name); t >= 0 && r.nodes[t].Kind != schemas.KindTypeAlias {
				return r.construct(edges, ref, t, schemas.ResolvedScope, last.args)
			}
			return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "not found"))
		}
	}
	cands, ext := r.overloads(owner, name)
	c, sure, why := r.choose(ref, cands, last.args, 0)
	switch {
	case c < 0 && ext && len(cands) == 0:
		why = "external supertype"
	case c < 0 && (len(cands) == 0 || why == "no overload takes these arguments"):
		why = "not a member (extension or external)"
	case c >= 0 && sure != overload.Yes && ext:
		c, why = -1, "external supertype" // which may declare one that applies
	case c >= 0 && sure != overload.Yes && r.extensions[name]:
		c, why = -1, "member or extension" // an extension if the member does not apply
	}
	if c < 0 {
		return append(edges, failEdge(ref, why))
	}
	how := schemas.ResolvedReceiver
	if head == "this" && len(steps) == 1 {
		how = schemas.ResolvedScope
	}
	return append(edges, edge(ref, schemas.EdgeCalls, r.nodes[c].ID, how, ""))
}

func (r *resolver) ctors(t int32) []int32 {
	var out []int32
	for _, k := range r.kids[r.nodes[t].ID] {
		if r.nodes[k].Kind == schemas.KindConstructor {
			out = append(out, k)
		}
	}
	return out
}

// bareCall resolves name(args): a member of an enclosing class, a
// top-level function of the package or an import, or a constructor.
// Scopes are tried innermost first; one whose functions cannot take the
// arguments gives way to the next, and one whose function only may take
// them decides only when no later scope has a function of that name.
func (r *resolver) bareCall(edges []schemas.Edge, ref *schemas.Ref, name string, args []string, receiver bool) []schemas.Edge {
	fi := r.fileOf(ref)
	var scopes [][]int32 // the functions of each scope
	unknown := ""        // why a later scope may have more
	seen := map[int32]bool{}
	for id := ref.Src; ; {
		t := r.enclosing(id)
		if t < 0 {
			break
		}
		// The class, then its companion object: implicit receivers.
		for _, c := range []int32{t, r.companion(t)} {
			if c < 0 || seen[c] {
				continue
			}
			seen[c] = true
			cands, ext := r.overloads(c, name)
			if len(cands) > 0 {
				scopes = append(scopes, cands)
			} else if m, _ := r.members(c, name, 0); len(m) > 0 {
				unknown = "not a function" // a property, which an invoke operator may call
				break
			}
			if ext {
				unknown = "external supertype"
				break
			}
		}
		if unknown != "" {
			break
		}
		id = r.nodes[t].ParentID
	}
	if len(scopes) == 0 && unknown == "" {
		if t, how := r.simpleType(name, ref.File, ref.Src); t >= 0 {
			if r.nodes[t].Kind == schemas.KindClass || r.nodes[t].Kind == schemas.KindEnum {
				return r.construct(edges, ref, t, how, args)
			}
			return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "not a class"))
		}
	}
	if fi == nil {
		return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "not found"))
	}
	members := len(scopes)
	how := schemas.ResolvedScope
	if unknown == "" {
		var cands []int32
		if q, ok := fi.imports[name]; ok {
			cands, how = r.topLevel(q), schemas.ResolvedImport
		} else {
			cands = r.topLevel(indexer.JoinName(fi.pkg, name))
			if len(cands) == 0 {
				for _, s := range fi.stars {
					cands = append(cands, r.topLevel(s+"."+name)...)
				}
				how = schemas.ResolvedImport
			}
		}
		// An extension taking an implicit receiver comes before them: one
		// of the snapshot's, or of the standard library's for any value;
		// then they are not known to be the ones.
		implicit := receiver || r.enclosing(ref.Src) >= 0
		switch {
		case implicit && anyExtensions[name]:
			unknown, cands = "receiver", nil
		case implicit && r.extensions[name]:
			unknown, cands = "member or extension", nil
		}
		if len(cands) > 0 {
			scopes = append(scopes, cands)
		}
	}
	for i, sc := range scopes {
		c, sure, why := r.choose(ref, sc, args, 0)
		last := i == len(scopes)-1 && unknown == ""
		switch {
		case c >= 0 && (sure == overload.Yes || last):
			if i < members {
				how = schemas.ResolvedScope
			}
			return append(edges, edge(ref, schemas.EdgeCalls, r.nodes[c].ID, how, ""))
		case c >= 0 && unknown != "" && i == len(scopes)-1:
			return append(edges, failEdge(ref, unknown))
		case c >= 0:
			return append(edges, failEdge(ref, "ambiguous overload"))
		case why != "no overload takes these arguments":
			return append(edges, failEdge(ref, why))
		}
	}
	switch {
	case unknown != "":
		return append(edges, failEdge(ref, unknown))
	case len(scopes) > 0:
		return append(edges, failEdge(ref, "no overload takes these arguments"))
	}
	return append(edges, edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, "external"))
}

// anyExtensions are the extension functions of the standard library
// that take any value, an enum's too: inside a class, an unqualified call
// of one of them calls it on this rather than a top-level function of
// the name.
var anyExtensions = map[string]bool{
	"let": true, "run": true, "apply": true, "also": true, "takeIf": true, "takeUnless": true, "to": true,
	"toString": true, "hashCode": true, "runCatching": true, "coerceAtLeast": true, "coerceAtMost": true,
	"coerceIn": true, "rangeTo": true, "rangeUntil": true,
}

// failEdge is the unresolved calls edge of ref, ambiguous for an
// ambiguous overload.
func failEdge(ref *schemas.Ref, why string) schemas.Edge {
	if why == "ambiguous overload" {
		return edge(ref, schemas.EdgeCalls, 0, schemas.Ambiguous, why)
	}
	return edge(ref, schemas.EdgeCalls, 0, schemas.Unresolved, why)
}

// construct resolves a constructor call of class t: an instantiates edge
// to t and, when t declares constructors, a calls edge to the one the
// arguments choose. When none can take them, T(...) calls something
// else (an invoke operator of the companion): no instantiates edge.
func (r *resolver) construct(edges []schemas.Edge, ref *schemas.Ref, t int32, how string, args []string) []schemas.Edge {
	ctors := r.ctors(t)
	if len(ctors) == 0 {
		return append(edges, edge(ref, schemas.EdgeInstantiates, r.nodes[t].ID, how, ""))
	}
	c, _, why := r.choose(ref, ctors, args, 0)
	if c < 0 && why == "no overload takes these arguments" {
		return append(edges, failEdge(ref, "no constructor takes these arguments"))
	}
	edges = append(edges, edge(ref, schemas.EdgeInstantiates, r.nodes[t].ID, how, ""))
	if c < 0 {
		return append(edges, failEdge(ref, why))
	}
	return append(edges, edge(ref, schemas.EdgeCalls, r.nodes[c].ID, how, ""))
}

// overloads returns the functions named name that a value of class t
// has: its own, and those it inherits and does not override, nearest
// first; and whether an unknown supertype could declare more.
func (r *resolver) overloads(t int32, name string) ([]int32, bool) {
	var out []int32
	overridden := map[string]bool{}
	seen := map[int32]bool{}
	ext := false
	for queue := []int32{t}; len(queue) > 0 && len(seen) < 64; queue = queue[1:] {
		c := queue[0]
		if seen[c] {
			continue
		}
		seen[c] = true
		for _, k := range r.kids[r.nodes[c].ID] {
			n := &r.nodes[k]
			if n.Name != name || !indexer.IsFunc(n.Kind) || n.Kind == schemas.KindConstructor || r.facts[n.ID][RefReceiver] != nil {
				continue
			}
			if key := r.paramKey(k); !overridden[key] {
				overridden[key] = true
				out = append(out, k)
			}
		}
		sups, e := r.supertypes(c)
		ext = ext || e
		queue = append(queue, sups...)
	}
	return out, ext
}

// topLevel returns the top-level functions of qualified name q (not
// extensions).
func (r *resolver) topLevel(q string) []int32 {
	var out []int32
	for _, i := range r.byQName[q] {
		if r.nodes[i].Kind == schemas.KindFunction && r.facts[r.nodes[i].ID][RefReceiver] == nil {
			out = append(out, i)
		}
	}
	return out
}

// eval evaluates head and steps (the receiver of a call) from the code of
// ref.Src.
func (r *resolver) eval(ref *schemas.Ref, head string, steps []step, depth int) value {
	if depth > 8 {
		return fail("expr")
	}
	var v value
	switch {
	case strings.HasPrefix(head, "{"):
		name, nullable := strings.CutSuffix(head[1:len(head)-1], "?")
		t, how := r.resolveType(name, ref.File, ref.Src)
		if t < 0 || r.nodes[t].Kind == schemas.KindTypeAlias {
			return fail("external " + name)
		}
		v = value{t: t, how: how}
		if nullable {
			v.null = overload.Yes
		}
	case head == "this":
		v = value{t: r.enclosing(ref.Src), how: schemas.ResolvedScope}
		if v.t < 0 {
			return fail("not found")
		}
	case head == "super":
		return fail("super")
	default:
		var ok bool
		if head, ok = r.implicit(head); !ok {
			return fail("receiver")
		}
		v = r.name(ref, head, len(steps) > 0 && steps[0].call, depth)
		if v.t < 0 {
			return v
		}
		if len(steps) > 0 && steps[0].call { // head(...)
			steps = steps[1:]
		}
	}
	for i := 0; i < len(steps); i++ {
		s := steps[i]
		if s.call || v.t < 0 {
			return fail("expr")
		}
		call := i+1 < len(steps) && steps[i+1].call
		v = r.member(ref, v, s.name, call, steps, i, depth)
		if call {
			i++
		}
	}
	return v
}

// member evaluates v.name (v.name(...) when call).
func (r *resolver) member(ref *schemas.Ref, v value, name string, call bool, steps []step, i, depth int) value {
	owner := v.t
	if v.static {
		if t := r.typeNode(r.nodes[owner].QualifiedName + "." + name); t >= 0 && r.nodes[t].Kind != schemas.KindTypeAlias && !call {
			return value{t: t, static: true, how: v.how}
		}
		if !r.isObject(owner) {
			if c := r.companion(owner); c >= 0 {
				owner = c
			} else if !call {
				// an enum entry
			}
		}
	}
	cands, ext := r.members(owner, name, 0)
	var m int32 = -1
	if call {
		var sure overload.Answer
		cands, ext = r.overloads(owner, name)
		m, sure, _ = r.choose(ref, cands, steps[i+1].args, depth+1)
		if m >= 0 && sure != overload.Yes && (ext || r.extensions[name]) {
			m = -1
		}
	} else {
		for _, c := range cands {
			if k := r.nodes[c].Kind; k == schemas.KindField || k == schemas.KindConstant {
				m = c
				break
			}
		}
	}
	if m < 0 {
		if ext {
			return fail("external supertype")
		}
		return fail("unknown member " + name)
	}
	return r.typeOf(m, call, depth)
}

// typeOf returns the value of a property (its type) or of a call of a
// function (its result).
func (r *resolver) typeOf(m int32, call bool, depth int) value {
	kind := schemas.RefType
	if call {
		kind = schemas.RefResult
	}
	f := r.facts[r.nodes[m].ID][kind]
	if f == nil {
		return fail("unknown type")
	}
	head, steps, ok := parse(f.Expr)
	if !ok || strings.HasPrefix(f.Expr, "?") {
		return fail("unknown type")
	}
	fake := *f
	return r.eval(&fake, head, steps, depth+1)
}

// name evaluates a bare name: an enclosing class's property, a type, or a
// call of a function (call).
func (r *resolver) name(ref *schemas.Ref, name string, call bool, depth int) value {
	for id := ref.Src; ; {
		t := r.enclosing(id)
		if t < 0 {
			break
		}
		cands, ext := r.members(t, name, 0)
		if len(cands) > 0 {
			if call {
				return fail("expr")
			}
			for _, c := range cands {
				if k := r.nodes[c].Kind; k == schemas.KindField || k == schemas.KindConstant {
					return r.typeOf(c, false, depth)
				}
			}
			return fail("expr")
		}
		if ext {
			return fail("external supertype")
		}
		id = r.nodes[t].ParentID
	}
	if t, how := r.simpleType(name, ref.File, ref.Src); t >= 0 && r.nodes[t].Kind != schemas.KindTypeAlias {
		if call {
			return value{t: t, how: how}
		}
		return value{t: t, static: true, how: how}
	}
	if call {
		if fi := r.fileOf(ref); fi != nil {
			cands := r.topLevel(indexer.JoinName(fi.pkg, name))
			if q, ok := fi.imports[name]; ok {
				cands = r.topLevel(q)
			}
			if len(cands) == 1 {
				return r.typeOf(cands[0], true, depth)
			}
		}
	}
	return fail("external " + name)
}
