package cfamily

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Reasons a call or a type stays unresolved.
const (
	reasonUndeclared = "not declared in view (a system header, an unindexed header, or implicit)"
	reasonExternal   = "external (std)"
	reasonNoDef      = "declared, not defined in the snapshot"
	reasonOverloads  = "ambiguous overload"
	reasonSeveral    = "several definitions"
	reasonFieldCall  = "call through a field (function pointer or functor)"
	reasonLocalCall  = "call through a local or parameter (function pointer or functor)"
	reasonExpr       = "receiver is an expression of unknown type"
	reasonNoMember   = "no such member"
	reasonTypeNotSee = "type not declared in view"
	reasonSysHeader  = "system header"
	reasonNoHeader   = "header not in the snapshot"
	reasonVarCall    = "call through a variable (function pointer)"
)

const maxDepth = 8

type arity struct{ min, max int } // max -1: variadic

func (a arity) fits(n int) bool { return n >= a.min && (a.max < 0 || n <= a.max) }

// parseArity reads the params Expr: parameters comma-separated, "=" after
// one with a default, "..." for a variadic tail.
func parseArity(p string) arity {
	if p == "" {
		return arity{}
	}
	var a arity
	for _, s := range splitTop(p) {
		switch {
		case strings.HasSuffix(s, "..."):
			a.max = -1
			return a
		case strings.HasSuffix(s, "="):
			a.max++
		default:
			a.min++
			a.max++
		}
	}
	return a
}

type decl struct {
	file  string
	arity arity
}

type resolver struct {
	nodes     []schemas.Node
	byID      map[uint64]int32
	byQName   map[string][]int32
	paths     map[string]bool
	byBase    map[string][]string
	includes  map[string][]string
	reach     map[string]map[string]bool
	declares  map[string][]decl
	declOnly  map[uint64]bool
	params    map[uint64]arity
	sigs      map[uint64]string // the params facts
	templates map[uint64]bool   // function templates
	types     map[uint64]string
	bases     map[uint64][]string
	usings    map[uint64][]string
}

func resolve(nodes []schemas.Node, refs []schemas.Ref) []schemas.Edge {
	r := &resolver{
		nodes: nodes, byID: make(map[uint64]int32), byQName: make(map[string][]int32),
		paths: make(map[string]bool), byBase: make(map[string][]string), includes: make(map[string][]string),
		reach: make(map[string]map[string]bool), declares: make(map[string][]decl), declOnly: make(map[uint64]bool),
		params: make(map[uint64]arity), sigs: make(map[uint64]string), templates: make(map[uint64]bool), types: make(map[uint64]string), bases: make(map[uint64][]string),
		usings: make(map[uint64][]string),
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Kind == schemas.KindFile {
			r.paths[n.File] = true
			r.byBase[path.Base(n.File)] = append(r.byBase[path.Base(n.File)], n.File)
			continue
		}
		if n.Language != "c" && n.Language != "cpp" {
			continue
		}
		r.byID[n.ID] = int32(i)
		r.byQName[n.QualifiedName] = append(r.byQName[n.QualifiedName], int32(i))
	}
	var edges []schemas.Edge
	// Facts and includes first.
	for i := range refs {
		ref := &refs[i]
		switch ref.Kind {
		case schemas.EdgeImports:
			e, hit := r.include(ref)
			if hit != "" {
				r.includes[ref.File] = append(r.includes[ref.File], hit)
			}
			edges = append(edges, e)
		case schemas.RefDeclares:
			q, p, isFn := strings.Cut(ref.Expr, "(")
			d := decl{file: ref.File, arity: arity{-1, -1}}
			if isFn {
				d.arity = parseArity(strings.TrimSuffix(p, ")"))
			}
			r.declares[q] = append(r.declares[q], d)
			if ref.Src != indexer.FileID(ref.File) {
				r.declOnly[ref.Src] = true
			}
		case schemas.RefParams:
			sig, tmpl := strings.CutPrefix(ref.Expr, templateMark)
			r.params[ref.Src] = parseArity(sig)
			r.sigs[ref.Src] = sig
			if tmpl {
				r.templates[ref.Src] = true
			}
		case schemas.RefType, schemas.RefResult:
			r.types[ref.Src] = strings.Trim(ref.Expr, "{}")
		case schemas.EdgeExtends:
			r.bases[ref.Src] = append(r.bases[ref.Src], ref.Expr)
		case schemas.RefUsing:
			r.usings[ref.Src] = append(r.usings[ref.Src], ref.Expr)
		}
	}
	for i := range refs {
		ref := &refs[i]
		switch ref.Kind {
		case schemas.EdgeCalls, schemas.EdgeInstantiates, schemas.EdgeExtends, schemas.EdgeReferences:
			e := indexer.RefEdge(ref, ref.Kind, 0, "", 0, "")
			var t found
			switch ref.Kind {
			case schemas.EdgeCalls:
				t = r.call(ref)
			case schemas.EdgeInstantiates:
				name, _, _ := strings.Cut(strings.TrimPrefix(ref.Expr, "new "), "(")
				t = r.typeOf(name, ref.File, ref.Src, 0)
			case schemas.EdgeExtends, schemas.EdgeReferences:
				t = r.typeOf(ref.Expr, ref.File, ref.Src, 0)
			}
			if t.node >= 0 {
				e.Dst = r.nodes[t.node].ID
				e.Resolution, e.Confidence = t.how, confidence(t.how)
				switch k := r.nodes[t.node].Kind; {
				case ref.Kind == schemas.EdgeInstantiates && !isClassKind(k):
					e.Kind = schemas.EdgeReferences // T x(1) of a T that is no class constructs nothing
				case ref.Kind == schemas.EdgeCalls && isClassKind(k):
					e.Kind = schemas.EdgeInstantiates // T(1)
				case ref.Kind == schemas.EdgeCalls && k == schemas.KindConstructor:
					if c := r.classOf(t.node); c >= 0 {
						ce := e
						ce.Kind, ce.Dst = schemas.EdgeInstantiates, r.nodes[c].ID
						edges = append(edges, ce)
					}
				}
			} else {
				if ref.Kind == schemas.EdgeReferences && r.isMacro(ref.Expr) {
					continue // a macro a parse took for a type
				}
				e.Resolution, e.Reason = t.how, t.reason
				if e.Resolution == "" {
					e.Resolution = schemas.Unresolved
				}
			}
			edges = append(edges, e)
		}
	}
	return edges
}

