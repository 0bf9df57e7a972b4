package rust

import (
	"context"
	"maps"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Positions in rows are as indexer.Rows says. A symbol's range covers its
// outer attributes (not its doc comments); its body hash covers its body
// only.

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

type extractor struct {
	tree *indexer.Tree
	*indexer.MatchScanner[kind]
	manifests map[string]string // Cargo.toml path → package name
}

func (x *extractor) Extract(ctx context.Context, file string, src []byte) (*indexer.Result, error) {
	items, err := x.Scan(ctx, src)
	if err != nil {
		return nil, err
	}
	f := newFile(x.locate(file), &indexer.Scanned[kind]{Path: file, Src: src, Items: items, Lines: x.Lines()})
	f.run(ctx, items)
	return x.Result(ctx, f.Nodes, f.Refs, f.Test)
}

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]
	lay layout

	stack       []open
	gen         *genScope // generic parameters where expressions are read
	binds       []*binding
	pend        pending
	deferred    []deferredFact
	depth       int               // expr recursion
	locals      map[string]bool   // names bound by closures inside a scanned macro
	adapters    map[uint32]string // first argument of an adapter call → Expr of its items
	tdefs       map[uint64]bool   // type names that are no uses, by span
	quals       map[uint32]uint32 // paths of types: the start of the outermost by its end
	heads       map[uint32]bool   // starts of the types with edges of their own: impls, struct literals
	alias       span              // the type alias the walk is in, if any
	aliasParams []string          // its generic parameters
	inField     struct {          // the field whose type the walk is in
		at   span
		node int32
	}
}

// open is a range the walk is inside of: a scope, an item with a body, a
// region (loop, conditional, try) or a binder (closure, for, match arm).
type open struct {
	kind       kind
	start, end uint32
	body       uint32 // where the body starts, if any
	sym        int32  // the node this range defines, or -1
	qn         string // qualified name of what it defines
	dir        string // modules: the folder of their child module files
	gen        *genScope
	bindMark   int  // len(binds) when it opened
	exported   bool // a pub item declared in it is reachable from other crates
	vis        string
	fields     int    // structs: tuple fields seen
	self       span   // impls: the self type
	trait      span   // impls: the trait, if any
	hasTrait   bool   //
	typeName   string // impls: the name of the self type, for qualified names
	inline     bool   // modules: an inline module (not the file's)
	selfMethod bool   // functions: a method with a self parameter
}

// pending holds the outer attributes and doc comments seen since the last
// item, which belong to the next item when only blanks separate them.
type pending struct {
	attrs []string
	docs  []string
	start uint32 // where the first attribute starts
	end   uint32
	any   bool
}

type deferredFact struct {
	kind   string
	src    int32
	at     span
	target string
	text   string // a type, bounds or an impl's self type
	trait  string // impl facts: the trait, if any
	gen    *genScope
}

// binding is a local name: visible from start to end (a let from the end
// of its statement to the end of its block), bound to a value we may
// follow.
type binding struct {
	name       string
	start, end uint32
	known      bool // a single name bound to a type or a value
	typ, value span
	hasType    bool
	hasValue   bool
	suffix     string // "?" for Some(x) = v, "[]" for a for loop
	gen        *genScope
	expr       indexer.Lazy[string] // with known, its Expr, worked out on first use
}

// newFile returns the extraction of s, laid out in its crate as l says.
func newFile(l layout, s *indexer.Scanned[kind]) *fileState {
	return &fileState{
		File: indexer.NewFile(s, Name, func(string) bool { return l.test }), lay: l,
		tdefs: map[uint64]bool{}, quals: map[uint32]uint32{}, heads: map[uint32]bool{},
	}
}

func (f *fileState) top() *open { return &f.stack[len(f.stack)-1] }

// innermost returns the index of the innermost open of one of kinds, or -1.
func (f *fileState) innermost(kinds ...kind) int {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if slices.Contains(kinds, f.stack[i].kind) {
			return i
		}
	}
	return -1
}

// kFile marks the open of the file's own module.
const kFile = numKinds

// scopeKinds are the opens that hold items: the file, modules, functions.
var scopeKinds = []kind{kFile, kMod, kFn}

// scope returns the index of the innermost module, file or function open.
func (f *fileState) scope() int { return f.innermost(scopeKinds...) }

// sym returns the node refs made at the current position come from.
func (f *fileState) sym() int32 {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if f.stack[i].sym >= 0 {
			return f.stack[i].sym
		}
	}
	return 0
}

func (f *fileState) push(o open) {
	o.bindMark = len(f.binds)
	f.stack = append(f.stack, o)
}

