package java

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

// Positions in rows: lines are 1-based, columns 1-based byte offsets in
// their line, byte offsets 0-based from the start of the file. A symbol's
// range covers its modifiers and annotations, not its Javadoc; its body
// hash covers its body only.

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

type extractor struct {
	*indexer.MatchScanner[kind]
	f fileState
}

func (x *extractor) Extract(ctx context.Context, file string, src []byte) (*indexer.Result, error) {
	items, err := x.Scan(ctx, src)
	if err != nil {
		return nil, err
	}
	f := &x.f
	f.reset(file, src, items)
	nodes, refs, test := indexer.RunPasses(ctx, f)
	return x.Result(ctx, nodes, refs, test)
}

// isTestFile reports whether file holds tests by Maven's and JUnit's
// conventions: under src/test/, or named *Test.java or *Tests.java.
func isTestFile(file string) bool {
	base := path.Base(file)
	return strings.HasPrefix(file, "src/test/") || strings.Contains(file, "/src/test/") ||
		strings.HasSuffix(base, "Test.java") || strings.HasSuffix(base, "Tests.java")
}

// testAnnotations are the annotations that make a method a test.
var testAnnotations = map[string]bool{
	"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true, "TestTemplate": true,
}

// langAnnotations are the annotations of java.lang, left out of refs.
var langAnnotations = map[string]bool{
	"Override": true, "Deprecated": true, "SuppressWarnings": true, "FunctionalInterface": true, "SafeVarargs": true,
}

// Modifier flags.
const (
	mPublic uint16 = 1 << iota
	mProtected
	mPrivate
	mStatic
	mAbstract
	mFinal
	mDefault
)

var modifierWords = map[string]uint16{
	"public": mPublic, "protected": mProtected, "private": mPrivate, "static": mStatic,
	"abstract": mAbstract, "final": mFinal, "default": mDefault,
}

// mods is a modifiers node: its keywords and annotations.
type mods struct {
	start, end uint32
	flags      uint16
	decorators []decorator
}

type decorator struct {
	at   span
	text string // as written, without @, on one line
}

// tvar is a type parameter, visible in the declaration that declares it.
type tvar struct {
	scope span
	name  string
	bound span // the first bound; empty when none
	class bool // a type's, not a method's
}

// frame is a range the walk is inside of: a declaration, a scope, a
// region, the body of an anonymous class.
type frame struct {
	kind       kind
	start, end uint32
	node       int32 // the node made for it, -1 if none
	body       span  // types and anonymous classes: the body
	opaque     bool  // a type declared in an anonymous class body: no nodes inside
	iface      bool  // an interface or annotation type
	exported   bool  // types: reachable from outside the package
	typ        span  // fields, locals: the declared type; anonymous classes: the supertype; lambdas: the type of the variable they initialize
	enumName   string
	params     []string // methods, constructors, records: parameter types, erased
	varargs    bool
	members    map[string]uint8 // anonymous classes: the methods and fields of the body
	local      bool             // a local class (declared in a method body)
	constant   int32            // the body of an enum constant: the constant's node
	inBody     bool             // a member of an enum constant's body: its code is in the body too
	// Classes and their constructors: the constructor of the superclass
	// called implicitly, with no arguments, when no constructor calls
	// another (JLS 8.8.7) or the class declares none (JLS 8.8.9).
	implicitSuper bool
	ctors         int  // classes: the constructors declared
	lparams       int  // lambdas: the inferred parameters seen
	sink          span // lambdas: the variable they are assigned to, if any
	call          span // lambdas: the method invocation they are argument argi of, if any
	argi          int
	at            span // classes: the class keyword; constructors: the body's brace
}

// End is where the frame's range ends (see indexer.Stack).
func (fr *frame) End() uint32 { return fr.end }

// Kind returns what fr is.
func (fr *frame) Kind() kind { return fr.kind }

// binding is a local variable or parameter: visible from decl, within
// [start, end).
type binding struct {
	decl, start, end uint32
	holes            []span               // bodies of local classes with a field of that name
	expr             indexer.Lazy[string] // its Expr, worked out from value unless given
	value            span
	suffix           string // with value, a suffix to its value's Expr
	ctx              ectx
	object           int // its type is a type variable with no bound (1), or an array of one (1 + dimensions)
}

// ectx is what an expression needs beyond its position: the anonymous
// class bodies around it, innermost first, up to its symbol, and whether a
// type declared in an anonymous class body is among them.
type ectx struct {
	anon   []*frame
	opaque bool
}

// call is a reference whose Expr waits for every binding of the file:
// calls, instantiates, references. Its Item is -1 for an enum constant's
// constructor call.
type call struct {
	indexer.Pending      // At: an enum constant's name
	args            span // enum constants: the argument list, if any
	ctx             ectx
}

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind] // Str: texts in rows are slices of it
	pkg                string

	stack       indexer.Stack[*frame]
	slab        []frame   // frames are allocated from chunks kept from file to file
	chunks      [][]frame // (frames are pointed to: a chunk never grows)
	chunk       int
	mods        map[uint32]*mods // by start
	docs        map[uint32]string
	tvars       []tvar
	exprs       indexer.ItemsBySpan // expression items by span
	args        map[uint32][]span   // arguments by the start of their list
	argOf       map[uint32]uint32   // the start of the list of an argument, by its start
	invokes     map[uint32]int32    // method invocation items by the start of their argument list
	lambdaTypes map[uint32]span     // lambdas that initialize a variable, by start: its declared type
	lambdaSinks map[uint32]span     // lambdas assigned to a variable, by start: the variable assigned
	assigns     []int32             // the assignment items
	anonymous   map[int32]int       // anonymous classes made so far, by the node they are in
	binds       map[string][]*binding
	bslab       []binding
	calls       []call
	sigs        []*frame // methods and constructors with a node, for their params facts
	classes     []*frame // classes with a node, for their implicit constructors
	uses        typeUses
}

