package swift

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
// attributes and modifiers, not its doc comment; its body hash covers its
// body only (the whole declaration when it has none).

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

// moduleOf returns the module of a file by the Swift Package Manager's
// layout: the target folder T of Sources/T/ or Tests/T/, nearest first;
// "" for a file outside such a folder (the tree's one module).
func moduleOf(file string) string {
	parts := strings.Split(file, "/")
	for i := len(parts) - 3; i >= 0; i-- {
		if parts[i] == "Sources" || parts[i] == "Tests" {
			return parts[i+1]
		}
	}
	return ""
}

// isTestFile reports whether file holds tests by SwiftPM and Xcode
// conventions: under a Tests folder, or named *Tests.swift or *Test.swift.
func isTestFile(file string) bool {
	base := path.Base(file)
	if strings.HasSuffix(base, "Tests.swift") || strings.HasSuffix(base, "Test.swift") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(file), "/") {
		if dir == "Tests" || strings.HasSuffix(dir, "Tests") {
			return true
		}
	}
	return false
}

// frame is a range the walk is inside of: a declaration, a scope, a
// region.
type frame struct {
	kind       kind
	start, end uint32
	node       int32  // the node made for it, -1 if none
	ext        string // extensions: the extended type, as written
	qname      string // types and extensions: the prefix of their members' names
	body       span
	proto      bool
	enum       bool
	exported   bool
	labels     []string // functions and initializers: the parameter labels
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

// Kind returns what fr is.
func (fr *frame) Kind() kind { return fr.kind }

// Node returns the node made for fr, -1 if none.
func (fr *frame) Node() int32 { return fr.node }

// binding is a local, a parameter or a pattern variable: visible from
// start to end.
type binding struct {
	start, end uint32
	expr       indexer.Lazy[string] // its Expr, worked out from value unless given
	value      span
}

// Visible returns the range b is visible in.
func (b *binding) Visible() span { return span{Start: b.start, End: b.end} }

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]

	module string // the module's name and a dot, "" for the tree's one module
	stack  indexer.Stack[*frame]
	exprs  map[uint64]int32    // expression items by span
	labels map[uint32][]string // argument labels by the start of the call suffix
	args   map[uint32][]span   // argument values, likewise
	binds  indexer.Bindings[*binding]
	calls  []indexer.Pending
	sigs   []*frame
	tvars  indexer.TypeVars
	named  map[uint64]bool // user types with refs of their own, by span
}

// newFileState returns the extraction of f.
func newFileState(f indexer.File[kind]) indexer.Passes {
	return &fileState{
		File:  f,
		exprs: map[uint64]int32{}, labels: map[uint32][]string{}, args: map[uint32][]span{},
		binds: indexer.Bindings[*binding]{}, named: map[uint64]bool{},
	}
}

// Prepare indexes what the walk looks up by position: doc comments,
// expressions and argument labels.
func (f *fileState) Prepare(ctx context.Context) {
	var doc []string
	var docEnd uint32
	flush := func() {
		if len(doc) > 0 {
			f.Docs[uint32(srctext.SkipSpace(f.Str, int(docEnd)))] = docComment(doc)
		}
		doc = doc[:0]
	}
	var args []span
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kDoc:
			t := f.Text(it.Span)
			if !strings.HasPrefix(t, "///") && !strings.HasPrefix(t, "/**") {
				flush()
				continue
			}
			if len(doc) > 0 && uint32(srctext.SkipSpace(f.Str, int(docEnd))) != it.Start {
				flush()
			}
			doc = append(doc, t)
			docEnd = it.End
		case kCall, kNav, kParen, kBin:
			f.exprs[it.Key()] = int32(i)
		case kArgs:
			args = indexer.Enclosing(args, it.Start)
			args = append(args, it.Span)
			f.labels[it.Start] = []string{}
		case kArg, kClosure:
			args = indexer.Enclosing(args, it.Start)
			if len(args) == 0 {
				continue
			}
			l := "_"
			v := it.Span
			switch {
			case it.Kind == kClosure:
				l = "*"
			case it.HasRole(indexer.RoleName):
				l = f.Text(it.Role[indexer.RoleName])
				if c := strings.IndexByte(f.Str[it.Role[indexer.RoleName].End:it.End], ':'); c >= 0 {
					v.Start = uint32(srctext.SkipSpace(f.Str, int(it.Role[indexer.RoleName].End)+c+1))
				}
			}
			a := args[len(args)-1].Start
			f.labels[a] = append(f.labels[a], l)
			f.args[a] = append(f.args[a], v)
		}
	}
	flush()
}

