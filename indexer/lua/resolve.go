package lua

import (
	"path"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// The resolver works on rows alone: the nodes of every Lua file and the
// refs extraction recorded (requires, returned tables, results, bases and
// calls). Members of a table are its child nodes, by qualified name; a
// class's methods are looked up along its __index bases.
//
// Approximations, all on the side of leaving an edge out: package.path is
// not read (modules are looked for at the top of the tree and under lua/,
// src/ and lib/ folders, and in versioned share/lua/5.x folders); a global
// is followed only to the file itself or a file it requires; tables
// built by a function (class libraries such as middleclass) are not
// classes.

// Reasons of unresolved edges.
const (
	reasonExternal    = "external "
	reasonBuiltin     = "builtin "
	reasonGlobal      = "unknown global "
	reasonMember      = "unknown member "
	reasonNoExport    = "module returns no table "
	reasonResult      = "result of a call"
	reasonNotFunction = "not a function"
	reasonLocal       = "local of unknown value"
	reasonSelf        = "self of unknown table"
	reasonAmbiguous   = "defined in several required files"
	reasonAmbiguousM  = "several files provide module"
	reasonNotClass    = "not a class "
)

const maxDepth = 16

// builtins are Lua's standard globals.
var builtins = map[string]bool{}

func init() {
	for _, b := range strings.Fields(`assert collectgarbage dofile error getmetatable ipairs load loadfile loadstring
		next pairs pcall print rawequal rawget rawlen rawset require select setmetatable tonumber tostring type
		unpack xpcall module setfenv getfenv string table math io os coroutine debug utf8 package bit32 bit jit
		_G _VERSION _ENV arg`) {
		builtins[b] = true
	}
}

type resolver struct {
	nodes    []schemas.Node
	index    map[uint64]int32
	byName   map[string]int32            // file + NUL + qualified name → first node
	files    map[string]bool             // Lua files
	exports  map[string]int32            // file → the node its chunk returns
	results  map[int32]int32             // function → the table its result is an instance of
	bases    map[int32][]int32           // class → its bases
	globals  map[string]map[string]int32 // file → global functions and tables by name
	requires map[string][]string         // file → files it requires
}

// resolve turns the refs of every Lua file into edges.
func resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	r := &resolver{
		nodes: nodes, index: map[uint64]int32{}, byName: map[string]int32{}, files: map[string]bool{},
		exports: map[string]int32{}, results: map[int32]int32{}, bases: map[int32][]int32{},
		globals: map[string]map[string]int32{}, requires: map[string][]string{},
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Language != Name {
			continue
		}
		r.index[n.ID] = int32(i)
		if n.Kind == schemas.KindFile {
			r.files[n.File] = true
			continue
		}
		k := n.File + "\x00" + n.QualifiedName
		if _, ok := r.byName[k]; !ok {
			r.byName[k] = int32(i)
		}
		if n.Visibility == schemas.Public && n.QualifiedName == n.Name && n.ParentID == indexer.FileID(n.File) {
			g := r.globals[n.File]
			if g == nil {
				g = map[string]int32{}
				r.globals[n.File] = g
			}
			if _, ok := g[n.Name]; !ok {
				g[n.Name] = int32(i)
			}
		}
	}
	for rf, src := range indexer.RefsFrom(refs, r.index) {
		switch rf.Kind {
		case schemas.RefExport:
			if n := r.node(rf.Expr); n >= 0 {
				r.exports[rf.File] = n
			}
		case schemas.RefResult:
			if n := r.node(rf.Expr); n >= 0 {
				r.results[src] = n
			}
		case schemas.EdgeImports:
			if p, _ := r.module(rf.Expr, rf.File); p != "" {
				r.requires[rf.File] = append(r.requires[rf.File], p)
			}
		}
	}
	for k := range refs {
		rf := &refs[k]
		if rf.Kind != schemas.EdgeExtends {
			continue
		}
		src := r.index[rf.Src]
		if b, _, _ := r.eval(rf.Expr, src); b >= 0 && r.nodes[b].Kind == schemas.KindClass && b != src {
			r.bases[src] = append(r.bases[src], b)
		}
	}
	var edges []schemas.Edge
	for rf, src := range indexer.RefsFrom(refs, r.index) {
		edges = r.ref(edges, rf, src)
	}
	return nil, edges
}

// node returns the node of an Expr head "#id", or -1.
func (r *resolver) node(e string) int32 {
	if !strings.HasPrefix(e, "#") {
		return -1
	}
	id, err := strconv.ParseUint(e[1:], 16, 64)
	if err != nil {
		return -1
	}
	if i, ok := r.index[id]; ok {
		return i
	}
	return -1
}

// module finds the file of module m required from file from.
func (r *resolver) module(m, from string) (string, string) {
	rel := strings.ReplaceAll(m, ".", "/")
	var found []string
	for p := range r.files {
		for _, suffix := range [...]string{rel + ".lua", rel + "/init.lua"} {
			if p != suffix && !strings.HasSuffix(p, "/"+suffix) {
				continue
			}
			dir := strings.TrimSuffix(strings.TrimSuffix(p, suffix), "/")
			switch base := path.Base(dir); {
			case dir == "", base == "lua", base == "src", base == "lib", strings.HasPrefix(base, "5.") && path.Base(path.Dir(dir)) == "lua":
				found = append(found, p)
			}
		}
	}
	if len(found) == 0 {
		return "", reasonExternal + m
	}
	best, tie := indexer.Nearest(found, from)
	if tie {
		return "", reasonAmbiguousM
	}
	return best, ""
}