// reset makes f ready for another file, keeping its maps and buffers.
func (f *fileState) reset(file string, src []byte, items []item) {
	if f.mods == nil {
		f.mods, f.docs, f.exprs = make(map[uint32]*mods), make(map[uint32]string), make(indexer.ItemsBySpan)
		f.args, f.binds = make(map[uint32][]span), make(map[string][]*binding)
		f.lambdaTypes, f.anonymous = make(map[uint32]span), make(map[int32]int)
		f.argOf, f.invokes, f.lambdaSinks = make(map[uint32]uint32), make(map[uint32]int32), make(map[uint32]span)
	} else {
		clear(f.lambdaSinks)
		clear(f.argOf)
		clear(f.invokes)
		clear(f.mods)
		clear(f.docs)
		clear(f.exprs)
		clear(f.args)
		clear(f.lambdaTypes)
		clear(f.anonymous)
		clear(f.binds)
	}
	*f = fileState{
		File: indexer.File[kind]{
			Rows: indexer.Rows{IDs: indexer.IDs{Language: Name, File: file}, Lines: srctext.LineStarts(f.Lines[:0], src)},
			Path: file, Src: src, Str: string(src), Items: items, Test: isTestFile(file),
		},
		mods: f.mods, docs: f.docs, exprs: f.exprs, args: f.args, binds: f.binds, lambdaTypes: f.lambdaTypes, anonymous: f.anonymous,
		argOf: f.argOf, invokes: f.invokes, lambdaSinks: f.lambdaSinks, assigns: f.assigns[:0],
		stack: f.stack[:0], chunks: f.chunks, chunk: -1, bslab: f.bslab[:0], tvars: f.tvars[:0], calls: f.calls[:0], sigs: f.sigs[:0],
		classes: f.classes[:0],
		uses:    typeUses{at: f.uses.at[:0]},
	}
}

// Prepare indexes what the walk looks up by position: modifiers,
// Javadoc, type parameters, expressions and argument counts.
func (f *fileState) Prepare(ctx context.Context) {
	var cur *mods
	var curSpan span
	var args []span
	type decl struct {
		span
		class bool
	}
	var decls []decl
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kModifiers:
			cur, curSpan = &mods{start: it.Start, end: it.End}, it.Span
			f.mods[it.Start] = cur
		case kDecorator:
			if cur != nil && curSpan.Start <= it.Start && it.End <= curSpan.End && it.End > it.Start {
				cur.decorators = append(cur.decorators, decorator{it.Span, oneLine(f.Str[it.Start+1 : it.End])})
			}
		case kDoc:
			if doc, ok := javadoc(f.Text(it.Span)); ok {
				f.docs[uint32(skipSpace(f.Str, int(it.End)))] = doc
			}
		case kClass, kInterface, kEnum, kRecord, kAnnotype, kMethod, kCtor:
			for len(decls) > 0 && decls[len(decls)-1].End <= it.Start {
				decls = decls[:len(decls)-1]
			}
			decls = append(decls, decl{it.Span, it.Kind.isType()})
		case kTParam:
			for len(decls) > 0 && decls[len(decls)-1].End <= it.Start {
				decls = decls[:len(decls)-1]
			}
			if len(decls) > 0 {
				name, bound := f.typeParam(it.Span)
				d := decls[len(decls)-1]
				f.tvars = append(f.tvars, tvar{scope: d.span, name: name, bound: bound, class: d.class})
			}
		case kAssign:
			f.assigns = append(f.assigns, int32(i))
		case kInvoke, kNew, kField, kCast, kParen, kIndex, kMref, kTernary, kBinary, kUnary, kNewArray, kLambda:
			f.exprs.Add(it.Span, i)
			if it.Kind == kInvoke && it.HasRole(indexer.RoleArgs) {
				f.invokes[it.Role[indexer.RoleArgs].Start] = int32(i)
			}
		case kArgs:
			args = indexer.Enclosing(args, it.Start)
			args = append(args, it.Span)
			f.args[it.Start] = nil
		case kArg:
			args = indexer.Enclosing(args, it.Start)
			if len(args) > 0 {
				a := args[len(args)-1].Start
				f.args[a] = append(f.args[a], it.Span)
				f.argOf[it.Start] = a
			}
		}
	}
	for _, m := range f.mods {
		m.flags = modifierFlags(f.Str, m)
	}
	for _, i := range f.assigns {
		it := &f.Items[i]
		f.lambdasIn(it.Role[indexer.RoleValue], func(l span) { f.lambdaSinks[l.Start] = it.Role[indexer.RoleObject] })
	}
}

// lambdasIn calls fn with each lambda the value of the expression at s
// can be: s itself, or the branches of a conditional, parenthesized or
// not.
func (f *fileState) lambdasIn(s span, fn func(span)) {
	it := indexer.ItemAt(f.Items, f.exprs, s)
	if it == nil {
		return
	}
	switch it.Kind {
	case kLambda:
		fn(s)
	case kParen:
		f.lambdasIn(it.Role[indexer.RoleValue], fn)
	case kTernary:
		f.lambdasIn(it.Role[indexer.RoleValue], fn)
		f.lambdasIn(it.Role[indexer.RoleBody], fn)
	}
}

// modifierFlags reads the keywords of a modifiers node, skipping its
// annotations.
func modifierFlags(src string, m *mods) uint16 {
	var flags uint16
	p := int(m.start)
	for _, d := range m.decorators {
		flags |= words(src[p:d.at.Start])
		p = int(d.at.End)
	}
	return flags | words(src[p:m.end])
}

func words(s string) uint16 {
	var flags uint16
	for _, w := range strings.Fields(s) {
		flags |= modifierWords[w]
	}
	return flags
}

