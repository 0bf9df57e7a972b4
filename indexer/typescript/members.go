package typescript

import (
	"strings"

	"github.com/graphsnap/snap/schemas"
)

// Definitions by assignment, the way JavaScript written before classes
// makes its methods: a function assigned to a property of a declaration
// of the module, at the top level of the module, is a member of that
// declaration.
//
//	o.m = function () {}            m, a method of the object o (a variable)
//	F.prototype.m = function () {}  m, a method of F's instances (F a function or class)
//	F.m = function () {}            m, a static method of F
//	F.prototype = { m() {} }        m, a method of F's instances
//	Object.assign(o, { m() {} })    m, a method of o (or of F, F.prototype)
//	o.a = o.b = function () {}      a and b, the same function
//	Object.defineProperty(o, "m", { value: function () {} })
//	                                m, a method of o
//
// TypeScript declares the members of its classes and objects: there, only
// F.m = function () {} (F a function) is a definition, as the compiler
// makes it.
//
// The owner must be the one declaration of its name in the module scope
// (not an import, nor a name bound to a value not followed); an
// assignment in a function body, or to an owner declared later, defines
// nothing. In such a function (not an arrow function) this is the owner:
// its Expr head is o, F() (an instance of F) or F.

// unwrap returns the function or class that the parentheses and casts at
// s wrap ((function () {}), (x => x) as T), or s itself.
func (f *fileState) unwrap(s span) span {
	for range 8 {
		in, ok := f.wraps[s]
		if !ok {
			break
		}
		s = in
	}
	return s
}

// memberOwner returns the node of the module-level declaration o whose
// member an assignment defines, and what this is in a function so
// assigned. proto is for o.prototype.m: o must be a function or class.
func (f *fileState) memberOwner(sc *scope, o string, proto bool) (owner int32, this string, ok bool) {
	if sc.kind != sModule || !isIdent(o) {
		return -1, "", false
	}
	switch o {
	case "this", "exports", "module", "prototype":
		return -1, "", false
	}
	b := sc.names[o]
	if b == nil || b.flags&(bImport|bUnknown|bParam|bType) != 0 || len(sc.decls[o]) != 1 {
		return -1, "", false
	}
	n := sc.decls[o][0]
	if f.x.d.typed && (proto || f.Nodes[n].Kind != schemas.KindFunction) {
		return -1, "", false // TypeScript declares members; F.m = ... on a function is its own
	}
	switch f.Nodes[n].Kind {
	case schemas.KindFunction, schemas.KindClass:
		if proto {
			return n, o + "()", true
		}
		return n, o, true
	case schemas.KindVariable, schemas.KindConstant:
		if !proto {
			return n, o, true
		}
	}
	return -1, "", false
}

// memberLeft is the left side of an assignment that defines a member:
// obj.name, or obj.prototype.name (proto).
type memberLeft struct {
	obj, name string
	proto     bool
	start     uint32
}

// memberDef makes the definitions an assignment of a function to left
// (o.m, F.prototype.m) makes, with those of the assignments around it
// whose value it is (o.a = o.b = function), or names the object literal
// assigned to F.prototype; it reports whether it did. whole is the
// assignment, value its value.
func (f *fileState) memberDef(sc *scope, start uint32, left string, whole, value span) bool {
	parts := strings.Split(left, ".")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if len(parts) == 2 && parts[1] == "prototype" && f.Src[value.Start] == '{' {
		owner, this, ok := f.memberOwner(sc, parts[0], true)
		if ok {
			f.named[value], f.thisFor[value] = owner, this
		}
		return ok
	}
	l := memberLeft{obj: parts[0], name: parts[len(parts)-1], proto: len(parts) == 3 && parts[1] == "prototype", start: start}
	if len(parts) != 2 && !l.proto || !isIdent(l.name) || l.name == "prototype" || sc.kind != sModule {
		return false
	}
	chain := append(f.chains[whole], l)
	v, ok := f.values[value]
	if !ok || v.Span != value || v.Kind != kLambda {
		f.chains[value] = chain // when value is an assignment
		return false
	}
	first, this := int32(-1), ""
	for i, l := range chain {
		owner, t, ok := f.memberOwner(sc, l.obj, l.proto)
		if !ok {
			this = ""
			continue
		}
		n := f.addNode(schemas.KindMethod, l.name, owner, value)
		f.Nodes[n].Doc = f.doc(l.start)
		f.ownedBy(n, t)
		switch {
		case first < 0:
			first = n
			if i == 0 {
				this = t
			}
		default:
			f.aliases = append(f.aliases, [2]int32{first, n})
			if t != this {
				this = ""
			}
		}
	}
	if first < 0 {
		return false
	}
	f.named[value], f.thisFor[value] = first, this
	return true
}

// ownedBy sets what node n, a member of a module-level declaration with
// this written as this, owes to its owner: static for a function's or
// class's own member, visibility, and exported with it (exportMembers).
func (f *fileState) ownedBy(n int32, this string) {
	owner := f.parentOf(n)
	switch f.Nodes[owner].Kind {
	case schemas.KindFunction, schemas.KindClass:
		f.Nodes[n].Visibility = schemas.Public
		f.Nodes[n].IsStatic = !strings.HasSuffix(this, "()")
	}
	if o, ok := strings.CutSuffix(this, "()"); ok {
		f.protos[o] = true
	}
	f.members = append(f.members, n)
}

// constructorThis records that this, in the function name declared at the
// top level of the module, is an instance of it, should it have prototype
// methods (function F() { this.m() } with F.prototype.m = ...).
func (f *fileState) constructorThis(sc *scope, name string, fn span) {
	if sc.kind == sModule {
		f.thisFor[fn] = name + "()"
	}
}