// Modifier flags.
const (
	mPublic uint32 = 1 << iota
	mOpen
	mInternal
	mPrivate
	mFilePrivate
	mStatic
	mClass
	mFinal
	mOverride
	mConvenience
)

var modifierWords = map[string]uint32{
	"public": mPublic, "open": mOpen, "internal": mInternal, "private": mPrivate, "fileprivate": mFilePrivate,
	"static": mStatic, "class": mClass, "final": mFinal, "override": mOverride, "convenience": mConvenience,
}

// modifiers reads the attributes and modifiers of the declaration at i:
// the items inside it that start before limit. It returns the flags, the
// attributes without the @ and where the text after them starts.
func (f *fileState) modifiers(i int, limit uint32) (uint32, []string, uint32) {
	it := &f.Items[i]
	var flags uint32
	var attrs []string
	header := it.Start
	for _, m := range f.Within(i, limit) {
		switch m.Kind {
		case kMods:
			t := f.Text(m.Span)
			for k := 0; k < len(t); {
				if !isIdentStart(t[k]) {
					k++
					continue
				}
				e := k + 1
				for e < len(t) && isIdentByte(t[e]) {
					e++
				}
				w := t[k:e]
				if e < len(t) && t[e] == '(' { // private(set) limits the setter only
					if c := strings.IndexByte(t[e:], ')'); c > 0 {
						e += c + 1
					}
					k = e
					continue
				}
				flags |= modifierWords[w]
				k = e
			}
			header = max(header, m.End)
		case kAnnot:
			if m.Start < header && header > it.Start {
				continue // an attribute of something inside the modifiers
			}
			attrs = append(attrs, srctext.OneLine(strings.TrimPrefix(f.Text(m.Span), "@")))
			header = max(header, m.End)
		}
	}
	return flags, attrs, min(uint32(srctext.SkipSpace(f.Str, int(header))), limit)
}

// visibility returns the access level: public (public, open), private
// (private, fileprivate), internal (the default).
func visibility(flags uint32, implicit string) string {
	switch {
	case flags&(mPublic|mOpen) != 0:
		return schemas.Public
	case flags&(mPrivate|mFilePrivate) != 0:
		return schemas.Private
	case flags&mInternal != 0:
		return schemas.Internal
	}
	return implicit
}

// owner returns the type or extension whose body holds p directly: (fr,
// true); (nil, true) at the top level; (nil, false) in a local scope.
func (f *fileState) owner(p uint32) (*frame, bool) {
	t := f.stack.Top()
	switch {
	case t == nil:
		return nil, true
	case t.kind.isType() && (t.node >= 0 || t.ext != "") && t.body.Start <= p && p < t.body.End:
		return t, true
	}
	return nil, false
}

// scope returns the innermost frame a local declared now is visible in.
func (f *fileState) scope() *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if fr := f.stack[i]; fr.kind == kScope || fr.kind.isDecl() {
			return fr
		}
	}
	return nil
}

func (f *fileState) bind(name string, start, end uint32, expr string) *binding {
	return f.binds.Add(name, &binding{start: start, end: end, expr: indexer.Known(expr)})
}

// lookup returns the innermost binding of name visible at p.
func (f *fileState) lookup(name string, p uint32) *binding {
	return f.binds.Lookup(name, p)
}