// typeParam splits `T extends A<T> & B` into T and the range of A<T>.
func (f *fileState) typeParam(s span) (string, span) {
	t := f.Text(s)
	p := skipSpace(t, 0)
	for p < len(t) && t[p] == '@' { // annotations
		p = skipAnnotation(t, p)
	}
	e := identEnd(t, p)
	name := t[p:e]
	q := skipSpace(t, e)
	if !strings.HasPrefix(t[q:], "extends") {
		return name, span{}
	}
	q = skipSpace(t, q+len("extends"))
	end := q
	depth := 0
	for end < len(t) && (depth > 0 || t[end] != '&') {
		switch t[end] {
		case '<':
			depth++
		case '>':
			depth--
		}
		end++
	}
	for end > q && (t[end-1] == ' ' || t[end-1] == '\t' || t[end-1] == '\n' || t[end-1] == '\r') {
		end--
	}
	return name, span{Start: s.Start + uint32(q), End: s.Start + uint32(end)}
}

// skipAnnotation returns the end of the annotation at t[p] == '@'.
func skipAnnotation(t string, p int) int {
	p = skipSpace(t, p+1)
	for {
		e := identEnd(t, p)
		if e == p {
			return p
		}
		q := skipSpace(t, e)
		if q < len(t) && t[q] == '.' && !strings.HasPrefix(t[q:], "...") {
			p = skipSpace(t, q+1)
			continue
		}
		p = q
		break
	}
	if p < len(t) && t[p] == '(' {
		depth := 0
		for ; p < len(t); p++ {
			switch t[p] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					return skipSpace(t, p+1)
				}
			case '"', '\'':
				p = quoteEnd(t, p) - 1
			}
		}
	}
	return p
}

// quoteEnd returns the end of the string or character literal at t[p].
func quoteEnd(t string, p int) int {
	q := t[p]
	for i := p + 1; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			if q == '\'' {
				return i
			}
		}
	}
	return len(t)
}

func (f *fileState) top() *frame { return f.stack.Top() }

func (f *fileState) push(fr frame) *frame {
	if len(f.slab) == cap(f.slab) { // a new chunk: the ones before hold live frames
		if f.chunk++; f.chunk < len(f.chunks) {
			f.slab = f.chunks[f.chunk][:0]
		} else {
			f.slab = make([]frame, 0, 256)
			f.chunks = append(f.chunks, f.slab)
		}
	}
	f.slab = append(f.slab, fr)
	p := &f.slab[len(f.slab)-1]
	f.stack.Push(p)
	return p
}

// context returns the node code at p belongs to (-1 for the file) and the
// anonymous class bodies between that node's type and p: the code of a
// member of an enum constant's body is the member's, in the body.
func (f *fileState) context(p uint32) (int32, ectx) {
	var c ectx
	src := int32(-1)
	for i := len(f.stack) - 1; i >= 0; i-- {
		fr := f.stack[i]
		switch {
		case fr.kind == kAnon:
			if fr.body.Start <= p && p < fr.body.End {
				if fr.node >= 0 {
					return first(src, fr.node), c
				}
				c.anon = append(c.anon, fr)
			}
		case fr.opaque:
			c.opaque = true
		case fr.node >= 0:
			if src = first(src, fr.node); !fr.inBody {
				return src, c
			}
		}
	}
	return src, c
}

// first returns a, or b when a is -1.
func first(a, b int32) int32 {
	if a >= 0 {
		return a
	}
	return b
}

// memberParent returns the node of the members declared directly in the
// body of o: o's own, or, for the body of an enum constant, the
// constant's; -1 for none.
func memberParent(o *frame) int32 {
	switch {
	case o == nil:
		return -1
	case o.node < 0 && o.kind == kAnon && o.enumName != "":
		return o.constant
	}
	return o.node
}

// enclosing returns the innermost frame of kind k around the walk, or
// nil.
func (f *fileState) enclosing(k kind) *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if f.stack[i].kind == k {
			return f.stack[i]
		}
	}
	return nil
}

// owner returns the type or anonymous class whose body holds p directly,
// or nil.
func (f *fileState) owner(p uint32) *frame {
	t := f.top()
	if t != nil && (t.kind.isType() || t.kind == kAnon) && t.body.Start <= p && p < t.body.End {
		return t
	}
	return nil
}

// scopeAt returns the innermost frame a local declared at p is visible in.
func (f *fileState) scopeAt(p uint32) *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; fr.kind {
		case kScope, kForeach, kCatch, kLambda, kMethod, kCtor, kInit:
			return fr
		case kAnon:
			if fr.body.Start <= p {
				return fr
			}
		case kClass, kInterface, kEnum, kRecord, kAnnotype, kConst, kVar:
			return fr
		}
	}
	return nil
}

// region returns the Region of code at p within its own method, lambda
// or anonymous class method.
func (f *fileState) region(p uint32) indexer.Region {
	return indexer.RegionWithin(f.stack, kLoop, kTry, kCond, func(fr *frame) bool {
		switch fr.kind {
		case kAnon:
			return fr.body.Start <= p
		case kLambda, kMethod, kCtor, kInit, kVar, kConst:
			return true
		}
		return fr.kind.isType()
	})
}

// decorate sets what the modifiers and Javadoc of the declaration at s
// say of node n, and returns its modifier flags.
func (f *fileState) decorate(n int32, s span) uint16 {
	node := &f.Nodes[n]
	node.Doc = f.docs[s.Start]
	m := f.mods[s.Start]
	if m == nil {
		return 0
	}
	for _, d := range m.decorators {
		node.Decorators = append(node.Decorators, d.text)
		name := d.text
		if i := strings.IndexByte(name, '('); i >= 0 {
			name = name[:i]
		}
		name = squeeze(name)
		if testAnnotations[name[strings.LastIndexByte(name, '.')+1:]] {
			node.IsTest = true
		}
		if langAnnotations[name] {
			continue
		}
		f.AddRef(schemas.EdgeReferences, node.ID, d.at, "@"+name, "@"+name)
	}
	return m.flags
}

// header returns the text of the declaration at s from the end of its
// modifiers to end.
func (f *fileState) header(s span, end uint32) string {
	start := s.Start
	if m := f.mods[s.Start]; m != nil {
		start = uint32(skipSpace(f.Str, int(m.end)))
	}
	if start > end {
		return ""
	}
	return f.Str[start:end]
}

