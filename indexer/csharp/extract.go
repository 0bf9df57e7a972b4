package csharp

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
// attributes and modifiers, not its /// comment; its body hash covers its
// body only (the whole declaration when it has none).

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

// isTestFile reports whether file holds tests by .NET conventions: named
// *Tests.cs or *Test.cs, or in a test project (a folder named *.Tests,
// *.Test, Tests or Test).
func isTestFile(file string) bool {
	base := path.Base(file)
	if strings.HasSuffix(base, "Tests.cs") || strings.HasSuffix(base, "Test.cs") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(file), "/") {
		if strings.HasSuffix(dir, ".Tests") || strings.HasSuffix(dir, ".Test") || strings.HasSuffix(dir, ".UnitTests") ||
			dir == "Tests" || dir == "Test" || dir == "tests" || dir == "test" {
			return true
		}
	}
	return false
}

// testAttributes make a method a test (NUnit, xUnit, MSTest).
var testAttributes = map[string]bool{
	"Test": true, "TestCase": true, "TestCaseSource": true, "Theory": true, "Fact": true,
	"TestMethod": true, "DataTestMethod": true,
}

// fixtureAttributes make a class a test fixture.
var fixtureAttributes = map[string]bool{"TestFixture": true, "TestClass": true}

// Modifier flags.
const (
	mPublic uint32 = 1 << iota
	mProtected
	mPrivate
	mInternal
	mStatic
	mAbstract
	mAsync
	mConst
	mReadonly
	mPartial
)

var modifierWords = map[string]uint32{
	"public": mPublic, "protected": mProtected, "private": mPrivate, "internal": mInternal,
	"static": mStatic, "abstract": mAbstract, "async": mAsync, "const": mConst, "readonly": mReadonly,
	"partial": mPartial,
}

// frame is a range the walk is inside of: a namespace, a declaration, a
// scope, a region.
type frame struct {
	kind       kind
	start, end uint32
	node       int32 // the node made for it, -1 if none
	body       span  // namespaces and types: the body (empty when none)
	iface      bool  // an interface
	enum       bool
	exported   bool
	params     span     // methods, constructors, records, delegates: the parameter list
	sig        []string // methods and constructors: the parameter types
	typ        span     // fields, locals: the declared type
	flags      uint32   // fields: the modifiers, for each declarator
	decorators []string // fields: the attributes
	doc        string
	header     uint32 // fields: where the text after the modifiers starts
	used       bool   // fields: the uses of the declared type are recorded
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

// Kind returns what fr is.
func (fr *frame) Kind() kind { return fr.kind }

// Node returns the node made for fr, -1 if none.
func (fr *frame) Node() int32 { return fr.node }

// binding is a local, a parameter or a local function: visible from decl
// to end.
type binding struct {
	decl, end uint32
	expr      indexer.Lazy[string]
	value     span   // var: the initializer, which expr is worked out from
	arg       string // its type as an argument (see argOf); "" for var
}

// Visible returns the range b is visible in.
func (b *binding) Visible() span { return span{Start: b.decl, End: b.end} }

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]

	stack indexer.Stack[*frame]
	exprs indexer.ItemsBySpan // expression items by span
	argv  map[uint32][]span   // arguments by the start of the list
	binds indexer.Bindings[*binding]
	calls []indexer.Pending
	sigs  []*frame
	tvars indexer.TypeVars
}

// newFileState returns the extraction of f.
func newFileState(f indexer.File[kind]) indexer.Passes {
	return &fileState{
		File:  f,
		exprs: indexer.ItemsBySpan{}, argv: map[uint32][]span{},
		binds: indexer.Bindings[*binding]{},
	}
}

// typeExpr returns the Expr type of the type at t (see typeName), or ""
// when it names a type parameter in scope: a type parameter is no type of
// the snapshot, whatever its name.
func (f *fileState) typeExpr(t span) string {
	n := typeName(f.Text(t))
	if n == "" {
		return ""
	}
	if f.isTypeVar(n, t.Start) {
		return ""
	}
	return n
}

// isTypeVar reports whether the type name n, written at p, names a type
// parameter in scope.
func (f *fileState) isTypeVar(n string, p uint32) bool {
	head, _, _ := strings.Cut(n, ".")
	return f.tvars.Has(head, p)
}