// isMacro reports whether name is the name of a macro of the snapshot.
func (r *resolver) isMacro(name string) bool {
	for _, i := range r.byQName[name] {
		if slices.Contains(r.nodes[i].Decorators, "macro") {
			return true
		}
	}
	return false
}

// classOf returns the class a constructor constructs, or -1.
func (r *resolver) classOf(ctor int32) int32 {
	if p, ok := r.byID[r.nodes[ctor].ParentID]; ok && isClassKind(r.nodes[p].Kind) {
		return p
	}
	for _, i := range r.byQName[parentQName(r.nodes[ctor].QualifiedName)] {
		if isClassKind(r.nodes[i].Kind) {
			return i
		}
	}
	return -1
}

func confidence(how string) float32 {
	switch how {
	case schemas.ResolvedLocal:
		return 1
	case schemas.ResolvedScope, schemas.ResolvedReceiver:
		return 0.95
	}
	return 0.9
}

// found is a resolution: a node row, or -1 with a reason.
type found struct {
	node   int32
	how    string
	reason string
}

func miss(how, reason string) found { return found{node: -1, how: how, reason: reason} }

// include resolves an #include: relative to the including file for a
// quoted path, then against every file of the snapshot whose path ends
// with it (the nearest to the including file wins).
func (r *resolver) include(ref *schemas.Ref) (schemas.Edge, string) {
	e := schemas.Edge{Src: indexer.FileID(ref.File), Kind: schemas.EdgeImports, File: ref.File, Line: ref.Line, Col: ref.Col, Target: ref.Expr}
	p := ref.Expr
	system := strings.HasPrefix(p, "<")
	p = strings.Trim(p, "\"<>")
	hit := ""
	if !system {
		if c := path.Join(path.Dir(ref.File), p); r.paths[c] {
			hit = c
		}
	}
	if hit == "" && p != "" {
		var cands []string
		for _, q := range r.byBase[path.Base(p)] {
			if q != path.Clean(p) && !strings.HasSuffix(q, "/"+path.Clean(p)) || q == ref.File {
				continue
			}
			cands = append(cands, q)
		}
		var tie bool
		if hit, tie = indexer.Nearest(cands, ref.File); tie {
			e.Resolution, e.Reason = schemas.Ambiguous, "several headers match"
			return e, ""
		}
	}
	if hit == "" {
		e.Resolution, e.Reason = schemas.Unresolved, reasonNoHeader
		if system {
			e.Reason = reasonSysHeader
		}
		return e, ""
	}
	e.Dst = indexer.FileID(hit)
	e.Resolution, e.Confidence = schemas.ResolvedImport, 1
	return e, hit
}