// run makes the nodes and refs of the file from the items of the query.
func (f *fileState) run(ctx context.Context, items []item) {
	count := indexer.CountKinds(ctx, items, numKinds)
	f.Nodes = make([]schemas.Node, 0, 1+count[kFn]+count[kStruct]+count[kEnum]+count[kField]+count[kVariant])
	f.Refs = make([]schemas.Ref, 0, 1+count[kCall]+count[kMacroCall]+count[kUse]+count[kField]+count[kFn])
	end := uint32(len(f.Src))
	qn := f.lay.qualified()
	name := f.lay.crate
	if len(f.lay.mods) > 0 {
		name = f.lay.mods[len(f.lay.mods)-1]
	}
	mod := f.AddNode(schemas.KindModule, name, qn, -1, span{Start: 0, End: end})
	m := &f.Nodes[mod]
	m.ParentID = 0 // the module node has no parent
	if end > 0 && f.Src[end-1] == '\n' {
		m.EndLine, m.EndCol = srctext.Pos(f.Lines, end-1)
	}
	if f.lay.root {
		m.Visibility = schemas.Public
	}
	m.Exported = f.lay.lib
	m.IsTest = f.Test
	m.BodyHash = xxhash.Sum64(f.Src)
	f.AddNodeRef(refCrate, mod, span{Start: 0, End: 0}, f.lay.crate, f.lay.manifest)
	f.stack = append(f.stack[:0], open{
		kind: kFile, end: math.MaxUint32, sym: mod, qn: qn, dir: f.lay.childDir, exported: f.lay.lib,
	})

	for i := range items {
		if indexer.Stopped(ctx, i) {
			return
		}
		it := &items[i]
		for len(f.stack) > 1 && f.top().end <= it.Start {
			f.pop()
		}
		f.gen = f.genAt()
		switch it.Kind {
		case kAttr, kDoc:
			f.decoration(it)
		case kInnerAttr:
			f.innerAttr(it)
		case kInnerDoc:
			if s := f.innermost(kFile, kMod, kFn, kTrait, kImpl); s >= 0 && f.stack[s].sym >= 0 {
				n := &f.Nodes[f.stack[s].sym]
				n.Doc = strings.TrimLeft(n.Doc+"\n"+docText([]string{f.Text(it.Span)}), "\n")
			}
		case kMod:
			f.module(it)
		case kFn:
			f.function(it)
		case kStruct, kUnion, kEnum, kTrait:
			f.typeDef(it)
		case kVariant:
			f.variant(it)
		case kField, kTField:
			f.field(it)
			if n := len(f.Nodes) - 1; n >= 0 && f.Nodes[n].Kind == schemas.KindField && f.Nodes[n].StartByte == it.Start {
				f.inField.at, f.inField.node = it.Span, int32(n)
			}
		case kTDef:
			f.tdefs[uint64(it.Start)<<32|uint64(it.End)] = true
			if it.Start < f.alias.End {
				f.aliasParams = append(f.aliasParams, f.Text(it.Span))
			}
		case kTQual:
			if _, ok := f.quals[it.End]; !ok {
				f.quals[it.End] = it.Start
			}
		case kTUse:
			f.typeUse(it)
		case kImpl:
			f.impl(it)
		case kConst, kStatic, kAlias, kMacro:
			if it.Kind == kAlias {
				f.alias, f.aliasParams = it.Span, f.aliasParams[:0]
			}
			f.value(it)
		case kGenerics, kWhere:
			f.generics(it)
		case kUse:
			f.use(it)
		case kExtern:
			f.externCrate(it)
		case kLet, kLetCond, kParam:
			f.bindItem(it)
		case kFor, kArm, kClosure:
			f.binder(it)
		case kMatch:
			f.push(open{kind: kMatch, start: it.Start, end: it.End, sym: -1, self: it.Role[indexer.RoleValue]})
		case kBlock, kLetScope, kLoop, kCond, kTry:
			f.push(open{kind: it.Kind, start: it.Start, end: it.End, sym: -1})
		case kCall:
			f.call(it)
		case kMacroCall:
			f.macroCall(it, it.Span, it.Role[indexer.RoleArgs])
		case kNew:
			f.heads[it.Start] = true
			name := f.Text(it.Span)
			f.AddNodeRef(schemas.EdgeInstantiates, f.sym(), it.Span, oneLine(name), normPath(name))
		}
	}
	for len(f.stack) > 1 {
		f.pop()
	}
	f.finish(ctx)
}

// pop closes the innermost open range.
func (f *fileState) pop() {
	o := f.top()
	if o.bindMark < len(f.binds) {
		clear(f.binds[o.bindMark:])
		f.binds = f.binds[:o.bindMark]
	}
	f.stack = f.stack[:len(f.stack)-1]
}

// genAt returns the generic parameters in force at the top of the stack.
func (f *fileState) genAt() *genScope {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if g := f.stack[i].gen; g != nil {
			return g
		}
	}
	return nil
}

// decoration records an outer attribute or doc comment for the next item.
func (f *fileState) decoration(it *item) {
	p := &f.pend
	if p.any && skipSpace(f.Src, int(p.end), int(it.Start)) < int(it.Start) {
		*p = pending{}
	}
	if it.Kind == kDoc {
		p.docs = append(p.docs, f.Text(it.Span))
	} else {
		if len(p.attrs) == 0 {
			p.start = it.Start
		}
		p.attrs = append(p.attrs, attrText(f.Text(it.Span)))
	}
	p.end = max(p.end, it.End)
	p.any = true
}

// take returns the attributes and docs of the item starting at start, and
// where its range starts.
func (f *fileState) take(start uint32) (from uint32, attrs []string, doc string) {
	p := f.pend
	f.pend = pending{}
	from = start
	if !p.any || p.end > start || skipSpace(f.Src, int(p.end), int(start)) < int(start) {
		return
	}
	if len(p.attrs) > 0 {
		from = p.start
	}
	return from, p.attrs, docText(p.docs)
}

// attrText returns an attribute as written inside #[...] or #![...], on
// one line.
func attrText(a string) string {
	a = strings.TrimPrefix(a, "#")
	a = strings.TrimPrefix(a, "!")
	a = strings.TrimSpace(a)
	a = strings.TrimPrefix(a, "[")
	a = strings.TrimSuffix(a, "]")
	return oneLine(strings.TrimSpace(a))
}

// innerAttr applies #![...] to the module or function around it.
func (f *fileState) innerAttr(it *item) {
	s := f.innermost(kFile, kMod, kFn)
	if s < 0 || f.stack[s].sym < 0 {
		return
	}
	n := &f.Nodes[f.stack[s].sym]
	a := attrText(f.Text(it.Span))
	n.Decorators = append(n.Decorators, a)
	if isCfgTest(a) && n.Kind == schemas.KindModule {
		n.IsTest = true
	}
}

// isCfgTest reports whether an attribute is cfg(test).
func isCfgTest(a string) bool {
	return strings.ReplaceAll(a, " ", "") == "cfg(test)"
}

// isTestAttr reports whether an attribute marks a test function: #[test],
// #[tokio::test], #[rstest], #[test_case(..)], #[bench].
func isTestAttr(a string) bool {
	p, _, _ := strings.Cut(a, "(")
	p = strings.TrimSpace(p)
	if i := strings.LastIndex(p, "::"); i >= 0 {
		p = p[i+2:]
	}
	return p == "test" || p == "rstest" || p == "test_case" || p == "bench"
}

