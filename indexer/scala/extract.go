package scala

import (
	"context"
	"fmt"
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
// range covers its annotations and modifiers, not its Scaladoc comment;
// its body hash covers its body only (the whole definition when it has
// none).

type span struct{ start, end uint32 }

func (s span) key() uint64 { return uint64(s.start)<<32 | uint64(s.end) }

// item is one match of the query: the range of its main capture and the
// ranges of its role captures.
type item struct {
	span
	kind kind
	has  uint16
	role [numRoles]span
}

func (it *item) hasRole(r int) bool { return it.has&(1<<r) != 0 }

// SetMain and SetRole let an indexer.Collector fill items.
func (it *item) SetMain(k kind, start, end uint32) { it.kind, it.span = k, span{start, end} }

func (it *item) SetRole(r int, start, end uint32) { it.role[r], it.has = span{start, end}, it.has|1<<r }

type extractor struct {
	scanner *indexer.Scanner
	query   *query
	col     indexer.Collector[kind, item, *item] // reused from file to file
	lines   []uint32
}

func (x *extractor) Close() { x.scanner.Close() }

func (x *extractor) Extract(ctx context.Context, file string, src []byte) (*indexer.Result, error) {
	caps, errAt, hasError, err := x.scanner.Scan(ctx, src)
	if err != nil {
		return nil, err
	}
	items := x.col.Collect(caps, x.query.captures)
	x.lines = srctext.LineStarts(x.lines[:0], src)
	f := &fileState{
		path: file, str: string(src), lines: x.lines, test: isTestFile(file),
		ids: indexer.IDs{Language: Name, File: file}, items: items,
		docs: map[uint32]string{}, exprs: map[uint64]int32{}, argc: map[uint32]int32{},
		fns: map[uint64]bool{}, binds: map[string][]*binding{},
		named: map[uint64]bool{}, quals: map[uint32]uint32{},
	}
	f.prepare(ctx)
	f.run(ctx)
	f.finish(ctx)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	res := &indexer.Result{Nodes: f.nodes, Refs: f.refs, IsTest: f.test}
	if hasError {
		line, col := srctext.Pos(f.lines, errAt)
		res.ParseError = fmt.Sprintf("syntax error at line %d column %d", line, col)
	}
	return res, nil
}

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

// binding is a local, a parameter or a pattern variable: visible from
// start to end.
type binding struct {
	start, end uint32
	expr       string
	value      span // a val without a declared type: its initializer
	state      uint8
}

// call is a reference whose Expr waits for every binding of the file.
type call struct {
	kind            string
	it              int32
	src             int32
	loop, try, cond bool
}

// fileState is the extraction of one file.
type fileState struct {
	path  string
	str   string
	lines []uint32
	test  bool
	ids   indexer.IDs
	items []item
	nodes []schemas.Node
	refs  []schemas.Ref

	stack []*frame
	docs  map[uint32]string // by the start of the definition they document
	exprs map[uint64]int32  // expression items by span
	argc  map[uint32]int32  // arguments by the start of the list
	fns   map[uint64]bool   // the functions of calls
	binds map[string][]*binding
	calls []call
	facts []span // the expressions of pending type and result facts
	sigs  []*frame
	tvars []tvar
	named map[uint64]bool   // type names with refs of their own, by span
	quals map[uint32]uint32 // qualified types: their start by their end
	field struct {          // the class parameter the walk is in, a field
		at   span
		node int32
	}
}

// tvar is a type parameter, visible in the definition that declares it.
type tvar struct {
	scope span
	name  string
}

func (f *fileState) text(s span) string { return f.str[s.start:s.end] }

// prepare indexes what the walk looks up by position: doc comments,
// expressions, argument counts and the functions of calls.
func (f *fileState) prepare(ctx context.Context) {
	var args []span
	for i := range f.items {
		if indexer.Stopped(ctx, i) {
			return
		}
		it := &f.items[i]
		switch it.kind {
		case kDoc:
			if t := f.text(it.span); strings.HasPrefix(t, "/**") && t != "/**/" {
				f.docs[uint32(skipSpace(f.str, int(it.end)))] = docComment(t)
			}
		case kCall, kField, kNew, kParen, kGeneric:
			f.exprs[it.key()] = int32(i)
			if it.kind == kCall || it.kind == kGeneric {
				f.fns[it.role[rObject].key()] = true
			}
		case kArgs:
			for len(args) > 0 && args[len(args)-1].end <= it.start {
				args = args[:len(args)-1]
			}
			args = append(args, it.span)
			f.argc[it.start] = 0
		case kArg:
			for len(args) > 0 && args[len(args)-1].end <= it.start {
				args = args[:len(args)-1]
			}
			if len(args) > 0 {
				f.argc[args[len(args)-1].start]++
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
	if !it.hasRole(rMods) {
		return 0
	}
	var flags uint32
	t := f.text(it.role[rMods])
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
	it := &f.items[i]
	var out []string
	header := it.start
	for j := i + 1; j < len(f.items) && f.items[j].start < limit; j++ {
		if a := &f.items[j]; a.kind == kAnnot && a.end <= it.end {
			out = append(out, oneLine(strings.TrimPrefix(f.text(a.span), "@")))
			header = max(header, a.end)
		}
	}
	return out, min(uint32(skipSpace(f.str, int(header))), limit)
}

func (f *fileState) push(fr frame) *frame {
	p := &fr
	f.stack = append(f.stack, p)
	return p
}

func (f *fileState) addNode(kind, name, qname string, parent int32, s span) int32 {
	parentID := indexer.FileID(f.path)
	if parent >= 0 {
		parentID = f.nodes[parent].ID
	}
	sl, sc := srctext.Pos(f.lines, s.start)
	el, ec := srctext.Pos(f.lines, s.end)
	f.nodes = append(f.nodes, schemas.Node{
		ID: f.ids.Next(kind, qname), Kind: kind, Name: name, QualifiedName: qname,
		Language: Name, File: f.path, StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec,
		StartByte: s.start, EndByte: s.end, ParentID: parentID, Doc: f.docs[s.start],
	})
	return int32(len(f.nodes) - 1)
}

func (f *fileState) addRef(kind string, src uint64, at span, target, expr string) *schemas.Ref {
	line, col := srctext.Pos(f.lines, at.start)
	f.refs = append(f.refs, schemas.Ref{
		File: f.path, Src: src, Kind: kind, Target: capText(target), Expr: expr, Line: line, Col: col,
	})
	return &f.refs[len(f.refs)-1]
}

func (f *fileState) srcID(n int32) uint64 {
	if n < 0 {
		return indexer.FileID(f.path)
	}
	return f.nodes[n].ID
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
	t := f.stack[len(f.stack)-1]
	switch {
	case t.kind == kPkg:
		return nil, true
	case (t.kind.isType() || t.kind == kPkgObj) && t.node >= 0 && t.body.start <= p && p < t.body.end:
		return t, true
	}
	return nil, false
}

// context returns the node code at the walk belongs to (-1 for the file).
func (f *fileState) context() int32 {
	for i := len(f.stack) - 1; i >= 0; i-- {
		if fr := f.stack[i]; fr.node >= 0 {
			return fr.node
		}
	}
	return -1
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

// regions reports whether code runs, within its definition, in a loop, a
// try block or a conditional branch.
func (f *fileState) regions() (loop, try, cond bool) {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch fr := f.stack[i]; fr.kind {
		case kLoop:
			loop = true
		case kTry:
			try = true
		case kCond:
			cond = true
		default:
			if fr.node >= 0 {
				return
			}
		}
	}
	return
}

func (f *fileState) bind(name string, start, end uint32, expr string) *binding {
	b := &binding{start: start, end: end, expr: expr, state: 2}
	f.binds[name] = append(f.binds[name], b)
	return b
}

// lookup returns the innermost binding of name visible at p.
func (f *fileState) lookup(name string, p uint32) *binding {
	var best *binding
	for _, b := range f.binds[name] {
		if b.start <= p && p < b.end && (best == nil || b.start >= best.start) {
			best = b
		}
	}
	return best
}

// run makes the nodes and refs of the file from the items of the query.
func (f *fileState) run(ctx context.Context) {
	for i := range f.items {
		if indexer.Stopped(ctx, i) {
			return
		}
		it := &f.items[i]
		for len(f.stack) > 0 && f.stack[len(f.stack)-1].end <= it.start {
			f.stack = f.stack[:len(f.stack)-1]
		}
		switch it.kind {
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
			// The first parameter list of a def, unless implicit: the
			// query cannot tell it from its type parameters.
			if t := f.top(); t != nil && t.kind == kDef && !t.hasParams && t.start <= it.start && it.end <= t.end {
				t.hasParams = true
				if p := skipSpace(f.str, int(it.start)+1); !strings.HasPrefix(f.str[p:], "implicit") && !strings.HasPrefix(f.str[p:], "using") {
					t.params = it.span
				}
			}
		case kParam:
			f.param(it)
		case kPVar:
			f.patternVar(it)
		case kScope:
			if t := f.top(); t != nil && t.body == it.span {
				continue // a template's or package's body
			}
			f.push(frame{kind: kScope, start: it.start, end: it.end, node: -1})
		case kLoop, kTry, kCond:
			f.push(frame{kind: it.kind, start: it.start, end: it.end, node: -1})
		case kCall:
			if j, ok := f.exprs[it.role[rObject].key()]; ok && f.items[j].kind == kCall {
				continue // a further argument list of a curried call
			}
			f.addCall(schemas.EdgeCalls, i)
		case kField:
			if !f.fns[it.key()] {
				f.addCall(schemas.EdgeCalls, i) // a selection: a call when it names a method
			}
		case kNew:
			f.addCall(schemas.EdgeInstantiates, i)
		case kImport:
			f.importRefs(it)
		case kTParam:
			if t := f.top(); t != nil {
				f.tvars = append(f.tvars, tvar{span{t.start, t.end}, f.text(it.span)})
			}
		case kTDef:
			f.named[it.key()] = true
		case kTAnnot:
			f.named[it.key()] = true
			f.addRef(schemas.EdgeReferences, f.srcID(f.context()), it.span, f.text(it.span), "@"+f.text(it.span))
		case kTQual:
			if _, ok := f.quals[it.end]; !ok {
				f.quals[it.end] = it.start
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
	if f.named[it.key()] {
		return
	}
	start := it.start
	if q, ok := f.quals[it.end]; ok {
		start = q
	}
	n := srctext.Squeeze(f.str[start:it.end])
	head, _, _ := strings.Cut(n, ".")
	for _, v := range f.tvars {
		if v.name == head && v.scope.start <= start && start < v.scope.end {
			return
		}
	}
	src := f.srcID(f.context())
	if f.field.at.start <= start && it.end <= f.field.at.end {
		src = f.nodes[f.field.node].ID
	}
	f.addRef(schemas.EdgeReferences, src, span{start, it.end}, n, n)
}

func (f *fileState) top() *frame {
	if len(f.stack) == 0 {
		return nil
	}
	return f.stack[len(f.stack)-1]
}

// packageClause opens a package: to the end of its body, or of the file
// (or enclosing package body) for a clause without one. Chained clauses
// nest.
func (f *fileState) packageClause(it *item) {
	name := srctext.Squeeze(f.text(it.role[rName]))
	if p := f.pkg(); p != "" {
		name = p + "." + name
	}
	end := uint32(len(f.str))
	if t := f.top(); t != nil {
		end = t.end
	}
	body := span{}
	if it.hasRole(rBody) {
		end, body = it.end, it.role[rBody]
	}
	f.addRef(schemas.RefPackage, indexer.FileID(f.path), it.span, f.text(it.role[rName]), name)
	f.push(frame{kind: kPkg, start: it.start, end: end, node: -1, pkg: name, body: body})
}

// template makes the node of a class, object, trait, enum or package object.
func (f *fileState) template(i int) {
	it := &f.items[i]
	o, ok := f.owner(it.start)
	if !ok || !it.hasRole(rName) {
		f.push(frame{kind: it.kind, start: it.start, end: it.end, node: -1})
		return
	}
	name := f.text(it.role[rName])
	flags := f.modifiers(it)
	annots, header := f.annotations(i, it.role[rName].start)
	kind, qname, parent := schemas.KindClass, name, int32(-1)
	if o != nil {
		parent, qname = o.node, f.nodes[o.node].QualifiedName+"."+name
	} else if p := f.pkg(); p != "" {
		qname = p + "." + name
	}
	switch it.kind {
	case kPkgObj:
		kind, qname = schemas.KindModule, qname+".package"
	case kTrait:
		kind = schemas.KindTrait
	case kEnum:
		kind = schemas.KindEnum
	}
	n := f.addNode(kind, name, qname, parent, it.span)
	node := &f.nodes[n]
	node.Decorators = annots
	node.Visibility = visibility(flags)
	node.Exported = node.Visibility == schemas.Public && (o == nil || o.exported)
	node.IsStatic = it.kind == kObject || it.kind == kPkgObj || o != nil && o.object
	node.IsAbstract = flags&mAbstract != 0 || it.kind == kTrait
	node.IsTest = f.test && it.kind == kClass && isTestName(name)
	end, body := it.end, it.role[rBody]
	if it.hasRole(rBody) {
		end = body.start
		node.BodyHash = xxhash.Sum64String(f.text(body))
	} else {
		node.BodyHash = xxhash.Sum64String(f.text(it.span))
	}
	node.Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(f.str[header:end]), ":"))
	caseClass := it.kind == kClass && strings.Contains(f.str[header:it.role[rName].start], "case")
	fr := f.push(frame{kind: it.kind, start: it.start, end: it.end, node: n, body: body, params: it.role[rParams],
		object: it.kind == kObject || it.kind == kPkgObj, caseClass: caseClass, exported: node.Exported})
	if it.kind == kClass || it.kind == kEnum {
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
	t := f.top()
	if t == nil || !(t.kind.isType() || t.kind == kPkgObj) || t.node < 0 || it.start >= t.body.start && t.body.end > 0 {
		return
	}
	txt := strings.TrimSpace(strings.TrimPrefix(f.text(it.span), "extends"))
	for _, part := range parents(txt) {
		if name := typeName(part); name != "" {
			f.addRef(schemas.EdgeExtends, f.nodes[t.node].ID, it.span, oneLine(part), name)
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
	it := &f.items[i]
	if !it.hasRole(rName) {
		f.push(frame{kind: it.kind, start: it.start, end: it.end, node: -1})
		return
	}
	name := f.text(it.role[rName])
	o, ok := f.owner(it.start)
	if !ok {
		f.local(it, name)
		return
	}
	flags := f.modifiers(it)
	annots, header := f.annotations(i, it.role[rName].start)
	qname, parent := name, int32(-1)
	if o != nil {
		parent, qname = o.node, f.nodes[o.node].QualifiedName+"."+name
	} else if p := f.pkg(); p != "" {
		qname = p + "." + name
	}
	inType := o != nil && o.kind != kPkgObj
	static := o == nil || o.object
	var kind string
	switch it.kind {
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
	n := f.addNode(kind, name, qname, parent, it.span)
	node := &f.nodes[n]
	node.Decorators = annots
	node.Visibility = visibility(flags)
	node.Exported = node.Visibility == schemas.Public && (o == nil || o.exported)
	node.IsStatic = static || it.kind == kCase
	node.IsAbstract = it.kind == kDef && !it.hasRole(rBody) || (it.kind == kVal || it.kind == kVar) && !it.hasRole(rValue)
	for _, a := range annots {
		if a == "Test" || strings.HasPrefix(a, "Test(") || strings.HasSuffix(a, ".Test") {
			node.IsTest = true
		}
	}
	sigEnd := it.role[rName].end
	for _, r := range []int{rParams, rType} {
		if it.hasRole(r) {
			sigEnd = max(sigEnd, it.role[r].end)
		}
	}
	if it.kind == kAlias || it.kind == kCase {
		sigEnd = it.end
	}
	if it.kind == kDef && it.hasRole(rBody) { // every parameter list
		sigEnd = max(sigEnd, lastBefore(f.str, it.start, it.role[rBody].start))
	} else if it.kind == kDef {
		sigEnd = it.end
	}
	node.Signature = oneLine(f.str[header:max(header, sigEnd)])
	switch {
	case it.hasRole(rBody):
		node.BodyHash = xxhash.Sum64String(f.text(it.role[rBody]))
	case it.hasRole(rValue):
		node.BodyHash = xxhash.Sum64String(f.text(it.role[rValue]))
	default:
		node.BodyHash = xxhash.Sum64String(f.text(it.span))
	}
	fr := f.push(frame{kind: it.kind, start: it.start, end: it.end, node: n, params: it.role[rParams]})
	switch it.kind {
	case kDef:
		f.sigs = append(f.sigs, fr)
		if t := typeName(f.text(it.role[rType])); it.hasRole(rType) && t != "" {
			f.addRef(schemas.RefResult, node.ID, it.role[rType], oneLine(f.text(it.role[rType])), "{"+t+"}")
		} else if !it.hasRole(rType) && it.hasRole(rBody) {
			f.pendingFact(schemas.RefResult, n, it.role[rBody])
		}
	case kVal, kVar, kGiven, kAlias:
		if t := typeName(f.text(it.role[rType])); it.hasRole(rType) && t != "" {
			f.addRef(schemas.RefType, node.ID, it.role[rType], oneLine(f.text(it.role[rType])), "{"+t+"}")
		} else if !it.hasRole(rType) && it.hasRole(rValue) {
			f.pendingFact(schemas.RefType, n, it.role[rValue])
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
	f.calls = append(f.calls, call{kind: kind, it: -1 - int32(len(f.facts)), src: n})
	f.facts = append(f.facts, value)
}

// local binds a definition inside a block: a local def, val or var.
func (f *fileState) local(it *item, name string) {
	sc := f.scope()
	f.push(frame{kind: it.kind, start: it.start, end: it.end, node: -1, params: it.role[rParams]})
	if sc == nil {
		return
	}
	switch it.kind {
	case kDef:
		f.bind(name, sc.start, sc.end, exprLocal)
	case kVal, kVar, kGiven:
		if t := typeName(f.text(it.role[rType])); it.hasRole(rType) {
			e := exprLocal
			if t != "" {
				e = "{" + t + "}"
			}
			f.bind(name, it.start, sc.end, e)
		} else if it.hasRole(rValue) {
			b := f.bind(name, it.start, sc.end, "")
			b.value, b.state = it.role[rValue], 0
		} else {
			f.bind(name, it.start, sc.end, exprLocal)
		}
	}
}

// classParam makes the field of a class parameter.
func (f *fileState) classParam(it *item) {
	t := f.top()
	if t == nil || t.kind != kClass || t.node < 0 || !it.hasRole(rName) || t.params.start > it.start || it.end > t.params.end {
		if t != nil && t.kind == kCase { // an enum case's parameter
			return
		}
		return
	}
	name := f.text(it.role[rName])
	n := f.addNode(schemas.KindField, name, f.nodes[t.node].QualifiedName+"."+name, t.node, it.span)
	f.field.at, f.field.node = it.span, n
	node := &f.nodes[n]
	flags := f.modifiers(it)
	txt := f.text(it.span)
	member := t.caseClass || strings.HasPrefix(txt, "val ") || strings.HasPrefix(txt, "var ") ||
		strings.Contains(f.str[it.start:it.role[rName].start], "val") || strings.Contains(f.str[it.start:it.role[rName].start], "var")
	node.Visibility = visibility(flags)
	if !member {
		node.Visibility = schemas.Private
	}
	node.Exported = node.Visibility == schemas.Public && t.exported
	node.Signature = oneLine(txt)
	node.BodyHash = xxhash.Sum64String(txt)
	t.sig = append(t.sig, f.paramSig(it))
	if typ := typeName(f.text(it.role[rType])); it.hasRole(rType) && typ != "" {
		f.addRef(schemas.RefType, node.ID, it.role[rType], oneLine(f.text(it.role[rType])), "{"+typ+"}")
	}
}

// paramSig is a parameter as the params fact spells it.
func (f *fileState) paramSig(it *item) string {
	t := "?"
	if it.hasRole(rType) {
		t = srctext.Squeeze(stripGenerics(f.text(it.role[rType])))
	}
	switch {
	case strings.HasSuffix(t, "*"):
		return "..." + strings.TrimSuffix(t, "*")
	case strings.Contains(f.str[it.role[rName].end:it.end], "="):
		return t + "="
	}
	return t
}

// param binds a parameter of a def (or of a local def), and adds its type
// to the def's parameters when in the first list.
func (f *fileState) param(it *item) {
	t := f.top()
	if t == nil || t.kind != kDef || !it.hasRole(rName) {
		return
	}
	name := f.text(it.role[rName])
	e := exprLocal
	if typ := typeName(f.text(it.role[rType])); it.hasRole(rType) && typ != "" {
		e = "{" + typ + "}"
	}
	f.bind(name, t.start, t.end, e)
	if t.params.start <= it.start && it.end <= t.params.end {
		t.sig = append(t.sig, f.paramSig(it))
	}
}

// patternVar binds a variable of a pattern, a lambda parameter or a
// generator.
func (f *fileState) patternVar(it *item) {
	sc := f.scope()
	if sc == nil || !it.hasRole(rName) {
		return
	}
	name := f.text(it.role[rName])
	if name == "_" {
		return
	}
	e := exprLocal
	if typ := typeName(f.text(it.role[rType])); it.hasRole(rType) && typ != "" {
		e = "{" + typ + "}"
	}
	f.bind(name, it.start, sc.end, e)
}

func (f *fileState) addCall(kind string, i int) {
	it := &f.items[i]
	if kind == schemas.EdgeInstantiates && !it.hasRole(rType) {
		return
	}
	loop, try, cond := f.regions()
	f.calls = append(f.calls, call{kind: kind, it: int32(i), src: f.context(), loop: loop, try: try, cond: cond})
}

// importRefs records an import clause: one ref per imported name, Src the
// file.
func (f *fileState) importRefs(it *item) {
	t := strings.TrimSpace(f.text(it.span))
	t = strings.TrimSpace(strings.TrimPrefix(t, "import"))
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
			f.addRef(schemas.EdgeImports, indexer.FileID(f.path), it.span, oneLine(f.text(it.span)), clause)
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
			f.addRef(schemas.EdgeImports, indexer.FileID(f.path), it.span, oneLine(f.text(it.span)), e)
		}
	}
}

// splitTop splits an import's clauses at the commas outside braces.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) finish(ctx context.Context) {
	for _, fr := range f.sigs {
		n := &f.nodes[fr.node]
		f.addRef(schemas.RefParams, n.ID, span{n.StartByte, n.EndByte}, n.Name, strings.Join(fr.sig, ","))
	}
	for i := range f.calls {
		if indexer.Stopped(ctx, i) {
			return
		}
		c := &f.calls[i]
		if c.it < 0 {
			v := f.facts[-1-c.it]
			if e := f.expr(v, 0); !strings.HasPrefix(e, "?") {
				f.addRef(c.kind, f.nodes[c.src].ID, v, oneLine(f.text(v)), e)
			}
			continue
		}
		it := &f.items[c.it]
		var at span
		var target, expr, args string
		switch it.kind {
		case kCall:
			fn := it.role[rObject]
			if j, ok := f.exprs[fn.key()]; ok && f.items[j].kind == kGeneric {
				fn = f.items[j].role[rObject]
			}
			at = fn
			if j, ok := f.exprs[fn.key()]; ok && f.items[j].kind == kField {
				at = f.items[j].role[rName]
			}
			target = oneLine(f.text(fn))
			expr = f.expr(fn, 0)
			if !strings.HasPrefix(expr, "?") {
				expr += "(" + strconv.Itoa(int(f.argc[it.role[rArgs].start])) + ")"
			}
			args = argsText(f.text(it.role[rArgs]))
		case kField:
			at = it.role[rName]
			target = oneLine(f.text(it.span))
			expr = f.expr(it.span, 0)
		case kNew:
			at = it.span
			target = "new " + oneLine(f.text(it.role[rType]))
			n := 0
			if it.hasRole(rArgs) {
				n = int(f.argc[it.role[rArgs].start])
				args = argsText(f.text(it.role[rArgs]))
			}
			if p := skipSpace(f.str, int(max(it.role[rType].end, it.role[rArgs].end))); p < int(it.end) && f.str[p] == '{' {
				continue // an anonymous class
			}
			if t := typeName(f.text(it.role[rType])); t != "" {
				expr = "new " + t + "(" + strconv.Itoa(n) + ")"
			} else {
				expr = exprExpr
			}
		}
		r := f.addRef(c.kind, f.srcID(c.src), at, target, expr)
		r.Args, r.InLoop, r.InTry, r.Conditional = args, c.loop, c.try, c.cond
	}
}

// argsText returns the arguments of a call as written, on one line.
func argsText(a string) string {
	if len(a) >= 2 && a[0] == '(' && a[len(a)-1] == ')' {
		a = a[1 : len(a)-1]
	}
	return oneLine(strings.TrimSpace(a))
}
