package python

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

// Positions in rows: lines are 1-based, columns 0-based byte offsets in
// their line, byte offsets 0-based from the start of the file. A symbol's
// range covers its decorators; its body hash covers its body only.

type (
	span = indexer.Span
	item = indexer.Match[kind]
)

type extractor struct {
	tree *indexer.Tree
	*indexer.MatchScanner[kind]
	dists distributions
}

func (x *extractor) Extract(ctx context.Context, file string, src []byte) (*indexer.Result, error) {
	items, err := x.Scan(ctx, src)
	if err != nil {
		return nil, err
	}
	f := newFile(x.tree, &indexer.Scanned[kind]{Path: file, Src: src, Items: items, Lines: x.Lines()})
	f.run(ctx, items)
	if r := x.dists.distFact(file, &f.Nodes[0]); r != nil {
		f.Refs = append(f.Refs, *r)
	}
	return x.Result(ctx, f.Nodes, f.Refs, f.Test)
}

// isTestFile reports whether file is a test module by pytest's and
// unittest's conventions.
func isTestFile(file string) bool {
	base := path.Base(file)
	return strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") ||
		strings.HasSuffix(base, "_test.py") || base == "conftest.py"
}

// moduleName returns the dotted name of file: the folders above it that
// hold an __init__.py, then the file's own name; an __init__.py names its
// folder, the package.
func moduleName(t *indexer.Tree, file string) (name string, pkg bool) {
	dir, base := path.Split(file)
	base = strings.TrimSuffix(base, path.Ext(base))
	pkg = base == "__init__"
	var parts []string
	if !pkg {
		parts = append(parts, base)
	}
	for d := strings.TrimSuffix(dir, "/"); d != "" && d != "."; d = path.Dir(d) {
		own := pkg && len(parts) == 0
		if !own && (t == nil || !t.Has(d+"/__init__.py") && !t.Has(d+"/__init__.pyi")) {
			break
		}
		parts = append(parts, path.Base(d))
	}
	if len(parts) == 0 {
		return base, pkg
	}
	slices.Reverse(parts)
	return strings.Join(parts, "."), pkg
}

// fileState is the extraction of one file.
type fileState struct {
	indexer.File[kind]
	module string
	pkg    bool

	stack    []open
	scopes   []*scope          // module and class scopes
	args     map[uint32]uint32 // start → end of every call's argument list
	lastLeft span              // left side of the last assignment seen
	slab     []binding         // where bindings are allocated, a chunk at a time
	buf      []byte            // scratch for expr
	calls    []call
	facts    []fact
	returns  []ret // return statements with a value, in functions
	narrows  []narrowing
	unpacked span // the last tuple of names bound by unpacking, see unpack
	uses     typeUses
}

// narrowing is a block where a local is known to be an instance of a
// class: the body of `if isinstance(x, C):` or of `except C as x:`.
type narrowing struct {
	b     *binding
	block span
	class span // C
	scope *scope
}

// ret is a return statement with a value, in the function of scope.
type ret struct {
	scope *scope
	value span
}

// open is a range the walk is inside of: a scope, a region (loop, try,
// conditional) or a decorated definition.
type open struct {
	kind       kind
	start, end uint32
	body       uint32 // functions and classes: where the body starts
	scope      *scope
	decorators []string
}

type call struct {
	fn, args span
	scope    *scope
	indexer.Region
}

// fact is an expression whose Expr must wait for every binding of the file
// to be known: a class base or the value of a field or variable.
type fact struct {
	kind  string
	src   int32
	at    span
	scope *scope
}

type scopeKind uint8

const (
	sModule scopeKind = iota
	sClass
	sFunction
	sLambda
	sComprehension
)

// scope is a Python scope: the names bound in it, and the node that refs
// made in it come from.
type scope struct {
	kind   scopeKind
	parent *scope
	sym    int32 // the module, class or function node of the scope
	names  map[string]*binding
	class  *scope           // methods: the class scope
	first  uint16           // methods: bSelf or bCls, what the first parameter is
	params int              // functions: parameters seen
	vars   map[string]int32 // module and class scopes: variable and field nodes
	// functions: a return annotation, a yield (a generator): no result
	// is inferred from the return statements.
	annotated, yields bool
}

// binding is everything a scope binds to one name.
type binding struct {
	flags  uint16
	annot  string               // "{T}" from an annotation
	values []assigned           // what plain assignments, for, with and except bind, None left out
	from   string               // an import's Expr, for a name bound by that alone
	value  indexer.Lazy[string] // the one value values give it, worked out on first use
}

