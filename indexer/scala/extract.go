package scala

import (
	"context"
	"path"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Positions in rows: lines are 1-based, columns 1-based byte offsets in
// their line, byte offsets 0-based from the start of the file. A symbol's
// range covers its annotations and modifiers, not its Scaladoc comment;
// its body hash covers its body only (the whole definition when it has
// none).

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

// isTestFile reports whether file holds tests by sbt's and the test
// frameworks' conventions: under src/test/, or named *Spec.scala,
// *Test.scala, *Tests.scala or *Suite.scala.
func isTestFile(file string) bool {
	base := strings.TrimSuffix(strings.TrimSuffix(path.Base(file), ".scala"), ".sc")
	return strings.HasPrefix(file, "src/test/") || strings.Contains(file, "/src/test/") ||
		strings.HasSuffix(base, "Spec") || strings.HasSuffix(base, "Test") ||
		strings.HasSuffix(base, "Tests") || strings.HasSuffix(base, "Suite")
}

// isTestName reports whether a class of a test file is a test class.
func isTestName(name string) bool {
	return strings.HasSuffix(name, "Spec") || strings.HasSuffix(name, "Test") ||
		strings.HasSuffix(name, "Tests") || strings.HasSuffix(name, "Suite")
}

// frame is a range the walk is inside of: a package, a definition, a
// scope, a region.
type frame struct {
	kind       kind
	start, end uint32
	node       int32  // the node made for it, -1 if none
	pkg        string // packages: the package name
	body       span   // templates: the body
	params     span   // definitions and classes: the first parameter list
	sig        []string
	object     bool // an object or package object: its members are static
	caseClass  bool
	exported   bool
	hasParams  bool // defs: the first parameter list was seen
}

// End returns where fr's range ends.
func (fr *frame) End() uint32 { return fr.end }

// Kind returns fr's kind.
func (fr *frame) Kind() kind { return fr.kind }

// Node returns the node made for fr, -1 if none.
func (fr *frame) Node() int32 { return fr.node }

// binding is a local, a parameter or a pattern variable: visible from
// start to end.
type binding struct {
	start, end uint32
	expr       indexer.Lazy[string] // its Expr, worked out from value unless given
	value      span                 // a val without a declared type: its initializer
	generic    bool                 // its declared type has type arguments, which Expr drops
}

// Visible returns the range b is visible in.
func (b *binding) Visible() span { return span{Start: b.start, End: b.end} }

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]

	stack indexer.Stack[*frame]
	exprs map[uint64]int32  // expression items by span
	argv  map[uint32][]span // arguments by the start of the list
	views bool              // an implicit conversion may be in scope that rows do not show
	// opaque are the bodies of anonymous and local templates and of
	// templates with a self type: their parents' members, implicit ones
	// too, are in scope there, and rows do not tell which.
	opaque []span
	fns    map[uint64]bool // the functions of calls
	binds  indexer.Bindings[*binding]
	calls  []indexer.Pending
	sigs   []*frame
	tvars  indexer.TypeVars
	named  map[uint64]bool   // type names with refs of their own, by span
	quals  map[uint32]uint32 // qualified types: their start by their end
	field  struct {          // the class parameter the walk is in, a field
		at   span
		node int32
	}
}

// newFileState returns the extraction of f.
func newFileState(f indexer.File[kind]) indexer.Passes {
	return &fileState{
		File:  f,
		exprs: map[uint64]int32{}, argv: map[uint32][]span{},
		fns: map[uint64]bool{}, binds: indexer.Bindings[*binding]{},
		named: map[uint64]bool{}, quals: map[uint32]uint32{},
	}
}

