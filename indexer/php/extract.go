package php

import (
	"context"
	"path"
	"strconv"
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

// isTestFile reports whether file holds tests by PHPUnit conventions: named
// *Test.php, or under a folder named tests or test.
func isTestFile(file string) bool {
	return indexer.TestNamed(file, nil, []string{"Test.php"}, []string{"tests", "test", "Tests", "Test"})
}

// Modifier flags.
const (
	mPublic uint32 = 1 << iota
	mProtected
	mPrivate
	mStatic
	mAbstract
	mFinal
	mReadonly
)

var modifierWords = map[string]uint32{
	"public": mPublic, "protected": mProtected, "private": mPrivate, "static": mStatic,
	"abstract": mAbstract, "final": mFinal, "readonly": mReadonly, "var": mPublic,
}

// frame is a range the walk is inside of: a namespace, a declaration, a
// scope, a region.
type frame struct {
	kind       kind
	start, end uint32
	node       int32  // the node made for it, -1 if none
	class      string // types: the fully qualified name, with a leading backslash
	parent     string // classes: the parent class, fully qualified
	iface      bool
	test       bool // a test class
	typ        span // property and constant declarations: the declared type
	flags      uint32
	header     uint32 // property and constant declarations: where the text after the modifiers starts
	doc        string
	uses       []typeUse // property declarations: the uses in the declared type, until the first property
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

// Kind returns what fr is.
func (fr *frame) Kind() kind { return fr.kind }

// Node returns the node made for fr, -1 if none.
func (fr *frame) Node() int32 { return fr.node }

// typeUse is a class named in a type: where, and its name fully qualified.
type typeUse struct {
	at   span
	name string
}

// binding is one way a variable is bound in a scope (a function, method,
// closure or the file's top-level code): a declared type or a value.
type binding struct {
	scope span
	expr  string // an Expr, or "" with value set
	value span
}

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]

	ns       string            // the current namespace, without leading backslash
	nsNode   int32             // its node, -1 for the global namespace
	nsEnd    uint32            // where the current namespace ends
	uses     map[string]string // lower-case alias → fully qualified class or namespace
	funcUses map[string]string // lower-case alias → fully qualified function
	stack    indexer.Stack[*frame]
	exprs    indexer.ItemsBySpan // expression items by span
	argc     map[uint32]int32    // arguments by the start of the list
	binds    map[string][]binding
	calls    []indexer.Pending
	scopes   []span // functions, methods, closures: bindings are local to them
	active   map[string]bool
	qnames   map[int32]string // call items → the names in them, qualified (see names)
	classes  []classSpan
	promo    struct { // the promoted constructor parameter the walk is in
		at   span
		node int32
	}
}

// newFileState returns the extraction of f.
func newFileState(f indexer.File[kind]) indexer.Passes {
	return &fileState{
		File:  f,
		exprs: indexer.ItemsBySpan{}, argc: map[uint32]int32{},
		binds: map[string][]binding{}, qnames: map[int32]string{}, uses: map[string]string{}, funcUses: map[string]string{},
	}
}

// classSpan is the range of a type: what $this is in it.
type classSpan struct {
	span
	class string // "" in an anonymous class
}

// Prepare indexes what the walk looks up by position: doc comments,
// expressions, argument counts and scopes.
func (f *fileState) Prepare(ctx context.Context) {
	var args []span
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kDoc:
			t := f.Text(it.Span)
			if strings.HasPrefix(t, "/**") {
				f.Docs[uint32(skipSpace(f.Str, int(it.End)))] = docComment(t)
			}
		case kCall, kMcall, kScall, kNew, kField, kParen:
			f.exprs.Add(it.Span, i)
		case kMethod, kFunc, kClosure:
			f.scopes = append(f.scopes, it.Span)
		case kArg:
			args = indexer.Enclosing(args, it.Start)
			if len(args) > 0 {
				f.argc[args[len(args)-1].Start]++
			}
		}
		if it.HasRole(indexer.RoleArgs) {
			a := it.Role[indexer.RoleArgs]
			args = indexer.Enclosing(args, a.Start)
			args = append(args, a)
			f.argc[a.Start] = 0
		}
	}
}