// view returns the files a file sees: itself and every header it
// includes, directly or not.
func (r *resolver) view(file string) map[string]bool {
	if v, ok := r.reach[file]; ok {
		return v
	}
	v := map[string]bool{file: true}
	queue := []string{file}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, h := range r.includes[f] {
			if !v[h] {
				v[h] = true
				queue = append(queue, h)
			}
		}
	}
	r.reach[file] = v
	return v
}

func isTypeKind(k string) bool {
	return k == schemas.KindClass || k == schemas.KindStruct || k == schemas.KindEnum || k == schemas.KindTypeAlias
}

// how says how a node of file was reached from file from.
func how(from, file string) string {
	if from == file {
		return schemas.ResolvedLocal
	}
	return schemas.ResolvedImport
}

// function resolves a call of the function or method qname with
// arguments args from file. ok is false when qname is not declared in view.
func (r *resolver) function(qname, file string, args callArgs) (found, bool) {
	v := r.view(file)
	cands := r.byQName[qname]
	declared := false
	var inView, defs, decls []int32
	for _, i := range cands {
		n := &r.nodes[i]
		if !indexer.IsFunc(n.Kind) {
			continue
		}
		if v[n.File] {
			declared = true
			inView = append(inView, i)
		}
	}
	if !declared {
		for _, d := range r.declares[qname] {
			if v[d.file] {
				declared = true
				break
			}
		}
	}
	if !declared {
		return found{}, false
	}
	pick := func(list []int32) []int32 {
		var out []int32
		for _, i := range list {
			if a, ok := r.params[r.nodes[i].ID]; !ok || a.fits(args.n) {
				out = append(out, i)
			}
		}
		return out
	}
	for _, i := range pick(inView) {
		if r.declOnly[r.nodes[i].ID] {
			decls = append(decls, i)
		} else {
			defs = append(defs, i)
		}
	}
	if len(defs) == 0 {
		// A definition elsewhere: exported, not file-local.
		for _, i := range pick(cands) {
			n := &r.nodes[i]
			if indexer.IsFunc(n.Kind) && !v[n.File] && !r.declOnly[n.ID] && (n.Exported || n.Kind != schemas.KindFunction) {
				defs = append(defs, i)
			}
		}
	}
	if c := r.byTypes(defs, decls, args); c >= 0 {
		return found{node: c, how: how(file, r.nodes[c].File)}, true
	}
	switch {
	case len(defs) == 1:
		return found{node: defs[0], how: how(file, r.nodes[defs[0]].File)}, true
	case len(defs) > 1:
		same := true
		for _, i := range defs {
			n := &r.nodes[i]
			if n.File != r.nodes[defs[0]].File || n.Language != "c" && n.Kind != schemas.KindFunction {
				same = false
			}
		}
		if same && r.nodes[defs[0]].Language == "c" { // #if variants of one definition
			return found{node: defs[0], how: how(file, r.nodes[defs[0]].File)}, true
		}
		if r.nodes[defs[0]].Language == "cpp" && strings.Contains(qname, "::") {
			return miss(schemas.Ambiguous, reasonOverloads), true
		}
		return miss(schemas.Ambiguous, reasonSeveral), true
	case len(decls) == 1:
		return found{node: decls[0], how: how(file, r.nodes[decls[0]].File)}, true
	case len(decls) > 1:
		return miss(schemas.Ambiguous, reasonOverloads), true
	}
	return miss(schemas.Unresolved, reasonNoDef), true
}