// visibility reads the visibility modifier at the start of an item.
func visibility(text string) string {
	rest, ok := strings.CutPrefix(text, "pub")
	switch {
	case !ok || len(rest) > 0 && isIdentByte(rest[0]):
		if strings.HasPrefix(text, "crate ") {
			return schemas.Internal
		}
		return schemas.Private
	}
	rest = strings.TrimLeft(rest, " \t\n")
	if !strings.HasPrefix(rest, "(") {
		return schemas.Public
	}
	inner := strings.TrimSpace(rest[1:max(closing(rest, 0, len(rest))-1, 1)])
	if inner == "self" {
		return schemas.Private
	}
	return schemas.Internal
}

// header returns the text of an item up to its body, on one line, without
// a trailing ; or {.
func (f *fileState) header(start, body uint32) string {
	s := strings.TrimSpace(f.Str[start:body])
	s = strings.TrimSuffix(s, ";")
	s = strings.TrimSuffix(s, "{")
	return oneLine(strings.TrimSpace(s))
}

// decorate sets the attributes, doc and range start of node n.
func (f *fileState) decorate(n int32, from uint32, attrs []string, doc string) {
	node := &f.Nodes[n]
	node.Decorators = attrs
	node.Doc = doc
	if from < node.StartByte {
		node.StartByte = from
		node.StartLine, node.StartCol = srctext.Pos(f.Lines, from)
	}
}

func (f *fileState) module(it *item) {
	from, attrs, doc := f.take(it.Start)
	name := unraw(f.Text(it.Role[indexer.RoleName]))
	si := f.scope()
	sc := f.stack[si]
	dirIdx := f.innermost(kFile, kMod)
	dir := f.stack[dirIdx].dir
	if !it.HasRole(indexer.RoleBody) {
		pathAttr := ""
		for _, a := range attrs {
			if rest, ok := strings.CutPrefix(a, "path"); ok {
				rest = strings.TrimSpace(rest)
				if rest, ok = strings.CutPrefix(rest, "="); ok {
					pathAttr = strings.Trim(strings.TrimSpace(rest), `"`)
				}
			}
		}
		cands := modCandidates(dir, name, pathAttr, path.Dir(f.Path), f.stack[dirIdx].inline)
		target := name
		if slices.Contains(attrs, "macro_use") {
			target = "#[macro_use] " + name
		}
		f.AddNodeRef(refMod, sc.sym, it.Role[indexer.RoleName], target, strings.Join(cands, "|"))
		return
	}
	qn := sc.qn + "::" + name
	n := f.AddNode(schemas.KindModule, name, qn, sc.sym, it.Span)
	f.decorate(n, from, attrs, doc)
	node := &f.Nodes[n]
	node.Signature = f.header(it.Start, it.Role[indexer.RoleBody].Start)
	node.Visibility = visibility(f.Text(it.Span))
	node.Exported = node.Visibility == schemas.Public && sc.exported && sc.kind != kFn
	node.IsTest = slices.ContainsFunc(attrs, isCfgTest)
	node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	f.push(open{
		kind: kMod, start: it.Start, end: it.End, body: it.Role[indexer.RoleBody].Start, sym: n, qn: qn,
		dir: path.Join(dir, name), exported: node.Exported, vis: node.Visibility, inline: true,
	})
}

// container returns the index of the open an item declared at the current
// position belongs to: a scope, an impl or a trait.
func (f *fileState) container() int { return f.innermost(kFile, kMod, kFn, kImpl, kTrait) }

// hasSelf reports whether a parameter list starts with a self parameter.
func hasSelf(params string) bool {
	p := skipSpace(params, 1, len(params))
	for p < len(params) && params[p] == '#' { // attributes
		p = skipSpace(params, closing(params, p+1, len(params)), len(params))
	}
	for {
		switch {
		case p < len(params) && params[p] == '&':
			p = skipSpace(params, p+1, len(params))
		case p < len(params) && params[p] == '\'':
			p = skipSpace(params, identEnd(params, p+1, len(params)), len(params))
		case strings.HasPrefix(params[p:], "mut") && identEnd(params, p, len(params)) == p+3:
			p = skipSpace(params, p+3, len(params))
		default:
			return strings.HasPrefix(params[p:], "self") && identEnd(params, p, len(params)) == p+4
		}
	}
}

// isConstructor reports whether an associated function without self is a
// constructor: named new or new_* and returning Self or the type, bare or
// in a Result, Option, Box, Rc or Arc (Rust API guidelines, C-CTOR).
func isConstructor(name, result, typeName string) bool {
	if name != "new" && !strings.HasPrefix(name, "new_") {
		return false
	}
	t := normType(result, nil, 0)
	for range 2 {
		p, args, _ := strings.Cut(t, "<")
		if p == "Self" || p == typeName || strings.HasSuffix(p, "::"+typeName) {
			return true
		}
		switch p {
		case "Result", "Option", "Box", "Rc", "Arc", "io::Result", "anyhow::Result":
			t = strings.TrimSuffix(args, ">")
			if i := strings.IndexByte(t, ','); i >= 0 {
				t = t[:i]
			}
			continue
		}
		return false
	}
	return false
}

