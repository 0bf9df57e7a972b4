package cfamily

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
// declaration, not its doc comment; its body hash covers its body only
// (the whole declaration when it has none).

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

// encloses reports whether t lies within s, s not being empty.
func encloses(s, t span) bool { return s.Start <= t.Start && t.End <= s.End && s.End > s.Start }

type extractor struct {
	*indexer.MatchScanner[kind]
	lang string
	cpp  bool
}

func (x *extractor) Extract(ctx context.Context, file string, src []byte) (*indexer.Result, error) {
	items, err := x.Scan(ctx, src)
	if err != nil {
		return nil, err
	}
	f := &fileState{
		File: indexer.NewFile(&indexer.Scanned[kind]{Path: file, Src: src, Items: items, Lines: x.Lines()}, x.lang, isTestFile),
		lang: x.lang, cpp: x.cpp, sep: ".",
		exprs: indexer.ItemsBySpan{}, fdecls: map[uint32]int32{}, inits: map[uint32]span{},
		binds: map[string][]*binding{}, namespaces: map[string]bool{}, tdefs: map[uint64]bool{},
	}
	if x.cpp {
		f.sep = "::"
	}
	nodes, refs, isTest := indexer.RunPasses(ctx, f)
	return x.Result(ctx, nodes, refs, isTest)
}

// isTestFile reports whether file holds tests by C and C++ conventions:
// in a folder named test, tests, unittest or testing, or named test_*,
// *_test, *_tests or *_unittest.
func isTestFile(file string) bool {
	base := path.Base(file)
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") ||
		strings.HasSuffix(stem, "_unittest") || indexer.InFolder(file, "test", "tests", "unittest", "unittests", "testing")
}

// testMacros are the GoogleTest macros that define a test: TEST(Suite,
// Name) { ... } parses as a function definition named TEST.
var testMacros = map[string]bool{
	"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true, "FRIEND_TEST": false,
}

// Declaration flags, read from the words before a declarator.
const (
	mStatic uint32 = 1 << iota
	mExtern
	mInline
	mVirtual
	mConst
	mTypedef
	mConstexpr
)

var flagWords = map[string]uint32{
	"static": mStatic, "extern": mExtern, "inline": mInline, "virtual": mVirtual, "const": mConst,
	"typedef": mTypedef, "constexpr": mConstexpr, "__inline": mInline, "__inline__": mInline,
}

// frame is a range the walk is inside of: a namespace, a declaration, a
// scope, a region.
type frame struct {
	kind       kind
	start, end uint32
	node       int32  // the node made for it, -1 if none
	qname      string // namespaces and classes: the prefix of what they hold
	body       span
	access     string // classes: the access of the members that follow
	exported   bool
	hidden     bool // in an anonymous namespace
	scoped     bool // enums: enum class
	typ        span // declarations: the declared type
	flags      uint32
	named      string // typedefs: the name an anonymous struct takes
	sig        *sigFrame
	uses       []typeUse // declarations: the uses in the declared type, until the first declarator
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

// Kind returns what fr is.
func (fr *frame) Kind() kind { return fr.kind }

// typeUse is a type named in code: where, and its name as written
// (qualified, template arguments dropped).
type typeUse struct {
	at   span
	name string
}

// sigFrame is a function whose parameters the walk collects: a
// definition, a method declared in a class, or a prototype.
type sigFrame struct {
	params    span
	node      int32  // the node, or -1 for a prototype
	declares  bool   // write a declares fact
	qname     string // for the declares fact
	name      string
	at        span
	sigs      []string
	lastParam uint32
}

// binding is a local or a parameter: visible from decl to end.
type binding struct {
	decl, end uint32
	expr      indexer.Lazy[string]
	typ       string // C++: the declared type, as normType writes it
	value     span   // auto: the initializer, which expr is worked out from
	smart     bool   // a smart pointer: expr is the pointee's
}

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]
	lang string
	cpp  bool
	sep  string // between a type's name and a member's: "::" in C++, "." in C

	stack      indexer.Stack[*frame]
	exprs      indexer.ItemsBySpan // expression items by span
	fdecls     map[uint32]int32    // function declarators by the start of their name
	inits      map[uint32]span     // init declarators' values by their start
	binds      map[string][]*binding
	namespaces map[string]bool // namespaces opened or used in the file
	calls      []indexer.Pending
	sigs       []*sigFrame
	tvars      indexer.TypeVars
	classes    map[string]int32 // class nodes of the file by qualified name
	tdefs      map[uint64]bool  // type names that are no uses, by span
	noUses     []span           // ranges whose type names are no uses: a test macro's arguments
}

// Prepare indexes what the walk looks up by position: doc comments,
// expressions, function declarators and initializers.
func (f *fileState) Prepare(ctx context.Context) {
	var doc []string
	var docEnd uint32
	flush := func() {
		if len(doc) > 0 {
			f.Docs[uint32(skipSpace(f.Str, int(docEnd)))] = docComment(doc)
		}
		doc = doc[:0]
	}
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kDoc:
			if len(doc) > 0 && uint32(skipSpace(f.Str, int(docEnd))) != it.Start {
				flush()
			}
			// A trailing comment on the line of code before it documents nothing.
			if p := strings.LastIndexByte(f.Str[:it.Start], '\n'); strings.TrimSpace(f.Str[p+1:it.Start]) != "" {
				continue
			}
			doc = append(doc, f.Text(it.Span))
			docEnd = it.End
		case kCall, kField, kParen, kCast, kNew:
			f.exprs.Add(it.Span, i)
		case kFdecl:
			if _, ok := f.fdecls[it.Role[indexer.RoleName].Start]; !ok {
				f.fdecls[it.Role[indexer.RoleName].Start] = int32(i)
			}
		case kInit:
			f.inits[it.Start] = it.Role[indexer.RoleValue]
		case kTDef:
			f.tdefs[it.Key()] = true
		case kSpec:
			// struct s { ... } defines s, struct s; declares it: neither uses it.
			if strings.ContainsRune(f.Text(it.Span), '{') || strings.HasPrefix(f.Str[skipSpace(f.Str, int(it.End)):], ";") {
				f.tdefs[it.Role[indexer.RoleName].Key()] = true
			}
		case kTypedef:
			if ns, ok := f.declName(it.Role[indexer.RoleName]); ok {
				f.tdefs[ns.Key()] = true
			}
		case kTParam:
			f.tvars = append(f.tvars, indexer.TypeVar{Scope: it.Span, Name: f.Text(it.Role[indexer.RoleName])})
		}
	}
	flush()
}