// Prepare indexes what the walk looks up by position: doc comments,
// expressions, argument counts and the functions of calls.
func (f *fileState) Prepare(ctx context.Context) {
	var args []span
	f.views = strings.Contains(f.Str, "<%") || lambdaImplicit.MatchString(f.Str) || anonGiven.MatchString(f.Str)
	for i, it := range f.Each(ctx) {
		switch it.Kind {
		case kDoc:
			if t := f.Text(it.Span); strings.HasPrefix(t, "/**") && t != "/**/" {
				f.Docs[uint32(srctext.SkipSpace(f.Str, int(it.End)))] = docComment(t)
			}
		case kCall, kField, kNew, kParen, kGeneric:
			f.exprs[it.Key()] = int32(i)
			if it.Kind == kNew && f.anonymous(it) {
				f.opaque = append(f.opaque, it.Span)
			}
			if it.Kind == kCall || it.Kind == kGeneric {
				f.fns[it.Role[indexer.RoleObject].Key()] = true
			}
		case kArgs:
			args = indexer.Enclosing(args, it.Start)
			args = append(args, it.Span)
		case kArg:
			args = indexer.Enclosing(args, it.Start)
			if len(args) > 0 {
				l := args[len(args)-1].Start
				f.argv[l] = append(f.argv[l], it.Span)
			}
		}
	}
}

// Modifier flags.
const (
	mPrivate uint32 = 1 << iota
	mProtected
	mAbstract
	mImplicit
	mLazy
	mFinal
	mOverride
)

var modifierWords = map[string]uint32{
	"private": mPrivate, "protected": mProtected, "abstract": mAbstract, "implicit": mImplicit,
	"lazy": mLazy, "final": mFinal, "override": mOverride,
}

