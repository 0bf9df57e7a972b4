package ruby

import (
	"context"
	"path"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Positions in rows are as indexer.Rows says. A symbol's range covers its
// declaration, not its comment; its body hash covers its body (the whole
// declaration when it has none).

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

// isTestFile reports whether file holds tests by Ruby conventions: named
// *_test.rb or *_spec.rb, or under a test/ or spec/ folder.
func isTestFile(file string) bool {
	return indexer.TestNamed(file, []string{"test_"}, []string{"_test.rb", "_spec.rb"}, []string{"test", "spec", "tests"})
}

// loopMethods are the iterators whose block runs in a loop.
var loopMethods = map[string]bool{
	"each": true, "each_with_index": true, "each_with_object": true, "times": true, "map": true, "loop": true,
	"upto": true, "downto": true, "step": true, "select": true, "reject": true, "flat_map": true, "collect": true,
	"each_pair": true, "each_key": true, "each_value": true, "filter_map": true, "find": true, "any?": true, "all?": true,
	"sum": true, "count": true, "inject": true, "reduce": true, "sort_by": true, "group_by": true, "min_by": true, "max_by": true,
}

// visibilityWords change the visibility of the methods defined after them
// (bare) or of those they name.
var visibilityWords = map[string]string{
	"private": schemas.Private, "protected": schemas.Protected, "public": schemas.Public,
	"private_class_method": schemas.Private, "public_class_method": schemas.Public, "module_function": "",
	"private_constant": schemas.Private, "public_constant": schemas.Public,
}

// scope is a local variable scope: a method, a class or module body, the
// file. Blocks share their method's scope.
type scope struct {
	names map[string][]span // the values assigned (an empty span: a parameter)
}

func (s *scope) bind(name string, value span) {
	if s.names == nil {
		s.names = map[string][]span{}
	}
	s.names[name] = append(s.names[name], value)
}

// frame is a range the walk is inside of: a declaration, a region, a
// visibility call.
type frame struct {
	kind       kind
	start, end uint32
	node       int32 // the node made for it, -1 if none
	body       span
	vis        string // classes and modules: the default visibility now; calls: the visibility given
	singleton  bool   // class << self; modules after module_function
	scope      *scope
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

// Node returns the node made for fr, -1 if none.
func (fr *frame) Node() int32 { return fr.node }

func (fr *frame) contains(p uint32) bool { return fr.start <= p && p < fr.end }

// pending is a reference whose Expr waits for every binding of the file.
type pending struct {
	indexer.Pending
	scope *scope
}

// visFix is a `private :name` to apply once the file's methods are known.
type visFix struct {
	owner     int32
	name, vis string
	singleton bool
}

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]

	stack   indexer.Stack[*frame]
	top     *scope
	calls   map[uint64]int32 // call items by span
	pending []pending
	fixes   []visFix
}

// newFileState returns the extraction of f.
func newFileState(f indexer.File[kind]) indexer.Passes {
	return &fileState{
		File:  f,
		calls: map[uint64]int32{},
	}
}

// Prepare indexes what the walk looks up by position: doc comments and
// call expressions.
func (f *fileState) Prepare(ctx context.Context) {
	docs := indexer.NewLineDocs(f.Str, f.Docs, docComment)
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kDoc:
			docs.Add(it.Span)
		case kCall:
			f.calls[it.Key()] = int32(i)
		}
	}
	docs.End()
}

// addRef is AddRef from node src (-1 for the file).
func (f *fileState) addRef(kind string, src int32, at span, target, expr string) *schemas.Ref {
	return f.AddRef(kind, f.SrcID(src), at, target, expr)
}