// scopeAt returns the innermost function, method or closure around p, or
// the whole file.
func (f *fileState) scopeAt(p uint32) span {
	s := span{Start: 0, End: uint32(len(f.Src))}
	for _, sc := range f.scopes {
		if sc.Start > p {
			break
		}
		if p < sc.End {
			s = sc
		}
	}
	return s
}

// addRef is AddRef of the target on one line.
func (f *fileState) addRef(kind string, src uint64, at span, target, expr string) *schemas.Ref {
	return f.AddRef(kind, src, at, oneLine(target), expr)
}

// class returns the innermost type around the walk, or nil.
func (f *fileState) class() *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if f.stack[i].kind.isType() {
			return f.stack[i]
		}
	}
	return nil
}

// owner returns the type whose body holds the walk directly, or nil.
func (f *fileState) owner() *frame {
	if len(f.stack) == 0 {
		return nil
	}
	if t := f.stack.Top(); t.kind.isType() && t.node >= 0 {
		return t
	}
	return nil
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

// modifiers reads the modifiers of the declaration of item i: the items
// after it that start before limit. It returns the flags and where the
// text after the attributes starts.
func (f *fileState) modifiers(i int, limit uint32) (uint32, uint32) {
	it := &f.Items[i]
	var flags uint32
	header := it.Start
	if strings.HasPrefix(f.Str[it.Start:], "#[") {
		header = limit
	}
	for _, m := range f.Within(i, limit) {
		if m.Kind == kModifier {
			flags |= modifierWords[strings.ToLower(f.Text(m.Span))]
			header = min(header, m.Start)
		}
	}
	return flags, header
}

func visibility(flags uint32) string {
	switch {
	case flags&mProtected != 0:
		return schemas.Protected
	case flags&mPrivate != 0:
		return schemas.Private
	}
	return schemas.Public
}

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	f.nsNode = -1
	f.nsEnd = uint32(len(f.Src))
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		if it.Start >= f.nsEnd {
			f.enterNamespace("", -1, uint32(len(f.Src)))
		}
		switch it.Kind {
		case kNs:
			f.namespace(it)
		case kUse:
			f.useDecl(it)
		case kRequire:
			f.require(it)
		case kClass, kInterface, kTrait, kEnum:
			f.typeDecl(i)
		case kAnon:
			f.stack.Push(&frame{kind: kAnon, start: it.Start, end: it.End, node: -1})
			f.classes = append(f.classes, classSpan{it.Span, ""})
		case kBase, kImpl, kTraitUse:
			f.baseRef(it)
		case kMethod, kFunc:
			f.function(i)
		case kClosure:
			f.stack.Push(&frame{kind: kClosure, start: it.Start, end: it.End, node: -1})
		case kProps, kConsts:
			f.memberGroup(i)
		case kProp, kConst:
			f.member(it)
		case kCase:
			f.enumCase(it)
		case kPromo:
			f.promoted(i)
		case kTUse, kTAnnot:
			f.typeUse(it)
		case kParam:
			f.param(it)
		case kAssign:
			sc := f.scopeAt(it.Start)
			name := f.Text(it.Role[indexer.RoleName])
			f.binds[name] = append(f.binds[name], binding{scope: sc, value: it.Role[indexer.RoleValue]})
		case kCatch:
			sc := f.scopeAt(it.Start)
			name := f.Text(it.Role[indexer.RoleName])
			f.binds[name] = append(f.binds[name], binding{scope: sc, expr: f.instance(f.Text(it.Role[indexer.RoleType]))})
		case kUnk:
			sc := f.scopeAt(it.Start)
			name := f.Text(it.Role[indexer.RoleName])
			f.binds[name] = append(f.binds[name], binding{scope: sc, expr: indexer.ExprLocal})
		case kLoop, kTry, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kCall, kMcall, kScall, kNew:
			f.names(int32(i))
			f.calls = append(f.calls, indexer.Pending{Item: int32(i), Src: f.context(), Region: indexer.Regions(f.stack, kLoop, kTry, kCond)})
		}
	}
}

