package kotlin

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Positions in rows: lines are 1-based, columns 1-based byte offsets in
// their line, byte offsets 0-based. A symbol's range covers its modifiers
// and annotations, not its KDoc.

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

// isTestFile reports whether file holds tests by Gradle's conventions.
func isTestFile(file string) bool {
	base := path.Base(file)
	return strings.HasPrefix(file, "src/test/") || strings.Contains(file, "/src/test/") ||
		strings.HasPrefix(file, "src/androidTest/") || strings.Contains(file, "/src/androidTest/") ||
		strings.HasSuffix(base, "Test.kt") || strings.HasSuffix(base, "Tests.kt")
}

var testAnnotations = map[string]bool{"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true}

// frame is a range the walk is inside of.
type frame struct {
	kind       kind
	start, end uint32
	node       int32  // the node made for it, -1 if none
	qname      string // declarations: the qualified name members extend
	iface      bool
	exported   bool
	field      int32 // a primary constructor's parameter: the property made for it, or -1
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

// Kind returns what fr is.
func (fr *frame) Kind() kind { return fr.kind }

// binding is a local, a parameter or a constructor parameter, visible in
// [start, end).
type binding struct {
	start, end uint32
	typ        span                 // declared type, if any
	value      span                 // initializer, if any
	local      bool                 // type unknowable (lambda parameter, loop variable)
	vararg     bool                 // a vararg parameter: an array of typ
	member     bool                 // a primary constructor's parameter, visible in the class body
	expr       indexer.Lazy[string] // its Expr, worked out on first use
}

// Visible returns the range b is visible in.
func (b *binding) Visible() span { return span{Start: b.start, End: b.end} }

type fileState struct {
	indexer.File[kind]
	docs       map[uint32]string
	pkg        string
	stack      indexer.Stack[*frame]
	decos      []span
	exprs      map[uint64]int32
	argv       map[uint32][]argSpan // the arguments of a value_arguments, by its start
	lambdas    []lambda             // lambdas and object literals, in source order
	plain      map[uint32]bool      // the ends of lambdas passed to a function that gives them no receiver
	scopes     []span               // the spans of the nodes but classes, by start; made on first use
	extensions []extension          // extension functions, in source order
	pending    []pendingFact
	lambdaEnd  map[uint32]bool // ends of trailing lambdas
	binds      indexer.Bindings[*binding]
	calls      []indexer.Pending
	tvars      indexer.TypeVars
	named      map[uint64]bool // user types that are supertypes or annotations, by span
}

// newFileState returns the extraction of f.
func newFileState(f indexer.File[kind]) indexer.Passes {
	return &fileState{
		File:  f,
		docs:  map[uint32]string{},
		exprs: map[uint64]int32{}, argv: map[uint32][]argSpan{},
		lambdaEnd: map[uint32]bool{}, binds: indexer.Bindings[*binding]{},
		named: map[uint64]bool{},
	}
}

// lambda is a lambda or an object literal.
type lambda struct {
	span
	anon bool
}

// noReceiver are functions of the standard library whose lambda has no
// receiver: in it, this and unqualified names are those of the code
// around it. So are, unqualified, run (which has a form without a
// receiver) and, to the same effect, apply (whose lambda's receiver is
// then this).
var noReceiver = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`let also takeIf takeUnless map mapNotNull mapIndexed mapIndexedNotNull flatMap
		forEach forEachIndexed onEach filter filterNot filterIndexed any all none count first firstOrNull last
		lastOrNull find findLast single singleOrNull sortedBy sortedByDescending sortBy sortByDescending groupBy
		associate associateBy associateWith partition sumOf sumBy maxBy minBy maxByOrNull minByOrNull maxOf minOf
		fold foldIndexed reduce zip windowed chunked distinctBy indexOfFirst indexOfLast dropWhile takeWhile
		repeat lazy require check requireNotNull checkNotNull synchronized use getOrElse getOrPut
		computeIfAbsent removeIf removeAll retainAll compareBy thenBy mapKeys mapValues filterKeys filterValues
		joinToString ifEmpty ifBlank`) {
		noReceiver[n] = true
	}
}

// extension is an extension function: its span and its receiver type's.
type extension struct{ fun, recv span }