// assigned is an expression a name is bound to, and how: nth is the
// position of the name in a tuple of n names the value is unpacked to,
// plus one (0 for none).
type assigned struct {
	at     span
	how    uint8
	nth, n uint8
}

// How a name is bound to an expression e.
const (
	aPlain  uint8 = iota // x = e
	aItem                // for x in e: an item of e
	aEnter               // with e as x: e.__enter__()
	aAEnter              // async with e as x: e.__aenter__()
	aCaught              // except e as x: an instance of the class e
)

const (
	bDef      uint16 = 1 << iota // def, class or type statement
	bImport                      // import
	bAssign                      // name = value
	bUnknown                     // for, with, except, unpacking, +=, *args
	bParam                       // a parameter
	bSelf                        // the first parameter of a method
	bCls                         // the first parameter of a classmethod
	bGlobal                      // global name
	bNonlocal                    // nonlocal name
)

// bind returns the binding of name in s, made on first sight.
func (f *fileState) bind(s *scope, name string) *binding {
	b := s.names[name]
	if b == nil {
		if s.names == nil {
			s.names = make(map[string]*binding)
		}
		if len(f.slab) == cap(f.slab) {
			f.slab = make([]binding, 0, 64)
		}
		f.slab = f.slab[:len(f.slab)+1]
		b = &f.slab[len(f.slab)-1]
		s.names[name] = b
	}
	return b
}

// lookup finds the binding of name seen from s, by Python's rules: class
// scopes are visible only from their own body.
func lookup(s *scope, name string) (*binding, *scope) {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.kind == sClass && sc != s {
			continue
		}
		b := sc.names[name]
		switch {
		case b == nil || b.flags&bNonlocal != 0:
			continue
		case b.flags&bGlobal != 0:
			m := sc
			for m.parent != nil {
				m = m.parent
			}
			if b := m.names[name]; b != nil {
				return b, m
			}
			return nil, nil
		}
		return b, sc
	}
	return nil, nil
}

func newFile(t *indexer.Tree, s *indexer.Scanned[kind]) *fileState {
	f := &fileState{File: indexer.NewFile(s, Name, isTestFile), args: make(map[uint32]uint32)}
	f.module, f.pkg = moduleName(t, s.Path)
	return f
}

func (f *fileState) top() *open { return &f.stack[len(f.stack)-1] }

func (f *fileState) newScope(k scopeKind, parent *scope, sym int32) *scope {
	s := &scope{kind: k, parent: parent, sym: sym}
	if k == sModule || k == sClass {
		s.vars = make(map[string]int32)
		f.scopes = append(f.scopes, s)
	}
	return s
}

// scopeAt returns the scope code at p runs in, and the function or class
// whose header (name, parameters, bases) holds p, if any: a header runs in
// the enclosing scope, but parameters bind in the function.
func (f *fileState) scopeAt(p uint32) (*scope, *open) {
	var header *open
	for i := len(f.stack) - 1; i > 0; i-- {
		o := &f.stack[i]
		switch {
		case o.scope == nil:
		case (o.kind == kFunction || o.kind == kClass) && p < o.body:
			if header == nil {
				header = o
			}
		default:
			return o.scope, header
		}
	}
	return f.stack[0].scope, header
}

// region returns the Region of code at p within its own function or
// lambda: in a loop (a for body, a while, a comprehension), a try body,
// or a conditional branch (if, elif and else bodies, either value of a
// conditional expression, a match case, the right operand of and / or).
func (f *fileState) region(p uint32) indexer.Region {
	var r indexer.Region
	for i := len(f.stack) - 1; i > 0; i-- {
		switch o := &f.stack[i]; o.kind {
		case kComprehension:
			r.Loop = true
		case kLambda:
			return r
		case kFunction:
			if p >= o.body {
				return r
			}
		default:
			indexer.InRegion(&r, o.kind, kLoop, kTry, kCond)
		}
	}
	return r
}

// addNode appends the node of a symbol declared at s, a child of node
// parent (-1 for none), visible and exported as its name and parent say.
func (f *fileState) addNode(kind, name string, parent int32, s span) int32 {
	qname, vis := name, visibility(name)
	exported := vis == schemas.Public
	if parent >= 0 {
		p := &f.Nodes[parent]
		qname = p.QualifiedName + "." + name
		exported = exported && (p.Kind == schemas.KindModule || p.Kind == schemas.KindPackage ||
			p.Kind == schemas.KindClass && p.Exported)
	}
	n := f.AddNode(kind, name, qname, parent, s)
	f.Nodes[n].Visibility, f.Nodes[n].Exported = vis, exported
	return n
}