func (f *fileState) function(it *item) {
	from, attrs, doc := f.take(it.Start)
	name := unraw(f.Text(it.Role[indexer.RoleName]))
	ci := f.container()
	c := f.stack[ci]
	params := f.Text(it.Role[indexer.RoleParams])
	self := hasSelf(params)
	var n int32
	var exported, static bool
	vis := visibility(f.Text(it.Span))
	switch c.kind {
	case kImpl:
		sc := f.stack[f.scope()]
		result := ""
		if it.HasRole(indexer.RoleType) {
			result = f.Text(it.Role[indexer.RoleType])
		}
		kind := schemas.KindMethod
		switch {
		case self:
		case isConstructor(name, result, c.typeName):
			kind = schemas.KindConstructor
		default:
			static = true
		}
		n = f.AddNode(kind, name, sc.qn+"::"+c.typeName+"::"+name, sc.sym, it.Span)
		if c.hasTrait {
			vis = schemas.Public
		}
		exported = vis == schemas.Public && sc.exported && sc.kind != kFn
		f.implFact(n, &c)
	case kTrait:
		n = f.AddNode(schemas.KindMethod, name, c.qn+"::"+name, c.sym, it.Span)
		static = !self
		f.Nodes[n].IsAbstract = !it.HasRole(indexer.RoleBody)
		vis, exported = c.vis, c.exported
	default:
		n = f.AddNode(schemas.KindFunction, name, c.qn+"::"+name, c.sym, it.Span)
		exported = vis == schemas.Public && c.exported && c.kind != kFn
	}
	node := &f.Nodes[n]
	node.IsStatic = static
	f.decorate(n, from, attrs, doc)
	node.Visibility, node.Exported = vis, exported
	bodyStart := it.End
	if it.HasRole(indexer.RoleBody) {
		bodyStart = it.Role[indexer.RoleBody].Start
		node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	} else {
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	}
	node.Signature = f.header(it.Start, bodyStart)
	head := f.Str[it.Start:it.Role[indexer.RoleName].Start]
	node.IsAsync = hasWord(head, "async")
	node.IsTest = slices.ContainsFunc(attrs, isTestAttr)
	g := &genScope{parent: f.gen}
	if it.HasRole(indexer.RoleType) {
		f.deferred = append(f.deferred, deferredFact{kind: schemas.RefResult, src: n, at: it.Role[indexer.RoleType], text: f.Text(it.Role[indexer.RoleType]), gen: g})
	}
	f.push(open{kind: kFn, start: it.Start, end: it.End, body: bodyStart, sym: n, qn: node.QualifiedName, gen: g, selfMethod: self})
}

// hasWord reports whether the identifier w occurs in s.
func hasWord(s, w string) bool {
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || !isIdentByte(s[j-1])) && (j+len(w) == len(s) || !isIdentByte(s[j+len(w)])) {
			return true
		}
		i = j + len(w)
	}
	return false
}

// implFact records which impl block item n belongs to.
// supertraits marks the paths of the bounds of a trait (: A + B<T>) as
// heads: they are extends edges, not uses.
func (f *fileState) supertraits(bounds span) {
	t := f.Text(bounds)
	for off := 0; off < len(t); off++ {
		if c := t[off]; c == ':' && (off == 0 || t[off-1] == '+') || c == '+' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '?' || c == '(' {
			continue
		}
		f.heads[bounds.Start+uint32(off)] = true
		depth := 0
		for ; off < len(t) && (depth > 0 || t[off] != '+'); off++ {
			switch t[off] {
			case '<', '(':
				depth++
			case '>', ')':
				depth--
			}
		}
	}
}

// typeUse records a type name as a references ref reading its path,
// generic arguments dropped, from the field whose type it is in or the
// innermost symbol. The names a declaration declares, generic parameters
// and Self, the self type and trait of an impl and the struct of a
// literal (which have edges of their own) make none.
func (f *fileState) typeUse(it *item) {
	if f.tdefs[uint64(it.Start)<<32|uint64(it.End)] {
		return
	}
	start := it.Start
	if q, ok := f.quals[it.End]; ok && q < start {
		start = q
	}
	if f.heads[start] {
		return
	}
	name := normPath(f.Str[start:it.End])
	head, _, _ := strings.Cut(strings.TrimPrefix(name, "::"), "::")
	if _, ok := f.gen.param(head); ok || head == "Self" || head == "_" || name == "" {
		return
	}
	if start < f.alias.End && slices.Contains(f.aliasParams, head) {
		return
	}
	src := f.sym()
	if f.inField.at.Start <= start && it.End <= f.inField.at.End {
		src = f.inField.node
	}
	f.AddNodeRef(schemas.EdgeReferences, src, span{Start: start, End: it.End}, name, name)
}

func (f *fileState) implFact(n int32, c *open) {
	d := deferredFact{kind: refImpl, src: n, at: c.self, text: f.Text(c.self), gen: c.gen}
	if c.hasTrait {
		d.trait = f.Text(c.trait)
	}
	f.deferred = append(f.deferred, d)
}

func (f *fileState) typeDef(it *item) {
	from, attrs, doc := f.take(it.Start)
	name := unraw(f.Text(it.Role[indexer.RoleName]))
	sc := f.stack[f.scope()]
	kind := schemas.KindStruct
	switch it.Kind {
	case kEnum:
		kind = schemas.KindEnum
	case kTrait:
		kind = schemas.KindTrait
	}
	qn := sc.qn + "::" + name
	n := f.AddNode(kind, name, qn, sc.sym, it.Span)
	f.decorate(n, from, attrs, doc)
	node := &f.Nodes[n]
	node.Visibility = visibility(f.Text(it.Span))
	node.Exported = node.Visibility == schemas.Public && sc.exported && sc.kind != kFn
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	body := it.End
	if it.HasRole(indexer.RoleBody) {
		body = it.Role[indexer.RoleBody].Start
		if f.Src[body] == '(' { // a tuple struct: its fields are its signature
			body = it.End
		}
	}
	if it.Kind == kTrait && it.HasRole(indexer.RoleType) {
		body = min(body, it.Role[indexer.RoleType].Start)
	}
	node.Signature = f.header(it.Start, body)
	if it.Kind == kTrait && it.HasRole(indexer.RoleType) {
		node.Signature = f.header(it.Start, it.Role[indexer.RoleBody].Start)
		f.supertraits(it.Role[indexer.RoleType])
		for _, b := range splitTop(strings.TrimPrefix(strings.TrimSpace(f.Text(it.Role[indexer.RoleType])), ":"), '+') {
			if p := normBounds(b); p != "" && !strings.Contains(p, "+") {
				f.deferred = append(f.deferred, deferredFact{kind: schemas.EdgeExtends, src: n, at: it.Role[indexer.RoleType], target: strings.TrimSpace(b), text: p})
			}
		}
	}
	bodyStart := uint32(0)
	if it.HasRole(indexer.RoleBody) {
		bodyStart = it.Role[indexer.RoleBody].Start
	}
	f.push(open{
		kind: it.Kind, start: it.Start, end: it.End, body: bodyStart, sym: n, qn: qn,
		gen: &genScope{parent: f.gen}, exported: node.Exported, vis: node.Visibility,
	})
}