func visibility(flags uint16, implicit string) string {
	switch {
	case flags&mPublic != 0:
		return schemas.Public
	case flags&mProtected != 0:
		return schemas.Protected
	case flags&mPrivate != 0:
		return schemas.Private
	}
	return implicit
}

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	count := indexer.CountKinds(ctx, f.Items, numKinds)
	f.Nodes = make([]schemas.Node, 0, count[kClass]+count[kInterface]+count[kEnum]+count[kRecord]+count[kMethod]+count[kCtor]+count[kFields]+count[kConst])
	f.Refs = make([]schemas.Ref, 0, count[kInvoke]+count[kNew]+count[kCtorCall]+count[kMref]+count[kImport]+
		2*count[kMethod]+count[kCtor]+count[kFields]+count[kConst]+count[kDecorator]+count[kExtends]+count[kImplements]+count[kParam]/4+4)
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kPackage:
			if len(f.stack) == 0 && it.HasRole(indexer.RoleName) {
				f.pkg = squeeze(f.Text(it.Role[indexer.RoleName]))
				f.AddRef(schemas.RefPackage, indexer.FileID(f.Path), it.Span, f.pkg, f.pkg)
			}
		case kImport:
			f.importRef(it)
		case kClass, kInterface, kEnum, kRecord, kAnnotype:
			f.typeDecl(it)
		case kExtends, kImplements:
			f.superRef(it)
			f.uses.taken = it.Start
		case kTUse:
			f.typeUse(it)
		case kMethod, kCtor:
			f.method(it)
		case kFields:
			fr := frame{kind: kFields, start: it.Start, end: it.End, node: -1, typ: it.Role[indexer.RoleType]}
			f.push(fr)
		case kVar:
			f.variable(it)
		case kConst:
			f.enumConst(it)
		case kInit:
			n := int32(-1)
			if o := f.owner(it.Start); o != nil {
				n = o.node
			}
			f.push(frame{kind: kInit, start: it.Start, end: it.End, node: n})
		case kLocals:
			f.push(frame{kind: kLocals, start: it.Start, end: it.End, node: -1, typ: it.Role[indexer.RoleType]})
		case kParam:
			f.param(it)
		case kSpread:
			f.push(frame{kind: kSpread, start: it.Start, end: it.End, node: -1})
		case kLParam:
			if sc := f.scopeAt(it.Start); sc != nil {
				e := indexer.ExprLocal
				if sc.kind == kLambda {
					n := sc.lparams
					sc.lparams++
					switch {
					case sc.typ != (span{}):
						e = f.lambdaParamExpr(sc.typ, n)
					case sc.sink != (span{}):
						f.bindValue(f.Text(it.Span), it.Start, sc, sc.sink, "=>"+strconv.Itoa(n))
						continue
					case sc.call != (span{}):
						f.bindValue(f.Text(it.Span), it.Start, sc, sc.call, "->"+strconv.Itoa(sc.argi)+"."+strconv.Itoa(n))
						continue
					}
				}
				f.bind(f.Text(it.Span), it.Start, sc, e)
			}
		case kCatch:
			if sc := f.scopeAt(it.Start); sc != nil {
				e := indexer.ExprLocal
				if t := f.Text(it.Role[indexer.RoleType]); !strings.Contains(t, "|") {
					e = f.typeExpr(it.Role[indexer.RoleType])
				}
				f.bind(f.Text(it.Role[indexer.RoleName]), it.Start, sc, e)
			}
		case kForeach:
			sc := f.push(frame{kind: kForeach, start: it.Start, end: it.End, node: -1})
			f.typedBinding(it, sc, true)
		case kResource, kPattern:
			if sc := f.scopeAt(it.Start); sc != nil {
				f.typedBinding(it, sc, false)
			}
		case kScope, kLoop, kTry, kCond:
			f.push(frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kLambda:
			fr := f.push(frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, typ: f.lambdaTypes[it.Start], sink: f.lambdaSinks[it.Start]})
			fr.call, fr.argi = f.callOfArg(it.Span)
		case kInvoke, kCtorCall:
			f.addCall(schemas.EdgeCalls, i)
			if it.Kind == kCtorCall {
				if c := f.enclosing(kCtor); c != nil {
					c.implicitSuper = false
				}
			}
		case kMref:
			f.addCall(schemas.EdgeReferences, i)
			f.uses.taken = it.Start
		case kNew:
			f.addCall(schemas.EdgeInstantiates, i)
			if it.HasRole(indexer.RoleType) {
				f.uses.taken = it.Role[indexer.RoleType].Start
			}
			if it.HasRole(indexer.RoleBody) {
				f.push(frame{kind: kAnon, start: it.Start, end: it.End, node: f.anonClass(it), body: it.Role[indexer.RoleBody], typ: it.Role[indexer.RoleType], members: map[string]uint8{}})
			}
		}
	}
}

// callOfArg returns the method invocation whose argument is the
// expression at s, and the argument's index; a zero span when s is none.
func (f *fileState) callOfArg(s span) (span, int) {
	list, ok := f.argOf[s.Start]
	if !ok {
		return span{}, 0
	}
	i, ok := f.invokes[list]
	if !ok {
		return span{}, 0
	}
	for k, a := range f.args[list] {
		if a == s {
			return f.Items[i].Span, k
		}
	}
	return span{}, 0
}

// typedBinding binds the name of a for-each variable, a resource or a
// pattern to its declared type, or, for var, to the value.
func (f *fileState) typedBinding(it *item, sc *frame, element bool) {
	if !it.HasRole(indexer.RoleName) || !it.HasRole(indexer.RoleType) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	e := f.genericExpr(it.Role[indexer.RoleType])
	if e == "" && it.HasRole(indexer.RoleValue) { // var
		if element {
			f.bindValue(name, it.Role[indexer.RoleName].Start, sc, it.Role[indexer.RoleValue], "[]")
			return
		}
		f.bindValue(name, it.Role[indexer.RoleName].Start, sc, it.Role[indexer.RoleValue], "")
		return
	}
	if e == "" {
		e = indexer.ExprLocal
	}
	f.bind(name, it.Role[indexer.RoleName].Start, sc, e)
}