// typeExpr returns the Expr type of the type at t (see typeName), or ""
// when it names a template parameter in scope.
func (f *fileState) typeExpr(t span) string {
	n := typeName(f.Text(t))
	if n == "" {
		return ""
	}
	head, _, _ := strings.Cut(n, "::")
	if f.tvars.Has(head, t.Start) {
		return ""
	}
	return n
}

// specName returns the name of a struct, union, class or enum specifier
// as written in a type ("struct foo", "struct foo { ... }"), or "".
func specName(t string) string {
	t = strings.TrimSpace(t)
	for _, kw := range []string{"struct", "union", "class", "enum"} {
		if rest, ok := strings.CutPrefix(t, kw); ok && rest != "" && isSpace(rest[0]) {
			rest = strings.TrimSpace(rest)
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, "class "), "struct ")
			e := identEnd(rest, 0)
			for e+2 < len(rest) && rest[e] == ':' && rest[e+1] == ':' {
				e = identEnd(rest, e+2)
			}
			return rest[:e]
		}
	}
	return ""
}

// flagsIn reads the declaration flags among the words of s.
func flagsIn(s string) uint32 {
	var fl uint32
	for p := 0; p < len(s); {
		if !isIdentStart(s[p]) {
			p++
			continue
		}
		e := identEnd(s, p)
		fl |= flagWords[s[p:e]]
		p = e
	}
	return fl
}

// declName finds the declared name in the declarator at s: what follows
// pointer and reference marks, qualifiers and parentheses. The name may
// be qualified (A::f), a destructor (~A) or an operator.
func (f *fileState) declName(s span) (span, bool) {
	t := f.Str[:s.End]
	p := int(s.Start)
	for p < len(t) {
		c := t[p]
		switch {
		case c == '*' || c == '&' || c == '(' || c == '^' || isSpace(c):
			p++
			continue
		case isIdentStart(c):
			e := identEnd(t, p)
			switch t[p:e] {
			case "const", "volatile", "restrict", "__restrict", "_Nonnull", "_Nullable", "__far", "__near":
				p = e
				continue
			}
		}
		break
	}
	start := p
	for p < len(t) {
		if t[p] == '~' {
			p++
		}
		e := identEnd(t, p)
		if e == p {
			break
		}
		if t[p:e] == "operator" {
			q := skipSpace(t, e)
			if q < len(t) && t[q] == '(' && q+1 < len(t) && t[q+1] == ')' {
				q += 2
			}
			for q < len(t) && t[q] != '(' {
				q++
			}
			e = q
			for e > p && isSpace(t[e-1]) {
				e--
			}
			p = e
			break
		}
		p = e
		if p < len(t) && t[p] == '<' { // template arguments
			depth := 0
			for q := p; q < len(t); q++ {
				if t[q] == '<' {
					depth++
				} else if t[q] == '>' {
					if depth--; depth == 0 {
						p = q + 1
						break
					}
				}
			}
		}
		if p+1 < len(t) && t[p] == ':' && t[p+1] == ':' {
			p += 2
			continue
		}
		break
	}
	if p == start {
		return span{}, false
	}
	return span{Start: uint32(start), End: uint32(p)}, true
}

// normName turns a declared name as written into its qualified form:
// white space and template arguments dropped.
func normName(s string) string {
	s = srctext.Squeeze(s)
	if strings.Contains(s, "operator") {
		return s
	}
	return stripTemplates(s)
}

func visibility(flags uint32) string {
	if flags&mStatic != 0 {
		return schemas.Private
	}
	return schemas.Public
}

// addNode is AddNode of a public, exported node.
func (f *fileState) addNode(kind, name, qname string, parent int32, s span) int32 {
	n := f.AddNode(kind, name, qname, parent, s)
	f.Nodes[n].Visibility, f.Nodes[n].Exported = schemas.Public, true
	return n
}

// container returns the innermost namespace, class, enum, function or
// friend declaration around the walk, or nil at file level.
func (f *fileState) container() *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; fr.kind {
		case kNs, kClass, kEnum, kFunc, kFriend:
			return fr
		}
	}
	return nil
}

// prefix returns the qualified name of the namespace or class the walk is
// in ("" at file level), and whether it is an anonymous namespace's.
func (f *fileState) prefix() (string, bool) {
	if c := f.container(); c != nil && (c.kind == kNs || c.kind == kClass) {
		return c.qname, c.hidden
	}
	return "", false
}

func join(prefix, sep, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + sep + name
}

// context returns the node code at the walk belongs to (-1 for the file).
func (f *fileState) context() int32 {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if fr := f.stack[i]; fr.node >= 0 && fr.kind != kNs {
			return fr.node
		}
	}
	return -1
}

