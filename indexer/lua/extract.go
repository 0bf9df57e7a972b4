package lua

import (
	"context"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Positions in rows are as indexer.Rows says. A symbol's range covers its
// declaration statement; its body hash covers it too.

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

// isTestFile reports whether file holds tests by Lua conventions (busted
// and others): named *_spec.lua, *_test.lua or test_*.lua, or under a
// spec/, test/ or tests/ folder.
func isTestFile(file string) bool {
	return indexer.TestNamed(file, []string{"test_"}, []string{"_spec.lua", "_test.lua"}, []string{"spec", "test", "tests"})
}

// binding is a local: visible from decl to end, bound to expr (see
// expr.go).
type binding struct {
	decl, end uint32
	expr      string
}

// frame is a range the walk is inside of: a function, a block, a region.
type frame struct {
	kind       kind
	start, end uint32
	node       int32 // the node made for it, -1 if none
	owner      int32 // methods and functions of a table: the table's node
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

func (fr *frame) contains(p uint32) bool { return fr.start <= p && p < fr.end }

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]

	stack    indexer.Stack[*frame]
	calls    map[uint64]int32 // call items by span
	binds    map[string][]binding
	globals  map[string]string // global tables and functions of the file → expr
	classes  map[string]bool   // tables with methods or an __index
	adopt    map[uint32]int32  // a function expression's start → the node an assignment made for it
	requires map[uint32]bool   // require calls already recorded, by start
	qnames   map[string]bool   // fields made, by qualified name
	results  map[int32]bool    // functions given a result fact
	vars     span              // the last local declaration
}

// newFileState returns the extraction of f.
func newFileState(f indexer.File[kind]) indexer.Passes {
	return &fileState{
		File:  f,
		calls: map[uint64]int32{}, binds: map[string][]binding{},
		globals: map[string]string{}, classes: map[string]bool{}, adopt: map[uint32]int32{},
		requires: map[uint32]bool{}, qnames: map[string]bool{}, results: map[int32]bool{},
	}
}

// Prepare indexes what the walk looks up by position: doc comments, call
// expressions, and the tables that are classes.
func (f *fileState) Prepare(ctx context.Context) {
	docs := indexer.NewLineDocs(f.Str, f.Docs, docComment)
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kDoc:
			docs.Add(it.Span)
		case kCall:
			f.calls[it.Key()] = int32(i)
			if srctext.Squeeze(f.Text(it.Role[indexer.RoleName])) == "setmetatable" {
				if args := splitSpans(f.Str, it.Role[indexer.RoleArgs]); len(args) == 2 {
					if a := f.Text(args[0]); isIdent(a) {
						f.classes[a] = true
					}
				}
			}
		case kFunc:
			name := srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
			if i := strings.IndexByte(name, ':'); i > 0 {
				f.classes[head(name[:i])] = true
			}
		case kAssign:
			for _, n := range strings.Split(f.Text(it.Role[rNames]), ",") {
				if n = srctext.Squeeze(n); strings.HasSuffix(n, ".__index") {
					f.classes[strings.TrimSuffix(n, ".__index")] = true
				}
			}
		case kVars:
			if !it.HasRole(rValues) {
				continue
			}
			names := strings.Split(f.Text(it.Role[rNames]), ",")
			for j, v := range splitSpans(f.Str, it.Role[rValues]) {
				if j < len(names) && strings.HasPrefix(f.Text(v), "setmetatable") {
					f.classes[localName(names[j])] = true
				}
			}
		}
	}
	docs.End()
}

func head(chain string) string {
	if i := strings.IndexAny(chain, ".:"); i >= 0 {
		return chain[:i]
	}
	return chain
}

// localName drops the attribute of a local's name (x <const>).
func localName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// addNode is AddNode of a node whose body hash covers all of s.
func (f *fileState) addNode(kind, name, qname string, parent int32, s span) int32 {
	n := f.AddNode(kind, name, qname, parent, s)
	f.Nodes[n].BodyHash = xxhash.Sum64String(f.Text(s))
	return n
}