// modifiers reads the modifiers of a definition.
func (f *fileState) modifiers(it *item) uint32 {
	if !it.HasRole(rMods) {
		return 0
	}
	var flags uint32
	t := f.Text(it.Role[rMods])
	for i := 0; i < len(t); {
		if !isIdentStart(t[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(t) && isIdentByte(t[j]) {
			j++
		}
		flags |= modifierWords[t[i:j]]
		i = j
	}
	return flags
}

// annotations returns the annotations of the definition at i (the
// annotation items inside it that start before limit), as written
// without the @, and where the text after them starts.
func (f *fileState) annotations(i int, limit uint32) ([]string, uint32) {
	it := &f.Items[i]
	var out []string
	header := it.Start
	for j := i + 1; j < len(f.Items) && f.Items[j].Start < limit; j++ {
		if a := &f.Items[j]; a.Kind == kAnnot && a.End <= it.End {
			out = append(out, srctext.OneLine(strings.TrimPrefix(f.Text(a.Span), "@")))
			header = max(header, a.End)
		}
	}
	return out, min(uint32(srctext.SkipSpace(f.Str, int(header))), limit)
}

// pkg returns the package the walk is in.
func (f *fileState) pkg() string {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if f.stack[i].kind == kPkg {
			return f.stack[i].pkg
		}
	}
	return ""
}

// owner returns the frame a definition at p belongs to: a template whose
// body holds p directly, a package (nil, true), or a local scope (nil,
// false).
func (f *fileState) owner(p uint32) (*frame, bool) {
	if len(f.stack) == 0 {
		return nil, true
	}
	t := f.stack.Top()
	switch {
	case t.kind == kPkg:
		return nil, true
	case (t.kind.isType() || t.kind == kPkgObj) && t.node >= 0 && t.body.Start <= p && p < t.body.End:
		return t, true
	}
	return nil, false
}

// scope returns the innermost frame a local declared now is visible in.
func (f *fileState) scope() *frame {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; {
		case fr.kind == kScope || fr.kind.isDecl() || fr.kind == kPkg:
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

// Run makes the nodes and refs of the file from the items of the query.
func (f *fileState) Run(ctx context.Context) {
	for i, it := range f.Each(ctx) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kPkg:
			f.packageClause(it)
		case kPkgObj, kClass, kObject, kTrait, kEnum:
			f.template(i)
		case kSuper:
			f.superRef(it)
		case kDef, kVal, kVar, kGiven, kAlias, kCase:
			f.member(i)
		case kCParam:
			f.classParam(it)
		case kPList:
			f.views = f.views || f.implicitParams(it.Span)
			// The first parameter list of a def, unless implicit: the
			// query cannot tell it from its type parameters.
			if t := f.stack.Top(); t != nil && t.kind == kDef && !t.hasParams && t.start <= it.Start && it.End <= t.end {
				t.hasParams = true
				if p := srctext.SkipSpace(f.Str, int(it.Start)+1); !strings.HasPrefix(f.Str[p:], "implicit") && !strings.HasPrefix(f.Str[p:], "using") {
					t.params = it.Span
				}
			}
		case kParam:
			f.param(it)
		case kPVar:
			f.patternVar(it)
		case kScope:
			if t := f.stack.Top(); t != nil && t.body == it.Span {
				continue // a template's or package's body
			}
			f.stack.Push(&frame{kind: kScope, start: it.Start, end: it.End, node: -1})
		case kLoop, kTry, kCond:
			f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		case kCall:
			if j, ok := f.exprs[it.Role[indexer.RoleObject].Key()]; ok && f.Items[j].Kind == kCall {
				continue // a further argument list of a curried call
			}
			f.addCall(schemas.EdgeCalls, i)
		case kField:
			if !f.fns[it.Key()] {
				f.addCall(schemas.EdgeCalls, i) // a selection: a call when it names a method
			}
		case kNew:
			f.addCall(schemas.EdgeInstantiates, i)
		case kImport:
			f.importRefs(it)
		case kTParam:
			if t := f.stack.Top(); t != nil {
				f.tvars = append(f.tvars, indexer.TypeVar{Scope: span{Start: t.start, End: t.end}, Name: f.Text(it.Span)})
			}
		case kTDef:
			f.named[it.Key()] = true
		case kTAnnot:
			f.named[it.Key()] = true
			f.AddRef(schemas.EdgeReferences, f.SrcID(indexer.Context(f.stack)), it.Span, f.Text(it.Span), "@"+f.Text(it.Span))
		case kTQual:
			if _, ok := f.quals[it.End]; !ok {
				f.quals[it.End] = it.Start
			}
		case kTUse:
			f.typeUse(it)
		}
	}
}

// typeUse records a type name as a references ref reading it qualified
// as written: a declared type, a parameter's or result's, a type
// argument or bound, a typed or constructor pattern, a caught type. A
// type parameter in scope makes none.
func (f *fileState) typeUse(it *item) {
	if f.named[it.Key()] {
		return
	}
	start := it.Start
	if q, ok := f.quals[it.End]; ok {
		start = q
	}
	n := srctext.Squeeze(f.Str[start:it.End])
	if f.tvars.Heads(n, start) {
		return
	}
	src := f.SrcID(indexer.Context(f.stack))
	if f.field.at.Start <= start && it.End <= f.field.at.End {
		src = f.Nodes[f.field.node].ID
	}
	f.AddRef(schemas.EdgeReferences, src, span{Start: start, End: it.End}, n, n)
}

// packageClause opens a package: to the end of its body, or of the file
// (or enclosing package body) for a clause without one. Chained clauses
// nest.
func (f *fileState) packageClause(it *item) {
	name := srctext.Squeeze(f.Text(it.Role[indexer.RoleName]))
	if p := f.pkg(); p != "" {
		name = p + "." + name
	}
	end := uint32(len(f.Str))
	if t := f.stack.Top(); t != nil {
		end = t.end
	}
	body := span{}
	if it.HasRole(indexer.RoleBody) {
		end, body = it.End, it.Role[indexer.RoleBody]
	}
	f.AddRef(schemas.RefPackage, indexer.FileID(f.Path), it.Span, f.Text(it.Role[indexer.RoleName]), name)
	f.stack.Push(&frame{kind: kPkg, start: it.Start, end: end, node: -1, pkg: name, body: body})
}

// template makes the node of a class, object, trait, enum or package object.
func (f *fileState) template(i int) {
	it := &f.Items[i]
	o, ok := f.owner(it.Start)
	flags := f.modifiers(it)
	if !ok && flags&mImplicit != 0 {
		f.views = true // a local implicit class or object
	}
	if it.HasRole(indexer.RoleParams) {
		f.views = f.views || f.implicitClassParams(it.Role[indexer.RoleParams].Start, it.End, it.Role[indexer.RoleBody])
	}
	if !ok || !it.HasRole(indexer.RoleName) {
		f.opaque = append(f.opaque, it.Span)
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	if it.HasRole(indexer.RoleBody) && selfType.MatchString(f.Text(it.Role[indexer.RoleBody])) {
		f.opaque = append(f.opaque, it.Role[indexer.RoleBody])
	}
	name := f.Text(it.Role[indexer.RoleName])
	annots, header := f.annotations(i, it.Role[indexer.RoleName].Start)
	kind, qname, parent := schemas.KindClass, name, int32(-1)
	if o != nil {
		parent, qname = o.node, f.Nodes[o.node].QualifiedName+"."+name
	} else if p := f.pkg(); p != "" {
		qname = p + "." + name
	}
	switch it.Kind {
	case kPkgObj:
		kind, qname = schemas.KindModule, qname+".package"
	case kTrait:
		kind = schemas.KindTrait
	case kEnum:
		kind = schemas.KindEnum
	}
	n := f.AddNode(kind, name, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Decorators = annots
	node.Visibility = visibility(flags)
	node.Exported = node.Visibility == schemas.Public && (o == nil || o.exported)
	node.IsStatic = it.Kind == kObject || it.Kind == kPkgObj || o != nil && o.object
	node.IsAbstract = flags&mAbstract != 0 || it.Kind == kTrait
	node.IsTest = f.Test && it.Kind == kClass && isTestName(name)
	body := it.Role[indexer.RoleBody]
	var end uint32
	node.BodyHash, end = f.BodyHash(it, indexer.RoleBody)
	node.Signature = srctext.OneLine(strings.TrimSuffix(strings.TrimSpace(f.Str[header:end]), ":"))
	caseClass := it.Kind == kClass && strings.Contains(f.Str[header:it.Role[indexer.RoleName].Start], "case")
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, body: body, params: it.Role[indexer.RoleParams],
		object: it.Kind == kObject || it.Kind == kPkgObj, caseClass: caseClass, exported: node.Exported})
	if it.Kind == kClass || it.Kind == kEnum {
		f.sigs = append(f.sigs, fr) // the primary constructor's parameters
	}
}

func visibility(flags uint32) string {
	switch {
	case flags&mPrivate != 0:
		return schemas.Private
	case flags&mProtected != 0:
		return schemas.Protected
	}
	return schemas.Public
}

// superRef records a parent of a template: an extends ref, whatever the
// kinds; the resolver decides by the kind of the type it finds.
func (f *fileState) superRef(it *item) {
	t := f.stack.Top()
	if t == nil || !(t.kind.isType() || t.kind == kPkgObj) || t.node < 0 || it.Start >= t.body.Start && t.body.End > 0 {
		return
	}
	txt := strings.TrimSpace(strings.TrimPrefix(f.Text(it.Span), "extends"))
	for _, part := range parents(txt) {
		if name := typeName(part); name != "" {
			f.AddRef(schemas.EdgeExtends, f.Nodes[t.node].ID, it.Span, srctext.OneLine(part), name)
		}
	}
}

// parents splits the parents of an extends clause, A(x) with B[C] or
// A, B, and drops their arguments.
func parents(s string) []string {
	var out []string
	depth, start := 0, 0
	cut := func(i int) {
		p := strings.TrimSpace(s[start:i])
		if j := strings.IndexAny(p, "({"); j >= 0 {
			p = strings.TrimSpace(p[:j])
		}
		if p != "" {
			out = append(out, p)
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && c == ',':
			cut(i)
			start = i + 1
		case depth == 0 && strings.HasPrefix(s[i:], "with") && i > 0 && !isIdentByte(s[i-1]) && (i+4 == len(s) || !isIdentByte(s[i+4])):
			cut(i)
			start = i + 4
		}
	}
	cut(len(s))
	return out
}

// member makes the node of a def, val, var, given, type alias or enum
// case, or binds a local one.
func (f *fileState) member(i int) {
	it := &f.Items[i]
	if !it.HasRole(indexer.RoleName) {
		f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1})
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	o, ok := f.owner(it.Start)
	if !ok {
		f.local(it, name)
		return
	}
	flags := f.modifiers(it)
	annots, header := f.annotations(i, it.Role[indexer.RoleName].Start)
	qname, parent := name, int32(-1)
	if o != nil {
		parent, qname = o.node, f.Nodes[o.node].QualifiedName+"."+name
	} else if p := f.pkg(); p != "" {
		qname = p + "." + name
	}
	inType := o != nil && o.kind != kPkgObj
	static := o == nil || o.object
	var kind string
	switch it.Kind {
	case kDef:
		switch {
		case name == "this" && inType:
			kind = schemas.KindConstructor
		case inType:
			kind = schemas.KindMethod
		default:
			kind = schemas.KindFunction
		}
	case kVal, kGiven:
		kind = schemas.KindField
		if static {
			kind = schemas.KindConstant
		}
	case kVar:
		kind = schemas.KindField
		if o == nil {
			kind = schemas.KindVariable
		}
	case kAlias:
		kind = schemas.KindTypeAlias
	case kCase:
		kind = schemas.KindConstant
	}
	n := f.AddNode(kind, name, qname, parent, it.Span)
	node := &f.Nodes[n]
	node.Decorators = annots
	node.Visibility = visibility(flags)
	node.Exported = node.Visibility == schemas.Public && (o == nil || o.exported)
	node.IsStatic = static || it.Kind == kCase
	node.IsAbstract = it.Kind == kDef && !it.HasRole(indexer.RoleBody) || (it.Kind == kVal || it.Kind == kVar) && !it.HasRole(indexer.RoleValue)
	for _, a := range annots {
		if a == "Test" || strings.HasPrefix(a, "Test(") || strings.HasSuffix(a, ".Test") {
			node.IsTest = true
		}
	}
	sigEnd := it.Role[indexer.RoleName].End
	for _, r := range []int{indexer.RoleParams, indexer.RoleType} {
		if it.HasRole(r) {
			sigEnd = max(sigEnd, it.Role[r].End)
		}
	}
	if it.Kind == kAlias || it.Kind == kCase {
		sigEnd = it.End
	}
	if it.Kind == kDef && it.HasRole(indexer.RoleBody) { // every parameter list
		sigEnd = max(sigEnd, lastBefore(f.Str, it.Start, it.Role[indexer.RoleBody].Start))
	} else if it.Kind == kDef {
		sigEnd = it.End
	}
	node.Signature = srctext.OneLine(f.Str[header:max(header, sigEnd)])
	switch {
	case it.HasRole(indexer.RoleBody):
		node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleBody]))
	case it.HasRole(indexer.RoleValue):
		node.BodyHash = xxhash.Sum64String(f.Text(it.Role[indexer.RoleValue]))
	default:
		node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	}
	fr := f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: n, params: it.Role[indexer.RoleParams]})
	switch it.Kind {
	case kDef:
		f.sigs = append(f.sigs, fr)
		if t := typeName(f.Text(it.Role[indexer.RoleType])); it.HasRole(indexer.RoleType) && t != "" {
			f.AddRef(schemas.RefResult, node.ID, it.Role[indexer.RoleType], srctext.OneLine(f.Text(it.Role[indexer.RoleType])), "{"+t+"}")
		} else if !it.HasRole(indexer.RoleType) && it.HasRole(indexer.RoleBody) {
			f.pendingFact(schemas.RefResult, n, it.Role[indexer.RoleBody])
		}
	case kVal, kVar, kGiven, kAlias:
		if t := typeName(f.Text(it.Role[indexer.RoleType])); it.HasRole(indexer.RoleType) && t != "" {
			f.AddRef(schemas.RefType, node.ID, it.Role[indexer.RoleType], srctext.OneLine(f.Text(it.Role[indexer.RoleType])), "{"+t+"}")
		} else if !it.HasRole(indexer.RoleType) && it.HasRole(indexer.RoleValue) {
			f.pendingFact(schemas.RefType, n, it.Role[indexer.RoleValue])
		}
	}
}