// Prepare indexes what the walk looks up by position: doc comments,
// decorators, expressions, arguments, lambdas and extension functions.
func (f *fileState) Prepare(ctx context.Context) {
	var args []span
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kDoc:
			if t := f.Text(it.Span); strings.HasPrefix(t, "/**") && t != "/**/" {
				f.docs[uint32(srctext.SkipSpace(f.Str, int(it.End)))] = kdoc(t)
			}
		case kDecorator:
			f.decos = append(f.decos, it.Span)
		case kCall, kNav, kParen:
			f.exprs[it.Key()] = int32(i)
		case kArgs:
			args = indexer.Enclosing(args, it.Start)
			args = append(args, it.Span)
			f.argv[it.Start] = []argSpan{}
		case kArg:
			args = indexer.Enclosing(args, it.Start)
			if len(args) > 0 {
				a := args[len(args)-1].Start
				f.argv[a] = append(f.argv[a], argSpan{all: it.Span, value: it.Role[indexer.RoleValue]})
			}
		case kLambda, kAnon:
			f.lambdas = append(f.lambdas, lambda{it.Span, it.Kind == kAnon})
		case kFun:
			if it.HasRole(rRecv) {
				f.extensions = append(f.extensions, extension{it.Span, it.Role[rRecv]})
			}
		case kLambdaArg:
			f.lambdaEnd[it.End] = true
		}
	}
}

// kdoc returns the text of a KDoc comment without its markers.
func kdoc(t string) string {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "/**"), "*/")
	var out []string
	for _, l := range strings.Split(t, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
		if l != "" || len(out) > 0 {
			out = append(out, l)
		}
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// addNode is AddNode of a public node.
func (f *fileState) addNode(kind, name, qname string, parent int32, s span) int32 {
	n := f.AddNode(kind, name, qname, parent, s)
	f.Nodes[n].Visibility = schemas.Public
	return n
}

// addRef is AddRef of a target kept whole.
func (f *fileState) addRef(kind string, src uint64, at span, target, expr string) *schemas.Ref {
	r := f.AddRef(kind, src, at, target, expr)
	r.Target = target
	return r
}

// decl returns the innermost declaration frame with a node, or nil.
func (f *fileState) decl() *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if f.stack[i].node >= 0 {
			return f.stack[i]
		}
	}
	return nil
}

// owner returns the class-like frame whose body holds the position
// directly (not through a function, lambda or initializer), or nil.
func (f *fileState) owner() *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; {
		case fr.kind.isType():
			return fr
		case fr.kind == kScope, fr.kind == kPctor:
			continue
		default:
			return nil
		}
	}
	return nil
}

// local reports whether a declaration at the top of the stack is inside
// a function, lambda, initializer or anonymous object: it gets no node.
func (f *fileState) local() bool {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch f.stack[i].kind {
		case kFun, kCtor, kLambda, kInit, kAnon, kProp, kEntry:
			return true
		case kClass, kObject, kCompanion:
			return false
		}
	}
	return false
}

func (f *fileState) parentQ() (string, int32) {
	if d := f.decl(); d != nil {
		return d.qname, d.node
	}
	return f.pkg, -1
}

