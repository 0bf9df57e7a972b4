package typescript

import (
	"bytes"
	"context"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Positions in rows: lines are 1-based, columns 1-based byte offsets in
// their line, byte offsets 0-based from the start of the file. A symbol's
// range covers its decorators; its body hash covers its body only.

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

type extractor struct {
	d    *dialect
	tree *indexer.Tree
	*indexer.MatchScanner[kind]
	configs  *configs
	packages *packages
	items    []item // reused from file to file
}

func (x *extractor) Extract(ctx context.Context, file string, src []byte) (*indexer.Result, error) {
	parsed := src
	if x.d.typed {
		parsed = blankVariance(src)
	}
	items, err := x.Scan(ctx, parsed)
	if err != nil {
		return nil, err
	}
	// The same node can match two patterns of one kind (a variable
	// declaration that is also exported); keep one item.
	x.items = slices.CompactFunc(items, func(a, b item) bool { return a.Span == b.Span && a.Kind == b.Kind && a.Role == b.Role })
	f := newFile(x, &indexer.Scanned[kind]{Path: file, Src: src, Items: x.items, Lines: srctext.LineStarts(nil, src)})
	f.run(ctx, x.items)
	f.packageFacts()
	return x.Result(ctx, f.Nodes, f.Refs, f.Test)
}

// isTestFile reports whether file holds tests by the usual conventions of
// Jest, Vitest, Mocha and the like: *.test.*, *.spec.*, or under __tests__.
func isTestFile(file string) bool {
	base := path.Base(file)
	return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(file, "__tests__/") || strings.Contains(file, "/__tests__/")
}

// moduleName returns the module path of file: its path without the
// extension; an index file names its folder.
func moduleName(file string) (name, base string) {
	p := file
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(p, ext) {
			p = strings.TrimSuffix(p, ext)
			break
		}
	}
	if p == file {
		p = strings.TrimSuffix(p, path.Ext(p))
	}
	if path.Base(p) == "index" && path.Dir(p) != "." {
		p = path.Dir(p)
	}
	return p, path.Base(p)
}

type scopeKind uint8

const (
	sModule scopeKind = iota
	sNamespace
	sClass // classes, interfaces and enums
	sFunction
)

type thisKind uint8

const (
	thisNone     thisKind = iota
	thisInstance          // an instance of the class
	thisClass             // the class itself (static members)
)

// scope is a scope of names, and the node that refs made in it come from.
type scope struct {
	kind    scopeKind
	parent  *scope
	sym     int32 // the symbol refs made here come from
	own     int32 // the node of the scope itself, -1 for an anonymous function or class
	symbol  *scope
	names   map[string]*binding
	vars    map[string]int32   // module and namespace: variable nodes; classes: fields
	decls   map[string][]int32 // module and namespace: every node declared, by name
	this    thisKind           // functions: what this is
	thisAs  string             // functions: the Expr head of the type of a this parameter, or of this in a method of a typed object (mappedThis)
	class   *scope             // functions: the class this belongs to
	thisObj string             // functions: what this is written as when it is no class's (see memberDef)
	thisArg uint32             // functions: where the function expression this is contextual in starts (see calleeThis), 0 for none
	statics []span             // classes: the values of static fields
}

// binding is everything a scope binds to one name.
type binding struct {
	flags  uint16
	def    int32  // bDef: the node declared, -1 when there are more
	param  uint32 // a parameter: where its name starts
	annot  string // "{T}" from an annotation
	bound  string // a type parameter: the Expr head of its constraint, "" for none
	decls  uint8  // declarations (let, const, var, a for-of loop), to 2
	values []valueRef
	value  indexer.Lazy[string] // the one value values give it, or its contextual type, worked out on first use
}

// valueRef is a value assigned to a name: an expression, or a property of
// one (destructuring).
type valueRef struct {
	at     span
	member string
	scope  *scope
	init   bool // a declaration's initializer, which declares the type
}

const (
	bDef       uint16 = 1 << iota // function, class, enum or namespace declaration: a node
	bImport                       // import or require
	bAssign                       // declared with or assigned a value
	bUnknown                      // bound to something we do not follow
	bParam                        // a parameter
	bType                         // an interface or type alias: a type only
	bTypeParam                    // a type parameter
	bHidden                       // declared in a nested anonymous function: not visible here
	bConst                        // declared const
	bAny                          // a parameter annotated any or unknown
	bBound                        // annotated with a type parameter: annot is its constraint's
)

func (f *fileState) bind(s *scope, name string) *binding {
	b := s.names[name]
	if b == nil {
		if s.names == nil {
			s.names = make(map[string]*binding)
		}
		b = &binding{}
		s.names[name] = b
	}
	return b
}

// lookupValue finds the binding of a value name seen from s. Class
// bodies bind no names code can see, and types are no values.
func lookupValue(s *scope, name string) (*binding, *scope) {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.kind == sClass {
			continue
		}
		if b := sc.names[name]; b != nil && b.flags&^(bType|bTypeParam) != 0 {
			return b, sc
		}
	}
	return nil, nil
}

// lookupType finds the binding of a type name seen from s.
func lookupType(s *scope, name string) (*binding, *scope) {
	for sc := s; sc != nil; sc = sc.parent {
		if b := sc.names[name]; b != nil && b.flags&(bDef|bImport|bType|bTypeParam) != 0 {
			return b, sc
		}
	}
	return nil, nil
}

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]
	x      *extractor
	module string

	stack       indexer.Stack[open]
	args        map[uint32]uint32     // start → end of every argument list
	targs       map[uint32]uint32     // start → end of every type argument list
	values      map[span]*item        // functions and classes by range, to name them from their binding
	named       map[span]int32        // functions, classes and objects a binding made a node for
	wraps       map[span]span         // a parenthesized or cast function or class: what it wraps
	thisFor     map[span]string       // functions assigned to a member: what this is in them
	members     []int32               // nodes memberDef made, exported with their owner
	protos      map[string]bool       // functions of the module memberDef gave prototype methods
	descriptors map[span]descriptor   // Object.defineProperty's descriptors, by range
	chains      map[span][]memberLeft // assignments to members whose value is an assignment
	aliases     [][2]int32            // a function assigned to two members: the first node, another
	handled     map[uint32]bool       // require and import() calls already made imports refs

	lastVar, lastField *item
	lastVarNode        int32
	lastDef            int32  // the last node made, for the decorators inside its range
	lastDefName        uint32 // where its name starts
	lastComment        span
	decorators         []span // decorators before the next member
	destructure        struct {
		pattern, value span
		spec           string // destructuring a require: its specifier
		top            bool
		exported       bool
		scope          *scope
	}

	calls     []call
	narrows   []narrow
	uses      typeUses
	facts     []fact
	annotated map[int32]bool  // nodes whose type an annotation declares
	declared  map[uint32]span // variable values by start: the annotation of their variable
	assigns   []assign
	exports   []localExport
}

// open is a range the walk is inside of.
type open struct {
	kind       kind
	start, end uint32
	body       uint32 // scopes: where the body starts
	scope      *scope
	decl       span        // export: the declaration exported; topdecl: "const", "let" or "var"
	owner      int32       // object: the node its functions belong to, -1 for none
	flag       bool        // export: default; object: module.exports; topdecl: exported
	this       string      // object: what this is in its functions
	define     *descriptor // object: the property Object.defineProperty defines with it
	source     string      // export, import: the module specifier
	value      span        // pair: the value
	result     span        // function, method: its return annotation
}

// narrow is a region where a check x instanceof C holds.
type narrow struct {
	region, class span
	name          string
	scope         *scope
}

type call struct {
	fn, args span
	scope    *scope
	kind     string
	indexer.Region
}

// fact is an expression whose Expr must wait for every binding of the file
// to be known.
type fact struct {
	kind   string
	src    int32
	at     span
	member string // a property of the expression at at
	prefix string // prepended to the Expr (export facts)
	scope  *scope
	target string
}

type assign struct {
	name  string
	value span
	scope *scope
}

type localExport struct {
	name, as string
	at       span
	scope    *scope
}