// scopes returns the qualified names a name written in the code of node
// src may stand for, innermost first: in the enclosing namespaces and
// classes, then through the using directives and declarations of the
// node and its file.
func (r *resolver) scopes(name string, src uint64, file string) []string {
	var out []string
	if i, ok := r.byID[src]; ok {
		q := r.nodes[i].QualifiedName
		if r.nodes[i].Kind != schemas.KindNamespace && r.nodes[i].Kind != schemas.KindClass && r.nodes[i].Kind != schemas.KindStruct {
			q = parentQName(q)
		}
		for q != "" {
			out = append(out, q+"::"+name)
			q = parentQName(q)
		}
	}
	out = append(out, name)
	for _, id := range [2]uint64{src, indexer.FileID(file)} {
		for _, u := range r.usings[id] {
			if ns, ok := strings.CutPrefix(u, "namespace "); ok {
				out = append(out, ns+"::"+name)
			} else if u == name || strings.HasSuffix(u, "::"+name) {
				out = append(out, u)
			} else if first, rest, ok := strings.Cut(name, "::"); ok && strings.HasSuffix(u, "::"+first) {
				out = append(out, u+"::"+rest)
			}
		}
	}
	return out
}

func parentQName(q string) string {
	if i := strings.LastIndex(q, "::"); i >= 0 {
		return q[:i]
	}
	return ""
}

// enclosingClass returns the class whose member src is, or -1.
func (r *resolver) enclosingClass(src uint64) int32 {
	i, ok := r.byID[src]
	if !ok {
		return -1
	}
	n := &r.nodes[i]
	if n.Kind != schemas.KindMethod && n.Kind != schemas.KindConstructor && n.Kind != schemas.KindField {
		return -1
	}
	q := parentQName(n.QualifiedName)
	for _, j := range r.byQName[q] {
		if k := r.nodes[j].Kind; k == schemas.KindClass || k == schemas.KindStruct {
			if r.view(n.File)[r.nodes[j].File] {
				return j
			}
		}
	}
	return -1
}

// typeOf resolves a type name written in the code of src in file to a
// class, struct, enum or alias in view; aliases are followed to what
// they stand for when that is known.
func (r *resolver) typeOf(name, file string, src uint64, depth int) found {
	if strings.HasPrefix(name, "std::") {
		return miss(schemas.Unresolved, reasonExternal)
	}
	if depth > maxDepth {
		return miss(schemas.Unresolved, reasonTypeNotSee)
	}
	v := r.view(file)
	for _, q := range r.scopes(name, src, file) {
		var hits []int32
		for _, i := range r.byQName[q] {
			if isTypeKind(r.nodes[i].Kind) && v[r.nodes[i].File] {
				hits = append(hits, i)
			}
		}
		if len(hits) == 0 {
			continue
		}
		// A class defined in several headers of the view: the first.
		slices.SortFunc(hits, func(a, b int32) int { return strings.Compare(r.nodes[a].File, r.nodes[b].File) })
		t := hits[0]
		for _, i := range hits {
			if r.nodes[i].Kind != schemas.KindTypeAlias {
				t = i
				break
			}
		}
		n := &r.nodes[t]
		if n.Kind == schemas.KindTypeAlias {
			if under, ok := r.types[n.ID]; ok {
				if u := r.typeOf(under, n.File, n.ID, depth+1); u.node >= 0 {
					return found{node: u.node, how: how(file, r.nodes[u.node].File)}
				}
			}
		}
		return found{node: t, how: how(file, n.File)}
	}
	return miss(schemas.Unresolved, reasonTypeNotSee)
}

// memberOf finds member name of class c (row) or of its bases: methods
// by their arguments (args.n < 0 for a field).
func (r *resolver) memberOf(c int32, name string, args callArgs, file string, depth int) found {
	if depth > maxDepth {
		return miss(schemas.Unresolved, reasonNoMember)
	}
	cl := &r.nodes[c]
	sep := "::"
	if cl.Language == "c" {
		sep = "."
	}
	q := cl.QualifiedName + sep + name
	var fields []int32
	hasFn := false
	for _, i := range r.byQName[q] {
		switch k := r.nodes[i].Kind; {
		case indexer.IsFunc(k):
			hasFn = true
		case k == schemas.KindField || k == schemas.KindConstant || k == schemas.KindVariable:
			fields = append(fields, i)
		}
	}
	if args.n >= 0 && hasFn {
		// The class is in view: its members are declared.
		if f, ok := r.functionOf(q, file, args); ok {
			if f.node >= 0 {
				f.how = schemas.ResolvedReceiver
			}
			return f
		}
	}
	if len(fields) > 0 {
		if args.n >= 0 {
			return miss(schemas.Unresolved, reasonFieldCall)
		}
		return found{node: fields[0], how: schemas.ResolvedReceiver}
	}
	for _, b := range r.bases[cl.ID] {
		t := r.typeOf(b, cl.File, cl.ID, depth+1)
		if t.node < 0 || !isClassKind(r.nodes[t.node].Kind) {
			continue
		}
		if m := r.memberOf(t.node, name, args, file, depth+1); m.node >= 0 || m.how == schemas.Ambiguous || m.reason == reasonFieldCall {
			return m
		}
	}
	return miss(schemas.Unresolved, reasonNoMember)
}