// owner returns the innermost class or module frame around the walk
// (nil at the top level), whether the code is in its singleton (class <<
// self), and whether a method definition lies in between.
func (f *fileState) owner() (o *frame, singleton, inDef bool) {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; fr.kind {
		case kSClass:
			if fr.singleton {
				singleton = true
			} else {
				return nil, false, true // class << obj: no symbols of ours
			}
		case kClass, kModule:
			if fr.node < 0 {
				return nil, false, true
			}
			return fr, singleton || fr.singleton, inDef
		case kMethod, kSMethod:
			inDef = true
		}
	}
	return nil, singleton, inDef
}

// direct returns the class or module frame whose body holds the walk
// directly (not in a method), or nil.
func (f *fileState) direct() *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; fr.kind {
		case kClass, kModule, kSClass:
			return fr
		case kMethod, kSMethod:
			return nil
		}
	}
	return nil
}

// scopeAt returns the local scope of the walk.
func (f *fileState) scopeAt() *scope {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if s := f.stack[i].scope; s != nil {
			return s
		}
	}
	return f.top
}

// region returns the Region of code at p within its definition.
func (f *fileState) region(p uint32) indexer.Region {
	var r indexer.Region
	for i := len(f.stack) - 1; i >= 0; i-- {
		fr := f.stack[i]
		if fr.node >= 0 {
			return r
		}
		if fr.contains(p) {
			indexer.InRegion(&r, fr.kind, kLoop, kTry, kCond)
		}
	}
	return r
}

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	f.top = &scope{}
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kModule, kClass:
			f.namespace(it)
		case kSClass:
			self := it.HasRole(indexer.RoleObject) && f.Text(it.Role[indexer.RoleObject]) == "self"
			f.stack.Push(&frame{kind: kSClass, start: it.Start, end: it.End, node: -1, singleton: self, vis: schemas.Public, scope: &scope{}})
		case kMethod, kSMethod:
			f.method(it)
		case kConst:
			f.constant(it)
		case kLocal:
			f.scopeAt().bind(f.Text(it.Span), span{})
		case kAssign:
			f.scopeAt().bind(f.Text(it.Role[indexer.RoleName]), it.Role[indexer.RoleValue])
		case kLoop, kTry, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kCall:
			f.call(i)
		case kRescue:
			if c := srctext.Squeeze(f.Text(it.Span)); isConstPath(c) {
				f.addRef(schemas.EdgeReferences, indexer.Context(f.stack), it.Span, c, "rescue "+c)
			}
		case kBare:
			name := f.Text(it.Span)
			if vis, ok := visibilityWords[name]; ok {
				if d := f.direct(); d != nil && d.end > it.Start {
					if name == "module_function" {
						d.singleton = true
					} else if !strings.Contains(name, "_") {
						d.vis = vis
					}
					continue
				}
			}
			f.wait(i)
		case kSuper:
			f.wait(i)
		}
	}
}

func (f *fileState) wait(i int) {
	p := indexer.Pending{Item: int32(i), Src: indexer.Context(f.stack), Region: f.region(f.Items[i].Start)}
	f.pending = append(f.pending, pending{Pending: p, scope: f.scopeAt()})
}

// namespace makes the node of a module or class.
func (f *fileState) namespace(it *item) {
	o, _, inDef := f.owner()
	name := srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
	if inDef || !isConstPath(name) {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, scope: &scope{}})
		return
	}
	qname := name
	if abs, ok := strings.CutPrefix(name, "::"); ok {
		qname = abs
	} else if o != nil {
		qname = f.Nodes[o.node].QualifiedName + "::" + name
	}
	short := name[strings.LastIndex(name, ":")+1:]
	kind := schemas.KindModule
	if it.Kind == kClass {
		kind = schemas.KindClass
	}
	parent := int32(-1)
	if o != nil {
		parent = o.node
	}
	n := f.AddNode(kind, short, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported = schemas.Public, true
	end := it.Role[indexer.RoleName].End
	if it.HasRole(rSuper) {
		end = it.Role[rSuper].End
	}
	node.Signature = srctext.OneLine(f.Str[it.Start:end])
	node.BodyHash, _ = f.BodyHash(it, indexer.RoleBody)
	if it.HasRole(rSuper) {
		if s := srctext.Squeeze(f.Text(it.Role[rSuper])); isConstPath(s) {
			f.addRef(schemas.EdgeExtends, n, it.Role[rSuper], s, s)
		}
	}
	f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, body: it.Role[indexer.RoleBody], vis: schemas.Public, scope: &scope{}})
}