// addRef is AddRef from node src (-1 for the file).
func (f *fileState) addRef(kind string, src int32, at span, target, expr string) *schemas.Ref {
	return f.AddRef(kind, f.SrcID(src), at, target, expr)
}

// nodeExpr is the Expr head that stands for node n.
func (f *fileState) nodeExpr(n int32) string { return "#" + strconv.FormatUint(f.Nodes[n].ID, 16) }

// nodeOf returns the node an Expr head of this file stands for, or -1.
func (f *fileState) nodeOf(e string) int32 {
	if !strings.HasPrefix(e, "#") {
		return -1
	}
	id, err := strconv.ParseUint(e[1:], 16, 64)
	if err != nil {
		return -1
	}
	for i := range f.Nodes {
		if f.Nodes[i].ID == id {
			return int32(i)
		}
	}
	return -1
}

func isTable(n *schemas.Node) bool {
	return n.Kind == schemas.KindClass || n.Kind == schemas.KindModule
}

// atChunk reports whether the walk is outside every function.
func (f *fileState) atChunk() bool {
	for _, fr := range f.stack {
		if fr.kind == kFunc || fr.kind == kLambda {
			return false
		}
	}
	return true
}

// scopeEnd returns the end of the block around p.
func (f *fileState) scopeEnd(p uint32) uint32 {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if fr := f.stack[i]; fr.kind == kScope && fr.contains(p) {
			return fr.end
		}
	}
	return uint32(len(f.Str))
}

func (f *fileState) bind(name string, decl, end uint32, expr string) {
	f.binds[name] = append(f.binds[name], binding{decl, end, expr})
}

// lookup returns the binding of name visible at p, or nil.
func (f *fileState) lookup(name string, p uint32) *binding {
	bs := f.binds[name]
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].decl <= p && p < bs[i].end {
			return &bs[i]
		}
	}
	return nil
}

// context returns the node code at the walk belongs to (-1 for the file)
// and the innermost function frame.
func (f *fileState) context() (int32, *frame) {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if fr := f.stack[i]; fr.node >= 0 {
			return fr.node, fr
		}
	}
	return -1, nil
}

// regions reports whether code at p runs, within its function, in a loop
// or a conditional branch.
func (f *fileState) regions(p uint32) (loop, cond bool) {
	for i := len(f.stack) - 1; i >= 0; i-- {
		fr := f.stack[i]
		if fr.kind == kFunc || fr.kind == kLambda {
			return
		}
		if !fr.contains(p) {
			continue
		}
		switch fr.kind {
		case kLoop:
			loop = true
		case kCond:
			cond = true
		}
	}
	return
}

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	for _, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kScope, kLoop, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, owner: -1})
		case kFunc:
			f.function(it)
		case kLambda:
			n, ok := f.adopt[it.Start]
			if !ok {
				n = -1
			}
			owner := int32(-1)
			if n >= 0 {
				if p := f.nodeOf("#" + strconv.FormatUint(f.Nodes[n].ParentID, 16)); p >= 0 && isTable(&f.Nodes[p]) {
					owner = p
				}
			}
			f.stack.Push(&frame{kind: kLambda, start: it.Start, end: it.End, node: n, owner: owner})
		case kParam:
			if len(f.stack) > 0 {
				fr := f.stack.Top()
				f.bind(f.Text(it.Span), fr.start, fr.end, indexer.ExprLocal)
			}
		case kForVar:
			for j := len(f.stack) - 1; j >= 0; j-- {
				if fr := f.stack[j]; fr.kind == kLoop {
					f.bind(f.Text(it.Span), fr.start, fr.end, indexer.ExprLocal)
					break
				}
			}
		case kVars:
			f.locals(it)
		case kAssign:
			if f.vars.Start < it.Start && it.End <= f.vars.End {
				continue // the assignment of a local declaration
			}
			f.assign(it)
		case kCall:
			f.call(it)
		case kRet:
			f.ret(it)
		}
	}
}

// Finish has nothing left to do: Run makes a Lua file's refs whole.
func (f *fileState) Finish(context.Context) {}