// typeUses records a references ref from src for each type the type at t
// names (see typeNames), but the first when skip is set (the type a new
// expression instantiates, or a base type, which have their own edges).
func (f *fileState) typeUses(t span, src uint64, skip bool) {
	for i, u := range typeNames(f.Text(t)) {
		at := t.Start + uint32(u.off)
		if i == 0 && skip || f.isTypeVar(u.name, at) {
			continue
		}
		f.AddRef(schemas.EdgeReferences, src, span{Start: at, End: at + uint32(len(u.name))}, u.name, u.name)
	}
}

// Prepare indexes what the walk looks up by position: doc comments,
// expressions and argument counts.
func (f *fileState) Prepare(ctx context.Context) {
	var doc []string
	var docEnd uint32
	flush := func() {
		if len(doc) > 0 {
			f.Docs[uint32(srctext.SkipSpace(f.Str, int(docEnd)))] = docComment(doc)
		}
		doc = doc[:0]
	}
	var args, decls []span
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kClass, kStruct, kRecord, kInterface, kEnum, kDelegate, kMethod, kLocalFn:
			decls = indexer.Enclosing(decls, it.Start)
			decls = append(decls, it.Span)
		case kTParam:
			decls = indexer.Enclosing(decls, it.Start)
			t := f.Text(it.Span)
			e := len(t)
			for e > 0 && !isIdentByte(t[e-1]) {
				e--
			}
			b := e
			for b > 0 && isIdentByte(t[b-1]) {
				b--
			}
			if len(decls) > 0 && b < e {
				f.tvars = append(f.tvars, indexer.TypeVar{Scope: decls[len(decls)-1], Name: t[b:e]})
			}
		case kDoc:
			t := f.Text(it.Span)
			if !strings.HasPrefix(t, "///") {
				flush()
				continue
			}
			if len(doc) > 0 && uint32(srctext.SkipSpace(f.Str, int(docEnd))) != it.Start {
				flush()
			}
			doc = append(doc, t)
			docEnd = it.End
		case kInvoke, kNew, kField, kCast, kParen, kAwait:
			f.exprs.Add(it.Span, i)
		case kArgs:
			args = indexer.Enclosing(args, it.Start)
			args = append(args, it.Span)
			f.argv[it.Start] = []span{}
		case kArg:
			args = indexer.Enclosing(args, it.Start)
			if len(args) > 0 {
				k := args[len(args)-1].Start
				f.argv[k] = append(f.argv[k], it.Span)
			}
		}
	}
	flush()
}

// modifiers reads the modifiers and attributes of the declaration of item
// i: the items after it that start before limit. It returns the flags, the
// attributes as written (without brackets) and where the text after them
// starts.
func (f *fileState) modifiers(i int, limit uint32) (uint32, []string, uint32) {
	it := &f.Items[i]
	var flags uint32
	var attrs []string
	header := it.Start
	for _, m := range f.Within(i, limit) {
		switch m.Kind {
		case kModifier:
			flags |= modifierWords[f.Text(m.Span)]
			header = max(header, m.End)
		case kAttr:
			attrs = append(attrs, srctext.OneLine(f.Text(m.Span)))
			header = max(header, m.End)
		}
	}
	if header > it.Start {
		header = uint32(srctext.SkipSpace(f.Str, int(header)))
		if header < uint32(len(f.Str)) && f.Str[header] == ']' {
			header = uint32(srctext.SkipSpace(f.Str, int(header)+1))
		}
	}
	return flags, attrs, min(header, limit)
}

func visibility(flags uint32, implicit string) string {
	switch {
	case flags&mPublic != 0:
		return schemas.Public
	case flags&mProtected != 0:
		return schemas.Protected
	case flags&mInternal != 0:
		return schemas.Internal
	case flags&mPrivate != 0:
		return schemas.Private
	}
	return implicit
}