// enterNamespace makes name the current namespace, with no imports.
func (f *fileState) enterNamespace(name string, node int32, end uint32) {
	f.ns, f.nsNode, f.nsEnd = name, node, end
	clear(f.uses)
	clear(f.funcUses)
}

// namespace opens a namespace: a block one, or one that runs to the next
// namespace statement or the end of the file.
func (f *fileState) namespace(it *item) {
	name := ""
	if it.HasRole(indexer.RoleName) {
		name = srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
	}
	end := uint32(len(strings.TrimRight(f.Str, " \t\r\n")))
	if it.HasRole(indexer.RoleBody) {
		end = it.End
	} else {
		for j := range f.Items { // the next namespace statement ends this one
			if n := &f.Items[j]; n.Kind == kNs && n.Start > it.Start {
				end = uint32(len(strings.TrimRight(f.Str[:n.Start], " \t\r\n")))
				break
			}
		}
	}
	node := int32(-1)
	if name != "" {
		short := name[strings.LastIndexByte(name, '\\')+1:]
		node = f.AddNode(schemas.KindNamespace, short, name, -1, span{Start: it.Start, End: end})
		n := &f.Nodes[node]
		n.Visibility, n.Exported = schemas.Public, true
		n.Signature = "namespace " + name
		n.BodyHash = xxhash.Sum64String(f.Str[it.Start:end])
	}
	f.enterNamespace(name, node, end)
	f.stack.Push(&frame{kind: kNs, start: it.Start, end: end, node: node})
}

// qualify returns the fully qualified form (with a leading backslash) of
// the class or namespace name n, by PHP's rules, and whether a use
// declaration gave it. It returns "" for the names of builtin types.
func (f *fileState) qualify(n string) (string, bool) {
	n = srctext.Squeeze(n)
	if n == "" {
		return "", false
	}
	if n[0] == '\\' {
		return n, false
	}
	lower := strings.ToLower(n)
	if rest, ok := strings.CutPrefix(lower, "namespace\\"); ok {
		return f.inNamespace(n[len(n)-len(rest):]), false
	}
	head, rest, qualified := strings.Cut(n, "\\")
	switch lh := strings.ToLower(head); {
	case !qualified && (lh == "self" || lh == "static"):
		if c := f.class(); c != nil && c.class != "" {
			return c.class, false
		}
		return "", false
	case !qualified && lh == "parent":
		if c := f.class(); c != nil {
			return c.parent, false
		}
		return "", false
	case !qualified && builtinTypes[lh]:
		return "", false
	}
	if u, ok := f.uses[strings.ToLower(head)]; ok {
		if qualified {
			return u + "\\" + rest, true
		}
		return u, true
	}
	return f.inNamespace(n), false
}

func (f *fileState) inNamespace(n string) string {
	if f.ns == "" {
		return "\\" + n
	}
	return "\\" + f.ns + "\\" + n
}

// functionNames returns the candidates, in PHP's order, a call of the
// function named n may land on, the first with ^ when a use declaration
// gave it: an unqualified name is looked up in the namespace, then in the
// global namespace.
func (f *fileState) functionNames(n string) string {
	n = srctext.Squeeze(n)
	if n == "" {
		return ""
	}
	if n[0] == '\\' {
		return n
	}
	if !strings.Contains(n, "\\") {
		if u, ok := f.funcUses[strings.ToLower(n)]; ok {
			return "^" + u
		}
		if f.ns == "" {
			return "\\" + n
		}
		return f.inNamespace(n) + "|\\" + n
	}
	q, imported := f.qualify(n)
	if imported {
		return "^" + q
	}
	return q
}

// instance returns the Expr of a value of the declared type t: {\T}, or
// ?type for builtin, union and unknown types.
func (f *fileState) instance(t string) string {
	t = strings.TrimPrefix(srctext.Squeeze(t), "?")
	if t == "" || strings.ContainsAny(t, "|&()") {
		return "?type"
	}
	q, _ := f.qualify(t)
	if q == "" {
		return "?type"
	}
	return "{" + q + "}"
}