// scopeEnd returns the end of the innermost scope a local declared now is
// visible in.
func (f *fileState) scopeEnd() (uint32, bool) {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; fr.kind {
		case kScope, kFunc, kRange:
			return fr.end, true
		case kNs, kClass:
			return 0, false
		}
	}
	return 0, false
}

// region returns the Region of code at the top of the stack within its
// function.
func (f *fileState) region() indexer.Region {
	return indexer.RegionWithin(f.stack, kLoop, kTry, kCond, func(fr *frame) bool {
		return fr.kind == kFunc || fr.kind == kNs || fr.kind == kClass
	})
}

// notCalls are names a call expression may have that call nothing.
var notCalls = map[string]bool{
	"static_cast": true, "dynamic_cast": true, "const_cast": true, "reinterpret_cast": true,
	"sizeof": true, "alignof": true, "decltype": true, "typeid": true, "noexcept": true, "offsetof": true,
}

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kNs:
			f.namespace(it)
		case kClass:
			f.class(it)
		case kEnum:
			f.enum(it)
		case kMember:
			f.enumerator(it)
		case kTypedef:
			f.typedef(it)
		case kAlias:
			f.alias(it)
		case kFunc:
			f.function(i)
		case kDecl, kFields:
			f.declaration(it)
		case kDeclarator:
			t := f.stack.Top()
			f.declarator(it)
			if t != nil && len(t.uses) > 0 {
				f.flushUses(t, it)
			}
		case kTUse:
			f.typeUse(it)
		case kParam:
			f.param(it)
		case kRange:
			fr := f.stack.Push(&frame{kind: kRange, start: it.Start, end: it.End, node: -1})
			if n, ok := f.declName(it.Role[indexer.RoleName]); ok {
				b := f.bind(f.Text(n), n.End, fr.end, f.declared(it.Role[indexer.RoleType]))
				_ = b
			}
		case kFriend:
			f.stack.Push(&frame{kind: kFriend, start: it.Start, end: it.End, node: -1})
		case kScope, kLoop, kTry, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kBases:
			f.bases(it)
		case kAccess:
			if c := f.container(); c != nil && c.kind == kClass {
				c.access = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ":"))
			}
		case kUsing:
			f.using(it)
		case kInclude:
			v := strings.TrimSpace(f.Text(it.Role[indexer.RoleValue]))
			f.AddRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, srctext.OneLine(f.Text(it.Span)), v)
		case kDefine:
			f.define(it)
		case kCall:
			f.addCall(schemas.EdgeCalls, i)
		case kNew:
			f.addCall(schemas.EdgeInstantiates, i)
		}
	}
}

// typeUse records a type name: a references ref from the code it is in,
// or, in the declared type of a declaration, held until its first
// declarator (whose node is the src, and which may construct the type).
// A builtin type or a template parameter in scope names no type.
func (f *fileState) typeUse(it *item) {
	if f.tdefs[it.Key()] {
		return
	}
	for _, s := range f.noUses {
		if encloses(s, it.Span) {
			return
		}
	}
	start, name := qualifiedAt(f.Str, it.Span)
	name = srctext.Squeeze(name)
	if primitives[name] || typeWords[name] || specifierWords[name] {
		return
	}
	head, _, _ := strings.Cut(name, "::")
	if f.tvars.Has(head, start) {
		return
	}
	u := typeUse{span{Start: start, End: it.End}, name}
	if t := f.stack.Top(); t != nil && (t.kind == kDecl || t.kind == kFields) && encloses(t.typ, u.at) {
		t.uses = append(t.uses, u)
		return
	}
	f.AddRef(schemas.EdgeReferences, f.SrcID(f.context()), u.at, name, name)
}

// flushUses writes the type uses of declaration t after its first
// declarator d: from the node d made, or the code around. In C++, a
// declarator that initializes a value with arguments or braces (T x(1),
// T x{1}) constructs its type: an instantiates ref "new T(n)", which
// the resolver makes a references edge when T is not a class.
func (f *fileState) flushUses(t *frame, d *item) {
	src := f.SrcID(f.context())
	ctor := false
	if v, ok := f.inits[d.Start]; ok && f.cpp && v.Start < v.End {
		c := f.Str[v.Start]
		ctor = (c == '(' || c == '{') && isIdent(strings.TrimSpace(f.Str[d.Start:v.Start]))
	}
	for _, u := range t.uses {
		if ctor && u.at.Start == t.typ.Start {
			v := f.inits[d.Start]
			args := f.Text(v)
			n := countArgs("(" + args[1:len(args)-1] + ")")
			f.AddRef(schemas.EdgeInstantiates, src, u.at, u.name, "new "+u.name+"("+itoa(n)+")")
			continue
		}
		f.AddRef(schemas.EdgeReferences, src, u.at, u.name, u.name)
	}
	t.uses = nil
}

func (f *fileState) addCall(kind string, i int) {
	f.calls = append(f.calls, indexer.Pending{Kind: kind, Item: int32(i), Src: f.context(), Region: f.region()})
}