func (f *fileState) variant(it *item) {
	from, attrs, doc := f.take(it.Start)
	ei := f.innermost(kEnum)
	if ei < 0 {
		return
	}
	e := f.stack[ei]
	name := unraw(f.Text(it.Role[indexer.RoleName]))
	n := f.AddNode(schemas.KindConstant, name, e.qn+"::"+name, e.sym, it.Span)
	f.decorate(n, from, attrs, doc)
	node := &f.Nodes[n]
	node.Visibility, node.Exported = e.vis, e.exported
	node.Signature = oneLine(f.Text(it.Span))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	f.push(open{kind: kVariant, start: it.Start, end: it.End, sym: n})
}

// field handles a named field (field: T) and a tuple field (its type).
func (f *fileState) field(it *item) {
	from, attrs, doc := f.take(it.Start)
	t := f.top()
	if t.kind != kStruct && t.kind != kUnion {
		return // a variant's fields
	}
	var name string
	var typ span
	s := it.Span
	vis := schemas.Private
	if it.Kind == kTField {
		name = strconv.Itoa(t.fields)
		t.fields++
		typ = it.Span
		// pub before the type, back to the ( or , that opens the field.
		i := int(it.Start)
		for i > int(t.start) && f.Src[i-1] != '(' && f.Src[i-1] != ',' {
			i--
		}
		if head := strings.TrimSpace(f.Str[i:it.Start]); strings.HasPrefix(head, "pub") {
			vis = visibility(head)
		}
	} else {
		name = unraw(f.Text(it.Role[indexer.RoleName]))
		typ = it.Role[indexer.RoleType]
		vis = visibility(f.Text(it.Span))
	}
	t = f.top()
	n := f.AddNode(schemas.KindField, name, t.qn+"::"+name, t.sym, s)
	f.decorate(n, from, attrs, doc)
	node := &f.Nodes[n]
	node.Visibility = vis
	node.Exported = vis == schemas.Public && t.exported
	node.Signature = oneLine(f.Text(s))
	node.BodyHash = xxhash.Sum64String(f.Text(s))
	f.deferred = append(f.deferred, deferredFact{kind: schemas.RefType, src: n, at: typ, text: f.Text(typ), gen: t.gen})
}

func (f *fileState) impl(it *item) {
	f.take(it.Start)
	o := open{kind: kImpl, start: it.Start, end: it.End, sym: -1, self: it.Role[indexer.RoleType], gen: &genScope{parent: f.gen}}
	if it.HasRole(indexer.RoleBody) {
		o.body = it.Role[indexer.RoleBody].Start
	}
	if it.HasRole(indexer.RoleName) {
		o.trait, o.hasTrait = it.Role[indexer.RoleName], true
	}
	o.typeName = typeName(f.Text(o.self))
	f.heads[o.self.Start] = true
	if o.hasTrait {
		f.heads[o.trait.Start] = true
	}
	f.push(o)
	if o.hasTrait {
		sc := f.stack[f.scope()]
		f.deferred = append(f.deferred, deferredFact{
			kind: schemas.EdgeImplements, src: sc.sym, at: o.trait, target: oneLine(f.Text(o.trait)),
			text: f.Text(o.self), trait: f.Text(o.trait), gen: o.gen,
		})
	}
}

// typeName returns the name of the type an impl is for, for the
// qualified names of its items: the last segment of its path.
func typeName(t string) string {
	p := normType(t, nil, 0)
	p, _, _ = strings.Cut(p, "<")
	p = strings.TrimPrefix(strings.TrimPrefix(p, "dyn "), "impl ")
	if i := strings.LastIndex(p, "::"); i >= 0 {
		p = p[i+2:]
	}
	if !isIdent(p) {
		return "_"
	}
	return p
}

// value handles const, static, type and macro_rules! items.
func (f *fileState) value(it *item) {
	from, attrs, doc := f.take(it.Start)
	name := unraw(f.Text(it.Role[indexer.RoleName]))
	ci := f.container()
	c := f.stack[ci]
	kind := schemas.KindConstant
	switch it.Kind {
	case kStatic:
		kind = schemas.KindVariable
	case kAlias:
		kind = schemas.KindTypeAlias
	case kMacro:
		kind, name = schemas.KindFunction, name+"!"
	}
	vis := visibility(f.Text(it.Span))
	var n int32
	var exported bool
	switch c.kind {
	case kImpl:
		sc := f.stack[f.scope()]
		n = f.AddNode(kind, name, sc.qn+"::"+c.typeName+"::"+name, sc.sym, it.Span)
		if c.hasTrait {
			vis = schemas.Public
		}
		exported = vis == schemas.Public && sc.exported && sc.kind != kFn
		f.implFact(n, &c)
	case kTrait:
		n = f.AddNode(kind, name, c.qn+"::"+name, c.sym, it.Span)
		vis, exported = c.vis, c.exported
		f.Nodes[n].IsAbstract = !it.HasRole(indexer.RoleValue)
	default:
		sc := f.stack[f.scope()]
		n = f.AddNode(kind, name, sc.qn+"::"+name, sc.sym, it.Span)
		exported = vis == schemas.Public && sc.exported && sc.kind != kFn
	}
	f.decorate(n, from, attrs, doc)
	node := &f.Nodes[n]
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	if it.Kind == kMacro {
		vis = schemas.Private
		if slices.Contains(attrs, "macro_export") {
			vis = schemas.Public
		}
		exported = vis == schemas.Public && f.lay.lib
		node.Signature = "macro_rules! " + strings.TrimSuffix(name, "!")
	} else {
		node.Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ";"))
	}
	node.Visibility, node.Exported = vis, exported
	if it.HasRole(indexer.RoleType) {
		f.deferred = append(f.deferred, deferredFact{kind: schemas.RefType, src: n, at: it.Role[indexer.RoleType], text: f.Text(it.Role[indexer.RoleType]), gen: f.gen})
	}
	if it.Kind == kConst || it.Kind == kStatic {
		f.push(open{kind: it.Kind, start: it.Start, end: it.End, sym: n, qn: node.QualifiedName})
	}
}