// Run makes the nodes and refs of the file from the items of the query,
// first the package ref to the file's module (see moduleOf).
func (f *fileState) Run(ctx context.Context) {
	if m := moduleOf(f.Path); m != "" {
		f.module = m + "."
		f.AddRef(schemas.RefPackage, indexer.FileID(f.Path), span{}, m, m)
	}
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kType, kProto:
			if it.HasRole(indexer.RoleName) {
				f.named[it.Role[indexer.RoleName].Key()] = true // an extension's type
			}
			f.typeDecl(i)
		case kSuper:
			f.named[it.Key()] = true
			f.superRef(it)
		case kTParam:
			if t := f.stack.Top(); t != nil {
				f.tvars = append(f.tvars, indexer.TypeVar{Scope: span{Start: t.start, End: t.end}, Name: f.Text(it.Span)})
			}
		case kTAnnot:
			f.named[it.Key()] = true
			if n := typeName(f.Text(it.Span)); n != "" {
				f.AddRef(schemas.EdgeReferences, f.SrcID(indexer.Context(f.stack)), it.Span, n, "@"+n)
			}
		case kTUse:
			f.typeUse(it)
		case kFn, kInit, kProp, kAlias:
			f.member(i)
		case kCase:
			f.enumCases(it)
		case kParam:
			f.param(it)
		case kLParam:
			if sc := f.scope(); sc != nil {
				name, _, typ, _, _ := splitParam(f.Text(it.Span))
				if name != "" && name != "_" {
					f.bind(name, sc.start, sc.end, typeExprOr(typ))
				}
			}
		case kBind:
			if t := f.stack.Top(); t != nil && t.kind == kProp || !it.HasRole(indexer.RoleName) {
				continue // a property's own name
			}
			if sc := f.scope(); sc != nil {
				f.bind(f.Text(it.Role[indexer.RoleName]), it.Start, sc.end, indexer.ExprLocal)
			}
		case kScope:
			if t := f.stack.Top(); t != nil && t.body == it.Span && t.kind.isType() {
				continue // a type's body
			}
			f.stack.Push(&frame{kind: kScope, start: it.Start, end: it.End, node: -1})
		case kLoop, kTry, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kCall:
			f.addCall(schemas.EdgeCalls, i)
		case kImport:
			f.importRef(it)
		}
	}
}

// typeUse records a user type as a references ref reading its name,
// generic arguments dropped: a declared type, a parameter's or result's,
// a generic argument or constraint, a cast, an is check, a pattern's or
// caught type. A generic parameter in scope makes none.
func (f *fileState) typeUse(it *item) {
	if f.named[it.Key()] {
		return
	}
	n := typeName(f.Text(it.Span))
	if n == "" {
		return
	}
	if f.tvars.Heads(n, it.Start) {
		return
	}
	f.AddRef(schemas.EdgeReferences, f.SrcID(indexer.Context(f.stack)), it.Span, n, n)
}

func typeExprOr(t string) string {
	if n := typeName(t); n != "" {
		return "{" + n + "}"
	}
	return indexer.ExprLocal
}

// typeDecl makes the node of a class, struct, enum, actor or protocol, or
// opens an extension.
func (f *fileState) typeDecl(i int) {
	it := &f.Items[i]
	o, ok := f.owner(it.Start)
	if !ok || !it.HasRole(indexer.RoleName) {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	flags, attrs, header := f.modifiers(i, it.Role[indexer.RoleName].Start)
	word := "protocol"
	if it.Kind == kType {
		word = ""
		for _, w := range strings.Fields(f.Str[header:it.Role[indexer.RoleName].Start]) {
			switch w {
			case "class", "struct", "enum", "extension", "actor":
				word = w
			}
		}
	}
	name := f.Text(it.Role[indexer.RoleName])
	prefix := f.module
	if o != nil {
		prefix = o.qname + "."
	}
	if word == "extension" {
		t := typeName(name)
		if t == "" {
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
			return
		}
		f.stack.Push(&frame{kind: kType, start: it.Start, end: it.End, node: -1, ext: t, qname: prefix + t, body: it.Role[indexer.RoleBody],
			exported: flags&(mPublic|mOpen) != 0})
		return
	}
	kind := schemas.KindClass
	switch word {
	case "struct":
		kind = schemas.KindStruct
	case "enum":
		kind = schemas.KindEnum
	case "protocol":
		kind = schemas.KindInterface
	}
	parent := int32(-1)
	if o != nil {
		parent = o.node
	}
	n := f.AddNode(kind, name, prefix+name, parent, it.Span)
	node := &f.Nodes[n]
	node.Decorators = attrs
	implicit := schemas.Internal
	if o != nil && o.proto {
		implicit = schemas.Public
	}
	node.Visibility = visibility(flags, implicit)
	node.Exported = node.Visibility == schemas.Public && (o == nil || o.exported)
	node.IsAbstract = kind == schemas.KindInterface
	body := it.Role[indexer.RoleBody]
	var end uint32
	node.BodyHash, end = f.BodyHash(it, indexer.RoleBody)
	node.Signature = srctext.OneLine(f.Str[header:end])
	f.receiver(o, node.ID, it.Span)
	f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, qname: prefix + name, body: body,
		proto: kind == schemas.KindInterface, enum: kind == schemas.KindEnum, exported: node.Exported})
	if f.Test && kind == schemas.KindClass {
		node.IsTest = strings.HasSuffix(name, "Tests") || strings.HasSuffix(name, "Test")
	}
}