// function makes the node of a function statement.
func (f *fileState) function(it *item) {
	name := srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
	local := strings.HasPrefix(f.Text(it.Span), "local")
	chunk := f.atChunk()
	ctx, _ := f.context()
	fr := f.stack.Push(&frame{kind: kFunc, start: it.Start, end: it.End, node: -1, owner: -1})
	sig := srctext.OneLine(f.Str[it.Start:it.Role[indexer.RoleParams].End])
	if isIdent(name) {
		n := f.addNode(schemas.KindFunction, name, name, ctx, it.Span)
		node := &f.Nodes[n]
		node.Signature = sig
		node.Visibility, node.Exported = schemas.Private, false
		if !local {
			node.Visibility, node.Exported = schemas.Public, chunk
		}
		node.IsTest = f.Test && strings.HasPrefix(name, "test")
		fr.node = n
		switch {
		case local:
			f.bind(name, it.Start, f.scopeEnd(it.Start), f.nodeExpr(n))
		case chunk:
			f.globals[name] = f.nodeExpr(n)
		}
		return
	}
	if !isChain(name) {
		return
	}
	colon := strings.IndexByte(name, ':') >= 0
	h := head(name)
	short := name[strings.LastIndexAny(name, ".:")+1:]
	owner := f.nodeOf(f.chainExpr(h, it.Start))
	kind, qname, parent := schemas.KindFunction, name, ctx
	if colon {
		kind = schemas.KindMethod
	}
	static := false
	if owner >= 0 && isTable(&f.Nodes[owner]) {
		qname, parent = f.Nodes[owner].QualifiedName+name[len(h):], owner
		if f.Nodes[owner].Kind == schemas.KindClass {
			kind, static = schemas.KindMethod, !colon
		}
	} else {
		owner = -1
	}
	n := f.addNode(kind, short, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Signature = sig
	node.Visibility, node.Exported, node.IsStatic = schemas.Public, owner >= 0 && f.Nodes[owner].Exported, static
	node.IsTest = f.Test && strings.HasPrefix(short, "test")
	fr.node, fr.owner = n, owner
	if colon {
		self := exprSelf
		if owner >= 0 {
			self = f.nodeExpr(owner)
		}
		f.bind("self", it.Start, it.End, self)
	}
}

// table makes the node of a table declared at the top level.
func (f *fileState) table(name string, local bool, it *item, value span) int32 {
	kind := schemas.KindModule
	if f.classes[name] {
		kind = schemas.KindClass
	}
	n := f.addNode(kind, name, name, -1, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported = schemas.Public, !local
	if local {
		node.Visibility = schemas.Private
	}
	node.Signature = srctext.OneLine(firstLine(f.Text(it.Span)))
	v := f.Text(value)
	if strings.HasPrefix(v, "setmetatable") {
		if i, ok := f.calls[value.Key()]; ok {
			if args := splitSpans(f.Str, f.Items[i].Role[indexer.RoleArgs]); len(args) == 2 {
				f.base(n, args[1])
			}
		}
	}
	return n
}

// base records the base of table n given by the metatable at mt:
// {__index = B}, or B itself.
func (f *fileState) base(n int32, mt span) {
	t := f.Text(mt)
	var b span
	switch {
	case isIdent(t):
		b = mt
	case strings.HasPrefix(t, "{"):
		inner := span{Start: mt.Start + 1, End: mt.End - 1}
		for _, fs := range splitSpans(f.Str, inner) {
			k, v, ok := strings.Cut(f.Text(fs), "=")
			if ok && strings.TrimSpace(k) == "__index" {
				off := uint32(len(k) + 1)
				b = span{Start: fs.Start + off, End: fs.End}
				for b.Start < b.End && isSpace(f.Str[b.Start]) {
					b.Start++
				}
				if !isChain(strings.TrimSpace(v)) {
					return
				}
			}
		}
	}
	if b.End <= b.Start {
		return
	}
	name := srctext.Squeeze(f.Text(b))
	e := f.chainExpr(name, mt.Start)
	if strings.HasPrefix(e, "?") {
		return
	}
	f.addRef(schemas.EdgeExtends, n, b, name, e)
}

// locals handles a local declaration.
func (f *fileState) locals(it *item) {
	f.vars = it.Span
	names := strings.Split(f.Text(it.Role[rNames]), ",")
	var values []span
	if it.HasRole(rValues) {
		values = splitSpans(f.Str, it.Role[rValues])
	}
	end := f.scopeEnd(it.Start)
	chunk := f.atChunk()
	ctx, _ := f.context()
	for i, raw := range names {
		name := localName(raw)
		if !isIdent(name) {
			continue
		}
		if i >= len(values) {
			if len(values) > 0 && i == len(names)-1 {
				f.bind(name, it.End, end, indexer.ExprLocal) // from a call with several results
			} else {
				f.bind(name, it.End, end, indexer.ExprLocal)
			}
			continue
		}
		f.bind(name, it.End, end, f.value(name, true, chunk, ctx, it, values[i]))
	}
}

// value makes what the value at v of a variable name declares (a table,
// a function, an import) and returns the variable's Expr.
func (f *fileState) value(name string, local, chunk bool, ctx int32, it *item, v span) string {
	t := f.Text(v)
	switch {
	case chunk && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "setmetatable")):
		if strings.HasPrefix(t, "setmetatable") {
			if i, ok := f.calls[v.Key()]; !ok || !strings.HasPrefix(f.Text(splitSpans(f.Str, f.Items[i].Role[indexer.RoleArgs])[0]), "{") {
				break
			}
		}
		return f.nodeExpr(f.table(name, local, it, v))
	case strings.HasPrefix(t, "function"):
		n := f.addNode(schemas.KindFunction, name, name, ctx, it.Span)
		node := &f.Nodes[n]
		node.Visibility, node.Exported = schemas.Private, false
		if !local {
			node.Visibility, node.Exported = schemas.Public, chunk
		}
		node.Signature = srctext.OneLine(firstLine(f.Text(it.Span)))
		node.IsTest = f.Test && strings.HasPrefix(name, "test")
		f.adopt[v.Start] = n
		return f.nodeExpr(n)
	}
	if m, ok := f.requireOf(v); ok {
		f.requires[v.Start] = true
		f.addRef(schemas.EdgeImports, -1, v, srctext.OneLine(t), m)
		return "require(" + m + ")"
	}
	return f.exprOf(v)
}