// generics adds type parameters and where clauses to the item whose header
// holds them.
func (f *fileState) generics(it *item) {
	o := f.top()
	switch o.kind {
	case kFn, kStruct, kUnion, kEnum, kTrait, kImpl:
	default:
		return
	}
	if o.body != 0 && it.Start >= o.body || o.gen == nil {
		return
	}
	if it.Kind == kGenerics {
		o.gen.addGenerics(f.Text(it.Span))
	} else {
		o.gen.addWhere(f.Text(it.Span))
	}
}

// use records one imports ref per name a use declaration binds.
func (f *fileState) use(it *item) {
	f.take(it.Start)
	sc := f.stack[f.innermost(kFile, kMod, kFn, kConst, kStatic)]
	prefix := ""
	if visibility(f.Text(it.Span)) != schemas.Private {
		prefix = "pub "
	}
	tree := it.Role[indexer.RoleValue]
	text := f.Text(tree)
	for _, u := range useTree(text) {
		e := prefix + u.path
		if u.alias != "" {
			e += " as " + u.alias
		}
		at := span{Start: tree.Start + uint32(u.off), End: tree.Start + uint32(u.off)}
		f.AddNodeRef(schemas.EdgeImports, sc.sym, at, u.path, e)
	}
}

func (f *fileState) externCrate(it *item) {
	f.take(it.Start)
	sc := f.stack[f.innermost(kFile, kMod, kFn)]
	name := unraw(f.Text(it.Role[indexer.RoleName]))
	e := "::" + name
	if name == "self" {
		e = "crate"
	}
	if it.HasRole(indexer.RoleValue) {
		e += " as " + unraw(f.Text(it.Role[indexer.RoleValue]))
	} else if name == "self" {
		return
	}
	if visibility(f.Text(it.Span)) != schemas.Private {
		e = "pub " + e
	}
	f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Role[indexer.RoleName], name, e)
}

// bindItem handles let statements, let conditions and parameters.
func (f *fileState) bindItem(it *item) {
	pat := it.Role[rPattern]
	b := binding{gen: f.gen}
	switch it.Kind {
	case kLet:
		f.take(it.Start)
		b.start, b.end = it.End, it.End
		if i := f.innermost(kBlock); i >= 0 {
			b.end = f.stack[i].end
		}
		b.typ, b.hasType = it.Role[indexer.RoleType], it.HasRole(indexer.RoleType)
		b.value, b.hasValue = it.Role[indexer.RoleValue], it.HasRole(indexer.RoleValue)
	case kLetCond:
		b.start, b.end = it.End, it.End
		if i := f.innermost(kLetScope); i >= 0 {
			b.end = f.stack[i].end
		}
		b.value, b.hasValue = it.Role[indexer.RoleValue], true
	case kParam:
		i := f.innermost(kFn, kClosure)
		if i < 0 {
			return
		}
		o := f.stack[i]
		b.start, b.end = o.start, o.end
		if o.kind == kFn {
			b.start = max(o.body, it.End)
		} else {
			b.start = it.End
		}
		b.typ, b.hasType = it.Role[indexer.RoleType], true
	}
	name, unwrap := simpleBinding(f.Text(pat))
	if name != "" && (!unwrap || b.hasValue && !b.hasType) {
		b.name, b.known = name, true
		if unwrap {
			b.suffix = "?"
		}
		f.bind(b)
		return
	}
	names, _ := patternNames(f.Text(pat))
	for _, n := range names {
		f.bind(binding{name: n, start: b.start, end: b.end})
	}
}

func (f *fileState) bind(b binding) {
	if b.name == "self" || b.start >= b.end {
		return
	}
	f.binds = append(f.binds, &b)
}

// binder opens a for loop, a match arm or a closure and binds its names.
func (f *fileState) binder(it *item) {
	o := open{kind: it.Kind, start: it.Start, end: it.End, sym: -1}
	if it.Kind == kFor {
		o.body = it.Role[indexer.RoleBody].Start
	}
	f.push(o)
	pat := it.Role[rPattern]
	switch it.Kind {
	case kFor:
		if name, unwrap := simpleBinding(f.Text(pat)); name != "" && !unwrap {
			f.bind(binding{name: name, start: o.body, end: it.End, known: true, value: it.Role[indexer.RoleValue], hasValue: true, suffix: "[]", gen: f.gen})
			return
		}
		names, _ := patternNames(f.Text(pat))
		for _, n := range names {
			f.bind(binding{name: n, start: o.body, end: it.End})
		}
	case kArm:
		if m := f.innermost(kMatch); m >= 0 {
			if name, unwrap := simpleBinding(f.Text(pat)); name != "" {
				b := binding{name: name, start: pat.End, end: it.End, known: true, value: f.stack[m].self, hasValue: true, gen: f.gen}
				if unwrap {
					b.suffix = "?"
				}
				f.bind(b)
				return
			}
		}
		names, _ := patternNames(f.Text(pat))
		for _, n := range names {
			f.bind(binding{name: n, start: pat.End, end: it.End})
		}
	case kClosure:
		names, _ := closureNames(f.Text(pat))
		for i, n := range names {
			b := binding{name: n, start: pat.End, end: it.End}
			if v, ok := f.adapters[it.Start]; ok && i == 0 {
				if name, _ := simpleBinding(strings.Trim(f.Text(pat), "| ")); name == n {
					b.known, b.expr = true, indexer.Known(v)
				}
			}
			f.bind(b)
		}
	}
}

// lookup returns the local binding name has at p, if any: the latest one
// whose range holds p, within the innermost function.
func (f *fileState) lookup(name string, p uint32) *binding {
	if f.locals[name] {
		return &binding{name: name}
	}
	mark := 0
	for i := len(f.stack) - 1; i >= 0; i-- {
		if f.stack[i].kind == kFn {
			mark = f.stack[i].bindMark
			break
		}
	}
	for i := len(f.binds) - 1; i >= mark; i-- {
		if b := f.binds[i]; b.name == name && b.start <= p && p < b.end {
			return b
		}
	}
	return nil
}

// bindingValue is the Expr a local stands for.
func (f *fileState) bindingValue(b *binding) string {
	if !b.known {
		return indexer.ExprLocal
	}
	return indexer.LocalExpr(&b.expr, func() string {
		saved := f.gen
		f.gen = b.gen
		defer func() { f.gen = saved }()
		if b.hasType {
			if t := f.normType(f.Text(b.typ), b.gen); t != "_" {
				return "{" + t + "}"
			}
		}
		if !b.hasValue {
			return indexer.ExprLocal
		}
		v := f.expr(b.value, true)
		switch {
		case v[0] != '?':
			return v + b.suffix
		case b.suffix != "":
			return indexer.ExprLocal
		}
		return v
	})
}