// receiver records, for a declaration directly in an extension, the
// extended type.
func (f *fileState) receiver(o *frame, id uint64, at span) {
	if o != nil && o.node < 0 && o.ext != "" {
		f.AddRef(schemas.RefReceiver, id, at, o.ext, "{"+strings.TrimPrefix(o.qname, f.module)+"}")
	}
}

// superRef records an inherited type or conformance: an extends ref
// whatever the kinds (the resolver decides by the kind it finds); of an
// extension, an implements ref from the file, Expr "T: P".
func (f *fileState) superRef(it *item) {
	t := f.stack.Top()
	if t == nil || !t.kind.isType() || t.body.End > 0 && it.Start >= t.body.Start {
		return
	}
	txt := f.Text(it.Span)
	name := typeName(txt)
	switch {
	case name == "":
	case t.node >= 0:
		f.AddRef(schemas.EdgeExtends, f.Nodes[t.node].ID, it.Span, srctext.OneLine(txt), name)
	case t.ext != "":
		f.AddRef(schemas.EdgeImplements, indexer.FileID(f.Path), it.Span, srctext.OneLine(txt), strings.TrimPrefix(t.qname, f.module)+": "+name)
	}
}

// member makes the node of a function, initializer, property or type
// alias, or binds a local one.
func (f *fileState) member(i int) {
	it := &f.Items[i]
	if it.Kind != kInit && !it.HasRole(indexer.RoleName) {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	name := "init"
	if it.Kind != kInit {
		name = f.Text(it.Role[indexer.RoleName])
	}
	o, ok := f.owner(it.Start)
	if !ok {
		f.local(it, name)
		return
	}
	limit := it.End
	if it.HasRole(indexer.RoleName) {
		limit = it.Role[indexer.RoleName].Start
	} else if it.HasRole(indexer.RoleBody) {
		limit = it.Role[indexer.RoleBody].Start
	}
	flags, attrs, header := f.modifiers(i, limit)
	qname, parent := f.module+name, int32(-1)
	if o != nil {
		qname = o.qname + "." + name
		parent = o.node
	}
	inType := o != nil
	var kind string
	switch it.Kind {
	case kFn:
		kind = schemas.KindFunction
		if inType {
			kind = schemas.KindMethod
		}
	case kInit:
		kind = schemas.KindConstructor
	case kProp:
		kind = schemas.KindField
		if f.isLet(header, it) {
			kind = schemas.KindConstant
		} else if !inType {
			kind = schemas.KindVariable
		}
	case kAlias:
		kind = schemas.KindTypeAlias
	}
	n := f.AddNode(kind, name, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Decorators = attrs
	implicit := schemas.Internal
	if o != nil && o.proto {
		implicit = f.Nodes[o.node].Visibility
	}
	node.Visibility = visibility(flags, implicit)
	node.Exported = node.Visibility == schemas.Public && (o == nil || o.exported)
	if o != nil && o.node < 0 && o.exported && flags&(mPrivate|mFilePrivate|mInternal) == 0 {
		node.Visibility, node.Exported = schemas.Public, true // a member of a public extension
	}
	node.IsStatic = flags&(mStatic|mClass) != 0
	node.IsAbstract = o != nil && o.proto && !it.HasRole(indexer.RoleBody)
	var end uint32
	node.BodyHash, end = f.BodyHash(it, indexer.RoleBody)
	if it.Kind == kProp && it.HasRole(indexer.RoleValue) {
		end = lastBefore(f.Str, it.Start, it.Role[indexer.RoleValue].Start)
	}
	sig := srctext.OneLine(f.Str[header:max(header, end)])
	node.Signature = sig
	nameEnd := header
	if it.HasRole(indexer.RoleName) {
		nameEnd = it.Role[indexer.RoleName].End
	}
	for _, w := range strings.Fields(f.Str[min(nameEnd, end):end]) {
		if w == "async" {
			node.IsAsync = true
		}
	}
	if f.Test && it.Kind == kFn && inType && strings.HasPrefix(name, "test") && !node.IsStatic {
		node.IsTest = true
	}
	f.receiver(o, node.ID, it.Span)
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, body: it.Role[indexer.RoleBody]})
	switch it.Kind {
	case kFn, kInit:
		f.sigs = append(f.sigs, fr)
		if r := resultType(f.Str[nameEnd:max(nameEnd, end)]); r != "" {
			if t := typeName(r); t != "" {
				f.AddRef(schemas.RefResult, node.ID, span{Start: nameEnd, End: end}, srctext.OneLine(r), "{"+t+"}")
			}
		}
	case kProp:
		if t := typeName(f.Text(it.Role[indexer.RoleType])); it.HasRole(indexer.RoleType) && t != "" {
			f.AddRef(schemas.RefType, node.ID, it.Role[indexer.RoleType], srctext.OneLine(strings.TrimPrefix(f.Text(it.Role[indexer.RoleType]), ":")), "{"+t+"}")
		} else if !it.HasRole(indexer.RoleType) && it.HasRole(indexer.RoleValue) {
			f.pendingFact(schemas.RefType, n, it.Role[indexer.RoleValue])
		}
	case kAlias:
		t := f.Text(it.Span)
		if eq := strings.IndexByte(t, '='); eq >= 0 {
			if tn := typeName(t[eq+1:]); tn != "" {
				f.AddRef(schemas.RefType, node.ID, it.Span, srctext.OneLine(t[eq+1:]), "{"+tn+"}")
			}
		}
	}
}