// lastBefore returns the end of the text before the = of a definition's
// body at b: its last parameter list or result type.
func lastBefore(s string, start, b uint32) uint32 {
	e := int(b)
	for e > int(start) && (s[e-1] == ' ' || s[e-1] == '\t' || s[e-1] == '\n' || s[e-1] == '\r') {
		e--
	}
	if e > int(start) && s[e-1] == '=' {
		e--
	}
	for e > int(start) && (s[e-1] == ' ' || s[e-1] == '\t' || s[e-1] == '\n' || s[e-1] == '\r') {
		e--
	}
	return uint32(e)
}

// pendingFact records a type or result fact given by an expression: its
// Expr is computed once every binding is known.
func (f *fileState) pendingFact(kind string, n int32, value span) {
	f.calls = append(f.calls, indexer.Pending{Kind: kind, Item: -1, Src: n, At: value})
}

// local binds a definition inside a block: a local def, val or var.
func (f *fileState) local(it *item, name string) {
	sc := f.scope()
	f.stack.Push(&frame{kind: it.Kind, start: it.Start, end: it.End, node: -1, params: it.Role[indexer.RoleParams]})
	if f.modifiers(it)&mImplicit != 0 || it.Kind == kGiven {
		f.views = f.views || f.localConversion(it)
	}
	if sc == nil {
		return
	}
	switch it.Kind {
	case kDef:
		f.bind(name, sc.start, sc.end, indexer.ExprLocal)
	case kVal, kVar, kGiven:
		if t := typeName(f.Text(it.Role[indexer.RoleType])); it.HasRole(indexer.RoleType) {
			e := indexer.ExprLocal
			if t != "" {
				e = "{" + t + "}"
			}
			f.bind(name, it.Start, sc.end, e).generic = strings.Contains(f.Text(it.Role[indexer.RoleType]), "[")
		} else if it.HasRole(indexer.RoleValue) {
			b := f.bind(name, it.Start, sc.end, "")
			b.value, b.expr = it.Role[indexer.RoleValue], indexer.Lazy[string]{}
		} else {
			f.bind(name, it.Start, sc.end, indexer.ExprLocal)
		}
	}
}