func newFile(x *extractor, s *indexer.Scanned[kind]) *fileState {
	f := &fileState{
		File: indexer.NewFile(s, x.d.name, isTestFile), x: x,
		args: make(map[uint32]uint32), targs: make(map[uint32]uint32), values: make(map[span]*item),
		named: make(map[span]int32), wraps: make(map[span]span), thisFor: make(map[span]string), chains: make(map[span][]memberLeft), protos: make(map[string]bool), descriptors: make(map[span]descriptor), handled: make(map[uint32]bool), lastDef: -1, lastVarNode: -1,
		annotated: make(map[int32]bool), declared: make(map[uint32]span),
	}
	f.module, _ = moduleName(s.Path)
	return f
}

func (f *fileState) top() *open { return &f.stack[len(f.stack)-1] }

// End returns where the range ends (see indexer.Frame).
func (o open) End() uint32 { return o.end }

func (f *fileState) newScope(k scopeKind, parent *scope, own int32) *scope {
	s := &scope{kind: k, parent: parent, own: own, sym: own}
	if own < 0 {
		s.sym = parent.sym
		s.symbol = parent.symbol
	} else {
		s.symbol = s
	}
	if k != sFunction {
		s.vars = make(map[string]int32)
		s.decls = make(map[string][]int32)
	}
	return s
}

// scopeAt returns the scope code at p runs in, and the function or class
// whose header (name, parameters, heritage) holds p, if any: a header
// runs in the enclosing scope, but parameters bind in the function.
func (f *fileState) scopeAt(p uint32) (*scope, *open) {
	var header *open
	for i := len(f.stack) - 1; i > 0; i-- {
		o := &f.stack[i]
		switch {
		case o.scope == nil:
		case p < o.body:
			if header == nil {
				header = o
			}
		default:
			return o.scope, header
		}
	}
	return f.stack[0].scope, header
}

// enclosing returns the innermost open range of kind k, stopping at
// scopes.
func (f *fileState) enclosing(k kind) *open {
	for i := len(f.stack) - 1; i > 0; i-- {
		o := &f.stack[i]
		if o.kind == k {
			return o
		}
		if o.scope != nil {
			return nil
		}
	}
	return nil
}

// region returns the Region of code at p within its own function: in a
// loop, a try body, or a conditional branch (if and else, either value of
// a ?: expression, a switch case, the right operand of && || ??).
func (f *fileState) region(p uint32) indexer.Region {
	var r indexer.Region
	for i := len(f.stack) - 1; i > 0; i-- {
		switch o := &f.stack[i]; o.kind {
		case kFunction, kLambda, kMethod, kClass:
			if p >= o.body {
				return r
			}
		default:
			indexer.InRegion(&r, o.kind, kLoop, kTry, kCond)
		}
	}
	return r
}

func (f *fileState) addNode(kind, name string, parent int32, s span) int32 {
	p := &f.Nodes[parent]
	qname := indexer.JoinName(p.QualifiedName, name)
	vis := ""
	switch p.Kind {
	case schemas.KindClass, schemas.KindInterface, schemas.KindEnum:
		vis = schemas.Public
	case schemas.KindModule, schemas.KindNamespace:
		vis = schemas.Private
	}
	n := f.AddNode(kind, name, qname, parent, s)
	f.Nodes[n].Visibility, f.Nodes[n].IsTest = vis, f.Test
	f.lastDef, f.lastDefName = n, s.Start
	return n
}

// declare records node n under name in a module or namespace scope.
func (f *fileState) declare(s *scope, name string, n int32) {
	if s.decls != nil && s.kind != sClass {
		s.decls[name] = append(s.decls[name], n)
	}
}

// setExported marks node n exported (and its members, when they are).
func (f *fileState) setExported(n int32) {
	node := &f.Nodes[n]
	node.Exported, node.Visibility = true, schemas.Public
	if p := f.parentOf(n); p > 0 && f.Nodes[p].Kind == schemas.KindNamespace && !f.Nodes[p].Exported {
		node.Exported = false
	}
}

func (f *fileState) parentOf(n int32) int32 {
	id := f.Nodes[n].ParentID
	for i := n - 1; i >= 0; i-- {
		if f.Nodes[i].ID == id {
			return i
		}
	}
	return -1
}

// run makes the nodes and refs of the file from the items of the query.
func (f *fileState) run(ctx context.Context, items []item) {
	var count [numKinds]int
	for _, it := range indexer.Elements(ctx, items) {
		count[it.Kind]++
		switch it.Kind {
		case kLambda, kClass:
			f.values[it.Span] = it
		case kWrap:
			f.wraps[it.Span] = it.Role[rInner]
		}
	}
	f.Nodes = make([]schemas.Node, 0, 1+count[kFunction]+count[kClass]+count[kMethod]+count[kField]+count[kVar]/4)
	f.Refs = make([]schemas.Ref, 0, count[kCall]+count[kNew]+count[kSpec]+count[kExtends])
	f.Nodes = append(f.Nodes, schemas.Node{}) // the module, below
	f.Nodes = f.Nodes[:0]
	_, base := moduleName(f.Path)
	end := uint32(len(f.Src))
	m := &f.Nodes[f.AddNode(schemas.KindModule, base, f.module, -1, span{Start: 0, End: end})]
	if end > 0 && f.Src[end-1] == '\n' {
		m.EndLine, m.EndCol = srctext.Pos(f.Lines, end-1)
	}
	m.Visibility, m.Exported, m.IsTest = schemas.Public, true, f.Test
	m.BodyHash = xxhash.Sum64(f.Src)
	f.stack = append(f.stack[:0], open{kind: numKinds, end: math.MaxUint32, scope: f.newScope(sModule, nil, 0)})

	for _, it := range indexer.Elements(ctx, items) {
		f.stack.Leave(it.Start)
		switch it.Kind {
		case kExport:
			f.export(it)
		case kTopDecl:
			o := open{kind: kTopDecl, start: it.Start, end: it.End}
			if e := f.enclosing(kExport); e != nil && e.decl.Start == it.Start {
				o.flag = true
			}
			w := identEnd(f.Src, int(it.Start), int(it.End))
			o.decl = span{Start: it.Start, End: uint32(w)}
			f.stack.Push(o)
		case kImport:
			f.importStmt(it)
		case kLoop, kTry, kCond:
			f.stack.Push(open{kind: it.Kind, start: it.Start, end: it.End})
		case kObject:
			f.object(it)
		case kPair:
			f.pair(it)
		case kClass, kInterface, kEnum, kNamespace:
			f.uses.decl = it.Role[rName]
			f.container(it)
		case kFunction, kLambda, kMethod:
			f.function(it)
		case kPattern:
			f.stack.Push(open{kind: kPattern, start: it.Start, end: it.End})
		case kVar:
			f.variable(it)
		case kField:
			f.field(it)
		case kParam:
			f.param(it)
		case kAlias:
			f.uses.decl = it.Role[rName]
			f.alias(it)
		case kMember:
			f.member(it)
		case kTypeParam:
			sc, header := f.scopeAt(it.Start)
			if header != nil {
				sc = header.scope
			}
			b := f.bind(sc, f.Text(it.Span))
			b.flags |= bTypeParam
			if it.HasRole(rType) {
				c := strings.TrimPrefix(strings.TrimSpace(f.Text(it.Role[rType])), "extends")
				if h := f.annotation(c, sc); strings.HasPrefix(h, "{") {
					b.bound = h
				}
			}
		case kExtends, kImplements:
			f.uses.taken = it.Start
			f.heritage(it)
		case kSpec:
			f.spec(it)
		case kNsExport:
			if e := f.enclosing(kExport); e != nil && e.source != "" {
				sc, _ := f.scopeAt(it.Start)
				name := f.Text(it.Span)
				f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, f.target(e, name), "export * as "+name+" from "+e.source)
			}
		case kDefImport:
			f.defaultImport(it)
		case kNsImport:
			if o := f.enclosing(kImport); o != nil && o.source != "" {
				sc, _ := f.scopeAt(it.Start)
				name := f.Text(it.Span)
				f.bind(sc, name).flags |= bImport
				f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, f.target(o, ""), "* as "+name+" from "+o.source)
			}
		case kShorthand:
			if o := f.top(); o.kind == kObject && o.flag {
				name := f.Text(it.Span)
				f.facts = append(f.facts, fact{kind: refExport, src: 0, at: it.Span, prefix: "exports." + name + "=", scope: f.stack[0].scope, target: name})
			}
		case kAssign:
			f.assign(it)
		case kBind:
			f.bindItem(it)
		case kDecorator:
			f.decorator(it)
		case kComment:
			f.lastComment = it.Span
		case kTypeArgs:
			f.targs[it.Start] = it.End
		case kCall, kNew:
			f.call(it)
		case kJSX:
			f.jsx(it)
		case kTUse:
			f.typeUse(it)
		case kInstanceof:
			f.reference(it.Span)
		case kNarrow:
			sc, _ := f.scopeAt(it.Start)
			f.narrows = append(f.narrows, narrow{region: it.Span, class: it.Role[rType], name: f.Text(it.Role[rName]), scope: sc})
		}
	}
	f.finish(ctx)
}