// region returns the Region of code at p within its own function or
// closure: in a loop, a try block, or a conditional branch (if and else
// bodies, match arms).
func (f *fileState) region(p uint32) indexer.Region {
	var r indexer.Region
	for i := len(f.stack) - 1; i > 0; i-- {
		switch o := &f.stack[i]; o.kind {
		case kFor:
			r.Loop = r.Loop || p >= o.body
		case kArm:
			r.Cond = true
		case kFn, kClosure:
			return r
		default:
			indexer.InRegion(&r, o.kind, kLoop, kTry, kCond)
		}
	}
	return r
}

func (f *fileState) call(it *item) {
	fn := it.Span
	args := it.Role[indexer.RoleArgs]
	e := f.expr(fn, false)
	if i := strings.LastIndexByte(e, '.'); i > 0 && e[0] != '?' && elementAdapters[e[i+1:]] {
		// A closure given first to xs.iter().map(..) takes the items of xs.
		if f.adapters == nil {
			f.adapters = make(map[uint32]string)
		}
		f.adapters[uint32(skipSpace(f.Src, int(args.Start)+1, int(args.End)))] = e[:i] + "[]"
	}
	r := f.AddNodeRef(schemas.EdgeCalls, f.sym(), f.callPos(fn), oneLine(f.Text(fn)), e)
	r.Args = oneLine(trimDelims(f.Text(args)))
	f.region(it.Start).Mark(r)
}

// trimDelims drops the brackets around an argument list or token tree.
func trimDelims(s string) string {
	if len(s) >= 2 && strings.IndexByte("([{", s[0]) >= 0 {
		return s[1 : len(s)-1]
	}
	return s
}