// run makes the nodes and refs of the file from the items of the query.
func (f *fileState) run(ctx context.Context, items []item) {
	count := indexer.CountKinds(ctx, items, numKinds)
	f.Nodes = make([]schemas.Node, 0, 1+count[kFunction]+count[kClass]+count[kAssign]/4)
	f.Refs = make([]schemas.Ref, 0, count[kCall]+count[kImport]+count[kBase]+count[kAssign]/4)
	kind, name := schemas.KindModule, f.module
	if f.pkg {
		kind = schemas.KindPackage
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	end := uint32(len(f.Src))
	mod := f.addNode(kind, f.module, -1, span{Start: 0, End: end})
	m := &f.Nodes[mod]
	m.ParentID = 0 // the module node has no parent
	m.Name, m.Visibility = name, visibility(name)
	m.Exported = m.Visibility == schemas.Public
	if end > 0 && f.Src[end-1] == '\n' {
		m.EndLine, m.EndCol = srctext.Pos(f.Lines, end-1)
	}
	m.IsTest = f.Test
	m.BodyHash = xxhash.Sum64(f.Src)
	f.stack = append(f.stack[:0], open{kind: numKinds, end: math.MaxUint32, scope: f.newScope(sModule, nil, mod)})

	for _, it := range indexer.Elements(ctx, items) {
		for len(f.stack) > 1 && f.top().end <= it.Start {
			f.stack = f.stack[:len(f.stack)-1]
		}
		switch it.Kind {
		case kDecorated:
			f.stack = append(f.stack, open{kind: kDecorated, start: it.Start, end: it.End})
		case kDecorator:
			if o := f.top(); o.kind == kDecorated {
				o.decorators = append(o.decorators, oneLine(f.Str[it.Start+1:it.End]))
			}
			f.decoratorUse(it)
		case kFunction:
			f.function(it)
		case kClass:
			f.class(it)
		case kLambda, kComprehension:
			sc, _ := f.scopeAt(it.Start)
			k := sLambda
			if it.Kind == kComprehension {
				k = sComprehension
			}
			f.stack = append(f.stack, open{kind: it.Kind, start: it.Start, end: it.End, scope: f.newScope(k, sc, sc.sym)})
		case kLoop, kTry, kCond:
			f.stack = append(f.stack, open{kind: it.Kind, start: it.Start, end: it.End})
		case kAlias:
			f.uses.annot = it.Role[rName] // the name declared: no use
			f.alias(it)
		case kAssign:
			if !f.unpack(it, aPlain) {
				f.assign(it)
			}
		case kUnpack:
			f.unpack(it, aItem)
		case kDoc:
			f.doc(it)
		case kBase:
			if o := f.top(); o.kind == kClass && it.Start < o.body {
				f.facts = append(f.facts, fact{schemas.EdgeExtends, o.scope.sym, stripSubscript(f.Src, it.Span), o.scope.parent})
			}
		case kBind:
			f.bindItem(it)
		case kGlobal, kNonlocal:
			sc, _ := f.scopeAt(it.Start)
			flag := bGlobal
			if it.Kind == kNonlocal {
				flag = bNonlocal
			}
			f.bind(sc, f.Text(it.Span)).flags |= flag
		case kParam:
			f.param(it)
		case kImport:
			f.importRef(it)
		case kCall:
			f.call(it)
		case kAnnot:
			f.annotationUses(it)
		case kExcept:
			f.names(it.Span, false)
		case kIter:
			f.bindTo(it, aItem)
		case kAs:
			f.as(it)
		case kReturn:
			if sc, _ := f.scopeAt(it.Start); sc.kind == sFunction {
				f.returns = append(f.returns, ret{sc, it.Span})
			}
		case kYield:
			if sc, _ := f.scopeAt(it.Start); sc.kind == sFunction {
				sc.yields = true
			}
		case kNarrow:
			f.narrow(it)
		}
	}
	f.finish(ctx)
}

func (f *fileState) decorators(it *item) (start uint32, decs []string) {
	if o := f.top(); o.kind == kDecorated && o.end == it.End {
		return o.start, o.decorators
	}
	return it.Start, nil
}

// signature returns the header of a def or class on one line, without its
// colon.
func (f *fileState) signature(start, body uint32) string {
	return strings.TrimSuffix(oneLine(f.Str[start:body]), ":")
}

func hasDecorator(decs []string, names ...string) bool {
	for _, d := range decs {
		for _, n := range names {
			if d == n || strings.HasSuffix(d, "."+n) {
				return true
			}
		}
	}
	return false
}

func (f *fileState) function(it *item) {
	sc, _ := f.scopeAt(it.Start)
	start, decs := f.decorators(it)
	name := f.Text(it.Role[rName])
	body := it.Role[rBody]
	kind := schemas.KindFunction
	if sc.kind == sClass {
		kind = schemas.KindMethod
		if name == "__init__" {
			kind = schemas.KindConstructor
		}
	}
	n := f.addNode(kind, name, sc.sym, span{Start: start, End: it.End})
	node := &f.Nodes[n]
	node.Signature = f.signature(it.Start, body.Start)
	node.Decorators = decs
	node.IsAsync = bytes.HasPrefix(f.Src[it.Start:], []byte("async"))
	node.IsStatic = hasDecorator(decs, "staticmethod")
	node.IsAbstract = hasDecorator(decs, "abstractmethod", "abstractproperty", "abstractclassmethod", "abstractstaticmethod")
	node.IsTest = f.Test && strings.HasPrefix(name, "test") &&
		(sc.kind == sModule || sc.kind == sClass && strings.HasPrefix(f.Nodes[sc.sym].Name, "Test"))
	node.BodyHash = xxhash.Sum64String(f.Text(body))
	if node.IsAbstract && sc.kind == sClass {
		f.Nodes[sc.sym].IsAbstract = true
	}

	fs := f.newScope(sFunction, sc, n)
	if sc.kind == sClass {
		fs.class = sc
		switch {
		case node.IsStatic:
		case hasDecorator(decs, "classmethod") || name == "__new__" || name == "__init_subclass__" || name == "__class_getitem__":
			fs.first = bCls
		default:
			fs.first = bSelf
		}
	}
	f.bind(sc, name).flags |= bDef
	if it.HasRole(rReturn) {
		fs.annotated = true
		if t := annotation(f.Text(it.Role[rReturn])); t != "" {
			f.AddNodeRef(schemas.RefResult, n, it.Role[rReturn], oneLine(f.Text(it.Role[rReturn])), t)
		}
	}
	f.stack = append(f.stack, open{kind: kFunction, start: it.Start, end: it.End, body: body.Start, scope: fs})
}

func (f *fileState) class(it *item) {
	sc, _ := f.scopeAt(it.Start)
	start, decs := f.decorators(it)
	name := f.Text(it.Role[rName])
	body := it.Role[rBody]
	n := f.addNode(schemas.KindClass, name, sc.sym, span{Start: start, End: it.End})
	node := &f.Nodes[n]
	node.Signature = f.signature(it.Start, body.Start)
	node.Decorators = decs
	node.BodyHash = xxhash.Sum64String(f.Text(body))
	f.bind(sc, name).flags |= bDef
	f.stack = append(f.stack, open{kind: kClass, start: it.Start, end: it.End, body: body.Start, scope: f.newScope(sClass, sc, n)})
}

// alias handles `type X = ...`.
func (f *fileState) alias(it *item) {
	sc, _ := f.scopeAt(it.Start)
	name := f.Text(it.Role[rName])
	b := f.bind(sc, name)
	if sc.kind != sModule && sc.kind != sClass {
		b.flags |= bUnknown
		return
	}
	b.flags |= bDef
	n := f.addNode(schemas.KindTypeAlias, name, sc.sym, it.Span)
	f.Nodes[n].Signature = oneLine(f.Text(it.Span))
	f.Nodes[n].BodyHash = xxhash.Sum64String(f.Text(it.Span))
}

// variable returns the variable, constant or field node of name in a
// module or class scope, made on first sight.
func (f *fileState) variable(s *scope, name string, at span, value span) int32 {
	if n, ok := s.vars[name]; ok {
		return n
	}
	kind := schemas.KindVariable
	switch {
	case s.kind == sClass:
		kind = schemas.KindField
	case isConstantName(name):
		kind = schemas.KindConstant
	}
	n := f.addNode(kind, name, s.sym, at)
	f.Nodes[n].Signature = oneLine(f.Text(at))
	f.Nodes[n].BodyHash = xxhash.Sum64String(f.Text(value))
	s.vars[name] = n
	return n
}

// isConstantName reports whether name is written in capitals (MAX_SIZE).
func isConstantName(name string) bool {
	letter := false
	for _, c := range []byte(name) {
		switch {
		case c >= 'a' && c <= 'z':
			return false
		case c >= 'A' && c <= 'Z':
			letter = true
		}
	}
	return letter
}

// assign handles `name = value`, `name: T = value`, `name := value` and
// `self.name = value`; the item is the left side.
func (f *fileState) assign(it *item) {
	sc, _ := f.scopeAt(it.Start)
	left := it.Span
	f.lastLeft = left
	stmt := left
	for r := range numRoles {
		if it.HasRole(r) {
			stmt.End = max(stmt.End, it.Role[r].End)
		}
	}
	var annot string
	if it.HasRole(rType) {
		annot = annotation(f.Text(it.Role[rType]))
	}
	value, hasValue := it.Role[rValue], it.HasRole(rValue)
	if hasValue && f.Text(value) == "None" {
		hasValue = false
	}
	valueOrStmt := stmt
	if hasValue {
		valueOrStmt = value
	}
	if name := f.Text(left); isIdent(name) {
		b := f.bind(sc, name)
		b.flags |= bAssign
		if annot != "" {
			b.annot = annot
		}
		if hasValue {
			b.values = append(b.values, assigned{at: value})
		}
		vs := sc
		if b.flags&bGlobal != 0 {
			vs = f.stack[0].scope // global x; x = v assigns the module's x
			f.bind(vs, name).flags |= bAssign
		}
		if vs.kind == sModule || vs.kind == sClass {
			f.typeFact(f.variable(vs, name, stmt, valueOrStmt), annot, it, hasValue, sc)
		}
		return
	}
	// obj.name = value is a field when obj is the first parameter of a method.
	obj, attr, ok := attributeTarget(f.Text(left))
	if !ok {
		return
	}
	b, bs := lookup(sc, obj)
	if b == nil || b.flags&(bSelf|bCls) == 0 || bs.class == nil {
		return
	}
	f.typeFact(f.variable(bs.class, attr, stmt, valueOrStmt), annot, it, hasValue, sc)
}

// typeFact records what an assignment says of the type of node n.
func (f *fileState) typeFact(n int32, annot string, it *item, hasValue bool, sc *scope) {
	if it.HasRole(rType) {
		f.uses.holder = holder{it.Role[rType], n} // its annotation's names are the variable's uses
	}
	switch {
	case annot != "":
		f.AddNodeRef(schemas.RefType, n, it.Role[rType], oneLine(f.Text(it.Role[rType])), annot)
	case hasValue:
		f.facts = append(f.facts, fact{schemas.RefType, n, it.Role[rValue], sc})
	}
}

// attributeTarget splits `obj.name` (blanks allowed around the dot).
func attributeTarget(b string) (obj, name string, ok bool) {
	i := identEnd(b, 0, len(b))
	j := skipSpace(b, i, len(b))
	if i == 0 || j >= len(b) || b[j] != '.' {
		return "", "", false
	}
	k := skipSpace(b, j+1, len(b))
	e := identEnd(b, k, len(b))
	if e == k || e != len(b) {
		return "", "", false
	}
	return b[:i], b[k:e], true
}

// stripSubscript drops a trailing [...] from a class base: Generic[T] → Generic.
func stripSubscript(src []byte, s span) span {
	if s.End <= s.Start || src[s.End-1] != ']' {
		return s
	}
	depth := 0
	for i := s.End - 1; i > s.Start; i-- {
		switch src[i] {
		case ']':
			depth++
		case '[':
			if depth--; depth == 0 {
				return span{Start: s.Start, End: i}
			}
		}
	}
	return s
}

func (f *fileState) doc(it *item) {
	doc, ok := docstring(f.Text(it.Span))
	if !ok {
		return
	}
	switch o := f.top(); {
	case (o.kind == kFunction || o.kind == kClass) && o.body == it.Start:
		f.Nodes[o.scope.sym].Doc = doc
	case len(f.stack) == 1:
		f.Nodes[0].Doc = doc
	}
}

// bindItem handles names bound to values we do not follow.
func (f *fileState) bindItem(it *item) {
	sc, header := f.scopeAt(it.Start)
	if header != nil && header.kind == kFunction {
		sc = header.scope
		sc.params++
	}
	if f.unpacked.Start <= it.Start && it.End <= f.unpacked.End {
		return // bound by unpack
	}
	name := f.Text(it.Span)
	f.bind(sc, name).flags |= bUnknown
	if (sc.kind == sModule || sc.kind == sClass) && f.lastLeft.Start <= it.Start && it.End <= f.lastLeft.End {
		f.variable(sc, name, it.Span, it.Span)
	}
}

// bindTo binds the name of a for loop, a with or an except clause to how
// it is given by the item's value, in a function; in a module or class
// body, where the name may be a variable others read, or when there is no
// value to follow, to a value not followed.
func (f *fileState) bindTo(it *item, how uint8) {
	sc, _ := f.scopeAt(it.Start)
	b := f.bind(sc, f.Text(it.Span))
	if sc.kind == sModule || sc.kind == sClass || !it.HasRole(rValue) {
		b.flags |= bUnknown
		return
	}
	b.flags |= bAssign
	b.values = append(b.values, assigned{at: it.Role[rValue], how: how})
}

// unpack handles `a, b = e` (how aPlain) and `for a, b in e` (aItem) in a
// function, the names plain: a is bound to e[0] (e[][0] in the loop), b to
// e[1]. `for i, x in enumerate(e)` binds x to e[], `for x, y in zip(d, e)`
// x to d[] and y to e[]. It reports whether it bound the names; the bind
// items of the names then leave them alone.
func (f *fileState) unpack(it *item, how uint8) bool {
	sc, _ := f.scopeAt(it.Start)
	if sc.kind == sModule || sc.kind == sClass || !it.HasRole(rValue) || it.HasRole(rType) {
		return false
	}
	left := strings.TrimSpace(f.Text(it.Span))
	if n := len(left); n >= 2 && (left[0] == '(' && left[n-1] == ')' || left[0] == '[' && left[n-1] == ']') {
		left = left[1 : n-1]
	}
	names := splitTop(left, ',')
	if n := len(names); n > 1 && strings.TrimSpace(names[n-1]) == "" {
		names = names[:n-1]
	}
	if len(names) < 2 || len(names) > 255 {
		return false
	}
	for i, n := range names {
		if names[i] = strings.TrimSpace(n); !isIdent(names[i]) {
			return false
		}
	}
	for i, n := range names {
		b := f.bind(sc, n)
		b.flags |= bAssign
		b.values = append(b.values, assigned{it.Role[rValue], how, uint8(i + 1), uint8(len(names))})
	}
	f.unpacked = it.Span
	return true
}

// unpackedExpr returns the Expr of the name a binds, unpacked from a's value.
func (f *fileState) unpackedExpr(a assigned, sc *scope) string {
	if a.how != aItem {
		return bound(f.expr(a.at, sc), a.how, a.nth)
	}
	args := f.zipped(a.at, sc, int(a.n))
	switch {
	case args == nil:
		return bound(f.expr(a.at, sc), a.how, a.nth)
	case args[a.nth-1].End == 0: // enumerate's count
		return indexer.ExprLocal
	}
	return bound(f.expr(args[a.nth-1], sc), aItem, 0)
}

// zipped returns, for a value that is a call of the builtin enumerate(e)
// (n 2) or zip(d, e, …) (n arguments), the argument each name iterates
// over, an empty span for enumerate's count; else nil.
func (f *fileState) zipped(value span, sc *scope, n int) []span {
	p := skipSpace(f.Src, int(value.Start), int(value.End))
	q := identEnd(f.Src, p, int(value.End))
	fn := f.Str[p:q]
	if fn != "enumerate" && fn != "zip" {
		return nil
	}
	if b, _ := lookup(sc, fn); b != nil {
		return nil
	}
	open := skipSpace(f.Src, q, int(value.End))
	end, ok := f.args[uint32(open)]
	if !ok || int(end) != int(value.End) && skipSpace(f.Src, int(end), int(value.End)) != int(value.End) {
		return nil
	}
	var args []span
	f.eachArg(span{Start: uint32(open), End: end}, func(a span) bool {
		args = append(args, a)
		return true
	})
	switch {
	case fn == "enumerate" && n == 2 && len(args) >= 1 && !strings.Contains(f.Text(args[0]), "="):
		return []span{{}, args[0]}
	case fn == "zip" && len(args) == n:
		for _, a := range args {
			if t := strings.TrimSpace(f.Text(a)); strings.HasPrefix(t, "*") || strings.Contains(t, "=") {
				return nil
			}
		}
		return args
	}
	return nil
}

// as handles `with e as x` and `except E as x`; `except* E as x` binds an
// exception group.
func (f *fileState) as(it *item) {
	clause := f.Text(it.Role[rClause])
	switch {
	case strings.HasPrefix(clause, "async"):
		f.bindTo(it, aAEnter)
	case strings.HasPrefix(clause, "with"):
		f.bindTo(it, aEnter)
	case strings.HasPrefix(strings.TrimLeft(clause[len("except"):], " \t"), "*"):
		f.bindItem(it)
	default:
		f.bindTo(it, aCaught)
		if sc, _ := f.scopeAt(it.Start); sc.kind != sModule && sc.kind != sClass {
			f.narrows = append(f.narrows, narrowing{f.bind(sc, f.Text(it.Span)), it.Role[rClause], it.Role[rValue], sc})
		}
	}
}

// narrow handles `if isinstance(x, C):` (or elif), x a local of a
// function and C a dotted name: in the block, x is an instance of C.
func (f *fileState) narrow(it *item) {
	sc, _ := f.scopeAt(it.Start)
	cond := it.Role[rValue]
	p := skipSpace(f.Src, int(cond.Start), int(cond.End))
	q := identEnd(f.Src, p, int(cond.End))
	if f.Str[p:q] != "isinstance" || sc.kind == sModule || sc.kind == sClass {
		return
	}
	if b, _ := lookup(sc, "isinstance"); b != nil {
		return
	}
	args, ok := f.args[uint32(skipSpace(f.Src, q, int(cond.End)))]
	if !ok {
		return
	}
	var parts []span
	f.eachArg(span{Start: uint32(skipSpace(f.Src, q, int(cond.End))), End: args}, func(a span) bool {
		parts = append(parts, a)
		return true
	})
	if len(parts) != 2 || !isIdent(strings.TrimSpace(f.Text(parts[0]))) {
		return
	}
	b, bs := lookup(sc, strings.TrimSpace(f.Text(parts[0])))
	if b == nil || bs != sc {
		return
	}
	f.narrows = append(f.narrows, narrowing{b, it.Span, parts[1], sc})
}

func (f *fileState) param(it *item) {
	sc, header := f.scopeAt(it.Start)
	if header != nil && header.kind == kFunction {
		sc = header.scope
	}
	sc.params++
	b := f.bind(sc, f.Text(it.Span))
	b.flags |= bParam
	if sc.params == 1 {
		b.flags |= sc.first
	}
	if it.HasRole(rType) {
		b.annot = annotation(f.Text(it.Role[rType]))
	}
}

// importRef handles one imported name. Target is the name as written,
// relative dots included; Expr is the absolute form (see expr.go).
func (f *fileState) importRef(it *item) {
	sc, _ := f.scopeAt(it.Start)
	name := squeeze(f.Text(it.Span))
	var target, expr, local string
	if it.HasRole(rModule) {
		mod := squeeze(f.Text(it.Role[rModule]))
		target = mod + "." + name
		if strings.HasSuffix(mod, ".") {
			target = mod + name
		}
		expr, local = f.absolute(mod)+":"+name, name
	} else {
		target, expr = name, name
		local, _, _ = strings.Cut(name, ".")
	}
	if it.HasRole(rAlias) {
		local = f.Text(it.Role[rAlias])
		expr += " as " + local
	}
	if b := sc.names[local]; b != nil && b.flags&bGlobal != 0 {
		sc = f.stack[0].scope // global x; import x binds the module's x
	}
	if name != "*" {
		b := f.bind(sc, local)
		b.flags |= bImport
		b.from = expr
	}
	f.AddNodeRef(schemas.EdgeImports, sc.sym, it.Span, target, expr)
}

// squeeze removes the blanks of a dotted name.
func squeeze(s string) string {
	if !strings.ContainsAny(s, " \t\r\n\\") {
		return s
	}
	var out []byte
	for _, c := range []byte(s) {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\\' {
			out = append(out, c)
		}
	}
	return string(out)
}