// method makes the node of a method (or of a top-level function).
func (f *fileState) method(it *item) {
	o, singleton, inDef := f.owner()
	d := f.direct()
	var given string // private def m
	if len(f.stack) > 0 {
		if c := f.stack.Top(); c.kind == kCall && c.vis != "" {
			given = c.vis
		}
	}
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, scope: &scope{}})
	if inDef || !it.HasRole(indexer.RoleName) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	if it.Kind == kSMethod {
		obj := f.Text(it.Role[indexer.RoleObject])
		if o == nil || obj != "self" && obj != f.Nodes[o.node].Name {
			return
		}
		singleton = true
	}
	kind, qname, parent := schemas.KindFunction, name, int32(-1)
	vis := schemas.Private // top-level methods are private methods of Object
	if o != nil {
		parent = o.node
		sep := "#"
		if singleton {
			sep = "."
		}
		qname = f.Nodes[o.node].QualifiedName + sep + name
		kind = schemas.KindMethod
		if name == "initialize" && !singleton {
			kind = schemas.KindConstructor
		}
		vis = schemas.Public
		if d != nil && it.Kind == kMethod {
			vis = d.vis
		}
		if given != "" {
			vis = given
		}
		if kind == schemas.KindConstructor {
			vis = schemas.Private
		}
	}
	n := f.AddNode(kind, name, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Visibility = vis
	node.Exported = vis == schemas.Public && o != nil
	node.IsStatic = singleton
	node.IsTest = f.Test && kind == schemas.KindMethod && strings.HasPrefix(name, "test_")
	end := it.Role[indexer.RoleName].End
	if it.HasRole(indexer.RoleParams) {
		end = it.Role[indexer.RoleParams].End
	}
	node.Signature = srctext.OneLine(f.Str[it.Start:end])
	node.BodyHash, _ = f.BodyHash(it, indexer.RoleBody)
	fr.node = n
}