func (f *fileState) newBinding(name string, decl uint32, sc *frame) *binding {
	if len(f.bslab) == cap(f.bslab) {
		f.bslab = make([]binding, 0, 64)
	}
	f.bslab = append(f.bslab, binding{decl: decl, start: sc.start, end: sc.end})
	b := &f.bslab[len(f.bslab)-1]
	if sc.kind == kAnon {
		b.start = sc.body.Start
	}
	f.binds[name] = append(f.binds[name], b)
	return b
}

func (f *fileState) bind(name string, decl uint32, sc *frame, expr string) *binding {
	if expr == "" {
		expr = indexer.ExprLocal
	}
	b := f.newBinding(name, decl, sc)
	b.expr = indexer.Known(expr)
	return b
}

// unboundedVar returns, when the type at s (with dims more dimensions
// declared after the name) is a type variable with no bound or an array
// of one, its number of dimensions plus one; 0 otherwise. A value of
// such a type variable is a subtype of Object and of no class or
// interface but Object.
func (f *fileState) unboundedVar(s span, dims int) int {
	base, d := splitDims(typeName(f.Text(s)))
	if base == "" || strings.Contains(base, ".") {
		return 0
	}
	if tv := f.typeVar(base, s.Start); tv == nil || tv.bound != (span{}) {
		return 0
	}
	return d + dims + 1
}

// bindValue binds name to the Expr of the expression at value, plus
// suffix ("[]" for the element of a for-each over it).
func (f *fileState) bindValue(name string, decl uint32, sc *frame, value span, suffix string) {
	b := f.newBinding(name, decl, sc)
	b.value = value
	b.suffix = suffix
	_, b.ctx = f.context(value.Start)
}

func (f *fileState) importRef(it *item) {
	t := f.Text(it.Span)
	p := skipSpace(t, len("import"))
	static := strings.HasPrefix(t[p:], "static") && identEnd(t, p) == p+len("static")
	if static {
		p += len("static")
	}
	t = strings.TrimSuffix(squeeze(t[p:]), ";")
	if t == "" {
		return
	}
	expr := t
	if static {
		expr = "static " + t
	}
	f.AddRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, t, expr)
}

// typeDecl makes the node of a class, interface, enum, record or
// annotation type.
func (f *fileState) typeDecl(it *item) {
	parent, c := f.context(it.Start)
	body := it.Role[indexer.RoleBody]
	iface := it.Kind == kInterface || it.Kind == kAnnotype
	if len(c.anon) > 0 || c.opaque || !it.HasRole(indexer.RoleName) {
		f.push(frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, body: body, opaque: true, iface: iface})
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	kind := schemas.KindClass
	switch it.Kind {
	case kInterface, kAnnotype:
		kind = schemas.KindInterface
	case kEnum:
		kind = schemas.KindEnum
	}
	qname, member, local := indexer.JoinName(f.pkg, name), false, false
	var outer *frame
	if parent >= 0 {
		qname = indexer.JoinName(f.Nodes[parent].QualifiedName, name)
		if o := f.owner(it.Start); o != nil {
			member, outer = true, o
		} else {
			local = true
		}
	}
	n := f.AddNode(kind, name, qname, parent, it.Span)
	flags := f.decorate(n, it.Span)
	node := &f.Nodes[n]
	implicit := schemas.Internal
	switch {
	case local:
		implicit = schemas.Private
	case member && outer.iface:
		implicit = schemas.Public
	}
	node.Visibility = visibility(flags, implicit)
	node.Exported = (node.Visibility == schemas.Public || node.Visibility == schemas.Protected) && (parent < 0 || member && outer.exported)
	if parent < 0 {
		node.Exported = node.Visibility == schemas.Public
	}
	node.IsStatic = member && (flags&mStatic != 0 || it.Kind != kClass || outer.iface)
	node.IsAbstract = flags&mAbstract != 0 || iface
	node.Signature = oneLine(f.header(it.Span, body.Start))
	node.BodyHash = xxhash.Sum64String(f.Text(body))
	fr := f.push(frame{kind: it.Kind, start: it.Start, end: it.End, node: n, body: body, iface: iface, exported: node.Exported, local: local})
	if it.Kind == kClass {
		fr.implicitSuper = true
		p := uint32(skipSpace(f.Str, int(it.Start)))
		if m := f.mods[it.Start]; m != nil {
			p = uint32(skipSpace(f.Str, int(m.end)))
		}
		fr.at = span{Start: p, End: p + uint32(len("class"))}
		f.classes = append(f.classes, fr)
	}
	switch it.Kind {
	case kEnum:
		fr.enumName = name
	case kRecord:
		f.sigs = append(f.sigs, fr) // its components: the canonical constructor's parameters
	}
}

// anonClass makes the node of the anonymous class that the creation it
// declares, and records its supertype; it returns -1 where code has no
// node of its own (in the body of an enum constant or of a member of one,
// under a type declared in one). Anonymous classes are named by number, in source order, within
// the node whose code creates them: Outer.method.1, Outer.method.2,
// Outer.method.1.run.1.
func (f *fileState) anonClass(it *item) int32 {
	parent, c := f.context(it.Start)
	if parent < 0 || len(c.anon) > 0 || c.opaque {
		return -1
	}
	f.anonymous[parent]++
	name := strconv.Itoa(f.anonymous[parent])
	n := f.AddNode(schemas.KindClass, name, indexer.JoinName(f.Nodes[parent].QualifiedName, name), parent, it.Span)
	node := &f.Nodes[n]
	node.Visibility = schemas.Private
	node.Signature = oneLine(f.Str[it.Start:it.Role[indexer.RoleBody].Start])
	node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	if t := typeName(f.Text(it.Role[indexer.RoleType])); t != "" {
		t += f.typeArgs(f.Text(it.Role[indexer.RoleType]), it.Role[indexer.RoleType].Start, false, 0)
		f.AddRef(schemas.EdgeExtends, node.ID, it.Role[indexer.RoleType], oneLine(f.Text(it.Role[indexer.RoleType])), t)
	}
	return n
}