// decorate records the attributes of node n: as decorators, as test
// flags, and as references to the attribute types.
func (f *fileState) decorate(n int32, attrs []string, at span) {
	node := &f.Nodes[n]
	for _, a := range attrs {
		node.Decorators = append(node.Decorators, a)
		name := a
		if i := strings.IndexByte(name, '('); i >= 0 {
			name = name[:i]
		}
		name = srctext.Squeeze(name)
		last := name[strings.LastIndexByte(name, '.')+1:]
		last = strings.TrimSuffix(last, "Attribute")
		if testAttributes[last] && node.Kind == schemas.KindMethod || fixtureAttributes[last] && node.Kind == schemas.KindClass {
			node.IsTest = true
		}
		if tn := typeName(name); tn != "" {
			f.AddRef(schemas.EdgeReferences, node.ID, at, "["+name+"]", "@"+tn)
		}
	}
}

// container returns the frame the walk is directly in when it is a
// namespace or a type; nil anywhere else (in a method, a lambda, …).
func (f *fileState) container() *frame {
	if len(f.stack) == 0 {
		return nil
	}
	if fr := f.stack.Top(); fr.kind == kNs || fr.kind.isType() {
		return fr
	}
	return nil
}

// owner returns the type whose body holds p directly, or nil.
func (f *fileState) owner(p uint32) *frame {
	if len(f.stack) == 0 {
		return nil
	}
	t := f.stack.Top()
	if t.kind.isType() && t.node >= 0 && t.body.Start <= p && p < t.body.End {
		return t
	}
	return nil
}

// scope returns the innermost frame a local declared now is visible in.
func (f *fileState) scope(skip int) *frame {
	for i := len(f.stack) - 1 - skip; i >= 0; i-- {
		switch fr := f.stack[i]; {
		case fr.kind == kScope || fr.kind == kForeach || fr.kind == kLocalFn || fr.kind.isMember() || fr.kind.isType():
			return fr
		}
	}
	return nil
}

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kNs:
			f.namespace(i)
		case kClass, kStruct, kRecord, kInterface, kEnum, kDelegate:
			f.typeDecl(i)
		case kBase:
			f.baseRef(it)
		case kMethod, kCtor, kDtor, kProp, kEvent, kFields, kEFields, kMember:
			f.member(i)
		case kConvOp:
			f.conversion(it)
		case kLocalFn:
			if sc := f.scope(0); sc != nil && it.HasRole(indexer.RoleName) {
				f.bind(f.Text(it.Role[indexer.RoleName]), sc.start, sc.end, exprLocalFn) // visible in its whole block
			}
			f.stack.Push(&frame{kind: kLocalFn, start: it.Start, end: it.End, node: -1, params: it.Role[indexer.RoleParams]})
		case kLocals:
			f.typeUses(it.Role[indexer.RoleType], f.SrcID(indexer.Context(f.stack)), false)
			f.stack.Push(&frame{kind: kLocals, start: it.Start, end: it.End, node: -1, typ: it.Role[indexer.RoleType]})
		case kVar:
			f.variable(it)
		case kParam:
			f.param(it)
		case kLParam:
			if sc := f.scope(0); sc != nil {
				f.bind(f.Text(it.Span), sc.start, sc.end, indexer.ExprLocal)
			}
		case kForeach:
			f.typeUses(it.Role[indexer.RoleType], f.SrcID(indexer.Context(f.stack)), false)
			fr := f.stack.Push(&frame{kind: kForeach, start: it.Start, end: it.End, node: -1})
			if it.HasRole(indexer.RoleName) {
				f.bind(f.Text(it.Role[indexer.RoleName]), it.Start, fr.end, f.declared(it.Role[indexer.RoleType])).arg = f.argDecl(it.Role[indexer.RoleType])
			}
		case kCatch, kPattern:
			if it.Kind == kPattern { // a caught type is a use item, named or not
				f.typeUses(it.Role[indexer.RoleType], f.SrcID(indexer.Context(f.stack)), false)
			}
			if sc := f.scope(0); sc != nil && it.HasRole(indexer.RoleName) {
				f.bind(f.Text(it.Role[indexer.RoleName]), it.Start, sc.end, f.declared(it.Role[indexer.RoleType])).arg = f.argDecl(it.Role[indexer.RoleType])
			}
		case kScope, kLoop, kTry, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kInvoke, kCtorCall:
			f.addCall(schemas.EdgeCalls, i)
		case kNew:
			f.addCall(schemas.EdgeInstantiates, i)
		case kUsing:
			f.usingRef(it)
		case kUse:
			f.typeUses(it.Span, f.SrcID(indexer.Context(f.stack)), false)
		case kIsType:
			f.isTypeRef(it)
		}
	}
}