// requireOf returns the module of require("m") at v.
func (f *fileState) requireOf(v span) (string, bool) {
	i, ok := f.calls[v.Key()]
	if !ok || srctext.Squeeze(f.Text(f.Items[i].Role[indexer.RoleName])) != "require" {
		return "", false
	}
	a := strings.TrimSpace(f.Text(f.Items[i].Role[indexer.RoleArgs]))
	a = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(a, "("), ")"))
	if len(a) < 2 || (a[0] != '"' && a[0] != '\'') || a[len(a)-1] != a[0] {
		return "", false
	}
	m := a[1 : len(a)-1]
	if m == "" || strings.ContainsAny(m, "\"'\\ /") {
		return "", false
	}
	return m, true
}

// assign handles an assignment statement.
func (f *fileState) assign(it *item) {
	names := strings.Split(f.Text(it.Role[rNames]), ",")
	values := splitSpans(f.Str, it.Role[rValues])
	chunk := f.atChunk()
	ctx, _ := f.context()
	for i, raw := range names {
		name := srctext.Squeeze(raw)
		var v span
		if i < len(values) {
			v = values[i]
		}
		if isIdent(name) {
			if b := f.lookup(name, it.Start); b != nil {
				e := indexer.ExprLocal
				if v.End > v.Start {
					e = f.exprOf(v)
				}
				if e != b.expr {
					f.bind(name, it.End, b.end, indexer.ExprLocal)
				}
				continue
			}
			if chunk && v.End > v.Start {
				if e := f.value(name, false, true, ctx, it, v); strings.HasPrefix(e, "#") || strings.HasPrefix(e, "require(") {
					f.globals[name] = e
				}
			}
			continue
		}
		if !isChain(name) || strings.IndexByte(name, ':') >= 0 || v.End <= v.Start {
			continue
		}
		h := head(name)
		owner := f.nodeOf(f.chainExpr(h, it.Start))
		if owner < 0 || !isTable(&f.Nodes[owner]) {
			continue
		}
		short := name[strings.LastIndexByte(name, '.')+1:]
		qname := f.Nodes[owner].QualifiedName + name[len(h):]
		t := f.Text(v)
		switch {
		case short == "__index":
			if chunk && !isIdent(t) {
				f.base(owner, v)
			}
		case strings.HasPrefix(t, "function"):
			kind, static := schemas.KindFunction, false
			if f.Nodes[owner].Kind == schemas.KindClass {
				kind, static = schemas.KindMethod, true
			}
			n := f.addNode(kind, short, qname, owner, it.Span)
			node := &f.Nodes[n]
			node.Visibility, node.Exported, node.IsStatic = schemas.Public, f.Nodes[owner].Exported, static
			node.Signature = srctext.OneLine(firstLine(f.Text(it.Span)))
			f.adopt[v.Start] = n
		case chunk && !f.qnames[qname]:
			f.qnames[qname] = true
			kind := schemas.KindField
			if isUpper(short) {
				kind = schemas.KindConstant
			}
			n := f.addNode(kind, short, qname, owner, it.Span)
			node := &f.Nodes[n]
			node.Visibility, node.Exported, node.IsStatic = schemas.Public, f.Nodes[owner].Exported, true
			node.Signature = srctext.OneLine(firstLine(f.Text(it.Span)))
		}
	}
}