// target is the Target of an import ref: the specifier as written, and
// the name imported.
func (f *fileState) target(o *open, name string) string {
	t := ""
	if o.value.End > o.value.Start {
		t = f.Text(o.value)
		if v, ok := stringValue(t); ok {
			t = v
		}
	}
	if name != "" {
		t += ":" + name
	}
	return t
}

// modifiers returns the words before a declaration's name.
func (f *fileState) modifiers(start, name uint32) []string {
	if name < start {
		return nil
	}
	var out []string
	s := f.Str[start:name]
	for i := 0; i < len(s); {
		i = skipSpace(s, i, len(s))
		if i < len(s) && s[i] == '@' { // a decorator
			break
		}
		j := identEnd(s, i, len(s))
		if j == i {
			i++
			continue
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

func hasWord(words []string, w string) bool { return slices.Contains(words, w) }

// memberVisibility returns the visibility modifiers and name give a class
// member.
func memberVisibility(mods []string, name string) string {
	switch {
	case strings.HasPrefix(name, "#"), hasWord(mods, "private"):
		return schemas.Private
	case hasWord(mods, "protected"):
		return schemas.Protected
	}
	return schemas.Public
}

// doc returns the JSDoc comment ending just before start.
func (f *fileState) doc(start uint32) string {
	c := f.lastComment
	if c.End == 0 || c.End > start || !isBlank(f.Src[c.End:start]) {
		return ""
	}
	d, _ := jsdoc(f.Text(c))
	return d
}

// declStart returns where the declaration whose own range starts at s
// starts: at the export statement exporting it, or at its decorators.
func (f *fileState) declStart(s uint32) uint32 {
	if e := f.enclosing(kExport); e != nil && e.decl.Start == s {
		return e.start
	}
	if t := f.enclosing(kTopDecl); t != nil {
		if e := f.enclosing(kExport); e != nil && e.decl.Start == t.start {
			return e.start
		}
		return t.start
	}
	if len(f.decorators) > 0 && f.decorators[0].Start < s {
		return f.decorators[0].Start
	}
	return s
}

// takeDecorators returns the decorators written just before a member
// starting at s.
func (f *fileState) takeDecorators(s uint32) []string {
	var out []string
	for _, d := range f.decorators {
		if d.End <= s {
			out = append(out, oneLine(f.Str[d.Start+1:d.End]))
		}
	}
	f.decorators = f.decorators[:0]
	return out
}

func (f *fileState) decorator(it *item) {
	if _, header := f.scopeAt(it.Start); header != nil && (header.kind == kFunction || header.kind == kMethod || header.kind == kLambda) {
		return // a parameter's
	}
	if f.lastDef >= 0 {
		n := &f.Nodes[f.lastDef]
		if it.Start >= n.StartByte && it.End <= f.lastDefName {
			n.Decorators = append(n.Decorators, oneLine(f.Str[it.Start+1:it.End]))
			return
		}
	}
	f.decorators = append(f.decorators, it.Span)
	if name := strings.TrimSpace(f.Str[it.Start+1 : it.End]); isDotted(name) {
		f.reference(span{Start: it.Start + 1, End: it.End}) // @T: a class or function named, not called
	}
}

// exportedHere reports whether a declaration starting at s is exported by
// the export statement around it, and as the default.
func (f *fileState) exportedHere(s uint32) (exported, def bool) {
	if e := f.enclosing(kExport); e != nil && (e.decl.Start == s || e.value.Start == s && e.value.End > s) {
		return true, e.flag
	}
	if t := f.enclosing(kTopDecl); t != nil && t.flag {
		return true, false
	}
	return false, false
}

func (f *fileState) export(it *item) {
	o := open{kind: kExport, start: it.Start, end: it.End, owner: -1}
	if it.HasRole(rDecl) {
		o.decl = it.Role[rDecl]
	}
	p := skipSpace(f.Src, int(it.Start)+len("export"), int(it.End))
	for p < int(it.End) && f.Src[p] == '@' { // decorators before the declaration
		p = int(it.End)
	}
	o.flag = bytes.HasPrefix(f.Src[p:it.End], []byte("default")) && !isIdentByte(at(f.Src, p+7))
	sc, _ := f.scopeAt(it.Start)
	if it.HasRole(rSource) {
		o.value = it.Role[rSource]
		o.source = f.specifier(f.Text(it.Role[rSource]))
		if o.source != "" && p < int(it.End) && f.Src[p] == '*' {
			q := skipSpace(f.Src, p+1, int(it.End))
			if !bytes.HasPrefix(f.Src[q:it.End], []byte("as")) || isIdentByte(at(f.Src, q+2)) {
				f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Role[rSource], f.target(&o, ""), "export * from "+o.source)
			}
		}
	}
	if it.HasRole(rValue) {
		v := it.Role[rValue]
		o.value = v
		if _, isFn := f.values[v]; !isFn && f.Src[v.Start] != '{' {
			f.facts = append(f.facts, fact{kind: refExport, src: sc.sym, at: v, prefix: "default=", scope: sc, target: "default"})
		}
	}
	if p < int(it.End) && f.Src[p] == '=' { // TypeScript's export = x
		v := span{Start: uint32(skipSpace(f.Src, p+1, int(it.End))), End: it.End}
		for v.End > v.Start && (f.Src[v.End-1] == ';' || f.Src[v.End-1] == ' ' || f.Src[v.End-1] == '\n') {
			v.End--
		}
		f.facts = append(f.facts, fact{kind: refExport, src: sc.sym, at: v, prefix: "module.exports=", scope: sc, target: "export ="})
	}
	f.stack.Push(o)
}

func at(src []byte, p int) byte {
	if p < len(src) {
		return src[p]
	}
	return 0
}

// specifier returns the Expr form of a module specifier literal (see
// expr.go), "" when it is no plain string.
func (f *fileState) specifier(lit string) string {
	v, ok := stringValue(lit)
	if !ok || v == "" {
		return ""
	}
	dir := path.Dir(f.Path)
	switch {
	case v == "." || v == ".." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../"):
		if p, ok := treePath(path.Join(dir, v)); ok {
			return p
		}
		return "?outside"
	case strings.HasPrefix(v, "/") || strings.ContainsAny(v, " |"):
		return "?path"
	}
	if cfg := f.x.configs.forDir(dir); cfg != nil {
		return strings.Join(cfg.mapSpec(v), "|")
	}
	return v
}

func (f *fileState) importStmt(it *item) {
	o := open{kind: kImport, start: it.Start, end: it.End, owner: -1}
	if it.HasRole(rSource) {
		o.value = it.Role[rSource]
		o.source = f.specifier(f.Text(it.Role[rSource]))
		p := skipSpace(f.Src, int(it.Start)+len("import"), int(it.End))
		if o.source != "" && p == int(it.Role[rSource].Start) {
			sc, _ := f.scopeAt(it.Start)
			f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Role[rSource], f.target(&o, ""), "from "+o.source)
		}
	}
	f.stack.Push(o)
}

func (f *fileState) defaultImport(it *item) {
	sc, _ := f.scopeAt(it.Start)
	name := f.Text(it.Span)
	if it.HasRole(rSource) { // import x = require("m")
		src := f.specifier(f.Text(it.Role[rSource]))
		if src == "" {
			return
		}
		f.bind(sc, name).flags |= bImport
		o := open{value: it.Role[rSource]}
		f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, f.target(&o, ""), "= as "+name+" from "+src)
		return
	}
	o := f.enclosing(kImport)
	if o == nil || o.source == "" {
		return
	}
	f.bind(sc, name).flags |= bImport
	f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, f.target(o, "default"), "default as "+name+" from "+o.source)
}