// resultType returns the result type of a function's signature after its
// name: the text after the first -> outside its parameters, or "".
func resultType(sig string) string {
	depth := 0
	for i := 0; i < len(sig); i++ {
		switch sig[i] {
		case '(', '[', '<':
			depth++
		case ')', ']':
			depth--
		case '>':
			if i > 0 && sig[i-1] == '-' {
				if depth == 0 {
					r := strings.TrimSpace(sig[i+1:])
					if w := strings.Fields(r); len(w) > 0 && (w[len(w)-1] == "where" || strings.Contains(r, " where ")) {
						r = r[:strings.Index(r, "where")]
					}
					return strings.TrimSpace(r)
				}
				continue
			}
			depth--
		}
	}
	return ""
}

// isLet reports whether the property declaration is a let.
func (f *fileState) isLet(header uint32, it *item) bool {
	end := it.End
	if it.HasRole(indexer.RoleName) {
		end = it.Role[indexer.RoleName].Start
	}
	for _, w := range strings.Fields(f.Str[header:end]) {
		if w == "let" {
			return true
		}
	}
	return false
}

// lastBefore returns the end of the text before the = of an initializer
// starting at b.
func lastBefore(s string, start, b uint32) uint32 {
	e := int(b)
	for e > int(start) && (s[e-1] == ' ' || s[e-1] == '\t' || s[e-1] == '\n' || s[e-1] == '\r' || s[e-1] == '=') {
		e--
	}
	return uint32(e)
}

// pendingFact records a type fact given by an expression: its Expr is
// computed once every binding is known.
func (f *fileState) pendingFact(kind string, n int32, value span) {
	f.calls = append(f.calls, indexer.Pending{Kind: kind, Item: -1, Src: n, At: value})
}

// local binds a declaration inside a function: a local function or a
// local let or var.
func (f *fileState) local(it *item, name string) {
	sc := f.scope()
	f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
	if sc == nil {
		return
	}
	switch it.Kind {
	case kFn:
		f.bind(name, sc.start, sc.end, indexer.ExprLocal)
	case kProp:
		switch {
		case it.HasRole(indexer.RoleType):
			f.bind(name, it.Start, sc.end, typeExprOr(f.Text(it.Role[indexer.RoleType])))
		case it.HasRole(indexer.RoleValue):
			b := f.bind(name, it.Start, sc.end, "")
			b.value, b.expr = it.Role[indexer.RoleValue], indexer.Lazy[string]{}
		default:
			f.bind(name, it.Start, sc.end, indexer.ExprLocal)
		}
	}
}