// classParam makes the field of a class parameter.
func (f *fileState) classParam(it *item) {
	t := f.stack.Top()
	if t == nil || t.kind != kClass || t.node < 0 || !it.HasRole(indexer.RoleName) || t.params.Start > it.Start || it.End > t.params.End {
		if t != nil && t.kind == kCase { // an enum case's parameter
			return
		}
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	n := f.AddNode(schemas.KindField, name, f.Nodes[t.node].QualifiedName+"."+name, t.node, it.Span)
	f.field.at, f.field.node = it.Span, n
	node := &f.Nodes[n]
	flags := f.modifiers(it)
	txt := f.Text(it.Span)
	member := t.caseClass || strings.HasPrefix(txt, "val ") || strings.HasPrefix(txt, "var ") ||
		strings.Contains(f.Str[it.Start:it.Role[indexer.RoleName].Start], "val") || strings.Contains(f.Str[it.Start:it.Role[indexer.RoleName].Start], "var")
	node.Visibility = visibility(flags)
	if !member {
		node.Visibility = schemas.Private
	}
	node.Exported = node.Visibility == schemas.Public && t.exported
	node.Signature = srctext.OneLine(txt)
	node.BodyHash = xxhash.Sum64String(txt)
	t.sig = append(t.sig, f.paramSig(it))
	if typ := typeName(f.Text(it.Role[indexer.RoleType])); it.HasRole(indexer.RoleType) && typ != "" {
		f.AddRef(schemas.RefType, node.ID, it.Role[indexer.RoleType], srctext.OneLine(f.Text(it.Role[indexer.RoleType])), "{"+typ+"}")
	}
}

// paramSig is a parameter as the params fact spells it.
func (f *fileState) paramSig(it *item) string {
	t := "?"
	if it.HasRole(indexer.RoleType) {
		raw := srctext.Squeeze(f.Text(it.Role[indexer.RoleType]))
		t = srctext.Squeeze(stripGenerics(raw))
		elem := strings.TrimSuffix(t, "*")
		switch {
		case f.tvars.Heads(elem, it.Start) || strings.Contains(elem, ","):
			t = "?" + t[len(elem):] // a type parameter; a tuple or function type, whose commas would split it
		case typeName(elem) != "" && strings.Contains(raw, "["):
			t = elem + "[]" + t[len(elem):]
		}
	}
	rest := it.Role[indexer.RoleName].End // a default value follows the type, which may be => T
	if it.HasRole(indexer.RoleType) {
		rest = it.Role[indexer.RoleType].End
	}
	switch {
	case strings.HasSuffix(t, "*"):
		return "..." + strings.TrimSuffix(t, "*")
	case strings.Contains(f.Str[rest:it.End], "="):
		return t + "="
	}
	return t
}

// param binds a parameter of a def (or of a local def), and adds its type
// to the def's parameters when in the first list.
func (f *fileState) param(it *item) {
	t := f.stack.Top()
	if t == nil || t.kind != kDef || !it.HasRole(indexer.RoleName) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	e := indexer.ExprLocal
	if typ := typeName(f.Text(it.Role[indexer.RoleType])); it.HasRole(indexer.RoleType) && typ != "" {
		e = "{" + typ + "}"
	}
	f.bind(name, t.start, t.end, e).generic = strings.Contains(f.Text(it.Role[indexer.RoleType]), "[")
	if t.params.Start <= it.Start && it.End <= t.params.End {
		t.sig = append(t.sig, f.paramSig(it))
	}
}

// patternVar binds a variable of a pattern, a lambda parameter or a
// generator.
func (f *fileState) patternVar(it *item) {
	sc := f.scope()
	if sc == nil || !it.HasRole(indexer.RoleName) {
		return
	}
	name := f.Text(it.Role[indexer.RoleName])
	if name == "_" {
		return
	}
	e := indexer.ExprLocal
	if typ := typeName(f.Text(it.Role[indexer.RoleType])); it.HasRole(indexer.RoleType) && typ != "" {
		e = "{" + typ + "}"
	}
	f.bind(name, it.Start, sc.end, e).generic = strings.Contains(f.Text(it.Role[indexer.RoleType]), "[")
}

func (f *fileState) addCall(kind string, i int) {
	it := &f.Items[i]
	if kind == schemas.EdgeInstantiates && !it.HasRole(indexer.RoleType) {
		return
	}
	f.calls = append(f.calls, indexer.Pending{Kind: kind, Item: int32(i), Src: indexer.Context(f.stack), Region: indexer.Regions(f.stack, kLoop, kTry, kCond)})
}

// importRefs records an import clause: one ref per imported name, Src the
// file.
func (f *fileState) importRefs(it *item) {
	t := strings.TrimSpace(f.Text(it.Span))
	t = strings.TrimSpace(strings.TrimPrefix(t, "import"))
	if givenImport.MatchString(t) {
		f.views = true // Scala 3 given imports bring implicits
	}
	for _, clause := range splitTop(t) {
		alias := ""
		if a, b, ok := strings.Cut(clause, " as "); ok && !strings.Contains(clause, "{") {
			clause, alias = a, strings.TrimSpace(b)
		}
		clause = srctext.Squeeze(clause)
		brace := strings.IndexByte(clause, '{')
		if brace < 0 {
			if strings.HasSuffix(clause, ".*") {
				clause = strings.TrimSuffix(clause, "*") + "_"
			}
			if alias == "_" {
				continue
			}
			if alias != "" && isIdent(alias) {
				clause += " as " + alias
			}
			f.AddRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, srctext.OneLine(f.Text(it.Span)), clause)
			continue
		}
		prefix := clause[:brace]
		inner := strings.TrimSuffix(clause[brace+1:], "}")
		for _, sel := range strings.Split(inner, ",") {
			name, alias, _ := strings.Cut(sel, "=>")
			if name == "*" {
				name = "_"
			}
			if name == "" || alias == "_" || name == "given" {
				continue
			}
			e := prefix + name
			if alias != "" && alias != name {
				e += " as " + alias
			}
			f.AddRef(schemas.EdgeImports, indexer.FileID(f.Path), it.Span, srctext.OneLine(f.Text(it.Span)), e)
		}
	}
}