// absolute resolves a relative module name (.x, ..y.z) against the module
// of the file. It leaves the dots in when they climb above the top
// package, where Python fails too.
func (f *fileState) absolute(mod string) string {
	rest := strings.TrimLeft(mod, ".")
	dots := len(mod) - len(rest)
	if dots == 0 {
		return mod
	}
	parts := strings.Split(f.module, ".")
	if !f.pkg {
		parts = parts[:len(parts)-1]
	}
	if dots-1 >= len(parts) {
		return mod
	}
	base := strings.Join(parts[:len(parts)-(dots-1)], ".")
	if rest == "" {
		return base
	}
	return base + "." + rest
}

func (f *fileState) call(it *item) {
	args := it.Role[rArgs]
	f.args[args.Start] = args.End
	sc, _ := f.scopeAt(it.Start)
	f.calls = append(f.calls, call{fn: it.Span, args: args, scope: sc, Region: f.region(it.Start)})
	if fn := f.Text(it.Span); fn == "isinstance" || fn == "issubclass" {
		f.classArg(args)
	} else {
		f.valueArgs(args)
	}
}

// inferResults writes the result fact "=expr" of each function with no
// return annotation whose return statements give one Expr, None aside:
// not for a generator, nor for a function whose decorators may replace
// it (see transparent).
func (f *fileState) inferResults() {
	var order []*scope
	byScope := make(map[*scope][]span)
	for _, r := range f.returns {
		if byScope[r.scope] == nil {
			order = append(order, r.scope)
		}
		byScope[r.scope] = append(byScope[r.scope], r.value)
	}
	for _, sc := range order {
		if sc.annotated || sc.yields || slices.ContainsFunc(f.Nodes[sc.sym].Decorators, opaque) {
			continue
		}
		v, at := "", span{}
		for _, r := range byScope[sc] {
			switch e := f.expr(r, sc); {
			case e == exprNone:
			case e[0] == '?' || v != "" && v != e:
				v = indexer.ExprLocal
			case v == "":
				v, at = e, r
			}
		}
		if v != "" && v != indexer.ExprLocal {
			f.AddNodeRef(schemas.RefResult, sc.sym, at, oneLine(f.Text(at)), "="+v)
		}
	}
}