// enumCases makes the constants of an enum case declaration.
func (f *fileState) enumCases(it *item) {
	o, ok := f.owner(it.Start)
	if !ok || o == nil || !o.enum && o.ext == "" {
		return
	}
	t := f.Text(it.Span)
	p := strings.Index(t, "case")
	if p < 0 {
		return
	}
	rest := t[p+4:]
	off := it.Start + uint32(p+4)
	for len(rest) > 0 {
		s := srctext.SkipSpace(rest, 0)
		e := s
		for e < len(rest) && isIdentByte(rest[e]) {
			e++
		}
		if e > s {
			name := rest[s:e]
			at := span{Start: off + uint32(s), End: off + uint32(e)}
			n := f.AddNode(schemas.KindConstant, name, o.qname+"."+name, o.node, span{Start: it.Start, End: it.End})
			node := &f.Nodes[n]
			node.Visibility, node.Exported, node.IsStatic = schemas.Public, o.exported, true
			node.Signature = "case " + srctext.OneLine(rest[s:nextCase(rest, e)])
			node.BodyHash = xxhash.Sum64String(node.Signature)
			f.receiver(o, node.ID, at)
		}
		c := nextCase(rest, e)
		if c >= len(rest) {
			break
		}
		off += uint32(c + 1)
		rest = rest[c+1:]
	}
}

// nextCase returns the index of the comma ending the case at p, or the
// end of s.
func nextCase(s string, p int) int {
	if i := topIndex(s[p:], ','); i >= 0 {
		return p + i
	}
	return len(s)
}

// splitParam parses a parameter as written: [external] name: Type [=
// default]. It returns the internal name, the label callers write ("_"
// for none), the type, and whether it has a default value or is variadic.
func splitParam(t string) (name, label, typ string, def, variadic bool) {
	colon := topIndex(t, ':')
	head := t
	if colon >= 0 {
		head, typ = t[:colon], t[colon+1:]
		if eq := topIndex(typ, '='); eq >= 0 {
			typ, def = typ[:eq], true
		}
		typ = strings.TrimSpace(typ)
		variadic = strings.HasSuffix(typ, "...")
	}
	words := strings.Fields(head)
	if len(words) == 0 {
		return "", "", "", false, false
	}
	name = words[len(words)-1]
	label = words[0]
	if len(words) == 1 {
		label = name
	}
	return name, label, typ, def, variadic
}

// param binds a parameter of a function or initializer and adds its label
// to the declaration's.
func (f *fileState) param(it *item) {
	t := f.stack.Top()
	if t == nil || t.kind != kFn && t.kind != kInit {
		return
	}
	if t.body.End > 0 && it.Start >= t.body.Start {
		return
	}
	name, label, typ, def, variadic := f.paramParts(it)
	if name == "" {
		return
	}
	if name != "_" {
		f.bind(name, t.start, t.end, typeExprOr(typ))
	}
	if t.node >= 0 {
		switch {
		case variadic:
			label = "..." + label
		case def:
			label += ":" + f.paramType(typ, it.Start) + "="
		default:
			label += ":" + f.paramType(typ, it.Start)
		}
		t.labels = append(t.labels, label)
	}
}

// paramType returns the type of a parameter as the params fact writes
// it: its name, "?" after an optional one, or "" when it is none the
// resolver compares (a generic parameter, a function, tuple or generic
// type).
func (f *fileState) paramType(typ string, at uint32) string {
	n := typeName(typ)
	if n == "" || n == "Array" || n == "Dictionary" || strings.ContainsAny(typ, "<[(") {
		return ""
	}
	if f.tvars.Heads(n, at) {
		return ""
	}
	if t := strings.TrimSpace(typ); strings.HasSuffix(t, "?") || strings.HasSuffix(t, "!") {
		n += "?"
	}
	return n
}

func (f *fileState) paramParts(it *item) (string, string, string, bool, bool) {
	name, label, typ, def, variadic := splitParam(f.Text(it.Span))
	if p := srctext.SkipSpace(f.Str, int(it.End)); p < len(f.Str) && f.Str[p] == '=' {
		def = true // the default value is the declaration's child, not the parameter's
	}
	return name, label, typ, def, variadic
}