// namespace opens a C++ namespace (named, nested a::b, or anonymous).
func (f *fileState) namespace(it *item) {
	prefix, hidden := f.prefix()
	c := f.container()
	if c != nil && c.kind != kNs {
		f.stack.Push(&frame{kind: kNs, start: it.Start, end: it.End, node: -1, qname: prefix, hidden: hidden})
		return
	}
	name := ""
	if it.HasRole(indexer.RoleName) {
		name = srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
	}
	if name == "" || !isQName(name) {
		f.stack.Push(&frame{kind: kNs, start: it.Start, end: it.End, node: -1, qname: prefix, hidden: true})
		return
	}
	qname := join(prefix, "::", strings.TrimPrefix(name, "::"))
	f.namespaces[qname] = true
	short := qname[strings.LastIndex(qname, "::")+1:]
	if i := strings.LastIndex(qname, "::"); i >= 0 {
		short = qname[i+2:]
	}
	parent := int32(-1)
	if c != nil {
		parent = c.node
	}
	n := f.addNode(schemas.KindNamespace, short, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Signature = "namespace " + qname
	node.Exported = !hidden
	f.stack.Push(&frame{kind: kNs, start: it.Start, end: it.End, node: n, qname: qname, body: it.Role[indexer.RoleBody], hidden: hidden, exported: !hidden})
}

// class makes the node of a struct, union or class definition.
func (f *fileState) class(it *item) {
	c := f.container()
	name := ""
	if it.HasRole(indexer.RoleName) {
		name = normName(f.Text(it.Role[indexer.RoleName]))
	}
	if name == "" && len(f.stack) > 0 {
		if t := f.stack.Top(); t.kind == kTypedef && t.typ == it.Span {
			name = t.named
		}
	}
	if c != nil && (c.kind == kFunc || c.kind == kFriend || c.kind == kEnum) || name == "" || !isQName(name) {
		fr := frame{kind: kClass, start: it.Start, end: it.End, node: -1, body: it.Role[indexer.RoleBody], access: schemas.Public}
		if c != nil && c.kind == kClass && name == "" { // an anonymous struct or union: its fields are the class's
			fr.node, fr.qname, fr.exported = c.node, c.qname, c.exported
			fr.access = c.access
		}
		f.stack.Push(&fr)
		return
	}
	kind := schemas.KindStruct
	access := schemas.Public
	if strings.HasPrefix(f.Text(it.Span), "class") {
		kind, access = schemas.KindClass, schemas.Private
	}
	prefix, hidden := "", false
	parent := int32(-1)
	exported := true
	vis := schemas.Public
	if f.cpp && c != nil {
		prefix, hidden = c.qname, c.hidden
		parent = c.node
		exported = !hidden && (c.kind == kNs || c.exported)
		if c.kind == kClass {
			vis = c.access
			exported = exported && vis != schemas.Private
		}
	}
	qname := join(prefix, "::", strings.TrimPrefix(name, "::"))
	n := f.addNode(kind, name[strings.LastIndex(name, ":")+1:], qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported = vis, exported
	body := it.Role[indexer.RoleBody]
	node.BodyHash = xxhash.Sum64String(f.Text(body))
	node.Signature = srctext.OneLine(f.Str[it.Start:body.Start])
	if !it.HasRole(indexer.RoleName) {
		node.Signature = srctext.OneLine(f.Str[it.Start:body.Start] + " " + name)
	}
	if f.classes == nil {
		f.classes = map[string]int32{}
	}
	f.classes[qname] = n
	f.stack.Push(&frame{kind: kClass, start: it.Start, end: it.End, node: n, qname: qname, body: body, access: access, exported: exported, hidden: hidden})
}

// enum makes the node of an enum definition.
func (f *fileState) enum(it *item) {
	c := f.container()
	name := ""
	if it.HasRole(indexer.RoleName) {
		name = normName(f.Text(it.Role[indexer.RoleName]))
	}
	if name == "" && len(f.stack) > 0 {
		if t := f.stack.Top(); t.kind == kTypedef && t.typ == it.Span {
			name = t.named
		}
	}
	prefix, hidden := f.prefix()
	if !f.cpp {
		prefix = ""
	}
	head := f.Str[it.Start:it.Role[indexer.RoleBody].Start]
	scoped := strings.HasPrefix(head, "enum class") || strings.HasPrefix(head, "enum struct")
	if c != nil && (c.kind == kFunc || c.kind == kFriend) || name == "" || !isQName(name) {
		f.stack.Push(&frame{kind: kEnum, start: it.Start, end: it.End, node: -1, qname: prefix, hidden: hidden})
		return
	}
	parent := int32(-1)
	if f.cpp && c != nil {
		parent = c.node
	}
	qname := join(prefix, "::", name)
	n := f.addNode(schemas.KindEnum, name, qname, parent, it.Span)
	node := &f.Nodes[n]
	if c != nil && c.kind == kClass {
		node.Visibility = c.access
	}
	node.Exported = !hidden && node.Visibility != schemas.Private
	node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	node.Signature = srctext.OneLine(head)
	qn := prefix
	if scoped {
		qn = qname
	}
	f.stack.Push(&frame{kind: kEnum, start: it.Start, end: it.End, node: n, qname: qn, scoped: scoped, exported: node.Exported, hidden: hidden})
}

// enumerator makes the constant of an enumerator: in the enclosing scope
// (C, and C++'s plain enums), or in the enum's (enum class).
func (f *fileState) enumerator(it *item) {
	c := f.container()
	if c == nil || c.kind != kEnum || c.node < 0 {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	sep := "::"
	if !c.scoped && !f.cpp {
		sep = "."
	}
	n := f.addNode(schemas.KindConstant, name, join(c.qname, sep, name), c.node, it.Span)
	node := &f.Nodes[n]
	node.Exported = c.exported
	node.IsStatic = true
	node.Signature = srctext.OneLine(f.Text(it.Span))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
}

// typedef makes the type alias of a typedef, or names the anonymous
// struct it defines.
func (f *fileState) typedef(it *item) {
	if c := f.container(); c != nil && (c.kind == kFunc || c.kind == kFriend) {
		return
	}
	ns, ok := f.declName(it.Role[indexer.RoleName])
	if !ok {
		return
	}
	name := normName(f.Text(ns))
	if !isIdent(name) {
		return
	}
	typ := it.Role[indexer.RoleType]
	tt := f.Text(typ)
	if sp := specName(tt); sp == "" && strings.ContainsRune(tt, '{') {
		// typedef struct { ... } name: the struct takes the name.
		if len(f.stack) > 0 {
			if t := f.stack.Top(); t.kind == kTypedef && t.typ == typ {
				f.aliasNode(it, name, "{"+t.named+"}")
				return
			}
		}
		f.stack.Push(&frame{kind: kTypedef, start: it.Start, end: it.End, node: -1, typ: typ, named: name})
		return
	}
	target := specName(tt)
	if target == "" {
		target = f.typeExpr(typ)
	}
	expr := ""
	if target != "" && target != name {
		expr = "{" + target + "}"
	}
	if strings.ContainsRune(tt, '{') {
		f.stack.Push(&frame{kind: kTypedef, start: it.Start, end: it.End, node: -1, typ: typ, named: target})
	}
	if target == name && !f.cpp {
		return // typedef struct foo foo: the struct is the type
	}
	f.aliasNode(it, name, expr)
}

// aliasNode makes a type alias; expr is the type it stands for, or "".
func (f *fileState) aliasNode(it *item, name, expr string) {
	prefix, hidden := f.prefix()
	if !f.cpp {
		prefix = ""
	}
	parent := int32(-1)
	if c := f.container(); f.cpp && c != nil {
		parent = c.node
	}
	n := f.addNode(schemas.KindTypeAlias, name, join(prefix, "::", name), parent, it.Span)
	node := &f.Nodes[n]
	node.Exported = !hidden
	node.Signature = srctext.OneLine(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ";"))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	if expr != "" {
		f.AddRef(schemas.RefType, node.ID, it.Span, node.Signature, expr)
	}
	// The alias is the code its type is written in.
	if t := f.stack.Top(); t != nil && t.kind == kTypedef && t.start == it.Start {
		t.node = n
	} else {
		f.stack.Push(&frame{kind: kAlias, start: it.Start, end: it.End, node: n})
	}
}

// alias makes the type alias of a C++ using A = B.
func (f *fileState) alias(it *item) {
	if c := f.container(); c != nil && (c.kind == kFunc || c.kind == kFriend) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	expr := ""
	if t := f.typeExpr(it.Role[indexer.RoleType]); t != "" {
		expr = "{" + t + "}"
	}
	f.aliasNode(it, name, expr)
}

// function makes the node of a function or method definition.
func (f *fileState) function(i int) {
	it := &f.Items[i]
	fr := f.stack.Push(&frame{kind: kFunc, start: it.Start, end: it.End, node: -1, body: it.Role[indexer.RoleBody]})
	c := f.container2(fr)
	fd, ok := f.fdeclIn(it.Role[indexer.RoleName])
	if !ok || c != nil && (c.kind == kFunc || c.kind == kFriend || c.kind == kEnum) {
		return
	}
	d := &f.Items[fd]
	nameSpan := d.Role[indexer.RoleName]
	name := normName(f.Text(nameSpan))
	if !isQName(name) && !strings.Contains(name, "operator") {
		return
	}
	name = strings.TrimPrefix(name, "::")
	flags := flagsIn(f.Str[it.Start:nameSpan.Start])
	prefix, hidden := "", false
	parent := int32(-1)
	if c != nil {
		prefix, hidden, parent = c.qname, c.hidden, c.node
	}
	kind := schemas.KindFunction
	short := name
	qname := ""
	isTest := false
	vis, exported := visibility(flags), flags&mStatic == 0 && !hidden
	if hidden {
		vis = schemas.Private
	}
	static := flags&mStatic != 0
	switch {
	case c != nil && c.kind == kClass:
		kind = schemas.KindMethod
		if parent < 0 {
			return
		}
		qname = c.qname + f.sep + name
		vis = c.access
		exported = c.exported && vis != schemas.Private
		if name == f.Nodes[parent].Name {
			kind = schemas.KindConstructor
		}
	case f.cpp && strings.Contains(name, "::"):
		k := strings.LastIndex(name, "::")
		owner, base := join(prefix, "::", name[:k]), name[k+2:]
		short = base
		qname = owner + "::" + base
		if !f.namespaces[owner] {
			kind = schemas.KindMethod
			ownerShort := owner[strings.LastIndex(owner, ":")+1:]
			if base == ownerShort {
				kind = schemas.KindConstructor
			}
			static = false // out of line, static means a static member: the declaration says so
			vis, exported = schemas.Public, !hidden
			if cl, ok := f.classes[owner]; ok {
				parent = cl
				vis = f.Nodes[cl].Visibility
			}
		}
	case testMacros[name] && f.cpp:
		f.noUses = append(f.noUses, d.Role[indexer.RoleParams]) // the suite and test names
		args := splitTop(strings.Trim(f.Text(d.Role[indexer.RoleParams]), "()"))
		if len(args) == 2 {
			short = strings.TrimSpace(args[0]) + "." + strings.TrimSpace(args[1])
			isTest = true
		}
		qname = join(prefix, "::", short)
	default:
		if f.cpp {
			qname = join(prefix, "::", name)
		} else {
			qname = name
		}
	}
	n := f.addNode(kind, short, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported, node.IsStatic = vis, exported, static
	node.IsTest = isTest || f.Test && kind == schemas.KindFunction && (strings.HasPrefix(short, "test_") || strings.HasPrefix(short, "Test"))
	node.Signature = srctext.OneLine(f.Str[it.Start:it.Role[indexer.RoleBody].Start])
	node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	fr.node = n
	if it.HasRole(indexer.RoleType) && !isTest {
		if t := f.typeExpr(it.Role[indexer.RoleType]); t != "" {
			f.AddRef(schemas.RefResult, node.ID, it.Role[indexer.RoleType], srctext.OneLine(f.Text(it.Role[indexer.RoleType])), "{"+t+"}")
		}
	}
	fr.sig = &sigFrame{params: d.Role[indexer.RoleParams], node: n, qname: qname, name: short}
	if !isTest {
		f.sigs = append(f.sigs, fr.sig)
	}
}

// container2 is container as seen from outside fr, the frame just pushed.
func (f *fileState) container2(fr *frame) *frame {
	f.stack.Pop()
	c := f.container()
	f.stack.Push(fr)
	return c
}

// fdeclIn returns the outermost function declarator in the declarator s.
func (f *fileState) fdeclIn(s span) (int, bool) {
	n, ok := f.declName(s)
	if !ok {
		return 0, false
	}
	i, ok := f.fdecls[n.Start]
	return int(i), ok && encloses(s, f.Items[i].Span)
}

// declaration opens a declaration: of locals, of members of a class, or
// of globals, prototypes and externs.
func (f *fileState) declaration(it *item) {
	c := f.container()
	limit := it.End
	if it.HasRole(indexer.RoleType) {
		limit = it.Role[indexer.RoleType].Start
	}
	fr := frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, typ: it.Role[indexer.RoleType], flags: flagsIn(f.Str[it.Start:limit])}
	switch {
	case c != nil && (c.kind == kFriend || c.kind == kEnum):
		fr.kind = kFriend
	case c != nil && c.kind == kFunc:
		fr.kind = kDecl
		fr.scoped = true // locals
	case c != nil && c.kind == kClass:
		fr.kind = kFields
	default:
		fr.kind = kDecl
	}
	f.stack.Push(&fr)
}

// declarator handles one declarator of a declaration.
func (f *fileState) declarator(it *item) {
	if len(f.stack) == 0 {
		return
	}
	t := f.stack.Top()
	if t.kind != kDecl && t.kind != kFields || !encloses(span{Start: t.start, End: t.end}, it.Span) {
		return
	}
	ns, ok := f.declName(it.Span)
	if !ok {
		return
	}
	name := normName(f.Text(ns))
	fdi, isFunc := f.fdecls[ns.Start]
	if isFunc && !encloses(it.Span, f.Items[fdi].Span) {
		isFunc = false
	}
	value, hasValue := f.inits[it.Start]
	if t.kind == kDecl && t.scoped { // locals
		if isFunc || !isIdent(name) {
			return
		}
		end, ok := f.scopeEnd()
		if !ok {
			return
		}
		e := f.declared(t.typ)
		b := f.bind(name, ns.End, end, e)
		if f.cpp {
			b.typ = f.localType(t.typ, it.Span, ns)
		}
		if hasValue && typeName(f.Text(t.typ)) == "" && strings.Contains(f.Text(t.typ), "auto") {
			b.value, b.expr = value, indexer.Lazy[string]{}
			v := srctext.Squeeze(f.Text(value))
			b.smart = makers[v[:identEnd(v, 0)]] || strings.HasPrefix(v, "std::make_")
		}
		f.smart(b, t.typ)
		return
	}
	c := f.container()
	if t.kind == kFields {
		f.member(it, t, c, ns, name, isFunc, fdi)
		return
	}
	// Globals, prototypes, externs.
	prefix, hidden := f.prefix()
	if strings.HasPrefix(name, "::") || !isQName(name) && !strings.Contains(name, "operator") {
		return
	}
	qname := join(prefix, "::", name)
	if isFunc {
		d := &f.Items[fdi]
		if testMacros[name] || t.flags&mTypedef != 0 {
			return
		}
		sf := &sigFrame{params: d.Role[indexer.RoleParams], node: -1, declares: true, qname: qname, name: name, at: ns}
		f.sigs = append(f.sigs, sf)
		f.stack.Push(&frame{kind: kDeclarator, start: it.Start, end: it.End, node: -1, sig: sf})
		return
	}
	if t.flags&mTypedef != 0 {
		return
	}
	if t.flags&mExtern != 0 && !hasValue || strings.Contains(name, "::") {
		f.AddRef(schemas.RefDeclares, indexer.FileID(f.Path), ns, name, qname)
		return
	}
	kind := schemas.KindVariable
	if t.flags&(mConst|mConstexpr) != 0 && !strings.Contains(f.Str[t.typ.End:ns.Start], "*") {
		kind = schemas.KindConstant
	}
	parent := int32(-1)
	if c != nil && f.cpp {
		parent = c.node
	}
	n := f.addNode(kind, name, qname, parent, span{Start: t.start, End: t.end})
	node := &f.Nodes[n]
	node.Doc = f.Docs[t.start]
	node.Visibility = visibility(t.flags)
	node.Exported = t.flags&mStatic == 0 && !hidden
	node.IsStatic = t.flags&mStatic != 0
	node.Signature = srctext.OneLine(f.Str[t.start:t.typ.End] + " " + f.Text(it.Span))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	if tn := f.typeExpr(t.typ); tn != "" {
		f.AddRef(schemas.RefType, node.ID, t.typ, srctext.OneLine(f.Text(t.typ)), "{"+tn+"}")
	}
	f.stack.Push(&frame{kind: kDeclarator, start: it.Start, end: it.End, node: n})
}

// member makes the node of a field, or of a method declared in its class.
func (f *fileState) member(it *item, t, c *frame, ns span, name string, isFunc bool, fdi int32) {
	if c == nil || c.kind != kClass || c.node < 0 || strings.Contains(name, "::") {
		return
	}
	kind := schemas.KindField
	short := name
	if isFunc {
		kind = schemas.KindMethod
		if name == f.Nodes[c.node].Name {
			kind = schemas.KindConstructor
		}
		if t.flags&mTypedef != 0 {
			return
		}
	}
	if !isQName(name) && !strings.Contains(name, "operator") {
		return
	}
	n := f.addNode(kind, short, c.qname+f.sep+name, c.node, span{Start: t.start, End: t.end})
	node := &f.Nodes[n]
	node.Doc = f.Docs[t.start]
	node.Visibility = c.access
	node.Exported = c.exported && c.access != schemas.Private
	node.IsStatic = t.flags&mStatic != 0
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	if isFunc {
		d := &f.Items[fdi]
		after := srctext.Squeeze(f.Str[d.End:t.end])
		node.IsAbstract = strings.HasPrefix(after, "=0")
		node.Signature = srctext.OneLine(strings.TrimSuffix(strings.TrimSpace(f.Str[t.start:t.end]), ";"))
		sf := &sigFrame{params: d.Role[indexer.RoleParams], node: n, declares: true, qname: node.QualifiedName, name: name, at: ns}
		f.sigs = append(f.sigs, sf)
		f.stack.Push(&frame{kind: kDeclarator, start: it.Start, end: it.End, node: n, sig: sf})
		if t.typ.End > t.typ.Start {
			if tn := f.typeExpr(t.typ); tn != "" {
				f.AddRef(schemas.RefResult, node.ID, t.typ, srctext.OneLine(f.Text(t.typ)), "{"+tn+"}")
			}
		}
		return
	}
	if t.typ.End > t.typ.Start {
		node.Signature = srctext.OneLine(f.Str[t.start:t.typ.End] + " " + f.Text(it.Span))
		if tn := f.typeExpr(t.typ); tn != "" && !strings.Contains(f.Text(it.Span), "(") {
			f.AddRef(schemas.RefType, node.ID, t.typ, srctext.OneLine(f.Text(t.typ)), "{"+tn+"}")
		}
	}
	if strings.Contains(f.Text(it.Span), "(") { // a function pointer
		node.Decorators = append(node.Decorators, "function_pointer")
	}
	f.stack.Push(&frame{kind: kDeclarator, start: it.Start, end: it.End, node: n})
}

// param handles a parameter: a binding of its function, and a parameter
// type of the signature of the function or prototype it belongs to.
func (f *fileState) param(it *item) {
	if len(f.stack) == 0 {
		return
	}
	t := f.stack.Top()
	sf := t.sig
	if sf == nil || !encloses(sf.params, it.Span) || it.Start < sf.lastParam {
		return
	}
	sf.lastParam = it.End
	txt := f.Text(it.Span)
	var ns span
	named := false
	if it.HasRole(indexer.RoleName) {
		ns, named = f.declName(it.Role[indexer.RoleName])
	}
	sig := txt
	if named {
		sig = f.Str[it.Start:ns.Start] + f.Str[ns.End:it.End]
	}
	if i := strings.IndexByte(sig, '='); i >= 0 && !strings.Contains(sig[:i], "(") {
		sig = sig[:i] + "="
	}
	sf.sigs = append(sf.sigs, strings.ReplaceAll(srctext.OneLine(sig), " =", "="))
	if t.kind == kFunc && named && isIdent(f.Text(ns)) {
		b := f.bind(f.Text(ns), t.start, t.end, f.declared(it.Role[indexer.RoleType]))
		if f.cpp {
			b.typ = f.scoped(normType(strings.TrimSuffix(sig, "=")), it.Start, "")
		}
		f.smart(b, it.Role[indexer.RoleType])
	}
}

// bases records the base classes of a C++ class.
func (f *fileState) bases(it *item) {
	c := f.container()
	if c == nil || c.kind != kClass || c.node < 0 || it.Start >= c.body.Start {
		return
	}
	txt := strings.TrimPrefix(strings.TrimSpace(f.Text(it.Span)), ":")
	for _, b := range splitTop(txt) {
		var words []string
		for _, w := range strings.Fields(stripTemplates(b)) {
			switch w {
			case "public", "private", "protected", "virtual":
			default:
				words = append(words, w)
			}
		}
		name := strings.TrimSuffix(strings.Join(words, ""), "...")
		if !isQName(name) {
			continue
		}
		if head, _, _ := strings.Cut(name, "::"); !f.tvars.Has(head, it.Start) {
			f.AddRef(schemas.EdgeExtends, f.Nodes[c.node].ID, it.Span, srctext.OneLine(b), name)
		}
	}
}

// using records a using directive or declaration.
func (f *fileState) using(it *item) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ";"))
	t, ok := strings.CutPrefix(t, "using")
	if !ok {
		return
	}
	t = srctext.Squeeze(t)
	expr := ""
	if rest, ok := strings.CutPrefix(t, "namespace"); ok {
		rest = strings.TrimPrefix(rest, "::")
		if !isQName(rest) {
			return
		}
		f.namespaces[rest] = true
		if prefix, _ := f.prefix(); prefix != "" {
			f.namespaces[prefix+"::"+rest] = true
		}
		expr = "namespace " + rest
	} else {
		t = strings.TrimPrefix(strings.TrimPrefix(t, "typename"), "::")
		if !isQName(t) || !strings.Contains(t, "::") {
			return
		}
		expr = t
	}
	if c := f.container(); c != nil && c.kind == kClass {
		return // a using-declaration of a base's member
	}
	f.AddRef(schemas.RefUsing, f.SrcID(f.context()), it.Span, srctext.OneLine(f.Text(it.Span)), expr)
}