func (f *fileState) qual(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// decorate applies the modifiers and KDoc of the declaration it to node n
// and returns the modifier keywords.
func (f *fileState) decorate(n int32, it *item) map[string]bool {
	node := &f.Nodes[n]
	node.Doc = f.docs[it.Start]
	words := map[string]bool{}
	if !it.HasRole(rMods) {
		return words
	}
	m := it.Role[rMods]
	p := m.Start
	for _, d := range f.decos {
		if !m.Contains(d) {
			continue
		}
		for _, w := range strings.Fields(f.Str[p:d.Start]) {
			words[w] = true
		}
		p = d.End
		text := oneLine(f.Str[d.Start+1 : d.End])
		node.Decorators = append(node.Decorators, text)
		name := text
		if i := strings.IndexAny(name, "(<"); i >= 0 {
			name = name[:i]
		}
		if i := strings.IndexByte(name, ':'); i >= 0 { // use-site target
			name = name[i+1:]
		}
		if testAnnotations[strings.TrimSpace(name[strings.LastIndexByte(name, '.')+1:])] {
			node.IsTest = true
		}
	}
	for _, w := range strings.Fields(f.Str[p:m.End]) {
		words[w] = true
	}
	switch {
	case words["private"]:
		node.Visibility = schemas.Private
	case words["protected"]:
		node.Visibility = schemas.Protected
	case words["internal"]:
		node.Visibility = schemas.Internal
	}
	node.IsAsync = words["suspend"]
	node.IsAbstract = words["abstract"] || words["sealed"]
	return words
}

// exported reports whether node n, declared in the frame parent (nil at
// top level), is reachable from outside its module.
func (f *fileState) setExported(n int32, parent *frame) {
	v := f.Nodes[n].Visibility
	f.Nodes[n].Exported = (v == schemas.Public || v == schemas.Protected) && (parent == nil || parent.exported)
}

// header returns the one-line text of a declaration from the end of its
// modifiers to end.
func (f *fileState) header(it *item, end uint32) string {
	start := it.Start
	if it.HasRole(rMods) {
		start = uint32(srctext.SkipSpace(f.Str, int(it.Role[rMods].End)))
	}
	if start >= end {
		return ""
	}
	return srctext.Cap(oneLine(f.Str[start:end]), 300)
}

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kPackage:
			if len(f.stack) == 0 && it.HasRole(indexer.RoleName) {
				f.pkg = strings.Join(strings.Fields(f.Text(it.Role[indexer.RoleName])), "")
				f.addRef(schemas.RefPackage, indexer.FileID(f.Path), it.Span, f.pkg, f.pkg)
			}
		case kImport:
			t := strings.TrimSpace(strings.TrimPrefix(f.Text(it.Span), "import"))
			t = strings.TrimSuffix(t, ";")
			e := oneLine(t)
			e = strings.ReplaceAll(strings.ReplaceAll(e, " .", "."), ". ", ".")
			f.addRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, e, e)
		case kClass, kObject, kCompanion:
			f.typeDecl(it)
		case kSuper:
			f.superRef(it)
		case kFun:
			f.function(it)
		case kCtor, kPctor:
			f.ctor(it)
		case kCparam:
			f.cparam(it)
		case kProp:
			f.property(it)
		case kAlias:
			if f.local() {
				continue
			}
			pq, parent := f.parentQ()
			name := f.Text(it.Role[indexer.RoleName])
			n := f.addNode(schemas.KindTypeAlias, name, f.qual(pq, name), parent, it.Span)
			f.decorate(n, it)
			f.Nodes[n].Signature = f.header(it, it.End)
			f.setExported(n, f.decl())
			f.stack.Push(&frame{kind: kAlias, start: it.Start, end: it.End, node: n, qname: f.Nodes[n].QualifiedName})
		case kEntry:
			f.entry(it)
		case kTParam:
			if d := f.decl(); d != nil {
				f.tvars = append(f.tvars, indexer.TypeVar{Scope: span{Start: d.start, End: d.end}, Name: f.Text(it.Span)})
			}
		case kAnnot:
			f.named[it.Key()] = true
			if n := userTypeName(f.Text(it.Span)); n != "" {
				f.addRef(schemas.EdgeReferences, f.useSrc(), it.Span, n, "@"+n)
			}
		case kUse:
			f.typeUse(it)
		case kNav:
			f.classLiteral(it)
		case kParam:
			f.bindAt(f.Text(it.Role[indexer.RoleName]), it.End, &binding{typ: it.Role[indexer.RoleType], vararg: f.isVararg(it.Start)})
		case kVar:
			if t := f.stack.Top(); t != nil && (t.kind == kProp || t.kind == kCparam) {
				continue // the variable of a property
			}
			f.bindAt(f.Text(it.Role[indexer.RoleName]), it.End, &binding{local: true})
		case kInit:
			n := int32(-1)
			if o := f.owner(); o != nil {
				n = o.node
			}
			f.stack.Push(&frame{kind: kInit, start: it.Start, end: it.End, node: n})
		case kAnon, kLambda, kScope, kLoop, kTry, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kCall, kDeleg:
			// The region ends at the innermost frame but a scope or an
			// object literal: a function, a lambda, a class.
			c := indexer.Pending{Item: int32(i), Src: -1, Region: indexer.RegionWithin(f.stack, kLoop, kTry, kCond,
				func(fr *frame) bool { return fr.kind != kScope && fr.kind != kAnon })}
			if d := f.decl(); d != nil {
				c.Src = d.node
			}
			f.calls = append(f.calls, c)
		}
	}
}