func (f *fileState) spec(it *item) {
	name := f.Text(it.Role[rName])
	if v, ok := stringValue(name); ok {
		name = v // export { "a b" as c }: string names
	}
	as := name
	if it.HasRole(rAlias) {
		as = f.Text(it.Role[rAlias])
		if v, ok := stringValue(as); ok {
			as = v
		}
	}
	sc, _ := f.scopeAt(it.Start)
	what := name
	if as != name {
		what += " as " + as
	}
	if o := f.enclosing(kImport); o != nil {
		if o.source == "" {
			return
		}
		f.bind(sc, as).flags |= bImport
		f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, f.target(o, name), what+" from "+o.source)
		return
	}
	o := f.enclosing(kExport)
	switch {
	case o == nil:
	case o.value.End > o.value.Start && o.source == "":
	case o.source != "":
		f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, f.target(o, name), "export "+what+" from "+o.source)
	default:
		f.exports = append(f.exports, localExport{name: name, as: as, at: it.Role[rName], scope: sc})
	}
}

// container handles classes, interfaces, enums and namespaces.
func (f *fileState) container(it *item) {
	sc, _ := f.scopeAt(it.Start)
	body := it.End
	if it.HasRole(rBody) {
		body = it.Role[rBody].Start
	}
	name := ""
	if it.HasRole(rName) {
		name = f.Text(it.Role[rName])
	}
	exported, def := f.exportedHere(it.Start)
	own, fresh := int32(-1), false
	if n, ok := f.named[it.Span]; ok { // a class expression a binding named
		own = n
	} else if sc.kind != sClass && (it.Kind != kClass || name != "" || def) {
		if def && name == "" {
			name = "default"
		}
		kind := map[kind]string{kClass: schemas.KindClass, kInterface: schemas.KindInterface, kEnum: schemas.KindEnum, kNamespace: schemas.KindNamespace}[it.Kind]
		own, fresh = f.addNode(kind, name, sc.sym, it.Span), true
	}
	if own >= 0 {
		start := f.declStart(it.Start)
		n := &f.Nodes[own]
		if it.HasRole(rName) {
			f.lastDefName = it.Role[rName].Start
		}
		sigStart := f.afterDecorators(it.Start, body)
		n.Signature = oneLine(strings.TrimSpace(f.Str[sigStart:body]))
		if n.Doc == "" {
			n.Doc = f.doc(start)
		}
		n.Decorators = f.takeDecorators(it.Start)
		n.BodyHash = xxhash.Sum64String(f.Str[body:it.End])
		n.IsAbstract = hasWord(f.modifiers(sigStart, body), "abstract")
	}
	if fresh {
		bindName, _, _ := strings.Cut(name, ".")
		b := f.bind(sc, bindName)
		if it.Kind == kInterface {
			b.flags |= bType
		} else if bindName == name {
			b.define(own)
		} else {
			b.define(-1)
		}
		f.declare(sc, bindName, own)
		if exported || sc.kind == sNamespace && f.exportedInNamespace(it.Start) {
			f.setExported(own)
		}
		if def && name != "default" {
			f.facts = append(f.facts, fact{kind: refExport, src: sc.sym, prefix: "default=", target: "default", scope: sc, member: "\x00" + name})
		}
	}
	k := sClass
	if it.Kind == kNamespace {
		k = sNamespace
	}
	s := f.newScope(k, sc, own)
	f.stack.Push(open{kind: it.Kind, start: it.Start, end: it.End, body: body, scope: s})
}

// exportedInNamespace reports whether a declaration at s in a namespace
// body is exported from it.
func (f *fileState) exportedInNamespace(s uint32) bool {
	e := f.enclosing(kExport)
	return e != nil && e.decl.Start == s
}

func (f *fileState) function(it *item) {
	sc, _ := f.scopeAt(it.Start)
	body := it.End
	if it.HasRole(rBody) {
		body = it.Role[rBody].Start
	}
	name := ""
	if it.HasRole(rName) {
		name = f.Text(it.Role[rName])
		if v, ok := stringValue(name); ok && it.Kind == kMethod {
			name = v // "~validate"() {…} is the method ~validate
		}
	}
	own := int32(-1)
	kind := schemas.KindFunction
	var class *scope
	owner := int32(-1)
	if o := f.top(); it.Kind == kMethod && o.kind == kObject {
		owner = o.owner
	}
	switch {
	case it.Kind == kLambda:
		if n, ok := f.named[it.Span]; ok {
			own = n
		} else if e := f.enclosing(kExport); e != nil && e.value == it.Span && sc.kind == sModule {
			if name == "" {
				name = "default"
			}
			own = f.addNode(kind, name, sc.sym, it.Span)
			f.setExported(own)
			if name != "default" {
				f.facts = append(f.facts, fact{kind: refExport, src: sc.sym, prefix: "default=", target: "default", scope: sc, member: "\x00" + name})
			}
		}
	case it.Kind == kMethod && sc.kind == sClass && f.top().kind != kObject:
		class = sc
		if sc.own >= 0 {
			kind = schemas.KindMethod
			if name == "constructor" {
				kind = schemas.KindConstructor
			}
			own = f.addNode(kind, name, sc.own, it.Span)
		}
	case it.Kind == kMethod:
		if owner >= 0 {
			kind = schemas.KindMethod
			if f.Nodes[owner].Kind == schemas.KindModule {
				kind = schemas.KindFunction
			}
			own = f.addNode(kind, name, owner, it.Span)
			if f.Nodes[owner].Kind == schemas.KindModule || f.Nodes[owner].Exported {
				f.setExported(own)
			}
			if o := f.top(); o.this != "" {
				f.thisFor[it.Span] = o.this
				f.ownedBy(own, o.this)
			}
		}
	default: // a function declaration
		if sc.kind != sClass {
			start := f.declStart(it.Start)
			own = f.addNode(kind, name, sc.sym, it.Span)
			f.Nodes[own].Doc = f.doc(start)
			b := f.bind(sc, name)
			b.define(own)
			f.declare(sc, name, own)
			f.hide(sc, name)
			f.constructorThis(sc, name, it.Span)
			if exported, def := f.exportedHere(it.Start); exported || sc.kind == sNamespace && f.exportedInNamespace(it.Start) {
				f.setExported(own)
				if def {
					f.facts = append(f.facts, fact{kind: refExport, src: sc.sym, prefix: "default=", target: "default", scope: sc, member: "\x00" + name})
				}
			}
		}
	}
	header := f.Str[it.Start:body]
	var mods []string
	if it.HasRole(rName) {
		mods = f.modifiers(it.Start, it.Role[rName].Start)
	} else {
		mods = f.modifiers(it.Start, uint32(int(it.Start)+strings.IndexAny(header+"(", "(")))
	}
	if own >= 0 {
		n := &f.Nodes[own]
		if it.HasRole(rName) && it.Kind == kMethod {
			f.lastDefName = it.Role[rName].Start
		}
		sig := strings.TrimSpace(header)
		if it.Kind == kLambda && n.Name != "default" {
			sig = n.Name + " = " + sig
		}
		n.Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(sig, "{")), ";"))
		if n.Doc == "" {
			n.Doc = f.doc(f.declStart(it.Start))
		}
		if it.Kind == kMethod {
			n.Decorators = f.takeDecorators(it.Start)
			n.Visibility = memberVisibility(mods, name)
			n.IsStatic = hasWord(mods, "static")
			if class != nil && class.own >= 0 {
				c := &f.Nodes[class.own]
				n.Exported = c.Exported && n.Visibility != schemas.Private
				n.IsAbstract = hasWord(mods, "abstract") || c.Kind == schemas.KindInterface
				if hasWord(mods, "abstract") {
					c.IsAbstract = true
				}
			}
		}
		n.IsAsync = hasWord(mods, "async")
		n.BodyHash = xxhash.Sum64String(f.Str[body:it.End])
		if it.HasRole(rReturn) {
			rt := f.Text(it.Role[rReturn])
			f.facts = append(f.facts, fact{kind: schemas.RefResult, src: own, at: it.Role[rReturn], target: oneLine(strings.TrimPrefix(strings.TrimSpace(rt), ":")), prefix: "annotation"})
		}
	}
	fs := f.newScope(sFunction, sc, own)
	switch {
	case class != nil:
		fs.class, fs.this = class, thisInstance
		if hasWord(mods, "static") {
			fs.this = thisClass
		}
	case it.Kind == kLambda && !strings.HasPrefix(header, "function") && !strings.HasPrefix(header, "async function"):
		fs.class, fs.this = f.thisOf(sc, it.Start)
		fs.thisObj = sc.thisObj
		fs.thisAs = sc.thisAs
		fs.thisArg = sc.thisArg
	default:
		fs.thisObj = f.thisFor[it.Span]
		if o := f.top(); it.Kind == kMethod && o.kind == kObject && owner < 0 && isIdent(name) {
			fs.thisAs = f.mappedThis(o, name, sc)
		}
		if p := strings.IndexByte(header, '('); it.Kind == kLambda && own < 0 && p > 0 && !strings.Contains(header[:p], "<") {
			fs.thisArg = it.Start
		}
	}
	o := open{kind: it.Kind, start: it.Start, end: it.End, body: body, scope: fs}
	if it.HasRole(rReturn) {
		o.result = it.Role[rReturn]
	}
	f.stack.Push(o)
}