// isTypeRef records a constant pattern that may name a type (x is T,
// case T:): a references ref reading "is T", an edge only if T is a type.
func (f *fileState) isTypeRef(it *item) {
	t := srctext.Squeeze(f.Text(it.Span))
	n := typeName(t)
	if n == "" || n != t || f.isTypeVar(n, it.Start) {
		return
	}
	if head, _, _ := strings.Cut(n, "."); f.lookup(head, it.Start) != nil {
		return
	}
	f.AddRef(schemas.EdgeReferences, f.SrcID(indexer.Context(f.stack)), it.Span, n, exprIsType+n)
}

// declared returns the Expr of a value of the declared type t: {T}, or
// ?local for var and for types without members in a snapshot.
func (f *fileState) declared(t span) string {
	if n := f.typeExpr(t); n != "" {
		return "{" + n + "}"
	}
	return indexer.ExprLocal
}

func (f *fileState) bind(name string, decl, end uint32, expr string) *binding {
	return f.binds.Add(name, &binding{decl: decl, end: end, expr: indexer.Known(expr), arg: exprUnknown})
}

// lookup returns the binding of name visible at p, or nil.
func (f *fileState) lookup(name string, p uint32) *binding {
	return f.binds.Lookup(name, p)
}

// namespace makes the node of a namespace declaration. A file-scoped
// namespace holds the rest of the file.
func (f *fileState) namespace(i int) {
	it := &f.Items[i]
	name := srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
	name = strings.TrimPrefix(name, "global::")
	parent := int32(-1)
	for _, part := range strings.Split(name, ".") {
		if !isIdent(part) {
			f.stack.Push(&frame{kind: kNs, start: it.Start, end: it.End, node: -1})
			return
		}
	}
	if c := f.container(); c != nil && c.kind == kNs {
		parent = c.node
		name = f.Nodes[parent].QualifiedName + "." + name
	} else if c != nil {
		f.stack.Push(&frame{kind: kNs, start: it.Start, end: it.End, node: -1})
		return
	}
	short := name[strings.LastIndexByte(name, '.')+1:]
	n := f.AddNode(schemas.KindNamespace, short, name, parent, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported = schemas.Public, true
	node.Signature = "namespace " + name
	end, body := it.End, it.Role[indexer.RoleBody]
	if !it.HasRole(indexer.RoleBody) { // file-scoped
		end = uint32(len(f.Src))
		body = span{Start: it.End, End: end}
	}
	f.stack.Push(&frame{kind: kNs, start: it.Start, end: end, node: n, body: body, exported: true})
}

// typeDecl makes the node of a class, struct, record, interface, enum or
// delegate.
func (f *fileState) typeDecl(i int) {
	it := &f.Items[i]
	c := f.container()
	if c == nil && len(f.stack) == 0 {
		c = &frame{kind: kNs, node: -1, exported: true} // the global namespace
	}
	if c == nil || c.node < 0 && c.kind != kNs || !it.HasRole(indexer.RoleName) || it.Role[indexer.RoleName].Start == it.Role[indexer.RoleName].End {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	kind := schemas.KindClass
	switch it.Kind {
	case kStruct:
		kind = schemas.KindStruct
	case kInterface:
		kind = schemas.KindInterface
	case kEnum:
		kind = schemas.KindEnum
	case kDelegate:
		kind = schemas.KindType
	}
	flags, attrs, header := f.modifiers(i, it.Role[indexer.RoleName].Start)
	if it.Kind == kRecord && strings.Contains(f.Str[header:it.Role[indexer.RoleName].Start], "struct") {
		kind = schemas.KindStruct
	}
	qname, parent, member := name, int32(-1), c.kind != kNs
	if c.node >= 0 {
		parent = c.node
		qname = f.Nodes[parent].QualifiedName + "." + name
	}
	n := f.AddNode(kind, name, qname, parent, it.Span)
	f.decorate(n, attrs, it.Role[indexer.RoleName])
	node := &f.Nodes[n]
	implicit := schemas.Internal
	switch {
	case member && c.iface:
		implicit = schemas.Public
	case member:
		implicit = schemas.Private
	}
	node.Visibility = visibility(flags, implicit)
	node.Exported = (node.Visibility == schemas.Public || member && node.Visibility == schemas.Protected) && (!member || c.exported)
	node.IsStatic = flags&mStatic != 0
	node.IsAbstract = flags&mAbstract != 0 || it.Kind == kInterface
	body := it.Role[indexer.RoleBody]
	end := it.End
	if it.HasRole(indexer.RoleBody) {
		end = body.Start
		node.BodyHash = xxhash.Sum64String(f.Text(body))
	} else {
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	}
	sig := strings.TrimSpace(f.Str[header:end])
	if it.Kind == kDelegate || !it.HasRole(indexer.RoleBody) {
		sig = strings.TrimSuffix(sig, ";")
	}
	node.Signature = srctext.OneLine(sig)
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, body: body,
		iface: it.Kind == kInterface, enum: it.Kind == kEnum, exported: node.Exported, params: it.Role[indexer.RoleParams]})
	if it.Kind == kDelegate {
		fr.body = span{}
		f.typeUses(it.Role[indexer.RoleType], node.ID, false)
		if t := f.typeExpr(it.Role[indexer.RoleType]); t != "" {
			f.AddRef(schemas.RefResult, node.ID, it.Role[indexer.RoleType], srctext.OneLine(f.Text(it.Role[indexer.RoleType])), "{"+t+"}")
		}
	}
}