// bindAt binds name from p to the end of the innermost scope.
func (f *fileState) bindAt(name string, p uint32, b *binding) {
	end := uint32(len(f.Src))
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; fr.kind {
		case kScope, kLambda, kLoop, kFun, kCtor, kPctor, kInit, kClass, kObject, kCompanion, kAnon:
			end = fr.end
		default:
			continue
		}
		break
	}
	b.start, b.end = p, end
	f.binds.Add(name, b)
}

func (f *fileState) typeDecl(it *item) {
	if f.local() {
		f.stack.Push(&frame{kind: kAnon, start: it.Start, end: it.End, node: -1})
		return
	}
	parentFrame := f.decl()
	pq, parent := f.parentQ()
	name := "Companion"
	if it.HasRole(indexer.RoleName) {
		name = f.Text(it.Role[indexer.RoleName])
	}
	kind := schemas.KindClass
	hdr := f.Str[it.Start:it.End]
	if it.HasRole(rMods) {
		hdr = f.Str[it.Role[rMods].End:it.End]
	}
	iface := false
	if it.Kind == kClass {
		kw := strings.Fields(hdr)
		if len(kw) > 0 && (kw[0] == "interface" || len(kw) > 1 && kw[0] == "fun" && kw[1] == "interface") {
			kind, iface = schemas.KindInterface, true
		}
	}
	n := f.addNode(kind, name, f.qual(pq, name), parent, it.Span)
	words := f.decorate(n, it)
	if words["enum"] {
		f.Nodes[n].Kind = schemas.KindEnum
	}
	if iface {
		f.Nodes[n].IsAbstract = true
	}
	// The header runs to the body.
	end := it.End
	if b := strings.IndexByte(f.Str[it.Start:it.End], '{'); b >= 0 {
		end = it.Start + uint32(b)
	}
	f.Nodes[n].Signature = strings.TrimSpace(f.header(it, end))
	f.setExported(n, parentFrame)
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, qname: f.Nodes[n].QualifiedName, iface: iface, exported: f.Nodes[n].Exported})
	_ = fr
}

func (f *fileState) superRef(it *item) {
	o := f.owner()
	if o == nil || o.node < 0 || !it.HasRole(indexer.RoleName) {
		return
	}
	t := typeName(f.Text(it.Role[indexer.RoleName]))
	kind := schemas.EdgeImplements
	if it.HasRole(indexer.RoleArgs) || o.iface {
		kind = schemas.EdgeExtends // only classes are constructed; interfaces extend
	}
	f.addRef(kind, f.Nodes[o.node].ID, it.Role[indexer.RoleName], t, "{"+t+"}")
	f.named[it.Role[indexer.RoleName].Key()] = true
}

// useSrc returns the node code at the top of the stack belongs to, for
// the uses of a type: a primary constructor's property, or the innermost
// declaration with a node (the file at top level).
func (f *fileState) useSrc() uint64 {
	if t := f.stack.Top(); t != nil && t.kind == kCparam && t.field >= 0 {
		return f.Nodes[t.field].ID
	}
	if d := f.decl(); d != nil {
		return f.Nodes[d.node].ID
	}
	return indexer.FileID(f.Path)
}

// typeUse records a user type as a references ref reading its name, type
// arguments dropped: a declared type, a type argument, a cast, an is
// check, a caught type, a receiver, a bound. Supertypes and annotations
// have their own refs; a type parameter in scope names no type.
func (f *fileState) typeUse(it *item) {
	if f.named[it.Key()] {
		return
	}
	n := userTypeName(f.Text(it.Span))
	if n == "" {
		return
	}
	if f.tvars.Heads(n, it.Start) {
		return
	}
	f.addRef(schemas.EdgeReferences, f.useSrc(), it.Span, n, n)
}

// classLiteral records T::class as a use of T: a references ref when T
// is written as a type is (a.b.T, the last name capitalized) and no local
// binds its head (x::class is the class of a value).
func (f *fileState) classLiteral(it *item) {
	if f.Text(it.Role[indexer.RoleName]) != "class" || !strings.Contains(f.Str[it.Role[indexer.RoleObject].End:it.Role[indexer.RoleName].Start], "::") {
		return
	}
	n := userTypeName(f.Text(it.Role[indexer.RoleObject]))
	last := n[strings.LastIndexByte(n, '.')+1:]
	if last == "" || last[0] < 'A' || last[0] > 'Z' {
		return
	}
	head, _, _ := strings.Cut(n, ".")
	if f.lookup(head, it.Start) != nil {
		return
	}
	if f.tvars.Has(head, it.Start) {
		return
	}
	f.addRef(schemas.EdgeReferences, f.useSrc(), it.Role[indexer.RoleObject], n, n)
}