// mappedThis returns the Expr head of this in method name of the object
// literal o, when o is what a function returns and the function's result
// annotation is a generic type A<X> (X a class or interface): "this["
// A "," X "," name "]", which the resolver reads as an instance of X when
// A maps the methods of its type argument to functions with this of that
// type (see thisMapping). It is "" otherwise.
func (f *fileState) mappedThis(o *open, name string, sc *scope) string {
	before := strings.TrimRight(f.Str[:o.start], " \t\r\n")
	if !strings.HasSuffix(before, "return") || len(before) > 6 && isIdentByte(before[len(before)-7]) {
		return ""
	}
	var fn *open
	for i := len(f.stack) - 2; i > 0 && fn == nil; i-- {
		if f.stack[i].scope != nil {
			fn = &f.stack[i]
		}
	}
	if fn == nil || fn.result.End == 0 || fn.kind == kClass || fn.kind == kInterface {
		return ""
	}
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f.Text(fn.result)), ":"))
	open := strings.IndexByte(t, '<')
	if open < 0 || !strings.HasSuffix(t, ">") {
		return ""
	}
	a := strings.TrimSpace(t[:open])
	args := splitTop(t[open+1:len(t)-1], ',')
	if !isDotted(a) || len(args) != 1 {
		return ""
	}
	if b, _ := lookupType(sc, strings.Split(a, ".")[0]); b != nil && b.flags&bTypeParam != 0 {
		return ""
	}
	x := f.annotation(args[0], sc)
	if !strings.HasPrefix(x, "{") || !isDotted(x[1:len(x)-1]) {
		return ""
	}
	return "this[" + a + "," + x[1:len(x)-1] + "," + name + "]"
}

// thisOf returns what this is in code of scope sc at p.
func (f *fileState) thisOf(sc *scope, p uint32) (*scope, thisKind) {
	switch sc.kind {
	case sFunction:
		return sc.class, sc.this
	case sClass:
		if sc.own < 0 || f.Nodes[sc.own].Kind != schemas.KindClass {
			return nil, thisNone
		}
		for _, s := range sc.statics {
			if s.Start <= p && p < s.End {
				return sc, thisClass
			}
		}
		return sc, thisInstance
	}
	return nil, thisNone
}

// hide marks name as not visible from the symbol of s, when s is a nested
// anonymous function: the resolver sees a node declared there as a child
// of that symbol.
func (f *fileState) hide(s *scope, name string) {
	if s.own >= 0 || s.kind != sFunction || s.symbol == nil {
		return
	}
	b := f.bind(s.symbol, name)
	if b.flags&(bDef|bImport) == 0 {
		b.flags |= bHidden
	}
}

// variable handles one declarator: const x = v, let x: T, var {a, b} = v.
func (f *fileState) variable(it *item) {
	f.lastVar = it
	f.lastVarNode = -1
	sc, header := f.scopeAt(it.Start)
	if header != nil && header.scope != nil && header.scope.kind == sFunction {
		sc = header.scope
	}
	nameSpan := it.Role[rName]
	name := f.Text(nameSpan)
	t := f.enclosing(kTopDecl)
	top := t != nil && (sc.kind == sModule || sc.kind == sNamespace)
	value, hasValue := it.Role[rValue], it.HasRole(rValue)
	if !isIdent(name) {
		f.destructure.pattern, f.destructure.value, f.destructure.scope = nameSpan, span{}, sc
		f.destructure.spec, f.destructure.top, f.destructure.exported = "", top, top && t.flag
		if hasValue {
			f.destructure.value = value
			if s, ok := f.requireSpec(value); ok {
				f.destructure.spec = s
				f.handled[value.Start] = true
			}
		}
		return
	}
	b := f.bind(sc, name)
	if before := strings.TrimRight(f.Str[:it.Start], " \t\r\n"); strings.HasSuffix(before, "const") && (len(before) == 5 || !isIdentByte(before[len(before)-6])) {
		b.flags |= bConst
	}
	var annot string
	if it.HasRole(rType) {
		annot = f.annotation(f.Text(it.Role[rType]), sc)
		if annot == "" && sc.kind == sFunction {
			if annot = f.constrained(f.Text(it.Role[rType]), sc); annot != "" {
				b.flags |= bBound
			}
		}
		if hasValue {
			f.declared[value.Start] = it.Role[rType]
		}
	}
	if hasValue {
		if fn := f.unwrap(value); f.values[fn] != nil {
			v := f.values[fn]
			kind := schemas.KindFunction
			if v.Kind == kClass {
				kind = schemas.KindClass
			}
			n := f.addNode(kind, name, sc.sym, v.Span)
			start := f.declStart(it.Start)
			f.Nodes[n].Doc = f.doc(start)
			f.named[fn] = n
			if v.Kind == kLambda {
				f.constructorThis(sc, name, fn)
			}
			b.define(n)
			f.declare(sc, name, n)
			f.hide(sc, name)
			if top && t.flag || sc.kind == sNamespace && t != nil && f.exportedInNamespace(t.start) {
				f.setExported(n)
			}
			f.lastVarNode = n
			return
		}
		if s, ok := f.requireSpec(value); ok {
			f.handled[value.Start] = true
			b.flags |= bImport
			f.hide(sc, name)
			f.AddNodeRef(schemas.EdgeImports, sc.sym, nameSpan, f.requireTarget(value), "= as "+name+" from "+s)
			return
		}
	}
	b.flags |= bAssign
	b.declared()
	if annot != "" {
		b.annot = annot
	}
	if hasValue && !isNullish(f.Text(value)) {
		b.values = append(b.values, valueRef{at: value, scope: sc, init: true})
	}
	if !top {
		return
	}
	kind := schemas.KindVariable
	if f.Str[t.decl.Start:t.decl.End] == "const" {
		kind = schemas.KindConstant
	}
	stmt := span{Start: it.Start, End: it.End}
	n := f.varNode(sc, kind, name, stmt)
	if hasValue && sc.kind == sModule && isExportsObject(f.Text(value)) {
		f.facts = append(f.facts, fact{kind: refExport, src: 0, prefix: "module.exports=", target: "module.exports", scope: sc, member: "\x00" + name})
	}
	f.Nodes[n].Signature = oneLine(f.Str[t.decl.Start:t.decl.End] + " " + f.Nodes[n].Signature)
	f.lastVarNode = n
	if top && t.flag || sc.kind == sNamespace && f.exportedInNamespace(t.start) {
		f.setExported(n)
	}
	if hasValue && f.Src[value.Start] == '{' {
		f.named[value] = n
	}
	f.typeFact(n, annot, it.Role[rType], it.HasRole(rType), value, hasValue, sc)
}

func isNullish(s string) bool { return s == "null" || s == "undefined" || s == "void 0" }

// varNode returns the variable node of name in scope s (a module,
// namespace or class), made on first sight.
func (f *fileState) varNode(s *scope, kind, name string, stmt span) int32 {
	if n, ok := s.vars[name]; ok {
		return n
	}
	parent := s.sym
	if s.own >= 0 {
		parent = s.own
	}
	start := f.declStart(stmt.Start)
	n := f.addNode(kind, name, parent, stmt)
	f.Nodes[n].Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(f.Text(stmt)), ";"))
	f.Nodes[n].Doc = f.doc(start)
	f.Nodes[n].BodyHash = xxhash.Sum64String(f.Text(stmt))
	s.vars[name] = n
	f.declare(s, name, n)
	return n
}