// call handles a function call: require, setmetatable, or any other.
func (f *fileState) call(it *item) {
	callee := srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
	switch callee {
	case "require":
		if m, ok := f.requireOf(it.Span); ok && !f.requires[it.Start] {
			f.addRef(schemas.EdgeImports, -1, it.Span, srctext.OneLine(f.Text(it.Span)), m)
		}
		return
	case "setmetatable":
		args := splitSpans(f.Str, it.Role[indexer.RoleArgs])
		if len(args) != 2 {
			return
		}
		if f.atChunk() {
			if n := f.nodeOf(f.chainExpr(f.Text(args[0]), it.Start)); n >= 0 && isTable(&f.Nodes[n]) && f.Nodes[n].Kind == schemas.KindClass {
				f.base(n, args[1])
			}
			return
		}
		// In a function of table C: setmetatable(o, C) or (o, self) makes
		// an instance of C, which the function returns (by convention).
		ctx, fr := f.context()
		if fr == nil || fr.owner < 0 || f.results[ctx] {
			return
		}
		mt := srctext.Squeeze(f.Text(args[1]))
		if mt == "self" || f.chainExpr(mt, it.Start) == f.nodeExpr(fr.owner) || strings.Contains(mt, "__index="+f.Nodes[fr.owner].Name) {
			f.results[ctx] = true
			f.addRef(schemas.RefResult, ctx, args[1], mt, f.nodeExpr(fr.owner))
		}
		return
	}
	ctx, _ := f.context()
	loop, cond := f.regions(it.Start)
	r := f.addRef(schemas.EdgeCalls, ctx, it.Role[indexer.RoleName], callee, f.chainExpr(callee, it.Start))
	r.Args = srctext.Args(f.Text(it.Role[indexer.RoleArgs]))
	r.InLoop, r.Conditional = loop, cond
}

// ret handles the top-level return of the file: the table it returns is
// the module's export.
func (f *fileState) ret(it *item) {
	name := f.Text(it.Span)
	e := f.chainExpr(name, it.Start)
	n := f.nodeOf(e)
	if n < 0 {
		return
	}
	f.Nodes[n].Exported, f.Nodes[n].Visibility = true, schemas.Public
	for i := range f.Nodes {
		if f.Nodes[i].ParentID == f.Nodes[n].ID && f.Nodes[i].Visibility == schemas.Public {
			f.Nodes[i].Exported = true
		}
	}
	f.addRef(schemas.RefExport, -1, it.Span, name, e)
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