// splitTop splits an import's clauses, or a parameter list, at the
// commas outside brackets and string literals.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			depth--
		case '"':
			if j := strings.IndexByte(s[i+1:], '"'); j >= 0 {
				i += j + 1 // a default value's string: no escapes looked at
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

// Finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) Finish(ctx context.Context) {
	f.anonymousGivens()
	for _, fr := range f.sigs {
		n := &f.Nodes[fr.node]
		f.AddRef(schemas.RefParams, n.ID, span{Start: n.StartByte, End: n.EndByte}, n.Name, strings.Join(fr.sig, ","))
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
		var at span
		var target, expr, args string
		switch it.Kind {
		case kCall:
			fn := it.Role[indexer.RoleObject]
			if j, ok := f.exprs[fn.Key()]; ok && f.Items[j].Kind == kGeneric {
				fn = f.Items[j].Role[indexer.RoleObject]
			}
			at = fn
			if j, ok := f.exprs[fn.Key()]; ok && f.Items[j].Kind == kField {
				at = f.Items[j].Role[indexer.RoleName]
			}
			target = srctext.OneLine(f.Text(fn))
			expr = f.expr(fn, 0)
			if !strings.HasPrefix(expr, "?") {
				expr += f.argList(it.Role[indexer.RoleArgs], 0)
			}
			args = argsText(f.Text(it.Role[indexer.RoleArgs]))
		case kField:
			at = it.Role[indexer.RoleName]
			target = srctext.OneLine(f.Text(it.Span))
			expr = f.expr(it.Span, 0)
		case kNew:
			at = it.Span
			target = "new " + srctext.OneLine(f.Text(it.Role[indexer.RoleType]))
			list := "()"
			if it.HasRole(indexer.RoleArgs) {
				list = f.argList(it.Role[indexer.RoleArgs], 0)
				args = argsText(f.Text(it.Role[indexer.RoleArgs]))
			}
			if f.anonymous(it) {
				continue // an anonymous class
			}
			if t := typeName(f.Text(it.Role[indexer.RoleType])); t != "" {
				expr = "new " + t + list
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
func argsText(a string) string {
	if len(a) >= 2 && a[0] == '(' && a[len(a)-1] == ')' {
		a = a[1 : len(a)-1]
	}
	return srctext.OneLine(strings.TrimSpace(a))
}