// baseRef records a base type of a class, struct, record or interface. A
// class's first base may be its base class or an interface; the others
// are interfaces, as are all of a struct's. The refs of a class's first
// base are extends refs: the resolver decides by the kind of the type
// found.
func (f *fileState) baseRef(it *item) {
	if len(f.stack) == 0 {
		return
	}
	t := f.stack.Top()
	if !t.kind.isType() || t.node < 0 || t.enum || t.body.End > 0 && it.Start >= t.body.Start {
		return
	}
	txt := f.Text(it.Span)
	if strings.HasPrefix(txt, "(") { // the arguments of a primary constructor base
		return
	}
	if i := strings.IndexByte(txt, '('); i >= 0 {
		txt = txt[:i]
	}
	name := typeName(txt)
	if name == "" || strings.HasPrefix(name, "System.") && predefinedName(name) {
		return
	}
	kind := schemas.EdgeImplements
	first := true
	for _, r := range f.Refs {
		if r.Src == f.Nodes[t.node].ID && (r.Kind == schemas.EdgeExtends || r.Kind == schemas.EdgeImplements) {
			first = false
		}
	}
	switch {
	case t.kind == kInterface:
		kind = schemas.EdgeExtends
	case (t.kind == kClass || t.kind == kRecord && f.Nodes[t.node].Kind == schemas.KindClass) && first:
		kind = schemas.EdgeExtends
	}
	f.AddRef(kind, f.Nodes[t.node].ID, it.Span, srctext.OneLine(txt), name)
	f.typeUses(span{Start: it.Start, End: it.Start + uint32(len(txt))}, f.Nodes[t.node].ID, true)
}

// predefinedName reports whether name is the System spelling of a keyword
// type.
func predefinedName(name string) bool {
	for _, v := range predefined {
		if v == name {
			return true
		}
	}
	return false
}