// userTypeName returns the name of a user type as written (a.b.C<X>.D
// gives a.b.C.D), or "" if it is not one.
func userTypeName(t string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '-' && i+1 < len(t) && t[i+1] == '>':
			i++
		case c == '<':
			depth++
		case c == '>':
			depth--
		case depth > 0, c == ' ', c == '\t', c == '\n', c == '\r':
		case c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80:
			b.WriteByte(c)
		case c == '`':
		default:
			return ""
		}
	}
	return b.String()
}

// typeName returns a type as written without type arguments, annotations,
// nullability and spaces; "" for a function type.
func typeName(t string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '<':
			depth++
		case c == '>':
			depth--
		case depth > 0, c == ' ', c == '\t', c == '\n', c == '\r', c == '?', c == '!':
		case c == '(' || c == '-':
			return ""
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	for strings.HasPrefix(s, "@") { // type annotations
		return ""
	}
	return s
}

// typeExpr returns the Expr of a value of declared type t: "{" name "}",
// "?" after the name of a nullable type.
func typeExpr(t string) string {
	n := typeName(t)
	switch {
	case n == "":
		return indexer.ExprExpr
	case strings.HasSuffix(strings.TrimSpace(t), "?"):
		return "{" + n + "?}"
	}
	return "{" + n + "}"
}

func (f *fileState) function(it *item) {
	if f.local() {
		fr := f.stack.Push(&frame{kind: kFun, start: it.Start, end: it.End, node: -1})
		if d := f.decl(); d != nil {
			fr.node = d.node
		}
		if it.HasRole(indexer.RoleName) {
			f.bindAt(f.Text(it.Role[indexer.RoleName]), it.Start, &binding{local: true})
		}
		return
	}
	parentFrame := f.decl()
	pq, parent := f.parentQ()
	name := f.Text(it.Role[indexer.RoleName])
	recv := ""
	if it.HasRole(rRecv) {
		recv = typeName(f.Text(it.Role[rRecv]))
	}
	q := f.qual(pq, name)
	if recv != "" {
		q = f.qual(pq, recv+"."+name)
	}
	kind := schemas.KindFunction
	if parent >= 0 {
		kind = schemas.KindMethod
	}
	n := f.addNode(kind, name, q, parent, it.Span)
	f.decorate(n, it)
	if !it.HasRole(indexer.RoleBody) && parentFrame != nil && parentFrame.iface {
		f.Nodes[n].IsAbstract = true
	}
	end := it.Role[indexer.RoleParams].End
	if it.HasRole(indexer.RoleType) {
		end = it.Role[indexer.RoleType].End
	}
	f.Nodes[n].Signature = f.header(it, end)
	f.setExported(n, parentFrame)
	id := f.Nodes[n].ID
	if recv != "" {
		f.addRef(RefReceiver, id, it.Role[rRecv], recv, "{"+recv+"}")
	}
	f.addRef(schemas.RefParams, id, it.Role[indexer.RoleName], name, f.params(it.Role[indexer.RoleParams], typeParamNames(f.header(it, it.Role[indexer.RoleName].Start))))
	switch {
	case it.HasRole(indexer.RoleType):
		f.addRef(schemas.RefResult, id, it.Role[indexer.RoleType], f.Text(it.Role[indexer.RoleType]), typeExpr(f.Text(it.Role[indexer.RoleType])))
	case it.HasRole(indexer.RoleBody):
		b := it.Role[indexer.RoleBody]
		if t := f.Text(b); strings.HasPrefix(t, "=") {
			f.pending = append(f.pending, pendingFact{kind: schemas.RefResult, src: n, at: b, value: span{Start: uint32(srctext.SkipSpace(f.Str, int(b.Start)+1)), End: b.End}})
		}
	}
	f.stack.Push(&frame{kind: kFun, start: it.Start, end: it.End, node: n, qname: q})
}

