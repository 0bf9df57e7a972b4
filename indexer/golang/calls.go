package golang

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

func edge(out *[]schemas.Edge, ref schemas.Ref, kind string, dst uint64, how, reason string) {
	e := indexer.RefEdge(&ref, kind, dst, how, 0, reason)
	if dst != 0 {
		e.Confidence = 1
	}
	*out = append(*out, e)
}

// call resolves one call site, whose source the caller found among the
// nodes.
func (r *resolver) call(out *[]schemas.Edge, ref schemas.Ref) {
	f := r.files[ref.File]
	if f == nil {
		return
	}
	v, why := r.evalAlternatives(ref.Expr, f)
	switch v.kind {
	case vBuiltin:
		return // a builtin: no call edge
	case vTypeName:
		r.conversion(out, ref, f) // a conversion: a use of the type, no call
		return
	case vFuncs:
		funcs := r.pick(v.funcs)
		if len(funcs) > 1 {
			edge(out, ref, schemas.EdgeCalls, 0, schemas.Ambiguous, "several declarations (build variants)")
			return
		}
		how := v.how
		if how == "" {
			how = schemas.ResolvedScope
		}
		edge(out, ref, schemas.EdgeCalls, r.nodes[funcs[0]].ID, how, "")
		return
	case vValue:
		why = "call of a function value"
	case vPackage:
		why = "call of a package"
	}
	if why == "" {
		why = "unresolved"
	}
	res := schemas.Unresolved
	if strings.HasPrefix(why, "ambiguous") {
		res = schemas.Ambiguous
	}
	edge(out, ref, schemas.EdgeCalls, 0, res, why)
}

// evalAlternatives evaluates "a|b|…": it has a value only when every
// alternative has the same one.
func (r *resolver) evalAlternatives(expr string, f *fileInfo) (value, string) {
	if !strings.Contains(expr, "|") {
		return r.eval(expr, f, 0)
	}
	var first value
	for i, alt := range strings.Split(expr, "|") {
		v, why := r.eval(alt, f, 0)
		if v.kind == vNone {
			return v, why
		}
		if v.kind == vFuncs {
			v.funcs = r.pick(v.funcs)
		}
		if i == 0 {
			first = v
			continue
		}
		if v.kind != first.kind || v.t != first.t || v.pkg != first.pkg || !slices.Equal(v.funcs, first.funcs) {
			return value{}, "local declared again with another type"
		}
	}
	return first, ""
}

// pick narrows build variants (the same function or type declared in
// files for different platforms) to the ones built by default, when that
// decides.
func (r *resolver) pick(funcs []int32) []int32 {
	if len(funcs) < 2 {
		return funcs
	}
	var kept []int32
	for _, i := range funcs {
		if r.built(r.nodes[i].File) {
			kept = append(kept, i)
		}
	}
	if len(kept) == 0 {
		return funcs
	}
	return kept
}

// built reports whether file is compiled by default (see defaultBuild),
// from what load found for the snapshot's files.
func (r *resolver) built(file string) bool {
	if f := r.files[file]; f != nil {
		return f.built
	}
	return defaultBuild(file, r.constraint[file])
}

// importEdge links a file to the package it imports, when it is indexed.
func (r *resolver) importEdge(out *[]schemas.Edge, ref schemas.Ref) {
	f := r.files[ref.File]
	if f == nil {
		return
	}
	if p := r.lookupPath(ref.Target, f); p != nil {
		edge(out, ref, schemas.EdgeImports, p.node, schemas.ResolvedImport, "")
		return
	}
	edge(out, ref, schemas.EdgeImports, 0, schemas.Unresolved, "package not in snapshot")
}

// embedEdge records interface embedding as extends.
func (r *resolver) embedEdge(out *[]schemas.Edge, ref schemas.Ref) {
	f := r.files[ref.File]
	t := r.typeByNode(ref.Src)
	if f == nil || t == nil || !t.iface || strings.HasPrefix(ref.Expr, "?") {
		return
	}
	et, why := r.resolveType(ref.Expr, f, 0)
	if et == nil {
		edge(out, ref, schemas.EdgeExtends, 0, schemas.Unresolved, why)
		return
	}
	edge(out, ref, schemas.EdgeExtends, r.nodes[r.variant(et.nodes)].ID, schemas.ResolvedStructural, "")
}

// methodSig is a method's name and canonical signature.
type methodSig map[string]string

// ifaceMethods returns the method set of an interface with canonical
// signatures, or false when it cannot be decided (a type union, an
// embedded type that is not in the snapshot).
func (r *resolver) ifaceMethods(t *typeInfo, depth int) (methodSig, bool) {
	if depth > maxDepth {
		return nil, false
	}
	ms := make(methodSig)
	for name, nodes := range t.methods {
		ms[name] = r.canonSig(r.variant(nodes))
	}
	for _, e := range r.embedsOf(t) {
		if e.expr == "?builtin type error" {
			ms["Error"] = "()string"
			continue
		}
		if strings.HasPrefix(e.expr, "?") {
			return nil, false
		}
		et, _ := r.resolveType(e.expr, e.file, depth+1)
		if et == nil || !et.iface {
			return nil, false
		}
		sub, ok := r.ifaceMethods(et, depth+1)
		if !ok {
			return nil, false
		}
		for k, v := range sub {
			ms[k] = v
		}
	}
	return ms, true
}