// member makes the node of a method, constructor, finalizer, property,
// event, enum member, or opens a field declaration.
func (f *fileState) member(i int) {
	it := &f.Items[i]
	o := f.owner(it.Start)
	if o == nil || it.Kind != kFields && it.Kind != kEFields && it.Role[indexer.RoleName].Start == it.Role[indexer.RoleName].End {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, params: it.Role[indexer.RoleParams]})
		return
	}
	limit := it.Role[indexer.RoleName].Start
	if it.Kind == kFields || it.Kind == kEFields || it.HasRole(indexer.RoleType) && it.Role[indexer.RoleType].Start < limit {
		limit = it.Role[indexer.RoleType].Start
	}
	flags, attrs, header := f.modifiers(i, limit)
	if it.Kind == kFields || it.Kind == kEFields {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, typ: it.Role[indexer.RoleType],
			flags: flags, decorators: attrs, doc: f.Docs[it.Start], header: header})
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	kind := schemas.KindMethod
	switch it.Kind {
	case kCtor:
		kind = schemas.KindConstructor
	case kDtor:
		name = "~" + name
	case kProp, kEvent:
		kind = schemas.KindField
	case kMember:
		kind = schemas.KindConstant
	}
	n := f.AddNode(kind, name, f.Nodes[o.node].QualifiedName+"."+name, o.node, it.Span)
	f.decorate(n, attrs, it.Role[indexer.RoleName])
	node := &f.Nodes[n]
	implicit := schemas.Private
	if o.iface || o.enum {
		implicit = schemas.Public
	}
	node.Visibility = visibility(flags, implicit)
	node.Exported = o.exported && (node.Visibility == schemas.Public || node.Visibility == schemas.Protected)
	node.IsStatic = flags&mStatic != 0 || it.Kind == kMember
	node.IsAsync = flags&mAsync != 0
	hasBody := it.HasRole(indexer.RoleBody)
	node.IsAbstract = flags&mAbstract != 0 || o.iface && (it.Kind == kMethod && !hasBody || it.Kind == kProp && flags&mStatic == 0 && !strings.Contains(f.Text(it.Span), "=>") && !strings.Contains(f.Text(it.Span), ";\n"))
	end := it.End
	switch {
	case hasBody:
		end = it.Role[indexer.RoleBody].Start
		node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	case it.Kind == kProp || it.Kind == kEvent:
		end = it.Role[indexer.RoleName].End
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	default:
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	}
	node.Signature = srctext.OneLine(strings.TrimSuffix(strings.TrimSpace(f.Str[min(header, end):end]), ";"))
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, params: it.Role[indexer.RoleParams]})
	switch it.Kind {
	case kMethod, kProp, kEvent:
		f.typeUses(it.Role[indexer.RoleType], node.ID, false)
		if t := f.typeExpr(it.Role[indexer.RoleType]); t != "" {
			fact := schemas.RefResult
			if it.Kind != kMethod {
				fact = schemas.RefType
			}
			f.AddRef(fact, node.ID, it.Role[indexer.RoleType], srctext.OneLine(f.Text(it.Role[indexer.RoleType])), "{"+t+"}")
		}
	}
	if it.Kind == kMethod || it.Kind == kCtor {
		f.sigs = append(f.sigs, fr)
	}
}

// variable handles a variable declarator: of a field or event field (a
// node) or of a local (a binding).
func (f *fileState) variable(it *item) {
	if len(f.stack) == 0 || !it.HasRole(indexer.RoleName) || it.Role[indexer.RoleName].Start == it.Role[indexer.RoleName].End {
		return
	}
	t := f.stack.Top()
	name := f.Text(it.Role[indexer.RoleName])
	var value span
	if p := srctext.SkipSpace(f.Str, int(it.Role[indexer.RoleName].End)); p < int(it.End) && f.Str[p] == '=' {
		value = span{Start: uint32(srctext.SkipSpace(f.Str, p+1)), End: it.End}
	}
	switch t.kind {
	case kFields, kEFields:
		o := f.owner(t.start)
		if len(f.stack) >= 2 {
			f.stack.Pop()
			o = f.owner(t.start)
			f.stack.Push(t)
		}
		if o == nil {
			f.stack.Push(&frame{kind: kVar, start: it.Start, end: it.End, node: -1})
			return
		}
		kind := schemas.KindField
		if t.flags&mConst != 0 {
			kind = schemas.KindConstant
		}
		n := f.AddNode(kind, name, f.Nodes[o.node].QualifiedName+"."+name, o.node, span{Start: t.start, End: t.end})
		f.decorate(n, t.decorators, it.Role[indexer.RoleName])
		node := &f.Nodes[n]
		node.Doc = t.doc
		implicit := schemas.Private
		if o.iface {
			implicit = schemas.Public
		}
		node.Visibility = visibility(t.flags, implicit)
		node.Exported = o.exported && (node.Visibility == schemas.Public || node.Visibility == schemas.Protected)
		node.IsStatic = t.flags&(mStatic|mConst) != 0
		node.Signature = srctext.OneLine(f.Str[t.header:t.typ.End] + " " + f.Text(it.Span))
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
		if tn := f.typeExpr(t.typ); tn != "" {
			f.AddRef(schemas.RefType, node.ID, t.typ, srctext.OneLine(f.Text(t.typ)), "{"+tn+"}")
		}
		if !t.used {
			t.used = true
			f.typeUses(t.typ, node.ID, false)
		}
		f.stack.Push(&frame{kind: kVar, start: it.Start, end: it.End, node: n})
	case kLocals:
		sc := f.scope(1)
		if sc == nil {
			return
		}
		e := f.declared(t.typ)
		b := f.bind(name, it.Role[indexer.RoleName].Start, sc.end, e)
		b.arg = f.argDecl(t.typ)
		if srctext.Squeeze(f.Text(t.typ)) == "var" && value.End > value.Start {
			b.value, b.expr, b.arg = value, indexer.Lazy[string]{}, ""
		}
		if strings.HasPrefix(f.Str[t.start:], "const") {
			b.arg = exprUnknown // a constant: converts as its value does
		}
	}
}