// typeFact records what a declaration says of the type of node n: its
// annotation, or else its value.
func (f *fileState) typeFact(n int32, annot string, typ span, hasType bool, value span, hasValue bool, sc *scope) {
	switch {
	case hasType:
		f.annotated[n] = true
		if annot != "" {
			f.AddNodeRef(schemas.RefType, n, typ, oneLine(strings.TrimPrefix(strings.TrimSpace(f.Text(typ)), ":")), annot)
		}
	case hasValue && !isNullish(f.Text(value)):
		f.facts = append(f.facts, fact{kind: schemas.RefType, src: n, at: value, scope: sc, target: oneLine(f.Text(value))})
	}
}

// requireSpec returns the specifier of require("m") at s.
func (f *fileState) requireSpec(s span) (string, bool) {
	t := f.Text(s)
	if !strings.HasPrefix(t, "require") {
		return "", false
	}
	p := skipSpace(t, len("require"), len(t))
	if p >= len(t) || t[p] != '(' || t[len(t)-1] != ')' {
		return "", false
	}
	lit := strings.TrimSpace(t[p+1 : len(t)-1])
	spec := f.specifier(lit)
	return spec, spec != ""
}

func (f *fileState) requireTarget(s span) string {
	t := f.Text(s)
	p := strings.IndexByte(t, '(')
	v, _ := stringValue(strings.TrimSpace(t[p+1 : len(t)-1]))
	return v
}

// bindItem handles names bound by patterns, loops, catch clauses and
// plain JavaScript parameters.
func (f *fileState) bindItem(it *item) {
	sc, header := f.scopeAt(it.Start)
	if header != nil && header.scope != nil && header.scope.kind == sFunction {
		sc = header.scope
	}
	name := f.Text(it.Span)
	b := f.bind(sc, name)
	if it.HasRole(rValue) {
		f.loopVar(b, it, sc)
		return
	}
	d := &f.destructure
	if !d.pattern.Contains(it.Span) || d.scope != sc {
		b.flags |= bUnknown
		return
	}
	// Only the properties of the declarator's own pattern are followed.
	if p := f.enclosing(kPattern); p == nil || p.start != d.pattern.Start || f.Src[p.start] != '{' {
		b.flags |= bUnknown
		return
	}
	key := name
	if it.HasRole(rKey) {
		key = f.Text(it.Role[rKey])
		if !isIdent(key) {
			b.flags |= bUnknown
			return
		}
	}
	switch {
	case d.spec != "":
		b.flags |= bImport
		f.hide(sc, name)
		what := key
		if key != name {
			what += " as " + name
		}
		f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, f.requireTarget(d.value)+":"+key, what+" from "+d.spec)
	case d.value.End > d.value.Start:
		b.flags |= bAssign
		b.declared()
		b.values = append(b.values, valueRef{at: d.value, member: key, scope: sc, init: true})
		if d.top {
			n := f.varNode(sc, schemas.KindVariable, name, it.Span)
			if d.exported {
				f.setExported(n)
			}
			f.facts = append(f.facts, fact{kind: schemas.RefType, src: n, at: d.value, member: key, scope: sc, target: oneLine(f.Text(d.value)) + "." + key})
		}
	default:
		b.flags |= bUnknown
	}
}

// ownParam reports whether the parameter at p is the first of the
// parameter list of the function whose header starts at start, not one
// of a function type in an annotation there.
func (f *fileState) ownParam(start, p uint32) bool {
	before := strings.TrimRight(f.Str[start:p], " \t\r\n")
	return strings.HasSuffix(before, "(") && strings.Count(before, "(")-strings.Count(before, ")") == 1
}

// loopVar binds the variable of a for-in or for-of loop: in for (x of
// xs), an element of xs (the step ".[]"); in for await and for-in loops
// it is not followed.
func (f *fileState) loopVar(b *binding, it *item, sc *scope) {
	value := it.Role[rValue]
	open := strings.LastIndexByte(f.Str[:it.Start], '(')
	if strings.TrimSpace(f.Str[it.End:value.Start]) != "of" || open < 0 || strings.HasSuffix(strings.TrimSpace(f.Str[:open]), "await") {
		b.flags |= bUnknown
		return
	}
	b.flags |= bAssign
	b.declared()
	b.values = append(b.values, valueRef{at: value, member: "[]", scope: sc, init: true})
}

// param handles a TypeScript parameter; one with an accessibility or
// readonly modifier is also a field of the class.
func (f *fileState) param(it *item) {
	sc, header := f.scopeAt(it.Start)
	if header != nil && header.scope != nil && header.scope.kind == sFunction {
		sc = header.scope
	}
	name := f.Text(it.Role[rName])
	rest := strings.HasPrefix(name, "...")
	if rest {
		name = strings.TrimSpace(name[3:])
	}
	if name == "this" && sc.kind == sFunction && header != nil && f.ownParam(header.start, it.Start) {
		sc.thisArg = 0 // its own this parameter: not contextual
		if it.HasRole(rType) {
			sc.thisAs = f.annotation(f.Text(it.Role[rType]), sc)
		}
	}
	if !isIdent(name) || name == "this" {
		return
	}
	b := f.bind(sc, name)
	b.flags |= bParam
	b.param = it.Role[rName].Start
	annot := ""
	if it.HasRole(rType) {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f.Text(it.Role[rType])), ":"))
		if t == "any" || t == "unknown" {
			b.flags |= bAny
		}
		annot = f.annotation(t, sc)
		b.annot = annot
		if annot == "" && !rest {
			b.annot = f.constrained(t, sc)
		}
		if b.annot != annot {
			b.flags |= bBound
		}
	}
	if rest {
		return
	}
	mods := f.modifiers(f.afterDecorators(it.Start, it.Role[rName].Start), it.Role[rName].Start)
	if !hasWord(mods, "public") && !hasWord(mods, "private") && !hasWord(mods, "protected") && !hasWord(mods, "readonly") {
		return
	}
	class := sc.class
	if class == nil || class.own < 0 || sc.own < 0 || f.Nodes[sc.own].Kind != schemas.KindConstructor {
		return
	}
	n := f.varNode(class, schemas.KindField, name, it.Span)
	node := &f.Nodes[n]
	node.Visibility = memberVisibility(mods, name)
	node.Exported = f.Nodes[class.own].Exported && node.Visibility != schemas.Private
	f.typeFact(n, annot, it.Role[rType], it.HasRole(rType), span{}, false, sc)
}

func (f *fileState) field(it *item) {
	f.lastField = it
	sc, _ := f.scopeAt(it.Start)
	if sc.kind != sClass || sc.own < 0 {
		return
	}
	nameSpan := it.Role[rName]
	name := f.Text(nameSpan)
	if v, ok := stringValue(name); ok {
		name = v
	}
	if name == "" || strings.HasPrefix(name, "[") {
		return
	}
	mods := f.modifiers(it.Start, nameSpan.Start)
	value, hasValue := it.Role[rValue], it.HasRole(rValue)
	if hasWord(mods, "static") && hasValue {
		sc.statics = append(sc.statics, value)
	}
	var n int32
	if v, ok := f.values[f.unwrap(value)]; hasValue && ok && v.Kind == kLambda {
		n = f.addNode(schemas.KindMethod, name, sc.own, it.Span)
		f.named[v.Span] = n
	} else {
		n = f.varNode(sc, schemas.KindField, name, it.Span)
		c := &f.Nodes[sc.own]
		if c.Kind == schemas.KindEnum {
			f.Nodes[n].Kind = schemas.KindConstant
		}
		var annot string
		if it.HasRole(rType) {
			annot = f.annotation(f.Text(it.Role[rType]), sc)
		}
		f.typeFact(n, annot, it.Role[rType], it.HasRole(rType), value, hasValue, sc)
	}
	node := &f.Nodes[n]
	node.Decorators = append(f.takeDecorators(it.Start), node.Decorators...)
	node.Visibility = memberVisibility(mods, name)
	node.IsStatic = hasWord(mods, "static")
	node.IsAbstract = hasWord(mods, "abstract")
	node.Exported = f.Nodes[sc.own].Exported && node.Visibility != schemas.Private
	f.lastDefName = nameSpan.Start
	node.Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(f.Str[f.afterDecorators(it.Start, nameSpan.Start):it.End]), ";"))
	if node.Doc == "" {
		node.Doc = f.doc(it.Start)
	}
}