// useDecl records a use declaration: its aliases for the rest of the
// namespace, and an imports ref per name.
func (f *fileState) useDecl(it *item) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ";"))
	t = strings.TrimSpace(strings.TrimPrefix(t, "use"))
	kind := ""
	for _, k := range []string{"function", "const"} {
		if rest, ok := strings.CutPrefix(t, k); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n') {
			kind, t = k, strings.TrimSpace(rest)
		}
	}
	prefix := ""
	if i := strings.IndexByte(t, '{'); i >= 0 {
		prefix = strings.TrimSuffix(srctext.Squeeze(t[:i]), "\\")
		t = strings.TrimSuffix(strings.TrimSpace(t[i+1:]), "}")
	}
	for _, clause := range strings.Split(t, ",") {
		clause = strings.TrimSpace(clause)
		k := kind
		for _, w := range []string{"function", "const"} {
			if rest, ok := strings.CutPrefix(clause, w+" "); ok {
				k, clause = w, strings.TrimSpace(rest)
			}
		}
		name, alias := clause, ""
		if i := strings.Index(strings.ToLower(clause), " as "); i >= 0 {
			name, alias = clause[:i], strings.TrimSpace(clause[i+4:])
		}
		name = strings.TrimPrefix(srctext.Squeeze(name), "\\")
		if prefix != "" {
			name = strings.TrimPrefix(prefix, "\\") + "\\" + name
		}
		if name == "" || !isName(name) {
			continue
		}
		if alias == "" {
			alias = name[strings.LastIndexByte(name, '\\')+1:]
		}
		full := "\\" + name
		expr := full
		switch k {
		case "function":
			f.funcUses[strings.ToLower(alias)] = full
			expr = "function " + full
		case "const":
			expr = "const " + full
		default:
			f.uses[strings.ToLower(alias)] = full
		}
		f.addRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, "use "+clause, expr)
	}
}

// require records a require or include of a literal path: relative to the
// file's folder with __DIR__ or dirname(__FILE__), else as written (PHP
// tries the include path, then the script's folder).
func (f *fileState) require(it *item) {
	t := f.Text(it.Span)
	word := t[:identEnd(t, 0)]
	arg := strings.TrimSpace(t[len(word):])
	if strings.HasPrefix(arg, "(") && strings.HasSuffix(arg, ")") {
		arg = strings.TrimSpace(arg[1 : len(arg)-1])
	}
	dir := ""
	for _, p := range []string{"__DIR__", "dirname(__FILE__)", "dirname( __FILE__ )"} {
		if rest, ok := strings.CutPrefix(arg, p); ok {
			dir, arg = path.Dir(f.Path), strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "."))
			break
		}
	}
	lit, ok := stringLiteral(arg)
	expr := "?dynamic"
	switch {
	case !ok:
	case dir != "":
		expr = path.Join(dir, lit)
		if strings.HasPrefix(expr, "../") || expr == ".." {
			expr = "?outside"
		}
	case strings.HasPrefix(lit, "/"):
		expr = "?absolute"
	default:
		expr = path.Join(path.Dir(f.Path), lit)
		if strings.HasPrefix(expr, "../") || expr == ".." {
			expr = "?outside"
		}
	}
	f.addRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, t, "file "+expr)
}