// define makes the node of a macro with a value: a function-like macro
// is a function, an object-like one a constant. Macros without a value
// (include guards, feature flags) make no node.
func (f *fileState) define(it *item) {
	if !it.HasRole(indexer.RoleValue) && !it.HasRole(indexer.RoleParams) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	kind := schemas.KindConstant
	if it.HasRole(indexer.RoleParams) {
		kind = schemas.KindFunction
	}
	n := f.addNode(kind, name, name, -1, span{Start: it.Start, End: uint32(max(int(it.Start), trimEnd(f.Str, int(it.End))))})
	node := &f.Nodes[n]
	node.Decorators = []string{"macro"}
	end := it.Role[indexer.RoleName].End
	if it.HasRole(indexer.RoleParams) {
		end = it.Role[indexer.RoleParams].End
	}
	sig := f.Str[it.Start:end]
	if kind == schemas.KindConstant && it.HasRole(indexer.RoleValue) {
		sig += " " + strings.TrimSpace(f.Text(it.Role[indexer.RoleValue]))
	}
	node.Signature = srctext.OneLine(sig)
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	if it.HasRole(indexer.RoleParams) {
		params := strings.Trim(f.Text(it.Role[indexer.RoleParams]), "()")
		var sigs []string
		if strings.TrimSpace(params) != "" {
			for _, p := range splitTop(params) {
				sigs = append(sigs, strings.TrimSpace(p))
			}
		}
		f.AddRef(schemas.RefParams, node.ID, it.Role[indexer.RoleName], name, strings.Join(sigs, ","))
	}
}