func isClassKind(k string) bool { return k == schemas.KindClass || k == schemas.KindStruct }

// functionOf is function for a member of a class in view: its
// declaration is the class's, so its definition may be anywhere.
func (r *resolver) functionOf(q, file string, args callArgs) (found, bool) {
	var defs, decls []int32
	for _, i := range r.byQName[q] {
		n := &r.nodes[i]
		if !indexer.IsFunc(n.Kind) {
			continue
		}
		if a, ok := r.params[n.ID]; ok && !a.fits(args.n) {
			continue
		}
		if r.declOnly[n.ID] {
			decls = append(decls, i)
		} else {
			defs = append(defs, i)
		}
	}
	if c := r.byTypes(defs, decls, args); c >= 0 {
		return found{node: c}, true
	}
	switch {
	case len(defs) == 1:
		return found{node: defs[0]}, true
	case len(defs) > 1:
		return miss(schemas.Ambiguous, reasonOverloads), true
	case len(decls) == 1:
		return found{node: decls[0]}, true
	case len(decls) > 1:
		return miss(schemas.Ambiguous, reasonOverloads), true
	}
	return miss(schemas.Unresolved, reasonNoMember), false
}

// call resolves a calls ref.
func (r *resolver) call(ref *schemas.Ref) found {
	expr := ref.Expr
	if strings.HasPrefix(expr, "?") {
		if expr == indexer.ExprLocal {
			return miss(schemas.Unresolved, reasonLocalCall)
		}
		return miss(schemas.Unresolved, reasonExpr)
	}
	steps := srctext.SplitTop(expr, '.', "{", "}") // the steps of the Expr
	val, f := r.head(steps[0], ref, len(steps) == 1)
	if len(steps) == 1 {
		return f
	}
	for k, s := range steps[1:] {
		last := k == len(steps)-2
		if val < 0 {
			if f.reason == "" {
				f = miss(schemas.Unresolved, reasonExpr)
			}
			return f
		}
		name, args := splitCall(s, ref)
		if !isClassKind(r.nodes[val].Kind) {
			return miss(schemas.Unresolved, reasonExpr)
		}
		m := r.memberOf(val, name, args, ref.File, 0)
		if last {
			return m
		}
		val, f = r.valueOf(m)
	}
	return f
}

// valueOf returns the class of the value a resolved member or function
// yields (a field's type, a function's result), or -1.
func (r *resolver) valueOf(m found) (int32, found) {
	if m.node < 0 {
		return -1, m
	}
	n := &r.nodes[m.node]
	if isClassKind(n.Kind) {
		return m.node, m
	}
	if n.Kind == schemas.KindConstructor {
		c := r.enclosingClass(n.ID)
		return c, m
	}
	t, ok := r.types[n.ID]
	if !ok {
		return -1, miss(schemas.Unresolved, reasonExpr)
	}
	tf := r.typeOf(t, n.File, n.ID, 0)
	if tf.node < 0 {
		return -1, tf
	}
	return tf.node, tf
}

// head resolves the head of an Expr: to the node called (when call),
// and to the class of its value.
func (r *resolver) head(h string, ref *schemas.Ref, final bool) (int32, found) {
	switch {
	case h == "this":
		c := r.enclosingClass(ref.Src)
		if c < 0 {
			return -1, miss(schemas.Unresolved, reasonExpr)
		}
		return c, found{node: c, how: schemas.ResolvedReceiver}
	case strings.HasPrefix(h, "{"):
		t := r.typeOf(strings.Trim(h, "{}"), ref.File, ref.Src, 0)
		if t.node >= 0 && !isClassKind(r.nodes[t.node].Kind) {
			return -1, miss(schemas.Unresolved, reasonExpr)
		}
		return t.node, t
	}
	name, args := splitCall(h, ref)
	var f found
	if args.n >= 0 {
		f = r.named(name, args, ref)
		if final {
			return -1, f
		}
	} else {
		f = r.variable(name, ref)
	}
	val, vf := r.valueOf(f)
	if val < 0 {
		return -1, vf
	}
	return val, f
}