// param handles a parameter: of a method, constructor, local function or
// lambda (a binding, and a parameter type of the signature), or of a
// record's primary constructor (a property).
func (f *fileState) param(it *item) {
	if len(f.stack) == 0 || !it.HasRole(indexer.RoleName) || it.Role[indexer.RoleName].Start == it.Role[indexer.RoleName].End {
		return
	}
	t := f.stack.Top()
	name := f.Text(it.Role[indexer.RoleName])
	typ := indexer.ExprLocal
	if it.HasRole(indexer.RoleType) {
		typ = f.declared(it.Role[indexer.RoleType])
	}
	inParams := t.params.Start <= it.Start && it.End <= t.params.End
	if it.HasRole(indexer.RoleType) && !(t.kind == kRecord && inParams && t.node >= 0) {
		f.typeUses(it.Role[indexer.RoleType], f.SrcID(indexer.Context(f.stack)), false)
	}
	switch {
	case (t.kind == kMethod || t.kind == kCtor) && inParams:
		t.sig = append(t.sig, f.paramSig(it))
		f.bind(name, t.start, t.end, typ).arg = f.paramArg(it)
	case t.kind == kLocalFn && inParams:
		f.bind(name, t.start, t.end, typ).arg = f.paramArg(it)
	case t.kind == kRecord && inParams && t.node >= 0:
		n := f.AddNode(schemas.KindField, name, f.Nodes[t.node].QualifiedName+"."+name, t.node, it.Span)
		node := &f.Nodes[n]
		node.Visibility, node.Exported = schemas.Public, f.Nodes[t.node].Exported
		node.Signature = srctext.OneLine(f.Text(it.Span))
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
		if it.HasRole(indexer.RoleType) {
			f.typeUses(it.Role[indexer.RoleType], node.ID, false)
			if tn := f.typeExpr(it.Role[indexer.RoleType]); tn != "" {
				f.AddRef(schemas.RefType, node.ID, it.Role[indexer.RoleType], srctext.OneLine(f.Text(it.Role[indexer.RoleType])), "{"+tn+"}")
			}
		}
	case t.kind == kScope: // a lambda's parameter list
		f.bind(name, t.start, t.end, typ)
	}
}

// paramSig is a parameter as the params fact spells it: its type with
// type arguments dropped, "params " before a parameter array, "=" after
// an optional parameter.
func (f *fileState) paramSig(it *item) string {
	t := "?"
	if it.HasRole(indexer.RoleType) {
		raw := f.Text(it.Role[indexer.RoleType])
		t = srctext.Squeeze(stripGenerics(raw))
		if p, ok := predefined[t]; ok {
			t = p
		}
		if strings.ContainsAny(raw, "<(,*") || f.isTypeVar(strings.TrimRight(t, "[]?"), it.Role[indexer.RoleType].Start) {
			t = "?"
		}
	}
	pre := ""
	if it.HasRole(indexer.RoleType) {
		for _, w := range strings.Fields(f.Str[it.Start:it.Role[indexer.RoleType].Start]) {
			if w == "params" || w == "this" {
				pre = w + " "
			}
		}
	}
	if p := srctext.SkipSpace(f.Str, int(it.Role[indexer.RoleName].End)); p < int(it.End) && f.Str[p] == '=' {
		return pre + t + "="
	}
	return pre + t
}

func (f *fileState) addCall(kind string, i int) {
	it := &f.Items[i]
	if kind == schemas.EdgeInstantiates && !it.HasRole(indexer.RoleType) {
		return
	}
	f.calls = append(f.calls, indexer.Pending{Kind: kind, Item: int32(i), Src: indexer.Context(f.stack), Region: indexer.Regions(f.stack, kLoop, kTry, kCond)})
}