// typeDecl makes the node of a class, interface, trait or enum.
func (f *fileState) typeDecl(i int) {
	it := &f.Items[i]
	name := f.Text(it.Role[indexer.RoleName])
	kind := schemas.KindClass
	switch it.Kind {
	case kInterface:
		kind = schemas.KindInterface
	case kTrait:
		kind = schemas.KindTrait
	case kEnum:
		kind = schemas.KindEnum
	}
	if f.class() != nil { // declared in a method: left out
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	qname := name
	if f.ns != "" {
		qname = f.ns + "\\" + name
	}
	n := f.AddNode(kind, name, qname, f.nsNode, it.Span)
	flags, header := f.modifiers(i, it.Role[indexer.RoleName].Start)
	node := &f.Nodes[n]
	node.Visibility, node.Exported = schemas.Public, true
	node.IsAbstract = flags&mAbstract != 0 || it.Kind == kInterface
	node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	node.Signature = oneLine(strings.TrimSpace(f.Str[header:it.Role[indexer.RoleBody].Start]))
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, class: "\\" + qname, iface: it.Kind == kInterface})
	f.classes = append(f.classes, classSpan{it.Span, fr.class})
	// The parent class, which parent:: and extends refer to.
	if it.Kind == kClass {
		for j := i + 1; j < len(f.Items) && f.Items[j].Start < it.Role[indexer.RoleBody].Start; j++ {
			if b := &f.Items[j]; b.Kind == kBase {
				fr.parent, _ = f.qualify(f.Text(b.Span))
				tail := fr.parent[strings.LastIndexByte(fr.parent, '\\')+1:]
				fr.test = strings.HasSuffix(tail, "TestCase") || tail == "Test"
				break
			}
		}
	}
	node.IsTest = fr.test
}

// baseRef records an extends, implements or trait use of the enclosing
// type. Used traits are extends refs whose Expr starts with "use ".
func (f *fileState) baseRef(it *item) {
	c := f.class()
	if c == nil || c.node < 0 {
		return
	}
	q, _ := f.qualify(f.Text(it.Span))
	if q == "" {
		return
	}
	kind, expr := schemas.EdgeExtends, q
	switch {
	case it.Kind == kImpl:
		kind = schemas.EdgeImplements
	case it.Kind == kTraitUse:
		expr = "use " + q
	}
	f.addRef(kind, f.Nodes[c.node].ID, it.Span, f.Text(it.Span), expr)
}

// function makes the node of a method or function.
func (f *fileState) function(i int) {
	it := &f.Items[i]
	name := f.Text(it.Role[indexer.RoleName])
	var n int32
	var o *frame
	var flags uint32
	var header uint32
	if it.Kind == kMethod {
		o = f.owner()
		if o == nil {
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
			return
		}
		kind := schemas.KindMethod
		if strings.EqualFold(name, "__construct") {
			kind = schemas.KindConstructor
		}
		n = f.AddNode(kind, name, f.Nodes[o.node].QualifiedName+"::"+name, o.node, it.Span)
		flags, header = f.modifiers(i, it.Role[indexer.RoleName].Start)
	} else {
		qname := name
		if f.ns != "" {
			qname = f.ns + "\\" + name
		}
		n = f.AddNode(schemas.KindFunction, name, qname, f.nsNode, it.Span)
		_, header = f.modifiers(i, it.Role[indexer.RoleName].Start)
	}
	node := &f.Nodes[n]
	node.Visibility = visibility(flags)
	node.Exported = node.Visibility == schemas.Public
	node.IsStatic = flags&mStatic != 0
	node.IsAbstract = flags&mAbstract != 0 || o != nil && o.iface
	var end uint32
	node.BodyHash, end = f.BodyHash(it, indexer.RoleBody)
	node.Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(f.Str[min(header, end):end]), ";"))
	if f.Test && o != nil && (strings.HasPrefix(name, "test") || strings.Contains(node.Doc, "@test")) && node.Visibility == schemas.Public {
		node.IsTest = o.test || strings.HasSuffix(f.Nodes[o.node].Name, "Test")
	}
	if it.HasRole(indexer.RoleType) {
		t := srctext.Squeeze(f.Text(it.Role[indexer.RoleType]))
		if e := f.instance(t); e[0] == '{' {
			f.addRef(schemas.RefResult, node.ID, it.Role[indexer.RoleType], t, e)
		}
	}
	f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n})
}