// callPos returns where a call is reported: at the name of the method for
// a.method(), else at the start of the callee.
func (f *fileState) callPos(fn span) span {
	e := int(fn.End)
	for e > int(fn.Start) && f.Src[e-1] == '>' { // turbofish
		i := e - 1
		depth := 0
		for ; i > int(fn.Start); i-- {
			if f.Src[i] == '>' {
				depth++
			} else if f.Src[i] == '<' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		e = i
		for e > int(fn.Start) && (f.Src[e-1] == ':' || f.Src[e-1] == ' ') {
			e--
		}
	}
	s := e
	for s > int(fn.Start) && isIdentByte(f.Src[s-1]) {
		s--
	}
	d := s
	for d > int(fn.Start) && (f.Src[d-1] == ' ' || f.Src[d-1] == '\t' || f.Src[d-1] == '\n' || f.Src[d-1] == '\r') {
		d--
	}
	if s < e && d > int(fn.Start) && f.Src[d-1] == '.' {
		return span{Start: uint32(s), End: fn.End}
	}
	return fn
}

// include records include!("file.rs"): the file's code is part of this
// crate, as a module's is (a mod fact whose Target is the invocation).
func (f *fileState) include(args span) {
	lit := strings.TrimSpace(trimDelims(f.Text(args)))
	if len(lit) < 5 || lit[0] != '"' || literalEnd(lit, 0, len(lit)) != len(lit) || !strings.HasSuffix(lit, `.rs"`) {
		return
	}
	name := lit[1 : len(lit)-1]
	if strings.ContainsAny(name, "\\{}") || path.IsAbs(name) {
		return
	}
	sc := f.stack[f.innermost(kFile, kMod)]
	f.AddNodeRef(refMod, sc.sym, args, "include!("+lit+")", path.Join(path.Dir(f.Path), name))
}

// elementAdapters are the methods of iterators, options, results and
// vectors whose first argument is a closure taking one item (for Option
// and Result: the value inside).
var elementAdapters = map[string]bool{
	"map": true, "filter": true, "for_each": true, "all": true, "any": true, "find": true,
	"position": true, "filter_map": true, "flat_map": true, "take_while": true, "skip_while": true,
	"inspect": true, "max_by_key": true, "min_by_key": true, "find_map": true, "map_while": true,
	"and_then": true, "is_some_and": true, "is_ok_and": true, "retain": true, "sort_by_key": true,
	"sort_unstable_by_key": true, "partition": true, "rposition": true, "take_if": true,
}

// exprMacros are the standard macros whose arguments are expressions:
// calls inside them are extracted from their tokens.
var exprMacros = map[string]bool{
	"println": true, "print": true, "eprintln": true, "eprint": true, "format": true,
	"format_args": true, "write": true, "writeln": true, "panic": true, "assert": true,
	"assert_eq": true, "assert_ne": true, "debug_assert": true, "debug_assert_eq": true,
	"debug_assert_ne": true, "vec": true, "dbg": true, "todo": true, "unimplemented": true,
	"unreachable": true, "trace": true, "debug": true, "info": true, "warn": true, "error": true,
	"anyhow": true, "bail": true, "ensure": true,
}

// macroCall records a macro invocation, and the calls inside the tokens of
// the standard macros whose arguments are expressions.
func (f *fileState) macroCall(it *item, name, args span) {
	text := f.Text(name)
	p := normPath(text)
	if p == "" {
		return
	}
	r := f.AddNodeRef(schemas.EdgeCalls, f.sym(), f.callPos(name), oneLine(text)+"!", p+"!")
	r.Args = oneLine(trimDelims(f.Text(args)))
	f.region(it.Start).Mark(r)
	last := p
	if i := strings.LastIndex(p, "::"); i >= 0 {
		last = p[i+2:]
	}
	if last == "include" {
		f.include(args)
	}
	if exprMacros[last] && f.depth < 4 {
		f.depth++
		f.tokenCalls(it, args)
		f.depth--
	}
}

// tokenCalls finds the calls in a macro's token tree: a path or a method
// name followed by an argument list, and nested macro invocations. Names
// bound by closures in the tokens count as locals.
func (f *fileState) tokenCalls(it *item, args span) {
	src := f.Src
	lo, hi := int(args.Start)+1, int(args.End)-1
	if hi <= lo {
		return
	}
	saved := f.locals
	defer func() { f.locals = saved }()
	var locals map[string]bool
	for i := lo; i < hi; i++ {
		if src[i] != '|' || i+1 < hi && src[i+1] == '|' || i > lo && src[i-1] == '|' {
			continue
		}
		j := i + 1
		for j < hi && src[j] != '|' {
			j++
		}
		if j >= hi {
			break
		}
		names, _ := closureNames(f.Str[i : j+1])
		for _, n := range names {
			if locals == nil {
				locals = maps.Clone(saved)
				if locals == nil {
					locals = make(map[string]bool)
				}
			}
			locals[n] = true
		}
		i = j
	}
	if locals != nil {
		f.locals = locals
	}
	for p := lo; p < hi; {
		c := src[p]
		switch {
		case c == '"' || c == '\'' || c == '/' || (c == 'b' || c == 'r' || c == 'c') && (p == lo || !isIdentByte(src[p-1])):
			e := literalEnd(src, p, hi)
			if e == p && c == '/' {
				e = skipSpace(src, p, hi)
			}
			if e > p {
				p = e
				continue
			}
			if c == '\'' {
				p = identEnd(src, p+1, hi)
				continue
			}
			if c == '/' {
				p++
				continue
			}
		case c >= '0' && c <= '9':
			for p < hi && (isIdentByte(src[p]) || src[p] == '.' && p+1 < hi && src[p+1] >= '0' && src[p+1] <= '9') {
				p++
			}
			continue
		}
		if !isIdentStart(c) || p > lo && isIdentByte(src[p-1]) {
			p++
			continue
		}
		e := identEnd(src, p, hi)
		word := f.Str[p:e]
		q := skipSpace(src, skipTurbofish(src, e, hi), hi)
		switch {
		case q < hi && src[q] == '!' && q+1 < hi && (src[q+1] == '(' || src[q+1] == '[' || src[q+1] == '{' || src[q+1] == ' '):
			o := skipSpace(src, q+1, hi)
			if o < hi && strings.IndexByte("([{", src[o]) >= 0 {
				start := f.chainStart(p, lo)
				f.macroCall(it, span{Start: uint32(start), End: uint32(e)}, span{Start: uint32(o), End: uint32(closing(src, o, hi))})
			}
		case q < hi && src[q] == '(' && !exprKeywords[word] && word != "in" && word != "as":
			start := f.chainStart(p, lo)
			fn := span{Start: uint32(start), End: uint32(skipTurbofish(src, e, hi))}
			argEnd := closing(src, q, hi)
			r := f.AddNodeRef(schemas.EdgeCalls, f.sym(), f.callPos(fn), oneLine(f.Text(fn)), f.expr(fn, false))
			r.Args = oneLine(trimDelims(f.Str[q:argEnd]))
			f.region(it.Start).Mark(r)
		}
		p = e
	}
}

// chainStart returns where the callee whose last name starts at p begins:
// back over .name, ::name, (..), [..] and ? steps to the head.
func (f *fileState) chainStart(p, lo int) int {
	src := f.Src
	s := p
	back := func(i int) int {
		for i > lo && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
			i--
		}
		return i
	}
	for {
		q := back(s)
		switch {
		case q-1 >= lo && src[q-1] == '.' && !(q-2 >= lo && src[q-2] == '.'):
			r := back(q - 1)
			for r-1 >= lo && src[r-1] == '?' {
				r = back(r - 1)
			}
			switch {
			case r-1 >= lo && (src[r-1] == ')' || src[r-1] == ']'):
				open := f.openingBracket(r-1, lo)
				if open < 0 {
					return s
				}
				s = open
				if b := back(open); b > lo && isIdentByte(src[b-1]) {
					s = b
					for s > lo && isIdentByte(src[s-1]) {
						s--
					}
				} else {
					return s
				}
			case r-1 >= lo && isIdentByte(src[r-1]):
				s = r
				for s > lo && isIdentByte(src[s-1]) {
					s--
				}
			default:
				return s
			}
		case q-2 >= lo && src[q-1] == ':' && src[q-2] == ':':
			r := back(q - 2)
			if r-1 >= lo && src[r-1] == '>' { // <T as Trait>::name
				depth := 0
				for i := r - 1; i >= lo; i-- {
					if src[i] == '>' && !(i > lo && src[i-1] == '-') {
						depth++
					} else if src[i] == '<' {
						if depth--; depth == 0 {
							s = i
							break
						}
					}
				}
				if s != p {
					return s
				}
			}
			if r-1 >= lo && isIdentByte(src[r-1]) {
				s = r
				for s > lo && isIdentByte(src[s-1]) {
					s--
				}
				continue
			}
			return s
		default:
			return s
		}
	}
}

// openingBracket returns the offset of the bracket that the one at p
// closes, or -1.
func (f *fileState) openingBracket(p, lo int) int {
	depth := 0
	for i := p; i >= lo; i-- {
		switch f.Src[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// finish writes the facts that needed the generics of their item.
func (f *fileState) finish(ctx context.Context) {
	for _, d := range f.deferred {
		switch d.kind {
		case schemas.RefType, schemas.RefResult:
			t := normType(d.text, d.gen, 0)
			if t == "_" {
				continue
			}
			f.AddNodeRef(d.kind, d.src, d.at, oneLine(d.text), "{"+t+"}")
		case schemas.EdgeExtends:
			f.AddNodeRef(d.kind, d.src, d.at, oneLine(d.target), d.text)
		case refImpl, schemas.EdgeImplements:
			e := "{" + normType(d.text, d.gen, 0) + "}"
			if d.trait != "" {
				e += " as {" + normPath(d.trait) + "}"
			}
			target := d.target
			if target == "" {
				target = oneLine(d.text)
			}
			f.AddNodeRef(d.kind, d.src, d.at, target, e)
		}
	}
}

// Fact kinds of this package's refs (see expr.go).
const (
	refCrate = schemas.RefCrate
	refMod   = schemas.RefMod
	refImpl  = schemas.RefImpl
)