// descriptor is a property Object.defineProperty defines: name, a member
// of owner, with this written as this in its value.
type descriptor struct {
	owner      int32
	name, this string
}

// objectCall handles, at the top level of the module, Object.assign(o,
// { ... }) (or F.prototype), whose object literal's functions are members
// of o (or F) as memberDef makes them, and Object.defineProperty(o, "m",
// { value: function () {} }), whose function is the member m.
func (f *fileState) objectCall(sc *scope, fn, args span) {
	callee := strings.Join(strings.Fields(f.Text(fn)), "")
	if sc.kind != sModule || f.x.d.typed || callee != "Object.assign" && callee != "Object.defineProperty" {
		return
	}
	list := f.argList(args)
	if len(list) < 2 {
		return
	}
	target := strings.Split(f.Text(list[0]), ".")
	for i := range target {
		target[i] = strings.TrimSpace(target[i])
	}
	proto := len(target) == 2 && target[1] == "prototype"
	if len(target) != 1 && !proto {
		return
	}
	owner, this, ok := f.memberOwner(sc, target[0], proto)
	if !ok {
		return
	}
	switch obj := list[len(list)-1]; {
	case callee == "Object.assign" && len(list) == 2 && f.isObject(list[1]):
		f.named[list[1]], f.thisFor[list[1]] = owner, this
	case callee == "Object.defineProperty" && len(list) == 3 && f.isObject(obj):
		if name, ok := stringValue(f.Text(list[1])); ok && isIdent(name) {
			f.descriptors[obj] = descriptor{owner: owner, name: name, this: this}
		}
	}
}

// describe makes the member an Object.defineProperty descriptor's value
// defines (see objectCall): value is the value of its pair value.
func (f *fileState) describe(d *descriptor, start uint32, value span) {
	v, ok := f.values[f.unwrap(value)]
	if !ok || v.Kind != kLambda {
		return
	}
	n := f.addNode(schemas.KindMethod, d.name, d.owner, v.Span)
	f.Nodes[n].Doc = f.doc(start)
	f.named[v.Span], f.thisFor[v.Span] = n, d.this
	f.ownedBy(n, d.this)
}

// isObject reports whether s is one object literal.
func (f *fileState) isObject(s span) bool {
	return f.Src[s.Start] == '{' && matchingClose(f.Src, int(s.Start), int(s.End)) == int(s.End)
}

// argList returns the arguments of the argument list at args, blanks
// trimmed.
func (f *fileState) argList(args span) []span {
	var out []span
	p, end := int(args.Start)+1, int(args.End)-1
	from := p
	add := func(to int) {
		a := skipSpace(f.Src, from, to)
		for to > a && isBlank(f.Src[to-1:to]) {
			to--
		}
		if to > a {
			out = append(out, span{Start: uint32(a), End: uint32(to)})
		}
	}
	for p < end {
		switch f.Src[p] {
		case '(', '[', '{':
			q := matchingClose(f.Src, p, end)
			if q < 0 {
				return nil
			}
			p = q
			continue
		case '"', '\'', '`':
			p = stringEnd(f.Src, p, end)
			continue
		case '/':
			if q := skipSpace(f.Src, p, end); q > p {
				p = q
				continue
			}
		case ',':
			add(p)
			from = p + 1
		}
		p++
	}
	add(end)
	return out
}

// objectThis returns what this is in the functions of the object literal
// at s that node owner holds: what memberDef or objectAssign recorded,
// else the name of a variable of the module.
func (f *fileState) objectThis(s span, owner int32) string {
	if this, ok := f.thisFor[s]; ok {
		return this
	}
	n := &f.Nodes[owner]
	if (n.Kind == schemas.KindVariable || n.Kind == schemas.KindConstant) && n.ParentID == f.Nodes[0].ID {
		return n.Name
	}
	return ""
}

// thisObject returns the Expr head of this in code of scope sc when it is
// the owner of a function assigned to a member (see memberDef), "" when
// it is not, or when a declaration or import of a function around sc
// hides the owner's name.
func (f *fileState) thisObject(sc *scope) string {
	if sc.kind != sFunction || sc.thisObj == "" {
		return ""
	}
	name, instance := strings.CutSuffix(sc.thisObj, "()")
	if instance && !f.protos[name] {
		return ""
	}
	for s := sc; s != nil && s.kind != sModule; s = s.parent {
		if b := s.names[name]; b != nil && b.flags&(bDef|bImport) != 0 {
			return ""
		}
	}
	return sc.thisObj
}

// finishMembers marks the members made by assignment exported with their
// owner, once every export of the file is known, and gives the other
// names of a function assigned to several members what the first got
// from the function.
func (f *fileState) finishMembers() {
	for _, n := range f.members {
		if f.Nodes[f.parentOf(n)].Exported {
			f.setExported(n)
		}
	}
	for _, a := range f.aliases {
		first, n := &f.Nodes[a[0]], &f.Nodes[a[1]]
		n.Signature = n.Name + strings.TrimPrefix(first.Signature, first.Name)
		n.BodyHash, n.IsAsync = first.BodyHash, first.IsAsync
		if n.Doc == "" {
			n.Doc = first.Doc
		}
	}
}

// isExportsObject reports whether a variable's value is the object
// literal the module exports: exports = module.exports = {...} (as in
// var app = exports = module.exports = {}), the variable then standing
// for module.exports.
func isExportsObject(value string) bool {
	v := strings.Join(strings.Fields(value), "")
	for _, p := range []string{"exports=module.exports=", "module.exports=exports=", "module.exports="} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			return strings.HasPrefix(rest, "{")
		}
	}
	return false
}