// memberGroup opens a property or constant declaration, whose elements
// are nodes.
func (f *fileState) memberGroup(i int) {
	it := &f.Items[i]
	limit := it.End
	if it.HasRole(indexer.RoleType) {
		limit = it.Role[indexer.RoleType].Start
	}
	for j := i + 1; j < len(f.Items) && f.Items[j].Start < it.End; j++ {
		if k := f.Items[j].Kind; k == kProp || k == kConst {
			limit = min(limit, f.Items[j].Start)
			break
		}
	}
	flags, header := f.modifiers(i, limit)
	f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, typ: it.Role[indexer.RoleType], flags: flags,
		header: header, doc: f.Docs[it.Start]})
}

// member makes the node of a property or a constant: of a class, or of a
// namespace (const X = 1; at top level).
func (f *fileState) member(it *item) {
	if len(f.stack) == 0 {
		return
	}
	g := f.stack.Top()
	if g.kind != kProps && g.kind != kConsts {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	f.stack.Pop()
	o := f.owner()
	inFn := f.context() >= 0
	f.stack.Push(g)
	var n int32
	switch {
	case o != nil && g.kind == kProps:
		n = f.AddNode(schemas.KindField, name, f.Nodes[o.node].QualifiedName+"::$"+name, o.node, g.span())
	case o != nil:
		n = f.AddNode(schemas.KindConstant, name, f.Nodes[o.node].QualifiedName+"::"+name, o.node, g.span())
	case g.kind == kConsts && !inFn:
		qname := name
		if f.ns != "" {
			qname = f.ns + "\\" + name
		}
		n = f.AddNode(schemas.KindConstant, name, qname, f.nsNode, g.span())
	default:
		return
	}
	node := &f.Nodes[n]
	node.Doc = g.doc
	node.Visibility = visibility(g.flags)
	node.Exported = node.Visibility == schemas.Public
	node.IsStatic = g.flags&mStatic != 0 || g.kind == kConsts
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	sig := f.Text(it.Span)
	if g.typ.End > 0 {
		sig = f.Text(g.typ) + " " + sig
	}
	if g.header < it.Start {
		mods := strings.TrimSpace(f.Str[g.header:min(it.Start, max(g.header, g.typ.Start))])
		if g.kind == kConsts && !strings.Contains(mods, "const") {
			mods = strings.TrimSpace(mods + " const")
		}
		if g.typ.End == 0 || g.typ.Start > g.header {
			sig = strings.TrimSpace(mods + " " + sig)
		}
	}
	node.Signature = oneLine(sig)
	for _, u := range g.uses {
		f.addRef(schemas.EdgeReferences, node.ID, u.at, f.Text(u.at), u.name)
	}
	g.uses = nil
	if g.kind == kProps && g.typ.End > 0 {
		t := srctext.Squeeze(f.Text(g.typ))
		if e := f.instance(t); e[0] == '{' {
			f.addRef(schemas.RefType, node.ID, g.typ, t, e)
		}
	}
}

func (fr *frame) span() span { return span{Start: fr.start, End: fr.end} }

// typeUse records a class named in a type, by instanceof or by an
// attribute ("@" and the class, an edge only to a class of the snapshot)
// as a references ref reading it fully qualified. Its src is the property
// or promoted parameter whose type it is in, else the code around.
// Builtin types name no class.
func (f *fileState) typeUse(it *item) {
	q, _ := f.qualify(f.Text(it.Span))
	if q == "" {
		return
	}
	if it.Kind == kTAnnot {
		f.addRef(schemas.EdgeReferences, f.SrcID(f.context()), it.Span, f.Text(it.Span), "@"+q)
		return
	}
	if n := len(f.stack); n > 0 {
		if g := f.stack[n-1]; g.kind == kProps && g.typ.Start <= it.Start && it.End <= g.typ.End {
			g.uses = append(g.uses, typeUse{it.Span, q})
			return
		}
	}
	src := f.SrcID(f.context())
	if f.promo.at.Start <= it.Start && it.End <= f.promo.at.End {
		src = f.Nodes[f.promo.node].ID
	}
	f.addRef(schemas.EdgeReferences, src, it.Span, f.Text(it.Span), q)
}

// enumCase makes the node of an enum case: a constant.
func (f *fileState) enumCase(it *item) {
	o := f.owner()
	if o == nil {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	n := f.AddNode(schemas.KindConstant, name, f.Nodes[o.node].QualifiedName+"::"+name, o.node, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported, node.IsStatic = schemas.Public, true, true
	node.Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ";"))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
}

// promoted makes the field of a promoted constructor parameter, and binds
// the parameter.
func (f *fileState) promoted(i int) {
	it := &f.Items[i]
	f.param(it)
	if len(f.stack) < 2 {
		return
	}
	m := f.stack.Top()
	o := f.stack[len(f.stack)-2]
	if m.kind != kMethod || m.node < 0 || f.Nodes[m.node].Kind != schemas.KindConstructor || !o.kind.isType() || o.node < 0 {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	flags, _ := f.modifiers(i, it.Role[indexer.RoleName].Start)
	n := f.AddNode(schemas.KindField, name, f.Nodes[o.node].QualifiedName+"::$"+name, o.node, it.Span)
	f.promo.at, f.promo.node = it.Span, n
	node := &f.Nodes[n]
	node.Visibility = visibility(flags)
	node.Exported = node.Visibility == schemas.Public
	node.Signature = oneLine(f.Text(it.Span))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	if it.HasRole(indexer.RoleType) {
		t := srctext.Squeeze(f.Text(it.Role[indexer.RoleType]))
		if e := f.instance(t); e[0] == '{' {
			f.addRef(schemas.RefType, node.ID, it.Role[indexer.RoleType], t, e)
		}
	}
}

// param binds a parameter of a function, method or closure in its scope.
func (f *fileState) param(it *item) {
	sc := f.scopeAt(it.Start)
	e := "?param"
	if it.HasRole(indexer.RoleType) {
		e = f.instance(f.Text(it.Role[indexer.RoleType]))
	}
	if strings.HasPrefix(strings.TrimSpace(f.Str[it.Start:it.Role[indexer.RoleName].Start]), "...") || strings.Contains(f.Str[it.Start:it.Role[indexer.RoleName].Start], "...") {
		e = "?param" // variadic: an array
	}
	name := f.Text(it.Role[indexer.RoleName])
	f.binds[name] = append(f.binds[name], binding{scope: sc, expr: e})
}

// Finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) Finish(ctx context.Context) {
	f.active = map[string]bool{}
	for _, c := range indexer.Elements(ctx, f.calls) {
		it := &f.Items[c.Item]
		var at span
		var target, expr string
		kind := schemas.EdgeCalls
		switch it.Kind {
		case kCall:
			at = it.Role[indexer.RoleObject]
			target = f.Text(at)
			expr = f.exprOf(it.Span, 0)
		case kMcall, kScall:
			at = it.Role[indexer.RoleName]
			target = f.Text(span{Start: it.Role[indexer.RoleObject].Start, End: it.Role[indexer.RoleName].End})
			expr = f.exprOf(it.Span, 0)
		case kNew:
			kind = schemas.EdgeInstantiates
			at = it.Span
			target = "new " + f.Text(it.Role[indexer.RoleType])
			if q := f.qnames[c.Item]; q != "" {
				n := 0
				if it.HasRole(indexer.RoleArgs) {
					n = int(f.argc[it.Role[indexer.RoleArgs].Start])
				}
				expr = "new " + q + "(" + strconv.Itoa(n) + ")"
			} else {
				expr = "?type"
			}
		}
		r := f.addRef(kind, f.SrcID(c.Src), at, target, expr)
		c.Mark(r)
		if it.HasRole(indexer.RoleArgs) {
			r.Args = srctext.Cap(argsText(f.Text(it.Role[indexer.RoleArgs])), 200)
		}
	}
}

// argsText returns the arguments of a call as written, on one line.
func argsText(a string) string {
	if len(a) >= 2 && a[0] == '(' && a[len(a)-1] == ')' {
		a = a[1 : len(a)-1]
	}
	return oneLine(strings.TrimSpace(a))
}