// variable resolves a name used as a receiver: a field of the enclosing
// class, a global variable in view.
func (r *resolver) variable(name string, ref *schemas.Ref) found {
	if c := r.enclosingClass(ref.Src); c >= 0 && !strings.Contains(name, "::") {
		if m := r.memberOf(c, name, noCall, ref.File, 0); m.node >= 0 {
			return m
		}
	}
	v := r.view(ref.File)
	for _, q := range r.scopes(name, ref.Src, ref.File) {
		for _, i := range r.byQName[q] {
			n := &r.nodes[i]
			if (n.Kind == schemas.KindVariable || n.Kind == schemas.KindConstant) && v[n.File] {
				return found{node: i, how: how(ref.File, n.File)}
			}
		}
		if t := r.typeOf(q, ref.File, ref.Src, 0); t.node >= 0 {
			return miss(schemas.Unresolved, reasonExpr) // a type: A::f is written as a call
		}
	}
	return miss(schemas.Unresolved, reasonUndeclared)
}

// named resolves a call of a (qualified) name.
func (r *resolver) named(name string, args callArgs, ref *schemas.Ref) found {
	if strings.HasPrefix(name, "std::") {
		return miss(schemas.Unresolved, reasonExternal)
	}
	// A member of the enclosing class or its bases.
	if c := r.enclosingClass(ref.Src); c >= 0 && !strings.Contains(name, "::") {
		m := r.memberOf(c, name, args, ref.File, 0)
		if m.node >= 0 || m.how == schemas.Ambiguous || m.reason == reasonFieldCall {
			if m.node >= 0 {
				m.how = schemas.ResolvedScope
			}
			return m
		}
	}
	v := r.view(ref.File)
	for _, q := range r.scopes(name, ref.Src, ref.File) {
		// A static member or a base's method: Class::f.
		if owner := parentQName(q); owner != "" {
			if t := r.typeOf(owner, ref.File, ref.Src, 0); t.node >= 0 && isClassKind(r.nodes[t.node].Kind) {
				m := r.memberOf(t.node, q[len(owner)+2:], args, ref.File, 0)
				if m.node >= 0 {
					m.how = schemas.ResolvedScope
				}
				if m.node >= 0 || m.how == schemas.Ambiguous || m.reason == reasonFieldCall || strings.Contains(name, "::") {
					return m
				}
			}
		}
		if f, ok := r.function(q, ref.File, args); ok {
			return f
		}
		// A class: a construction T(...).
		if t := r.typeOf(q, ref.File, ref.Src, 0); t.node >= 0 && isClassKind(r.nodes[t.node].Kind) {
			short := r.nodes[t.node].Name
			if f, ok := r.functionOf(r.nodes[t.node].QualifiedName+"::"+short, ref.File, args); ok && f.node >= 0 {
				f.how = t.how
				return f
			}
			return t
		}
		for _, i := range r.byQName[q] {
			if n := &r.nodes[i]; (n.Kind == schemas.KindVariable || n.Kind == schemas.KindField) && v[n.File] {
				return miss(schemas.Unresolved, reasonVarCall)
			}
		}
	}
	return miss(schemas.Unresolved, reasonUndeclared)
}

// splitCall splits name(n) or name(n:types) of ref into name and its
// arguments; n is -1 for a plain name.
func splitCall(s string, ref *schemas.Ref) (string, callArgs) {
	i := strings.LastIndexByte(s, '(')
	if i < 0 || !strings.HasSuffix(s, ")") {
		return s, noCall
	}
	count, types, _ := strings.Cut(s[i+1:len(s)-1], ":")
	n, err := strconv.Atoi(count)
	if err != nil {
		return s, noCall
	}
	a := callArgs{n: n, file: ref.File, src: ref.Src}
	if types != "" {
		a.types = strings.Split(types, ",")
	}
	return s[:i], a
}