// params returns the params fact of the parameter list at s, own the
// type parameters of its function: each parameter as name ":" type,
// type "^"-prefixed when it is a type parameter in scope, "?"-suffixed
// when nullable, "()" for a function type and "?" when not known; "..."
// before a vararg one, "=" after one with a default value;
// comma-separated.
func (f *fileState) params(s span, own []string) string {
	t := f.Text(s)
	t = strings.TrimSpace(t)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "("), ")")
	var out []string
	for _, p := range splitTop(t) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		def := false
		if i := indexTop(p, '='); i >= 0 {
			def, p = true, p[:i]
		}
		vararg := false
		ws := strings.Fields(p)
		for len(ws) > 0 && (strings.HasPrefix(ws[0], "@") || ws[0] == "vararg" || ws[0] == "val" || ws[0] == "var" ||
			ws[0] == "noinline" || ws[0] == "crossinline" || ws[0] == "private" || ws[0] == "public" ||
			ws[0] == "protected" || ws[0] == "internal" || ws[0] == "override" || ws[0] == "open" || ws[0] == "final") {
			vararg = vararg || ws[0] == "vararg"
			ws = ws[1:]
		}
		p = strings.Join(ws, " ")
		name, typ, _ := strings.Cut(p, ":")
		typ = f.paramType(typ, s.Start, own)
		if vararg {
			typ = "..." + typ
		}
		if def {
			typ += "="
		}
		out = append(out, strings.Trim(strings.TrimSpace(name), "`")+":"+typ)
	}
	return strings.Join(out, ",")
}

// paramType returns a parameter's type t as the params fact writes it,
// seen at p in a function of type parameters own.
func (f *fileState) paramType(t string, p uint32, own []string) string {
	t = strings.TrimSpace(t)
	nullable := strings.HasSuffix(t, "?")
	n := typeName(t)
	switch {
	case n == "" && strings.Contains(t, "->"):
		n = "()"
	case n == "":
		return "?"
	case slices.Contains(own, n) || f.tvars.Has(n, p):
		n = "^" + n
	}
	if nullable {
		n += "?"
	}
	return n
}

// typeParamNames returns the names of the type parameters a function
// header declares: fun <T, reified R : Any> ...
func typeParamNames(h string) []string {
	h = strings.TrimSpace(strings.TrimPrefix(h, "fun"))
	i := 0
	if !strings.HasPrefix(h, "<") {
		return nil
	}
	j := i + 1
	for depth := 1; j < len(h) && depth > 0; j++ {
		switch h[j] {
		case '<':
			depth++
		case '>':
			depth--
		}
	}
	var out []string
	for _, p := range splitTop(h[i+1 : j-1]) {
		p, _, _ = strings.Cut(p, ":")
		if ws := strings.Fields(p); len(ws) > 0 {
			out = append(out, ws[len(ws)-1])
		}
	}
	return out
}

// isVararg reports whether the parameter starting at p is declared
// vararg: the modifiers before it, back to the list's previous comma.
func (f *fileState) isVararg(p uint32) bool {
	depth := 0
	i := int(p) - 1
	for ; i >= 0; i-- {
		c := f.Str[i]
		if c == ')' {
			depth++
		} else if (c == '(' || c == ',') && depth == 0 {
			break
		} else if c == '(' {
			depth--
		}
	}
	return slices.Contains(strings.Fields(f.Str[i+1:p]), "vararg")
}

// splitTop splits s at commas outside brackets and strings.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || s[i-1] != '-' {
				depth--
			}
		case '"', '\'':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func indexTop(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || s[i-1] != '-' {
				depth--
			}
		case c:
			if depth == 0 && (c != '=' || i+1 >= len(s) || s[i+1] != '=') {
				return i
			}
		}
	}
	return -1
}

func (f *fileState) ctor(it *item) {
	o := f.owner()
	if o == nil || o.node < 0 {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	n := f.addNode(schemas.KindConstructor, "<init>", o.qname+".<init>", o.node, it.Span)
	f.decorate(n, it)
	end := it.Role[indexer.RoleParams].End
	f.Nodes[n].Signature = f.Nodes[o.node].Name + srctext.Cap(oneLine(f.Str[it.Role[indexer.RoleParams].Start:end]), 300)
	f.setExported(n, o)
	f.addRef(schemas.RefParams, f.Nodes[n].ID, it.Span, "<init>", f.params(it.Role[indexer.RoleParams], nil))
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, qname: o.qname})
	if it.Kind == kPctor {
		fr.node = -1 // parameters belong to the class; defaults are the class's code
		fr.end = it.End
	}
}