func (f *fileState) addCall(kind string, i int) {
	f.calls = append(f.calls, indexer.Pending{Kind: kind, Item: int32(i), Src: indexer.Context(f.stack), Region: indexer.Regions(f.stack, kLoop, kTry, kCond)})
}

// importRef records an import declaration: Src the file, Expr the module
// (the first component of the path).
func (f *fileState) importRef(it *item) {
	t := f.Text(it.Span)
	p := strings.Index(t, "import")
	if p < 0 {
		return
	}
	words := strings.Fields(t[p+len("import"):])
	if len(words) == 0 {
		return
	}
	path := words[len(words)-1]
	mod, _, _ := strings.Cut(path, ".")
	if !isIdent(mod) {
		return
	}
	if strings.Contains(t[:p], "@testable") {
		mod = "@testable " + mod
	}
	f.AddRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, srctext.OneLine(t), mod)
}

// Finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) Finish(ctx context.Context) {
	for _, fr := range f.sigs {
		n := &f.Nodes[fr.node]
		f.AddRef(schemas.RefParams, n.ID, span{Start: n.StartByte, End: n.EndByte}, n.Name, strings.Join(fr.labels, ","))
	}
	for _, c := range indexer.Elements(ctx, f.calls) {
		if c.Item < 0 {
			v := c.At
			if e := f.expr(v, 0); !strings.HasPrefix(e, "?") {
				f.AddRef(c.Kind, f.Nodes[c.Src].ID, v, srctext.OneLine(f.Text(v)), e)
			}
			continue
		}
		it := &f.Items[c.Item]
		fn := f.callee(it.Role[indexer.RoleObject])
		at := fn
		if j, ok := f.exprs[fn.Key()]; ok && f.Items[j].Kind == kNav {
			at = f.Items[j].Role[indexer.RoleName]
		}
		expr := f.expr(it.Span, 0)
		if strings.HasPrefix(expr, "?") && (strings.HasSuffix(f.Text(fn), "init") || strings.HasPrefix(f.Text(fn), ".")) {
			continue
		}
		r := f.AddRef(c.Kind, f.SrcID(c.Src), at, srctext.OneLine(f.Text(fn)), expr)
		r.Args = argsText(f.Text(it.Role[indexer.RoleArgs]))
		c.Mark(r)
	}
}

// callee returns the function of a call whose function position holds
// s: the right operand of an operator expression (see query.scm), the
// expression itself otherwise.
func (f *fileState) callee(s span) span {
	for d := 0; d < indexer.MaxExprDepth; d++ {
		j, ok := f.exprs[s.Key()]
		if !ok || f.Items[j].Kind != kBin {
			return s
		}
		r := f.rightOperand(int(j))
		if r == (span{}) || r == s {
			return s
		}
		s = r
	}
	return s
}

// rightOperand returns the right operand of the operator expression item
// j (a prefix expression's operand, a cast's value): the outermost
// expression item inside it ending where it ends, or the name after its
// last operator.
func (f *fileState) rightOperand(j int) span {
	s := f.Items[j].Span
	var best span
	for i := j + 1; i < len(f.Items) && f.Items[i].Start < s.End; i++ {
		if it := &f.Items[i]; it.End == s.End && it.Span != s && (best == (span{}) || it.Start < best.Start) {
			switch it.Kind {
			case kCall, kNav, kParen, kBin:
				best = it.Span
			}
		}
	}
	t := f.Text(s)
	k := len(t)
	for k > 0 && (isIdentByte(t[k-1]) || t[k-1] == '.' || t[k-1] == '`') {
		k--
	}
	if k < len(t) && (best == (span{}) || s.Start+uint32(k) < best.Start) {
		return span{Start: s.Start + uint32(k), End: s.End}
	}
	return best
}

// argsText returns the arguments of a call as written, on one line.
func argsText(a string) string {
	if len(a) >= 2 && a[0] == '(' {
		if e := strings.LastIndexByte(a, ')'); e > 0 {
			a = a[1:e]
		}
	}
	return srctext.OneLine(strings.TrimSpace(a))
}
