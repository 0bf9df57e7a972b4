package typescript

import "github.com/graphsnap/snap/schemas"

// Members that JavaScript assigns to functions (see members.go): a method
// of a function node is a member of the function's instances (F.prototype.m)
// or, static, of the function itself (F.m); the function's other children
// are the declarations of its body.

// outer returns the scope that names used in scope s are looked up in
// next: its parent, except for a method of a function, whose body does
// not see the function's declarations.
func (r *resolver) outer(s int32) int32 {
	p := r.parent(s)
	if r.isKind(s, schemas.KindMethod) && r.isKind(p, schemas.KindFunction) {
		return r.parent(p)
	}
	return p
}

// constructs reports whether function f has methods its instances have:
// calling it (new F()) makes one of them.
func (r *resolver) constructs(f int32) bool {
	if !r.isKind(f, schemas.KindFunction) {
		return false
	}
	for _, k := range r.kids[r.nodes[f].ID] {
		if n := &r.nodes[k]; n.Kind == schemas.KindMethod && !n.IsStatic {
			return true
		}
	}
	return false
}

// isMember reports whether node n, a child of class or function c, is a
// member of it rather than a declaration of a function's body.
func (r *resolver) isMember(c, n int32) bool {
	return !r.isKind(c, schemas.KindFunction) || r.isKind(n, schemas.KindMethod)
}

// funcMember evaluates f.name for a function f: its static method name,
// else a builtin (f.call, f.bind) or an expando member we do not follow.
func (r *resolver) funcMember(f value, name string) value {
	var cands []value
	if r.isKind(f.node, schemas.KindFunction) {
		for _, n := range r.children[childKey{r.nodes[f.node].ID, name}] {
			if node := &r.nodes[n]; node.Kind == schemas.KindMethod && node.IsStatic {
				cands = append(cands, r.nodeValue(n, f.res))
			}
		}
	}
	if len(cands) == 0 {
		return value{kind: vBuiltin, node: -1}
	}
	return r.pick(cands)
}