// cparam is a primary constructor's parameter: a property with val or
// var, in every case a name visible in the class body.
func (f *fileState) cparam(it *item) {
	name := f.Text(it.Role[indexer.RoleName])
	var cls *frame
	for i := len(f.stack) - 1; i >= 0; i-- {
		if f.stack[i].kind.isType() {
			cls = f.stack[i]
			break
		}
	}
	b := &binding{member: true, vararg: slices.Contains(strings.Fields(f.Str[it.Start:it.Role[indexer.RoleName].Start]), "vararg")}
	if it.HasRole(indexer.RoleType) {
		b.typ = it.Role[indexer.RoleType]
	}
	fr := f.stack.Push(&frame{kind: kCparam, start: it.Start, end: it.End, node: -1, field: -1})
	if cls == nil {
		return
	}
	b.start, b.end = it.End, cls.end
	f.binds.Add(name, b)
	hdr := f.Str[it.Start:it.Role[indexer.RoleName].Start]
	if it.HasRole(rMods) {
		hdr = f.Str[it.Role[rMods].End:it.Role[indexer.RoleName].Start]
	}
	if kw := strings.Fields(hdr); len(kw) == 0 || (kw[len(kw)-1] != "val" && kw[len(kw)-1] != "var") || cls.node < 0 {
		return
	}
	n := f.addNode(schemas.KindField, name, cls.qname+"."+name, cls.node, it.Span)
	fr.field = n
	f.decorate(n, it)
	f.Nodes[n].Signature = f.header(it, it.End)
	f.setExported(n, cls)
	if it.HasRole(indexer.RoleType) {
		f.addRef(schemas.RefType, f.Nodes[n].ID, it.Role[indexer.RoleType], f.Text(it.Role[indexer.RoleType]), typeExpr(f.Text(it.Role[indexer.RoleType])))
	}
}

func (f *fileState) property(it *item) {
	name := f.Text(it.Role[indexer.RoleName])
	value := span{}
	if it.HasRole(indexer.RoleValue) {
		v := it.Role[indexer.RoleValue]
		between := f.Str[it.Role[indexer.RoleName].End:v.Start]
		if strings.HasSuffix(strings.TrimSpace(between), "=") {
			value = v
		}
	}
	if f.local() {
		b := &binding{value: value}
		if it.HasRole(indexer.RoleType) {
			b.typ = it.Role[indexer.RoleType]
		}
		if b.typ == (span{}) && b.value == (span{}) {
			b.local = true
		}
		f.stack.Push(&frame{kind: kProp, start: it.Start, end: it.End, node: -1})
		if d := f.decl(); d != nil {
			f.stack.Top().node = -1
		}
		f.bindAt(name, it.End, b)
		return
	}
	parentFrame := f.decl()
	pq, parent := f.parentQ()
	n := f.addNode(schemas.KindField, name, f.qual(pq, name), parent, it.Span)
	words := f.decorate(n, it)
	if words["const"] {
		f.Nodes[n].Kind = schemas.KindConstant
		f.Nodes[n].QualifiedName = f.qual(pq, name)
	}
	end := it.Role[indexer.RoleName].End
	if it.HasRole(indexer.RoleType) {
		end = it.Role[indexer.RoleType].End
	}
	f.Nodes[n].Signature = f.header(it, end)
	f.setExported(n, parentFrame)
	id := f.Nodes[n].ID
	switch {
	case it.HasRole(indexer.RoleType):
		f.addRef(schemas.RefType, id, it.Role[indexer.RoleType], f.Text(it.Role[indexer.RoleType]), typeExpr(f.Text(it.Role[indexer.RoleType])))
	case value != (span{}):
		f.pending = append(f.pending, pendingFact{kind: schemas.RefType, src: n, at: value, value: value})
	}
	f.stack.Push(&frame{kind: kProp, start: it.Start, end: it.End, node: n, qname: f.Nodes[n].QualifiedName})
}