// afterDecorators returns where the code from s on starts once the
// decorators heading it (before limit) are skipped.
func (f *fileState) afterDecorators(s, limit uint32) uint32 {
	p, end := int(s), int(limit)
	for p < end && f.Src[p] == '@' {
		q := p + 1
		for {
			e := identEnd(f.Src, q, end)
			if e == q {
				break
			}
			q = skipSpace(f.Src, e, end)
			if q < end && f.Src[q] == '.' {
				q = skipSpace(f.Src, q+1, end)
				continue
			}
			break
		}
		if q < end && f.Src[q] == '(' {
			if c := matchingClose(f.Src, q, end); c > 0 {
				q = c
			}
		}
		if q == p+1 {
			break
		}
		p = skipSpace(f.Src, q, end)
	}
	return uint32(p)
}

func (f *fileState) alias(it *item) {
	sc, _ := f.scopeAt(it.Start)
	name := f.Text(it.Role[rName])
	f.bind(sc, name).flags |= bType
	if sc.kind == sClass {
		return
	}
	start := f.declStart(it.Start)
	n := f.addNode(schemas.KindTypeAlias, name, sc.sym, it.Span)
	node := &f.Nodes[n]
	node.Signature = oneLine(strings.TrimSuffix(strings.TrimSpace(f.Text(it.Span)), ";"))
	node.Doc = f.doc(start)
	node.BodyHash = xxhash.Sum64String(f.Text(it.Span))
	f.declare(sc, name, n)
	if exported, _ := f.exportedHere(it.Start); exported || sc.kind == sNamespace && f.exportedInNamespace(it.Start) {
		f.setExported(n)
	}
	if a := f.annotation(f.Text(it.Role[rValue]), sc); strings.HasPrefix(a, "{") {
		f.AddNodeRef(schemas.RefType, n, it.Role[rValue], oneLine(f.Text(it.Role[rValue])), a)
	}
}

// member handles an enum member.
func (f *fileState) member(it *item) {
	sc, _ := f.scopeAt(it.Start)
	if sc.kind != sClass || sc.own < 0 || f.Nodes[sc.own].Kind != schemas.KindEnum {
		return
	}
	name := f.Text(it.Span)
	if v, ok := stringValue(name); ok {
		name = v
	}
	n := f.varNode(sc, schemas.KindConstant, name, it.Span)
	f.Nodes[n].Exported = f.Nodes[sc.own].Exported
}

// heritage handles extends and implements clauses: refs from the class or
// interface, evaluated in the scope around it.
func (f *fileState) heritage(it *item) {
	var o *open
	for i := len(f.stack) - 1; i > 0; i-- {
		if k := f.stack[i].kind; k == kClass || k == kInterface {
			o = &f.stack[i]
			break
		}
	}
	if o == nil || it.Start >= o.body || o.scope.own < 0 {
		return
	}
	kind := schemas.EdgeExtends
	if it.Kind == kImplements {
		kind = schemas.EdgeImplements
	}
	f.facts = append(f.facts, fact{kind: kind, src: o.scope.own, at: it.Span, scope: o.scope.parent, target: oneLine(f.Text(it.Span)), prefix: "heritage"})
}

func (f *fileState) object(it *item) {
	o := open{kind: kObject, start: it.Start, end: it.End, owner: -1}
	if n, ok := f.named[it.Span]; ok {
		o.owner = n
		o.flag = f.Nodes[n].Kind == schemas.KindModule
		o.this = f.objectThis(it.Span, n)
	}
	if d, ok := f.descriptors[it.Span]; ok {
		o.define = &d
	}
	f.stack.Push(o)
}

func (f *fileState) pair(it *item) {
	o := open{kind: kPair, start: it.Start, end: it.End, owner: -1}
	if !it.HasRole(rValue) {
		f.stack.Push(o)
		return
	}
	key := f.Text(it.Role[rKey])
	if v, ok := stringValue(key); ok {
		key = v
	}
	value := it.Role[rValue]
	if obj := f.top(); obj.kind == kObject && obj.define != nil && key == "value" {
		f.describe(obj.define, it.Start, value)
	}
	if obj := f.top(); obj.kind == kObject && obj.owner >= 0 && isIdent(key) {
		if fn := f.unwrap(value); f.values[fn] != nil {
			kind := schemas.KindMethod
			if obj.flag {
				kind = schemas.KindFunction
			}
			n := f.addNode(kind, key, obj.owner, fn)
			f.Nodes[n].Doc = f.doc(it.Start)
			f.named[fn] = n
			if obj.this != "" {
				f.thisFor[fn] = obj.this
				f.ownedBy(n, obj.this)
			}
			if obj.flag || f.Nodes[obj.owner].Exported {
				f.setExported(n)
			}
		} else if obj.flag {
			f.facts = append(f.facts, fact{kind: refExport, src: 0, at: value, prefix: "exports." + key + "=", scope: f.stack[0].scope, target: key})
		}
	}
	f.stack.Push(o)
}

// assign handles x = v (a variable's value), this.x = v (a field),
// module.exports = v and exports.x = v; the item is the left side.
func (f *fileState) assign(it *item) {
	sc, _ := f.scopeAt(it.Start)
	left := f.Text(it.Span)
	value := it.Role[rValue]
	if isIdent(left) {
		f.assigns = append(f.assigns, assign{name: left, value: value, scope: sc})
		return
	}
	whole := span{Start: it.Start, End: value.End}
	value = f.unwrap(value)
	if f.memberDef(sc, it.Start, left, whole, value) {
		return
	}
	obj, prop, ok := memberTarget(left)
	if !ok {
		return
	}
	switch {
	case obj == "this":
		class, this := f.thisOf(sc, it.Start)
		if this != thisInstance || class == nil || class.own < 0 || f.Nodes[class.own].Kind != schemas.KindClass {
			return
		}
		if strings.HasPrefix(strings.Join(strings.Fields(f.Text(value)), ""), "this."+prop+".bind(") {
			return // this.m = this.m.bind(this): the method m, bound; no field of its own
		}
		_, exists := class.vars[prop]
		if !exists && f.x.d.typed {
			return // TypeScript declares a class's fields: this one is inherited
		}
		n := f.varNode(class, schemas.KindField, prop, span{Start: it.Start, End: value.End})
		if !exists {
			node := &f.Nodes[n]
			node.Visibility = memberVisibility(nil, prop)
			node.Exported = f.Nodes[class.own].Exported && node.Visibility != schemas.Private
		}
		if !isNullish(f.Text(value)) {
			f.facts = append(f.facts, fact{kind: schemas.RefType, src: n, at: value, scope: sc, target: oneLine(f.Text(value))})
		}
	case obj == "module" && prop == "exports":
		if !f.moduleLevel(sc) {
			return
		}
		if v, ok := f.values[value]; ok && v.Span == value {
			name := "default"
			if v.HasRole(rName) {
				name = f.Text(v.Role[rName])
			}
			kind := schemas.KindFunction
			if v.Kind == kClass {
				kind = schemas.KindClass
			}
			n := f.addNode(kind, name, 0, value)
			f.Nodes[n].Doc = f.doc(f.stmtStart(it.Start))
			f.named[value] = n
			f.setExported(n)
			f.facts = append(f.facts, fact{kind: refExport, src: 0, prefix: "module.exports=", target: "module.exports", scope: sc, member: "\x00" + name})
			return
		}
		if f.Src[value.Start] == '{' {
			f.named[value] = 0
			return
		}
		if s, ok := f.requireSpec(value); ok {
			f.handled[value.Start] = true
			f.AddNodeRef(schemas.EdgeImports, 0, value, f.requireTarget(value), "export * from "+s)
			f.facts = append(f.facts, fact{kind: refExport, src: 0, prefix: "module.exports=", target: "module.exports", scope: sc, member: "\x00require(" + s + ")"})
			return
		}
		f.facts = append(f.facts, fact{kind: refExport, src: 0, at: value, prefix: "module.exports=", scope: sc, target: "module.exports"})
	case obj == "exports" || obj == "module.exports":
		if !f.moduleLevel(sc) {
			return
		}
		if v, ok := f.values[value]; ok && v.Span == value {
			kind := schemas.KindFunction
			if v.Kind == kClass {
				kind = schemas.KindClass
			}
			n := f.addNode(kind, prop, 0, value)
			f.Nodes[n].Doc = f.doc(f.stmtStart(it.Start))
			f.named[value] = n
			f.setExported(n)
			return
		}
		f.facts = append(f.facts, fact{kind: refExport, src: 0, at: value, prefix: "exports." + prop + "=", scope: sc, target: prop})
	}
}