// usingRef records a using directive.
func (f *fileState) usingRef(it *item) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ";"))
	global := false
	if rest, ok := strings.CutPrefix(t, "global"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n') {
		global, t = true, strings.TrimSpace(rest)
	}
	t, ok := strings.CutPrefix(t, "using")
	if !ok {
		return
	}
	t = strings.TrimSpace(t)
	static := false
	if rest, ok := strings.CutPrefix(t, "static "); ok {
		static, t = true, strings.TrimSpace(rest)
	}
	var expr string
	if alias, target, ok := strings.Cut(t, "="); ok {
		alias = strings.TrimSpace(alias)
		target = strings.TrimPrefix(srctext.Squeeze(target), "global::")
		if !isIdent(alias) || target == "" {
			return
		}
		expr = alias + " = " + target
	} else {
		expr = strings.TrimPrefix(srctext.Squeeze(t), "global::")
		if expr == "" {
			return
		}
		if static {
			expr = "static " + expr
		}
	}
	if global {
		expr = "global " + expr
	}
	f.AddRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, srctext.OneLine(f.Text(it.Span)), expr)
}

// Finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) Finish(ctx context.Context) {
	for _, fr := range f.sigs {
		n := &f.Nodes[fr.node]
		f.AddRef(schemas.RefParams, n.ID, span{Start: n.StartByte, End: n.EndByte}, n.Name, strings.Join(fr.sig, ","))
	}
	for _, c := range indexer.Elements(ctx, f.calls) {
		it := &f.Items[c.Item]
		var at span
		var target, expr, args string
		switch it.Kind {
		case kInvoke:
			fn := it.Role[indexer.RoleObject]
			at = fn
			target = srctext.OneLine(f.Text(fn))
			n := f.argList(it.Role[indexer.RoleArgs], 0)
			if fi := indexer.ItemAt(f.Items, f.exprs, fn); fi != nil && fi.Kind == kField {
				at = fi.Role[indexer.RoleName]
				expr = join(f.exprOf(fi.Role[indexer.RoleObject], 0), stripGenerics(f.Text(fi.Role[indexer.RoleName]))+n)
			} else if name := srctext.Squeeze(stripGenerics(f.Text(fn))); name == "nameof" && f.lookup(name, fn.Start) == nil {
				continue // an operator, not a call
			} else if isIdent(name) {
				expr = name + n
				if b := f.lookup(name, fn.Start); b != nil {
					expr = indexer.ExprLocal
					if b.expr == indexer.Known(exprLocalFn) {
						expr = exprLocalFn
					}
				}
			} else {
				expr = indexer.ExprExpr
			}
			args = f.argsText(it.Role[indexer.RoleArgs])
		case kCtorCall:
			at = it.Span
			t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f.Text(it.Span)), ":"))
			target = t[:identEnd(t, 0)]
			expr = target + f.argList(it.Role[indexer.RoleArgs], 0)
			if target != "this" && target != "base" {
				continue
			}
			args = f.argsText(it.Role[indexer.RoleArgs])
		case kNew:
			at = it.Span
			target = "new " + srctext.OneLine(f.Text(it.Role[indexer.RoleType]))
			n := "()"
			if it.HasRole(indexer.RoleArgs) {
				n = f.argList(it.Role[indexer.RoleArgs], 0)
				args = f.argsText(it.Role[indexer.RoleArgs])
			}
			f.typeUses(it.Role[indexer.RoleType], f.SrcID(c.Src), true)
			if t := f.typeExpr(it.Role[indexer.RoleType]); t != "" {
				expr = "new " + t + n
			} else {
				expr = indexer.ExprExpr
			}
		}
		r := f.AddRef(c.Kind, f.SrcID(c.Src), at, target, expr)
		r.Args = args
		c.Mark(r)
	}
}

// argsText returns the arguments of a call as written, on one line.
func (f *fileState) argsText(s span) string {
	a := f.Text(s)
	if len(a) >= 2 && a[0] == '(' && a[len(a)-1] == ')' {
		a = a[1 : len(a)-1]
	}
	return srctext.OneLine(strings.TrimSpace(a))
}