func (f *fileState) entry(it *item) {
	o := f.owner()
	if o == nil || o.node < 0 || !it.HasRole(indexer.RoleName) {
		f.stack.Push(&frame{kind: kEntry, start: it.Start, end: it.End, node: -1})
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	n := f.addNode(schemas.KindConstant, name, o.qname+"."+name, o.node, it.Span)
	f.decorate(n, it)
	f.Nodes[n].Signature = name
	f.Nodes[n].IsStatic = true
	f.setExported(n, o)
	f.addRef(schemas.RefType, f.Nodes[n].ID, it.Role[indexer.RoleName], f.Nodes[o.node].Name, "{"+f.Nodes[o.node].Name+"}")
	f.stack.Push(&frame{kind: kEntry, start: it.Start, end: it.End, node: n, qname: o.qname})
}

// pendingFact is a type or result fact whose Expr is that of an
// initializer, computed once every binding of the file is known.
type pendingFact struct {
	kind  string
	src   int32
	at    span
	value span
}

// Finish writes the facts and calls whose Expr needed every binding of
// the file.
func (f *fileState) Finish(ctx context.Context) {
	for _, p := range f.pending {
		e := f.expr(p.value, 0)
		f.addRef(p.kind, f.Nodes[p.src].ID, p.at, srctext.Cap(oneLine(f.Text(p.value)), 120), e)
	}
	merged := map[int32]bool{} // calls f(a) of calls f(a) { }
	f.plain = map[uint32]bool{}
	for _, c := range f.calls {
		it := &f.Items[c.Item]
		if it.Kind != kCall {
			continue
		}
		callee, _, lambda := f.callParts(it)
		if callee != it.Role[indexer.RoleObject] {
			merged[f.exprs[it.Role[indexer.RoleObject].Key()]] = true
		}
		if t := f.Text(callee); lambda && (noReceiver[t[strings.LastIndexAny(t, ".")+1:]] || t == "run" || t == "apply") {
			f.plain[it.End] = true
		}
	}
	for i, c := range f.calls {
		if indexer.Stopped(ctx, i) {
			return
		}
		if merged[c.Item] {
			continue
		}
		it := &f.Items[c.Item]
		var e, target string
		if it.Kind == kDeleg {
			kw := "this"
			if strings.HasPrefix(strings.TrimSpace(f.Text(it.Span)), "super") {
				kw = "super"
			}
			e = kw + f.argList(f.argv[it.Role[indexer.RoleArgs].Start], false, 0)
			target = kw
		} else {
			e = f.expr(it.Span, 0)
			callee, _, _ := f.callParts(it)
			target = srctext.Cap(oneLine(f.Text(callee)), 120)
		}
		r := f.addRef(schemas.EdgeCalls, f.SrcID(c.Src), it.Span, target, e)
		r.Args = strconv.Itoa(int(f.callArgc(it)))
		c.Mark(r)
	}
	slices.SortStableFunc(f.Refs, func(a, b schemas.Ref) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

func (f *fileState) callArgc(it *item) int32 {
	_, args, lambda := f.callParts(it)
	if lambda {
		return int32(len(args)) + 1
	}
	return int32(len(args))
}

// callParts returns the callee of call it, its arguments in parentheses
// and whether a trailing lambda follows them. f(a) { } parses as a call
// of f(a) with the lambda: it is one call of f.
func (f *fileState) callParts(it *item) (span, []argSpan, bool) {
	args, parens, lambda := f.callArgs(it)
	if !parens && lambda {
		if i, ok := f.exprs[it.Role[indexer.RoleObject].Key()]; ok && f.Items[i].Kind == kCall {
			if inner, parens, lambda := f.callArgs(&f.Items[i]); parens && !lambda {
				return f.Items[i].Role[indexer.RoleObject], inner, true
			}
		}
	}
	return it.Role[indexer.RoleObject], args, lambda
}

// callArgs returns the arguments in parentheses of call it, whether it
// has parentheses, and whether a trailing lambda follows.
func (f *fileState) callArgs(it *item) ([]argSpan, bool, bool) {
	end := it.Role[indexer.RoleObject].End
	rest := f.Str[end:it.End]
	p := srctext.SkipSpace(rest, 0)
	if p < len(rest) && rest[p] == '<' { // type arguments
		depth := 0
		for ; p < len(rest); p++ {
			if rest[p] == '<' {
				depth++
			} else if rest[p] == '>' {
				if depth--; depth == 0 {
					p++
					break
				}
			}
		}
		p = srctext.SkipSpace(rest, p)
	}
	args, parens := []argSpan(nil), p < len(rest) && rest[p] == '('
	if parens {
		args = f.argv[end+uint32(p)]
	}
	return args, parens, f.lambdaEnd[it.End]
}