// ownSigs returns the canonical signatures of t's own methods, by name,
// made once: a type embedded in many is asked again for each. Only
// implements asks, on one goroutine.
func (r *resolver) ownSigs(t *typeInfo) map[string]string {
	if t.sigs == nil {
		t.sigs = make(map[string]string, len(t.methods))
		for name, nodes := range t.methods {
			t.sigs[name] = r.canonSig(r.variant(nodes))
		}
	}
	return t.sigs
}

// concreteMethods returns the method set of a named type, its own
// methods first and then those promoted from embedded fields.
func (r *resolver) concreteMethods(t *typeInfo) methodSig {
	ms := make(methodSig)
	level := []*typeInfo{t}
	seen := map[*typeInfo]bool{t: true}
	for d := 0; d < maxDepth && len(level) > 0; d++ {
		found := make(map[string]int)
		sigs := make(map[string]string)
		var next []*typeInfo
		for _, lt := range level {
			var names map[string]string
			if lt.iface {
				sub, ok := r.ifaceMethods(lt, 0)
				if !ok {
					continue
				}
				names = sub
			} else {
				names = r.ownSigs(lt)
			}
			for name, sig := range names {
				found[name]++
				sigs[name] = sig
			}
			if d > 0 || !lt.iface {
				for _, e := range r.embedsOf(lt) {
					if et, _ := r.resolveType(e.expr, e.file, 0); et != nil && !seen[et] {
						seen[et] = true
						next = append(next, et)
					}
				}
			}
		}
		for name, n := range found {
			if _, shadowed := ms[name]; shadowed {
				continue
			}
			if n == 1 {
				ms[name] = sigs[name]
			} else {
				ms[name] = "" // ambiguous at this depth: not in the method set
			}
		}
		level = next
	}
	return ms
}

// implements adds an edge from every named non-interface type to every
// interface of the snapshot whose method set its own includes, names and
// canonical signatures alike: from every one of the type's nodes, or,
// when files is not nil, those of its nodes in files (an edge's File is
// its type node's).
func (r *resolver) implements(files map[string]bool) {
	var ifaces, types []*typeInfo
	for _, p := range r.sortedPkgs() {
		for _, name := range slices.Sorted(maps.Keys(p.types)) {
			t := p.types[name]
			if len(t.nodes) == 0 || t.alias != nil {
				continue
			}
			if t.iface {
				ifaces = append(ifaces, t)
			} else if (len(t.methods) > 0 || len(r.embedsOf(t)) > 0) && (files == nil || slices.ContainsFunc(t.nodes, func(n int32) bool { return files[r.nodes[n].File] })) {
				types = append(types, t)
			}
		}
	}
	if len(types) == 0 {
		return
	}
	byMethod := make(map[string][]*typeInfo)
	sets := make(map[*typeInfo]methodSig, len(types))
	for _, t := range types {
		ms := r.concreteMethods(t)
		sets[t] = ms
		for name, sig := range ms {
			if sig != "" {
				byMethod[name] = append(byMethod[name], t)
			}
		}
	}
	for _, it := range ifaces {
		want, ok := r.ifaceMethods(it, 0)
		if !ok || len(want) == 0 {
			continue
		}
		// Candidates: the types having the interface's rarest method.
		var rare string
		for name := range want {
			if rare == "" || len(byMethod[name]) < len(byMethod[rare]) || (len(byMethod[name]) == len(byMethod[rare]) && name < rare) {
				rare = name
			}
		}
	candidates:
		for _, t := range byMethod[rare] {
			have := sets[t]
			for name, sig := range want {
				if got, ok := have[name]; !ok || got == "" || got != sig {
					continue candidates
				}
			}
			// Of a type or interface declared once per build, the
			// declarations built by default, whose methods the sets are
			// made of: another build's may well lack one.
			for _, tn := range r.pick(t.nodes) {
				if files != nil && !files[r.nodes[tn].File] {
					continue
				}
				for _, in := range r.pick(it.nodes) {
					n := r.nodes[tn]
					r.edges = append(r.edges, schemas.Edge{
						Src: n.ID, Dst: r.nodes[in].ID, Kind: schemas.EdgeImplements, File: n.File,
						Line: n.StartLine, Col: n.StartCol, Target: it.pkg.path + "." + it.name,
						Resolution: schemas.ResolvedStructural, Confidence: 1,
					})
				}
			}
		}
	}
}

func (r *resolver) sortedPkgs() []*pkgInfo {
	out := make([]*pkgInfo, 0, len(r.pkgs))
	for _, p := range r.pkgs {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *pkgInfo) int { return cmp.Compare(a.key, b.key) })
	return out
}