// constant makes the node of a constant assigned in a class or module
// body, or at the top level.
func (f *fileState) constant(it *item) {
	d := f.direct()
	_, _, inDef := f.owner()
	if inDef || d != nil && (d.kind == kSClass || d.node < 0) {
		return
	}
	for _, fr := range f.stack {
		if fr.kind == kLoop || fr.kind == kCond || fr.kind == kTry {
			return // a conditional definition: left out
		}
	}
	name := f.Text(it.Role[indexer.RoleName])
	qname, parent := name, int32(-1)
	if d != nil {
		parent = d.node
		qname = f.Nodes[d.node].QualifiedName + "::" + name
	}
	n := f.AddNode(schemas.KindConstant, name, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported, node.IsStatic = schemas.Public, true, true
	node.Signature = srctext.OneLine(f.Text(it.Span))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
}

// call handles a method call: the declarative ones of a class body
// (attr_*, include, private :m), require, and the others, whose refs wait
// for the bindings of the file.
func (f *fileState) call(i int) {
	it := &f.Items[i]
	name := f.Text(it.Role[indexer.RoleName])
	if it.HasRole(rBlock) && loopMethods[name] {
		f.stack.Push(&frame{kind: kLoop, start: it.Role[rBlock].Start, end: it.Role[rBlock].End, node: -1})
	}
	if it.HasRole(indexer.RoleObject) {
		f.wait(i)
		return
	}
	switch name {
	case "require", "require_relative":
		if s, ok := f.stringArg(it); ok {
			expr := "require " + s
			if name == "require_relative" {
				expr = relative(path.Dir(f.Path), s)
			}
			f.addRef(schemas.EdgeImports, -1, it.Span, srctext.OneLine(f.Text(it.Span)), expr)
			return
		}
	}
	d := f.direct()
	if d == nil || d.node < 0 && d.kind != kSClass {
		f.wait(i)
		return
	}
	switch name {
	case "attr_accessor", "attr_reader", "attr_writer", "attr":
		if d.kind == kSClass || d.singleton {
			return
		}
		for _, a := range f.symbols(it) {
			n := f.AddNode(schemas.KindField, a, f.Nodes[d.node].QualifiedName+"#"+a, d.node, it.Span)
			node := &f.Nodes[n]
			node.Visibility = d.vis
			node.Exported = d.vis == schemas.Public
			node.Signature = srctext.OneLine(f.Text(it.Span))
			node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
		}
		return
	case "include", "extend", "prepend":
		if d.kind == kSClass || !it.HasRole(indexer.RoleArgs) {
			return
		}
		for _, a := range splitArgs(f.Text(it.Role[indexer.RoleArgs])) {
			if a = srctext.Squeeze(a); isConstPath(a) {
				f.addRef(schemas.EdgeReferences, d.node, it.Span, name+" "+a, name+" "+a)
			}
		}
		return
	}
	if vis, ok := visibilityWords[name]; ok && it.HasRole(indexer.RoleArgs) && d.node >= 0 {
		syms := f.symbols(it)
		for _, s := range syms {
			f.fixes = append(f.fixes, visFix{owner: d.node, name: s, vis: vis, singleton: strings.HasSuffix(name, "_class_method")})
		}
		if vis != "" && len(syms) == 0 {
			f.stack.Push(&frame{kind: kCall, start: it.Role[indexer.RoleArgs].Start, end: it.Role[indexer.RoleArgs].End, node: -1, vis: vis})
		}
		return
	}
	f.wait(i)
}

// stringArg returns the only argument of a call when it is a plain string
// literal.
func (f *fileState) stringArg(it *item) (string, bool) {
	if !it.HasRole(indexer.RoleArgs) {
		return "", false
	}
	a := strings.TrimSpace(f.Text(it.Role[indexer.RoleArgs]))
	a = strings.TrimSuffix(strings.TrimPrefix(a, "("), ")")
	a = strings.TrimSpace(a)
	if len(a) < 2 || (a[0] != '\'' && a[0] != '"') || a[len(a)-1] != a[0] || strings.ContainsAny(a[1:len(a)-1], "'\"#\\") {
		return "", false
	}
	return a[1 : len(a)-1], true
}

// symbols returns the names a call's arguments give as symbols or
// strings (attr_accessor :a, "b").
func (f *fileState) symbols(it *item) []string {
	if !it.HasRole(indexer.RoleArgs) {
		return nil
	}
	var out []string
	for _, a := range splitArgs(f.Text(it.Role[indexer.RoleArgs])) {
		a = strings.TrimSpace(a)
		switch {
		case strings.HasPrefix(a, ":") && isMethodName(a[1:]):
			out = append(out, a[1:])
		case len(a) > 2 && (a[0] == '"' || a[0] == '\'') && a[len(a)-1] == a[0] && isMethodName(a[1:len(a)-1]):
			out = append(out, a[1:len(a)-1])
		}
	}
	return out
}

// relative returns the Expr of require_relative s in folder dir: the path
// it loads, or ?outside when it leaves the tree.
func relative(dir, s string) string {
	p := path.Join(dir, s)
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(s) {
		return "?outside"
	}
	if !strings.HasSuffix(p, ".rb") {
		p += ".rb"
	}
	return "relative " + p
}

// Finish applies `private :name` and writes the refs that needed every
// binding of the file.
func (f *fileState) Finish(ctx context.Context) {
	for _, fx := range f.fixes {
		owner := f.Nodes[fx.owner].ID
		for i := range f.Nodes {
			n := &f.Nodes[i]
			if n.ParentID != owner || n.Name != fx.name || n.Kind == schemas.KindClass || n.Kind == schemas.KindModule {
				continue
			}
			if fx.vis == "" { // module_function :m
				continue
			}
			if n.Kind == schemas.KindConstant || fx.singleton == n.IsStatic {
				n.Visibility = fx.vis
				n.Exported = fx.vis == schemas.Public
			}
		}
	}
	for _, p := range f.pending {
		it := &f.Items[p.Item]
		var r *schemas.Ref
		switch it.Kind {
		case kBare:
			name := f.Text(it.Span)
			if _, local := p.scope.names[name]; local || !isMethodName(name) {
				continue
			}
			r = f.addRef(schemas.EdgeCalls, p.Src, it.Span, name, "~"+name)
		case kSuper:
			r = f.addRef(schemas.EdgeCalls, p.Src, it.Span, "super", "super")
		case kCall:
			name := f.Text(it.Role[indexer.RoleName])
			target := srctext.OneLine(f.Str[it.Start:it.Role[indexer.RoleName].End])
			at := it.Role[indexer.RoleName]
			kind := schemas.EdgeCalls
			var expr string
			switch {
			case name == "super":
				expr = "super"
			case !it.HasRole(indexer.RoleObject):
				if name == "new" {
					kind, expr = schemas.EdgeInstantiates, "self"
				} else {
					expr = name
				}
			default:
				recv := f.exprOf(it.Role[indexer.RoleObject], p.scope, 0)
				switch {
				case strings.HasPrefix(recv, "?"):
					expr = recv
				case name == "new" && !strings.HasPrefix(recv, "{"):
					kind, expr = schemas.EdgeInstantiates, recv
				default:
					expr = recv + "." + name
				}
			}
			r = f.addRef(kind, p.Src, at, target, expr)
			if it.HasRole(indexer.RoleArgs) {
				r.Args = srctext.Args(f.Text(it.Role[indexer.RoleArgs]))
			}
		}
		p.Mark(r)
	}
}

// maxExprDepth bounds the locals followed through their values.
const maxExprDepth = 8

// exprOf returns the Expr of the receiver at s, seen from scope sc.
func (f *fileState) exprOf(s span, sc *scope, depth int) string {
	if depth > maxExprDepth {
		return indexer.ExprLocal
	}
	if i, ok := f.calls[s.Key()]; ok {
		it := &f.Items[i]
		if f.Text(it.Role[indexer.RoleName]) == "new" && it.HasRole(indexer.RoleObject) {
			if r := f.exprOf(it.Role[indexer.RoleObject], sc, depth+1); isConstPath(r) || r == "self" {
				return "{" + r + "}"
			}
		}
		return "?call"
	}
	t := srctext.Squeeze(f.Text(s))
	switch {
	case t == "self":
		return "self"
	case isConstPath(t):
		return t
	case isIdent(t):
		vals, ok := sc.names[t]
		if !ok {
			return "?call"
		}
		e := ""
		for _, v := range vals {
			ve := indexer.ExprLocal
			if v.End > v.Start {
				ve = f.exprOf(v, sc, depth+1)
			}
			if !strings.HasPrefix(ve, "{") || e != "" && e != ve {
				return indexer.ExprLocal
			}
			e = ve
		}
		if e == "" {
			return indexer.ExprLocal
		}
		return e
	case strings.HasPrefix(t, "@@"):
		return "?cvar"
	case strings.HasPrefix(t, "@"):
		return "?ivar"
	case strings.HasPrefix(t, "$"):
		return "?global"
	case t != "" && strings.ContainsRune("\"'`:0123456789[{%", rune(t[0])):
		return indexer.ExprLiteral
	}
	return indexer.ExprExpr
}