// moduleLevel reports whether code in sc runs when the module loads.
func (f *fileState) moduleLevel(sc *scope) bool { return sc.kind == sModule }

// stmtStart returns where the statement around an expression at s starts,
// for its doc comment: s itself (expression statements start there).
func (f *fileState) stmtStart(s uint32) uint32 { return s }

// memberTarget splits `obj.name` (obj possibly `module.exports`).
func memberTarget(b string) (obj, name string, ok bool) {
	i := strings.LastIndexByte(b, '.')
	if i <= 0 {
		return "", "", false
	}
	obj, name = strings.TrimSpace(b[:i]), strings.TrimSpace(b[i+1:])
	if !isIdent(name) && !(strings.HasPrefix(name, "#") && isIdent(name[1:])) {
		return "", "", false
	}
	if obj != "this" && obj != "exports" && obj != "module" && obj != "module.exports" {
		return "", "", false
	}
	return obj, name, true
}

func (f *fileState) call(it *item) {
	fn := it.Span
	var args span
	if it.HasRole(rArgs) {
		args = it.Role[rArgs]
		f.args[args.Start] = args.End
	}
	sc, _ := f.scopeAt(it.Start)
	kind := schemas.EdgeCalls
	if it.Kind == kNew {
		kind = schemas.EdgeInstantiates
	} else if t := f.Text(fn); t == "require" || t == "import" {
		if args.End > args.Start+2 && !f.handled[fn.Start] {
			if s := f.specifier(strings.TrimSpace(f.Str[args.Start+1 : args.End-1])); s != "" {
				r := f.AddNodeRef(schemas.EdgeImports, sc.sym, args, f.requireTarget(span{Start: fn.Start, End: args.End}), "from "+s)
				r.InTry = false
			}
		}
		return
	}
	f.objectCall(sc, fn, args)
	f.calls = append(f.calls, call{fn: fn, args: args, scope: sc, kind: kind, Region: f.region(it.Start)})
}

// jsx handles an element naming a component (a capitalized or dotted
// name): a references ref.
func (f *fileState) jsx(it *item) {
	name := f.Text(it.Span)
	if name == "" || !(name[0] >= 'A' && name[0] <= 'Z' || strings.Contains(name, ".")) || !isDotted(name) {
		return
	}
	f.reference(it.Span)
}

// reference records a references ref to the value the expression at s
// names: a class or a function.
func (f *fileState) reference(s span) {
	sc, _ := f.scopeAt(s.Start)
	f.calls = append(f.calls, call{fn: s, scope: sc, kind: schemas.EdgeReferences})
}

// callPos returns where a call is reported: at the name of the method for
// obj.method(), else at the start of the callee.
func (f *fileState) callPos(fn span) span {
	e := int(fn.End)
	s := e
	for s > int(fn.Start) && isIdentByte(f.Src[s-1]) {
		s--
	}
	d := s
	if d > int(fn.Start) && f.Src[d-1] == '#' {
		d--
		s--
	}
	for d > int(fn.Start) && (f.Src[d-1] == ' ' || f.Src[d-1] == '\t' || f.Src[d-1] == '\n' || f.Src[d-1] == '\r') {
		d--
	}
	if s < e && d > int(fn.Start) && f.Src[d-1] == '.' {
		return span{Start: uint32(s), End: fn.End}
	}
	return fn
}

// finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) finish(ctx context.Context) {
	for _, a := range f.assigns {
		b, bs := lookupValue(a.scope, a.name)
		if b == nil {
			continue
		}
		b.flags |= bAssign
		if isNullish(f.Text(a.value)) {
			continue
		}
		b.values = append(b.values, valueRef{at: a.value, scope: a.scope})
		if n, ok := bs.vars[a.name]; ok && bs.kind != sClass {
			f.facts = append(f.facts, fact{kind: schemas.RefType, src: n, at: a.value, scope: a.scope, target: oneLine(f.Text(a.value))})
		}
	}
	for _, e := range f.exports {
		if b, bs := lookupValue(e.scope, e.name); b != nil && bs == e.scope {
			for _, n := range bs.decls[e.name] {
				if e.name == e.as {
					f.setExported(n)
				}
			}
		} else if b, bs := lookupType(e.scope, e.name); b != nil && bs == e.scope {
			for _, n := range bs.decls[e.name] {
				if e.name == e.as {
					f.setExported(n)
				}
			}
		}
		f.facts = append(f.facts, fact{kind: refExport, src: e.scope.sym, at: e.at, prefix: e.as + "=", scope: e.scope, target: e.as})
	}
	for _, fa := range f.facts {
		if fa.kind == schemas.RefType && fa.prefix == "" && f.annotated[fa.src] {
			continue // the declared type wins over what is assigned
		}
		var e string
		switch {
		case fa.prefix == "annotation":
			e = f.annotation(f.Text(fa.at), f.scopeOf(fa.src))
			if e == "" {
				continue
			}
		case fa.prefix == "heritage":
			e = f.heritageExpr(fa.at, fa.scope, fa.kind == schemas.EdgeImplements || f.Nodes[fa.src].Kind == schemas.KindInterface)
			if e == "" {
				continue
			}
		case strings.HasPrefix(fa.member, "\x00"):
			e = fa.prefix + fa.member[1:]
		default:
			e = f.expr(fa.at, fa.scope)
			if fa.member != "" {
				e = memberOf(e, fa.member)
			}
			if fa.kind == schemas.RefType && e[0] == '?' && e != indexer.ExprLiteral {
				e = indexer.ExprLocal
			}
			e = fa.prefix + e
		}
		if fa.kind == refExport && fa.src == 0 {
			if name, v, ok := strings.Cut(e, "="); ok && (name == "exports."+v || name == v || name == "module.exports" && isIdent(v)) {
				for _, n := range f.stack[0].scope.decls[v] {
					f.setExported(n)
				}
			}
		}
		at := fa.at
		if at.End == 0 {
			at = span{Start: f.Nodes[fa.src].StartByte, End: f.Nodes[fa.src].StartByte}
		}
		f.AddNodeRef(fa.kind, fa.src, at, fa.target, e)
	}
	f.finishMembers()
	// A module variable also bound to what we do not follow has no type
	// others can rely on.
	for name, n := range f.stack[0].scope.vars {
		if b := f.stack[0].scope.names[name]; b != nil && b.flags&bUnknown != 0 {
			f.AddNodeRef(schemas.RefType, n, span{Start: f.Nodes[n].StartByte, End: f.Nodes[n].StartByte}, name, indexer.ExprLocal)
		}
	}
	for _, c := range indexer.Elements(ctx, f.calls) {
		e := f.expr(c.fn, c.scope)
		if c.kind == schemas.EdgeInstantiates && e[0] != '?' {
			e = strings.TrimSuffix(e, "()")
		}
		r := f.AddNodeRef(c.kind, c.scope.sym, f.callPos(c.fn), oneLine(f.Text(c.fn)), e)
		if c.args.End > c.args.Start {
			args := f.Text(c.args)
			if len(args) >= 2 && args[0] == '(' && args[len(args)-1] == ')' {
				args = args[1 : len(args)-1]
			}
			r.Args = oneLine(args)
		}
		c.Mark(r)
	}
	f.typeUseRefs()
}

// scopeOf returns a scope to read the annotations of node n in: the
// module's (type parameters were checked when the fact was made).
func (f *fileState) scopeOf(int32) *scope { return f.stack[0].scope }

// memberOf returns the Expr of property name of the value e ("[]": an
// element of it; that of a builtin value is unknown).
func memberOf(e, name string) string {
	if e[0] == '?' {
		if e == indexer.ExprLiteral && name != "[]" {
			return indexer.ExprLiteral
		}
		return exprReceiver
	}
	return e + "." + name
}

// refExport is the fact kind of what a module exports (see expr.go).
const refExport = schemas.RefExport
