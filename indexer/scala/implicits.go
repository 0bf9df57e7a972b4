package scala

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Implicit conversions make an argument apply to a parameter it does not
// conform to, so the argument types choose an overload only where none
// can be in play (safeAt):
//
//   - the file declares no local implicit that may convert, no implicit
//     parameter of function type nor implicit lambda parameter, no view
//     bound, no anonymous given conversion and no given import (the
//     extraction then writes every argument as ?), and the call is in no
//     anonymous or local template, nor one with a self type, whose
//     parents' members are in scope (its arguments are ? too);
//   - no member of an enclosing template or its parents, of an enclosing
//     package or package object, or of a project object or package the
//     file imports may convert;
//   - the file imports nothing from outside the snapshot but from the
//     standard library's packages (safeImport), whose conversions never
//     lead from one type the rules know to another;
//   - no template the call involves (an argument's or parameter's type,
//     or one of their parents) has a companion, an enclosing template or
//     a package object declaring one, nor a parent outside the snapshot
//     but the few the rules know.

// knownParents are the parents outside the snapshot the rules know: no
// implicit conversion of theirs leads between types the rules know.
var knownParents = map[string]bool{
	"Any": true, "AnyRef": true, "AnyVal": true, "Product": true, "Serializable": true, "java.io.Serializable": true,
	"Equals": true, "Throwable": true, "Exception": true, "RuntimeException": true, "Error": true,
}

// safeImport reports whether an import of q from outside the snapshot
// may bring no conversion between types the rules know, nor a type
// that hides a builtin's name: the standard library's packages but
// java.lang.
func safeImport(q string) bool {
	if q == "java.lang" || strings.HasPrefix(q, "java.lang._") {
		return false
	}
	for _, p := range []string{"java", "javax", "scala.collection", "scala.util", "scala.annotation", "scala.concurrent",
		"scala.math", "scala.io", "scala.sys", "scala.beans", "scala.language"} {
		if q == p || strings.HasPrefix(q, p+".") {
			return true
		}
	}
	return false
}

// safeAt reports whether no implicit conversion can be in play for a call
// made by node ctx whose arguments and parameters have the types
// involved (see the rules above).
func (r *resolver) safeAt(ctx int32, involved []stype) bool {
	if !r.safeScope(ctx) {
		return false
	}
	for _, t := range involved {
		if t.t >= 0 && !r.safeType(t.t) {
			return false
		}
	}
	return true
}

// safeScope reports whether no conversion is in lexical scope at node ctx.
func (r *resolver) safeScope(ctx int32) bool {
	if safe, ok := r.safeCtx[ctx]; ok {
		return safe
	}
	safe := r.scopeSafe(ctx)
	r.safeCtx[ctx] = safe
	return safe
}

func (r *resolver) scopeSafe(ctx int32) bool {
	for _, t := range r.enclosing(ctx) {
		if r.inheritsConv(t) {
			return false
		}
	}
	for _, p := range r.packagesOf(ctx) {
		if r.pkgConv[p] {
			return false
		}
	}
	name := r.nodes[ctx].File
	if safe, ok := r.safeFiles[name]; ok {
		return safe
	}
	safe := r.safeImports(r.files[name])
	r.safeFiles[name] = safe
	return safe
}

// safeImports reports whether the imports of file f bring no conversion.
func (r *resolver) safeImports(f *fileInfo) bool {
	if f == nil {
		return true
	}
	for _, w := range f.wild {
		switch objs := r.byQName(w, r.isTemplate); {
		case r.isPackage(w):
			if r.pkgConv[w] {
				return false
			}
		case len(objs) > 0:
			for _, o := range objs {
				if r.inheritsConv(o) {
					return false
				}
			}
		case !safeImport(w):
			return false
		}
	}
	for _, q := range f.named {
		found := r.byQName(q, func(int32) bool { return true })
		if len(found) == 0 && !safeImport(q) && !r.isPackage(indexer.ParentName(q)) {
			return false
		}
		for _, i := range found {
			if r.isConv(i) {
				return false
			}
		}
	}
	return true
}

// safeType reports whether no conversion is in the implicit scope of
// template t: the companions of t and its parents, their enclosing
// templates and package objects.
func (r *resolver) safeType(t int32) bool {
	if safe, ok := r.safeTypes[t]; ok {
		return safe
	}
	safe := true
	r.ancestors(t, func(a int32) bool {
		if r.lost[a] || r.generic[a] {
			safe = false
		}
		for u := a; u >= 0 && safe; u = r.parentOf(u) {
			for _, c := range r.qnames[r.nodes[u].QualifiedName] {
				if r.convOwner[c] {
					safe = false
				}
			}
		}
		top := a
		for p := r.parentOf(top); p >= 0; p = r.parentOf(top) {
			top = p
		}
		if r.pkgConv[indexer.ParentName(r.nodes[top].QualifiedName)] {
			safe = false
		}
		return safe
	})
	r.safeTypes[t] = safe
	return safe
}

// inheritsConv reports whether template t or a parent declares a
// conversion, or has a parent outside the snapshot the rules do not know.
func (r *resolver) inheritsConv(t int32) bool {
	if found, ok := r.inherits[t]; ok {
		return found
	}
	found := false
	r.ancestors(t, func(a int32) bool {
		found = r.convOwner[a] || r.lost[a]
		return !found
	})
	r.inherits[t] = found
	return found
}

// loadConversions marks the templates and packages that declare an
// implicit conversion.
func (r *resolver) loadConversions() {
	for i := range r.nodes {
		if r.nodes[i].Language != Name || !r.isConv(int32(i)) {
			continue
		}
		p := r.parentOf(int32(i))
		if p >= 0 {
			r.convOwner[p] = true
		}
		if p < 0 || r.nodes[p].Kind == schemas.KindModule {
			q := r.nodes[i].QualifiedName
			if p >= 0 {
				q = r.nodes[p].QualifiedName
			}
			r.pkgConv[indexer.ParentName(q)] = true
		}
	}
}

// isConv reports whether node i may be an implicit conversion: an
// implicit class or object, an implicit def with a parameter list that
// is not implicit, an implicit value or given that may be a function.
func (r *resolver) isConv(i int32) bool {
	n := &r.nodes[i]
	sig := n.Signature
	implicit, given := false, false
	rest := ""
	for k, w := range strings.Fields(sig) {
		if w == "implicit" {
			implicit = true
		}
		if w == "given" {
			given = true
		}
		if w == "def" || w == "val" || w == "var" || w == "class" || w == "object" || w == "trait" || w == "given" {
			rest = strings.Join(strings.Fields(sig)[k+1:], " ")
			break
		}
	}
	if !implicit && !given {
		return false
	}
	switch n.Kind {
	case schemas.KindMethod, schemas.KindFunction:
		h := strings.TrimSpace(strings.TrimPrefix(rest, n.Name))
		if strings.HasPrefix(h, "[") {
			h = strings.TrimSpace(h[closing(h):])
		}
		if strings.HasPrefix(h, "(") && !strings.HasPrefix(h, "(implicit") && !strings.HasPrefix(h, "(using") {
			return true
		}
		_, typ, _ := strings.Cut(h, ":")
		return mayConvert(typ)
	case schemas.KindField, schemas.KindConstant, schemas.KindVariable:
		_, typ, _ := strings.Cut(rest, ":")
		return mayConvert(typ)
	}
	return true
}