// superRef records a class's superclass or an interface it implements or
// extends.
func (f *fileState) superRef(it *item) {
	t := f.top()
	if t == nil || !t.kind.isType() || t.node < 0 || it.Start >= t.body.Start {
		return
	}
	kind := schemas.EdgeExtends
	if it.Kind == kImplements {
		kind = schemas.EdgeImplements
	}
	name := typeName(f.Text(it.Span))
	if name == "" {
		return
	}
	f.AddRef(kind, f.Nodes[t.node].ID, it.Span, oneLine(f.Text(it.Span)), name+f.typeArgs(f.Text(it.Span), it.Start, true, 0))
}

// method makes the node of a method, a constructor or an annotation
// type element; one in the body of an enum constant is named under the
// constant (Op.PLUS.apply).
func (f *fileState) method(it *item) {
	o := f.owner(it.Start)
	name := f.Text(it.Role[indexer.RoleName])
	if o != nil && o.kind == kAnon && o.node < 0 {
		o.members[name] |= memberMethod
	}
	parent := memberParent(o)
	if parent < 0 {
		f.push(frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	kind := schemas.KindMethod
	if it.Kind == kCtor {
		kind, name = schemas.KindConstructor, "<init>"
	}
	n := f.AddNode(kind, name, indexer.JoinName(f.Nodes[parent].QualifiedName, name), parent, it.Span)
	flags := f.decorate(n, it.Span)
	node := &f.Nodes[n]
	implicit := schemas.Internal
	switch {
	case o.iface:
		implicit = schemas.Public
	case o.kind == kEnum && kind == schemas.KindConstructor:
		implicit = schemas.Private
	}
	node.Visibility = visibility(flags, implicit)
	node.Exported = o.exported && (node.Visibility == schemas.Public || node.Visibility == schemas.Protected)
	node.IsStatic = flags&mStatic != 0
	hasBody := it.HasRole(indexer.RoleBody)
	node.IsAbstract = flags&mAbstract != 0 || o.iface && !hasBody && flags&(mStatic|mDefault|mPrivate) == 0
	end := it.End
	if hasBody {
		end = it.Role[indexer.RoleBody].Start
		node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	}
	sig := strings.TrimSuffix(strings.TrimSpace(f.header(it.Span, end)), ";")
	fr := f.push(frame{kind: it.Kind, start: it.Start, end: it.End, node: n, inBody: parent != o.node})
	if it.Kind == kCtor {
		o.ctors++
		fr.implicitSuper = o.kind == kClass && hasBody
		fr.at = span{Start: it.Role[indexer.RoleBody].Start, End: it.Role[indexer.RoleBody].Start + 1}
	}
	if it.Kind == kCtor && !it.HasRole(indexer.RoleParams) { // a compact canonical constructor
		if r := f.enclosingRecord(); r != nil {
			sig = strings.TrimSpace(sig) + r.signatureParams
			fr.params = r.params
		}
	}
	node.Signature = oneLine(sig)
	if it.Kind == kMethod && it.HasRole(indexer.RoleType) {
		dims := 0
		if it.HasRole(indexer.RoleParams) && it.Role[indexer.RoleParams].End <= end {
			dims = declaratorDims(f.Str[it.Role[indexer.RoleParams].End:end]) // int f()[]
		}
		if e := f.factExpr(it.Role[indexer.RoleType], dims); e != "" {
			f.AddRef(schemas.RefResult, node.ID, it.Role[indexer.RoleType], oneLine(f.Text(it.Role[indexer.RoleType])), e)
		}
	}
	f.sigs = append(f.sigs, fr)
}

// record is what a compact constructor takes from its record.
type record struct {
	params          []string
	signatureParams string
}

// enclosingRecord returns the parameters of the record whose body the
// walk is in.
func (f *fileState) enclosingRecord() *record {
	for i := len(f.stack) - 1; i >= 0; i-- {
		fr := f.stack[i]
		if fr.kind == kRecord && fr.node >= 0 {
			sig := f.Nodes[fr.node].Signature
			p := ""
			if i := strings.IndexByte(sig, '('); i >= 0 {
				if j := matching(sig, i); j > i {
					p = sig[i : j+1]
				}
			}
			return &record{params: fr.params, signatureParams: p}
		}
		if fr.kind.isType() {
			return nil
		}
	}
	return nil
}

// matching returns the index of the bracket closing s[i], a parenthesis
// or an angle bracket, or -1.
func matching(s string, i int) int {
	shut := byte(')')
	if s[i] == '<' {
		shut = '>'
	}
	if j := indexer.Closing(s[i:], s[i], shut); j >= 0 {
		return i + j
	}
	return -1
}

// param handles a formal parameter: of a method or constructor (a
// binding and a parameter type), of a lambda or catch (a binding), or a
// record component (a field).
func (f *fileState) param(it *item) {
	t := f.top()
	if t == nil || !it.HasRole(indexer.RoleName) || !it.HasRole(indexer.RoleType) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	typ := f.genericExpr(it.Role[indexer.RoleType])
	dims := declaratorDims(f.Str[it.Role[indexer.RoleName].End:it.End])
	if dims > 0 && isTypeExpr(typ) {
		typ = typ[:len(typ)-1] + strings.Repeat("[]", dims) + "}"
	}
	if typ == "" {
		typ = indexer.ExprLocal
	}
	switch {
	case t.kind == kRecord && it.Start < t.body.Start:
		erased := f.paramType(f.Text(it.Role[indexer.RoleType]), it.Role[indexer.RoleType].Start) + strings.Repeat("[]", dims)
		t.params = append(t.params, erased)
		if t.node < 0 {
			return
		}
		n := f.AddNode(schemas.KindField, name, indexer.JoinName(f.Nodes[t.node].QualifiedName, name), t.node, it.Span)
		f.decorate(n, it.Span)
		node := &f.Nodes[n]
		node.Visibility, node.Exported = schemas.Public, f.Nodes[t.node].Exported
		node.Signature = oneLine(f.Text(it.Span))
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
		if e := f.factExpr(it.Role[indexer.RoleType], dims); e != "" {
			f.AddRef(schemas.RefType, node.ID, it.Role[indexer.RoleType], oneLine(f.Text(it.Role[indexer.RoleType])), e)
		}
	case t.kind == kMethod || t.kind == kCtor:
		t.params = append(t.params, f.paramType(f.Text(it.Role[indexer.RoleType]), it.Role[indexer.RoleType].Start)+strings.Repeat("[]", dims))
		f.bind(name, t.start, t, typ).object = f.unboundedVar(it.Role[indexer.RoleType], dims)
	case t.kind == kLambda:
		f.bind(name, t.start, t, typ).object = f.unboundedVar(it.Role[indexer.RoleType], dims)
	}
}

// declaratorDims counts the [] after a declared name (int a[][]).
func declaratorDims(s string) int {
	n := 0
	for p := skipSpace(s, 0); p+1 < len(s) && s[p] == '['; p = skipSpace(s, p) {
		q := skipSpace(s, p+1)
		if q >= len(s) || s[q] != ']' {
			break
		}
		n++
		p = q + 1
	}
	return n
}

// variable handles a variable declarator: of a field (a node), of a field
// of an anonymous class or of a local (a binding), of a varargs
// parameter.
func (f *fileState) variable(it *item) {
	t := f.top()
	if t == nil || !it.HasRole(indexer.RoleName) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	end := it.End
	if it.HasRole(indexer.RoleValue) {
		end = it.Role[indexer.RoleValue].Start
	}
	dims := declaratorDims(f.Str[it.Role[indexer.RoleName].End:end])
	if (t.kind == kFields || t.kind == kLocals) && dims == 0 && it.HasRole(indexer.RoleValue) {
		f.lambdasIn(it.Role[indexer.RoleValue], func(l span) { f.lambdaTypes[l.Start] = t.typ })
	}
	switch t.kind {
	case kSpread:
		typ := typeOfSpread(f.Str[t.start:it.Start])
		e := f.typeExprText(typ, t.start)
		if isTypeExpr(e) {
			e = e[:len(e)-1] + "[]}"
		}
		if len(f.stack) >= 2 {
			m := f.stack[len(f.stack)-2]
			if m.kind == kMethod || m.kind == kCtor || m.kind == kRecord {
				m.params = append(m.params, f.paramType(typ, t.start)+"[]")
				m.varargs = true
				if m.kind != kRecord {
					f.bind(name, m.start, m, e)
				}
			} else if m.kind == kLambda {
				f.bind(name, m.start, m, e)
			}
		}
	case kFields:
		f.field(it, t, name, dims)
	case kLocals:
		sc := f.scopeBelow()
		if sc == nil {
			return
		}
		e := f.genericExpr(t.typ)
		if dims > 0 && isTypeExpr(e) {
			e = e[:len(e)-1] + strings.Repeat("[]", dims) + "}"
		}
		if e == "" && it.HasRole(indexer.RoleValue) {
			f.bindValue(name, it.Role[indexer.RoleName].Start, sc, it.Role[indexer.RoleValue], "")
			return
		}
		if e == "" {
			e = indexer.ExprLocal
		}
		f.bind(name, it.Role[indexer.RoleName].Start, sc, e).object = f.unboundedVar(t.typ, dims)
	}
}

// scopeBelow returns the scope of the declaration on top of the stack.
func (f *fileState) scopeBelow() *frame {
	top := f.stack.Top()
	f.stack.Pop()
	sc := f.scopeAt(top.start)
	f.stack.Push(top)
	return sc
}

// typeOfSpread returns the type of a varargs parameter from the text
// before its name: `final String...` gives String.
func typeOfSpread(s string) string {
	s, _, _ = strings.Cut(s, "...")
	p := 0
	for {
		p = skipSpace(s, p)
		switch {
		case p < len(s) && s[p] == '@':
			p = skipAnnotation(s, p)
			continue
		case strings.HasPrefix(s[p:], "final") && identEnd(s, p) == p+len("final"):
			p += len("final")
			continue
		}
		return s[p:]
	}
}

// field makes the node of a field or constant, and binds a field of an
// anonymous class that has no node (one in an enum constant's body has a
// node under the constant all the same).
func (f *fileState) field(it *item, t *frame, name string, dims int) {
	var o *frame
	if len(f.stack) >= 2 {
		if fr := f.stack[len(f.stack)-2]; (fr.kind.isType() || fr.kind == kAnon) && fr.body.Start <= t.start && t.start < fr.body.End {
			o = fr
		}
	}
	if o != nil && o.kind == kAnon && o.node < 0 {
		o.members[name] |= memberField
		typ := f.genericExpr(t.typ)
		if dims > 0 && isTypeExpr(typ) {
			typ = typ[:len(typ)-1] + strings.Repeat("[]", dims) + "}"
		}
		if typ == "" {
			typ = indexer.ExprLocal
		}
		f.bind(name, o.body.Start, o, typ)
	}
	parent := memberParent(o)
	if parent < 0 {
		f.push(frame{kind: kVar, start: it.Start, end: it.End, node: -1})
		return
	}
	if o.local { // the field hides the locals of that name around the class
		for _, b := range f.binds[name] {
			if b.decl <= o.start && b.start <= o.start && o.start < b.end {
				b.holes = append(b.holes, o.body)
			}
		}
	}
	flags := uint16(0)
	if m := f.mods[t.start]; m != nil {
		flags = m.flags
	}
	kind := schemas.KindField
	if o.iface || flags&(mStatic|mFinal) == mStatic|mFinal {
		kind = schemas.KindConstant
	}
	n := f.AddNode(kind, name, indexer.JoinName(f.Nodes[parent].QualifiedName, name), parent, span{Start: t.start, End: t.end})
	f.decorate(n, span{Start: t.start, End: t.end})
	node := &f.Nodes[n]
	implicit := schemas.Internal
	if o.iface {
		implicit = schemas.Public
	}
	node.Visibility = visibility(flags, implicit)
	node.Exported = o.exported && (node.Visibility == schemas.Public || node.Visibility == schemas.Protected)
	node.IsStatic = flags&mStatic != 0 || o.iface
	node.Signature = oneLine(f.Text(t.typ) + " " + f.Text(it.Span))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	if e := f.factExpr(t.typ, dims); e != "" {
		f.AddRef(schemas.RefType, node.ID, t.typ, oneLine(f.Text(t.typ)), e)
	}
	f.push(frame{kind: kVar, start: it.Start, end: it.End, node: n, inBody: parent != o.node})
}

// enumConst makes the node of an enum constant, and records the call of
// the enum's constructor it makes.
func (f *fileState) enumConst(it *item) {
	o := f.owner(it.Start)
	if o == nil || o.node < 0 || o.kind != kEnum || !it.HasRole(indexer.RoleName) {
		f.push(frame{kind: kConst, start: it.Start, end: it.End, node: -1})
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	n := f.AddNode(schemas.KindConstant, name, indexer.JoinName(f.Nodes[o.node].QualifiedName, name), o.node, it.Span)
	f.decorate(n, it.Span)
	node := &f.Nodes[n]
	node.Visibility, node.Exported, node.IsStatic = schemas.Public, o.exported, true
	end := it.End
	if it.HasRole(indexer.RoleBody) {
		end = it.Role[indexer.RoleBody].Start
	}
	node.Signature = oneLine(strings.TrimSpace(f.header(it.Span, end)))
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	var args span
	if it.HasRole(indexer.RoleArgs) {
		args = it.Role[indexer.RoleArgs]
	}
	c := indexer.Pending{Kind: schemas.EdgeCalls, Item: -1, Src: n, At: it.Role[indexer.RoleName], Region: f.region(it.Start)}
	f.calls = append(f.calls, call{Pending: c, args: args})
	f.push(frame{kind: kConst, start: it.Start, end: it.End, node: n})
	if it.HasRole(indexer.RoleBody) {
		f.push(frame{kind: kAnon, start: it.Role[indexer.RoleBody].Start, end: it.Role[indexer.RoleBody].End, node: -1, body: it.Role[indexer.RoleBody], enumName: o.enumName, constant: n, members: map[string]uint8{}})
	}
}

func (f *fileState) addCall(kind string, i int) {
	it := &f.Items[i]
	if kind == schemas.EdgeInstantiates && (!it.HasRole(indexer.RoleType) || !it.HasRole(indexer.RoleArgs)) {
		return
	}
	src, c := f.context(it.Start)
	p := indexer.Pending{Kind: kind, Item: int32(i), Src: src, Region: f.region(it.Start)}
	f.calls = append(f.calls, call{Pending: p, ctx: c})
}

// Finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) Finish(ctx context.Context) {
	for _, fr := range f.sigs {
		n := &f.Nodes[fr.node]
		e := strings.Join(fr.params, ",")
		if fr.varargs {
			e += "..."
		}
		f.AddRef(RefParams, n.ID, span{Start: n.StartByte, End: n.EndByte}, n.Name, e)
		if fr.implicitSuper {
			f.AddRef(schemas.EdgeCalls, n.ID, fr.at, "super", "super()")
		}
	}
	for _, fr := range f.classes {
		if fr.ctors == 0 {
			f.AddRef(schemas.EdgeCalls, f.Nodes[fr.node].ID, fr.at, "super", "super()")
		}
	}
	for _, c := range indexer.Elements(ctx, f.calls) {
		src := f.SrcID(c.Src)
		if c.Item < 0 {
			r := f.AddRef(c.Kind, src, c.At, f.Text(c.At), "this("+f.argList(c.args, c.ctx, 0)+")")
			c.Mark(r)
			continue
		}
		it := &f.Items[c.Item]
		var at span
		var target, expr, args string
		switch it.Kind {
		case kInvoke:
			at = it.Role[indexer.RoleName]
			target = oneLine(f.Str[it.Start:it.Role[indexer.RoleName].End])
			expr = f.invokeExpr(it, c.ctx, 0)
			args = f.argsText(it.Role[indexer.RoleArgs])
		case kCtorCall:
			at = it.Span
			target = f.Text(it.Role[indexer.RoleName])
			expr = target + "(" + f.argList(it.Role[indexer.RoleArgs], c.ctx, 0) + ")"
			if target != "this" && target != "super" {
				expr = indexer.ExprExpr
			}
			args = f.argsText(it.Role[indexer.RoleArgs])
		case kNew:
			at = it.Span
			target = "new " + oneLine(f.Text(it.Role[indexer.RoleType]))
			expr = f.newExpr(it, c.ctx, 0)
			args = f.argsText(it.Role[indexer.RoleArgs])
		case kMref:
			at = it.Span
			target = oneLine(f.Text(it.Span))
			expr = f.mrefExpr(it, c.ctx)
		}
		r := f.AddRef(c.Kind, src, at, target, expr)
		r.Args = args
		c.Mark(r)
	}
	f.typeUseRefs()
}

// argsText returns the arguments of a call as written, on one line.
func (f *fileState) argsText(s span) string {
	a := f.Text(s)
	if len(a) >= 2 && a[0] == '(' && a[len(a)-1] == ')' {
		a = a[1 : len(a)-1]
	}
	return oneLine(strings.TrimSpace(a))
}