// member finds name in table t or along its bases.
func (r *resolver) member(t int32, name string, depth int) int32 {
	if depth > maxDepth {
		return -1
	}
	n := &r.nodes[t]
	for _, sep := range [...]string{".", ":"} {
		if m, ok := r.byName[n.File+"\x00"+n.QualifiedName+sep+name]; ok {
			return m
		}
	}
	for _, b := range r.bases[t] {
		if m := r.member(b, name, depth+1); m >= 0 {
			return m
		}
	}
	return -1
}

// eval evaluates an Expr seen from node src: a node, how it was found, or
// why there is none.
func (r *resolver) eval(e string, src int32) (int32, string, string) {
	if strings.HasPrefix(e, "?") {
		switch e {
		case indexer.ExprLocal:
			return -1, "", reasonLocal
		case exprSelf:
			return -1, "", reasonSelf
		}
		return -1, "", indexer.ReasonExpr
	}
	// The head.
	var cur int32 = -1
	how := schemas.ResolvedLocal
	rest := ""
	switch {
	case strings.HasPrefix(e, "#"):
		i := 1
		for i < len(e) && e[i] != '.' && e[i] != ':' && e[i] != '(' {
			i++
		}
		cur, rest = r.node(e[:i]), e[i:]
		if cur < 0 {
			return -1, "", indexer.ReasonExpr
		}
		if self := r.nodes[cur].File == r.nodes[src].File; !self {
			how = schemas.ResolvedImport
		}
	case strings.HasPrefix(e, "require("):
		i := strings.IndexByte(e, ')')
		if i < 0 {
			return -1, "", indexer.ReasonExpr
		}
		m := e[len("require("):i]
		rest = e[i+1:]
		file := r.nodes[src].File
		p, why := r.module(m, file)
		if p == "" {
			return -1, "", why
		}
		x, ok := r.exports[p]
		if !ok {
			return -1, "", reasonNoExport + m
		}
		cur, how = x, schemas.ResolvedImport
	default:
		i := 0
		for i < len(e) && e[i] != '.' && e[i] != ':' && e[i] != '(' {
			i++
		}
		name := e[:i]
		rest = e[i:]
		file := r.nodes[src].File
		if g, ok := r.globals[file][name]; ok {
			cur, how = g, schemas.ResolvedScope
			break
		}
		var found []int32
		for _, p := range r.requires[file] {
			if g, ok := r.globals[p][name]; ok {
				found = append(found, g)
			}
		}
		switch {
		case len(found) == 1:
			cur, how = found[0], schemas.ResolvedImport
		case len(found) > 1:
			return -1, "", reasonAmbiguous
		case builtins[name]:
			return -1, "", reasonBuiltin + name
		default:
			return -1, "", reasonGlobal + name
		}
	}
	// The steps.
	for d := 0; rest != "" && d < 64; d++ {
		if strings.HasPrefix(rest, "()") {
			t, ok := r.results[cur]
			if !ok {
				return -1, "", reasonResult
			}
			cur, rest, how = t, rest[2:], schemas.ResolvedReceiver
			continue
		}
		i := 1
		for i < len(rest) && rest[i] != '.' && rest[i] != ':' && rest[i] != '(' {
			i++
		}
		name := rest[1:i]
		rest = rest[i:]
		if !isTable(&r.nodes[cur]) {
			return -1, "", reasonMember + name
		}
		m := r.member(cur, name, 0)
		if m < 0 {
			return -1, "", reasonMember + name
		}
		if how == schemas.ResolvedLocal && m >= 0 && r.nodes[m].ParentID != r.nodes[cur].ID {
			how = schemas.ResolvedReceiver // found along the bases
		}
		cur = m
	}
	return cur, how, ""
}

// ref appends the edges of one ref, made by node src.
func (r *resolver) ref(edges []schemas.Edge, rf *schemas.Ref, src int32) []schemas.Edge {
	switch rf.Kind {
	case schemas.EdgeImports:
		p, why := r.module(rf.Expr, rf.File)
		if p == "" {
			e := indexer.UnresolvedEdge(rf, schemas.EdgeImports, why)
			if why == reasonAmbiguousM {
				e.Resolution = schemas.Ambiguous
			}
			return append(edges, e)
		}
		f := r.index[indexer.FileID(p)]
		return append(edges, indexer.ResolvedEdge(rf, schemas.EdgeImports, r.nodes[f].ID, schemas.ResolvedImport))
	case schemas.EdgeExtends:
		b, how, why := r.eval(rf.Expr, src)
		switch {
		case b >= 0 && r.nodes[b].Kind == schemas.KindClass && b != src:
			return append(edges, indexer.ResolvedEdge(rf, schemas.EdgeExtends, r.nodes[b].ID, how))
		case b >= 0:
			why = reasonNotClass + r.nodes[b].QualifiedName
		}
		return append(edges, indexer.UnresolvedEdge(rf, schemas.EdgeExtends, why))
	case schemas.EdgeCalls:
		n, how, why := r.eval(rf.Expr, src)
		if n >= 0 {
			switch r.nodes[n].Kind {
			case schemas.KindFunction, schemas.KindMethod:
				return append(edges, indexer.ResolvedEdge(rf, schemas.EdgeCalls, r.nodes[n].ID, how))
			}
			why = reasonNotFunction
		}
		e := indexer.UnresolvedEdge(rf, schemas.EdgeCalls, why)
		if why == reasonAmbiguous || why == reasonAmbiguousM {
			e.Resolution = schemas.Ambiguous
		}
		return append(edges, e)
	}
	return edges
}