// opaque reports whether decorator d may make its function something else
// than a function returning what its body returns: any but staticmethod,
// classmethod, the properties, functools.wraps(…), the caches and the
// markers of abc and typing.
func opaque(d string) bool {
	name, _, _ := strings.Cut(d, "(")
	name = strings.TrimSpace(name)
	switch name[strings.LastIndexByte(name, '.')+1:] {
	case "staticmethod", "classmethod", "property", "cached_property", "wraps", "cache", "lru_cache",
		"abstractmethod", "override", "final":
		return false
	}
	return true
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
	for d > int(fn.Start) && (f.Src[d-1] == ' ' || f.Src[d-1] == '\t' || f.Src[d-1] == '\n') {
		d--
	}
	if s < e && d > int(fn.Start) && f.Src[d-1] == '.' {
		return span{Start: uint32(s), End: fn.End}
	}
	return fn
}

// finish writes the refs whose Expr needed every binding of the file.
func (f *fileState) finish(ctx context.Context) {
	for _, fa := range f.facts {
		e := f.expr(fa.at, fa.scope)
		if e == exprNone {
			continue
		}
		f.AddNodeRef(fa.kind, fa.src, fa.at, oneLine(f.Text(fa.at)), e)
	}
	// A module variable or class field also bound by a for loop, a with or
	// an unpacking has no type others can rely on.
	for _, s := range f.scopes {
		for name, n := range s.vars {
			if b := s.names[name]; b != nil && b.flags&bUnknown != 0 {
				f.AddNodeRef(schemas.RefType, n, span{Start: f.Nodes[n].StartByte, End: f.Nodes[n].EndByte}, name, indexer.ExprLocal)
			}
		}
	}
	f.inferResults()
	for _, c := range indexer.Elements(ctx, f.calls) {
		args := f.Text(c.args)
		if len(args) >= 2 && args[0] == '(' && args[len(args)-1] == ')' {
			args = args[1 : len(args)-1]
		}
		r := f.AddNodeRef(schemas.EdgeCalls, c.scope.sym, f.callPos(c.fn), oneLine(f.Text(c.fn)), f.expr(c.fn, c.scope))
		r.Args = oneLine(args)
		c.Mark(r)
	}
	for _, u := range f.uses.at {
		target := f.Text(u.at)
		switch {
		case u.decorator:
			target = "@" + target
		case u.value:
			target = "&" + target
		}
		f.AddNodeRef(schemas.EdgeReferences, u.src, u.at, target, f.expr(u.at, u.scope))
	}
}