func trimEnd(s string, e int) int {
	for e > 0 && isSpace(s[e-1]) {
		e--
	}
	return e
}

// Finish writes the refs that needed every binding of the file.
func (f *fileState) Finish(ctx context.Context) {
	for _, sf := range f.sigs {
		params := f.Text(sf.params)
		inner := strings.TrimSpace(strings.Trim(params, "()"))
		sigs := sf.sigs
		if strings.HasSuffix(inner, "...") && (len(sigs) == 0 || !strings.HasSuffix(sigs[len(sigs)-1], "...")) {
			sigs = append(sigs, "...")
		}
		if len(sigs) == 1 && sigs[0] == "void" {
			sigs = nil
		}
		p := strings.Join(sigs, ",")
		if sf.node >= 0 {
			n := &f.Nodes[sf.node]
			fact := p
			if f.cpp && templated(f.Str, int(n.StartByte)) {
				fact = templateMark + p
			}
			f.AddRef(schemas.RefParams, n.ID, span{Start: n.StartByte, End: n.EndByte}, n.Name, fact)
		}
		if sf.declares {
			src := indexer.FileID(f.Path)
			if sf.node >= 0 {
				src = f.Nodes[sf.node].ID
			}
			f.AddRef(schemas.RefDeclares, src, sf.at, sf.name, sf.qname+"("+p+")")
		}
	}
	for _, c := range indexer.Elements(ctx, f.calls) {
		it := &f.Items[c.Item]
		var at span
		var target, expr, args string
		switch it.Kind {
		case kCall:
			fn := it.Role[indexer.RoleObject]
			at = fn
			target = srctext.OneLine(f.Text(fn))
			n := "(" + itoa(countArgs(f.Text(it.Role[indexer.RoleArgs]))) + ")"
			if a := it.Role[indexer.RoleArgs]; f.cpp && n != "(0)" && f.Str[a.Start] == '(' {
				n = n[:len(n)-1] + ":" + f.argTypes(a) + ")"
			}
			if fi := indexer.ItemAt(f.Items, f.exprs, fn); fi != nil && fi.Kind == kField {
				at = fi.Role[indexer.RoleName]
				expr = joinExpr(f.receiver(fi, 0), normName(f.Text(fi.Role[indexer.RoleName]))+n)
			} else if name := normName(f.Text(fn)); notCalls[name] {
				continue
			} else if isQName(name) {
				expr = strings.TrimPrefix(name, "::") + n
				if isIdent(name) && f.lookup(name, fn.Start) != nil {
					expr = indexer.ExprLocal
				}
			} else {
				expr = indexer.ExprExpr
			}
			args = argsText(f.Text(it.Role[indexer.RoleArgs]))
		case kNew:
			at = it.Span
			target = "new " + srctext.OneLine(f.Text(it.Role[indexer.RoleType]))
			t := f.typeExpr(it.Role[indexer.RoleType])
			if t == "" {
				continue
			}
			n := 0
			if it.HasRole(indexer.RoleArgs) {
				n = countArgs(f.Text(it.Role[indexer.RoleArgs]))
				args = argsText(f.Text(it.Role[indexer.RoleArgs]))
			}
			expr = "new " + t + "(" + itoa(n) + ")"
		}
		r := f.AddRef(c.Kind, f.SrcID(c.Src), at, target, expr)
		r.Args = srctext.CapText(args)
		c.Mark(r)
	}
}

// argsText returns the arguments of a call as written, on one line.
func argsText(a string) string {
	if len(a) >= 2 && (a[0] == '(' && a[len(a)-1] == ')' || a[0] == '{' && a[len(a)-1] == '}') {
		a = a[1 : len(a)-1]
	}
	return srctext.OneLine(strings.TrimSpace(a))
}

// smart marks b a smart pointer when its declared type t is one.
func (f *fileState) smart(b *binding, t span) {
	if a := smartArg(f.Text(t)); a != "" {
		b.expr, b.smart = indexer.Known("{"+a+"}"), true
	}
}
