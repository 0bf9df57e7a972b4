package golang

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

const maxArgs = 200 // bytes of argument text kept per call site

type extractor struct {
	lang    *Language
	tree    *indexer.Tree
	scanner *indexer.Scanner
	// Buffers reused file after file: an extractor serves one goroutine,
	// and a file's items are dead once Extract returns. Its nodes and refs
	// are gathered in nodes and refs and leave in slices of their size.
	items []item
	subs  []sub
	nodes []schemas.Node
	refs  []schemas.Ref
}

func (x *extractor) Close() { x.scanner.Close() }

type span struct{ start, end uint32 }

// multiName are the declarations that may name several things at once.
var multiName = map[string]bool{"param": true, "var": true, "const": true, "field": true}

// item is one query match, copied out of tree-sitter's reused memory.
type item struct {
	kind string // the match's main capture name
	span
	subs []sub
}

type sub struct {
	name string // capture name after the dot ("name", "type", …)
	span
}

func (it *item) get(name string) (span, bool) {
	for _, s := range it.subs {
		if s.name == name {
			return s.span, true
		}
	}
	return span{}, false
}

func (it *item) all(name string) []span {
	var out []span
	for _, s := range it.subs {
		if s.name == name {
			out = append(out, s.span)
		}
	}
	return out
}

// scope is a function body, a function literal or a package-level
// declaration being walked.
type scope struct {
	end     uint32
	sym     uint64
	params  []span
	env     map[string]string // local name → bound expression
	tparams map[string]bool
	loops   []uint32        // ends of open loops
	conds   []uint32        // ends of open conditionals
	types   map[string]bool // types declared in the body so far
	pending []binding
	outer   *scope
}

// binding is a local declared by a statement that has not ended yet: its
// right-hand side still sees the names it shadows (x := x.Next()).
type binding struct {
	end         uint32
	name, value string
}

func (s *scope) bindAfter(end uint32, name, value string) {
	s.pending = append(s.pending, binding{end, name, value})
}

// settle applies the bindings of statements that ended before off.
func (s *scope) settle(off uint32) {
	for ; s != nil; s = s.outer {
		if len(s.pending) == 0 {
			continue
		}
		kept := s.pending[:0]
		for _, b := range s.pending {
			if b.end <= off {
				s.bind(b.name, b.value)
			} else {
				kept = append(kept, b)
			}
		}
		s.pending = kept
	}
}

func (s *scope) lookup(name string) (string, bool) {
	for ; s != nil; s = s.outer {
		if v, ok := s.env[name]; ok {
			return v, true
		}
	}
	return "", false
}

func (s *scope) typeParams() map[string]bool {
	for ; s != nil; s = s.outer {
		if s.tparams != nil {
			return s.tparams
		}
	}
	return nil
}

// maxAlternatives bounds how many different bindings of one name are kept.
const maxAlternatives = 4

// bind records a local. A name declared again in the same function with
// another value keeps every value as an alternative ("a|b"): its type is
// known only if all of them agree, which the resolver decides.
func (s *scope) bind(name, value string) {
	if name == "_" || name == "" {
		return
	}
	if s.env == nil {
		s.env = make(map[string]string)
	}
	if old, ok := s.env[name]; ok && old != value {
		value = mergeAlternatives(old, value)
	}
	s.env[name] = value
}

func mergeAlternatives(old, value string) string {
	if strings.HasPrefix(old, "?") || strings.HasPrefix(value, "?") {
		return "?rebound to different values"
	}
	alts := strings.Split(old, "|")
	for _, v := range strings.Split(value, "|") {
		if !slices.Contains(alts, v) {
			alts = append(alts, v)
		}
	}
	if len(alts) > maxAlternatives {
		return "?rebound to different values"
	}
	return strings.Join(alts, "|")
}

// typeDecl is the struct or interface whose members are being read.
type typeDecl struct {
	id    uint64
	qname string
	body  span // the struct_type or interface_type
}

type fileState struct {
	x       *extractor
	src     []byte
	file    string
	lines   []uint32 // byte offset of each line start
	ids     indexer.IDs
	res     *indexer.Result
	pkgPath string
	fileID  uint64

	scopes   *scope
	types    []typeDecl
	literals []span // open struct_type / interface_type bodies
	uses     useState
}

func (x *extractor) Extract(ctx context.Context, file string, src []byte) (*indexer.Result, error) {
	caps, errAt, hasError, err := x.scanner.Scan(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	items := x.collect(caps)
	st := &fileState{
		x: x, src: src, file: file, lines: lineStarts(src),
		ids:    indexer.IDs{Language: "go", File: file},
		res:    &indexer.Result{IsTest: strings.HasSuffix(file, "_test.go"), Nodes: x.nodes[:0], Refs: x.refs[:0]},
		fileID: indexer.FileID(file),
	}
	st.res.Generated = isGenerated(src)
	dir := path.Dir(file)
	st.pkgPath = x.lang.importPath(x.tree, dir)
	if c := buildConstraint(src); c != "" {
		st.ref(schemas.RefBuild, st.fileID, "", c, span{})
	}
	for i := range items {
		if indexer.Stopped(ctx, i) {
			return nil, fmt.Errorf("%s: extract: %w", file, ctx.Err())
		}
		st.visit(&items[i])
	}
	if hasError {
		line, col := st.pos(errAt)
		st.res.ParseError = fmt.Sprintf("syntax error at line %d column %d", line, col)
	}
	x.nodes, x.refs = st.res.Nodes, st.res.Refs
	st.res.Nodes, st.res.Refs = exact(st.res.Nodes), exact(st.res.Refs)
	return st.res, nil
}

// exact copies s into a slice of its length (nil when empty).
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// collect groups the captures by match into items, in document order,
// outer matches before the ones they contain.
func (x *extractor) collect(caps []indexer.Capture) []item {
	names := x.lang.captures
	items := x.items[:0]
	subs := x.subs[:0]
	if cap(subs) < len(caps) {
		subs = make([]sub, 0, len(caps)) // a sub per capture at most: never grown below
	}
	for i := 0; i < len(caps); {
		var it item
		m := caps[i].Match
		first := len(subs)
		for ; i < len(caps) && caps[i].Match == m; i++ {
			c := caps[i]
			sp := span{c.Start, c.End}
			if c.Index == indexer.NameChild {
				subs = append(subs, sub{"name", sp})
				continue
			}
			main, field, ok := strings.Cut(names[c.Index], ".")
			if !ok {
				it.kind, it.span = main, sp
				continue
			}
			if field == "name" && multiName[main] {
				continue // every name came as a NameChild
			}
			if main == "funclit" && it.kind == "" {
				it.kind = "funclitparams"
				it.span = sp
			}
			subs = append(subs, sub{field, sp})
		}
		if it.kind != "" {
			if len(subs) > first {
				it.subs = subs[first:len(subs):len(subs)]
			}
			items = append(items, it)
		}
	}
	// A use of a type name goes after whatever else spans the same bytes
	// (a type declaration whose type is missing spans its name alone): the
	// order the matches came in differs between the plan and the cursor.
	use := func(it item) int {
		if it.kind == "tid" || it.kind == "tq" {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end), cmp.Compare(use(a), use(b)))
	})
	x.items, x.subs = items, subs
	return items
}

func lineStarts(src []byte) []uint32 { return srctext.LineStarts(nil, src) }

// pos returns the 1-based line and 1-based byte column of offset.
func (st *fileState) pos(off uint32) (uint32, uint32) {
	return srctext.Pos(st.lines, off)
}

// text returns the source text of s. It shares src's memory (see
// indexer.Extractor): most texts are kept as written.
func (st *fileState) text(s span) string {
	if s.end <= s.start {
		return ""
	}
	return unsafe.String(&st.src[s.start], s.end-s.start)
}

// joinFields is strings.Join(strings.Fields(s), sep) that gives s back,
// not a copy, when it has no space to take out (most names and types).
func joinFields(s, sep string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= utf8.RuneSelf {
			return strings.Join(strings.Fields(s), sep)
		}
	}
	return s
}

// enter pops finished scopes and nesting records, then returns the scope
// holding offset off.
func (st *fileState) enter(off uint32) *scope {
	st.scopes.settle(off)
	for st.scopes != nil && st.scopes.end <= off {
		st.scopes = st.scopes.outer
	}
	for len(st.types) > 0 && st.types[len(st.types)-1].body.end <= off {
		st.types = st.types[:len(st.types)-1]
	}
	for len(st.literals) > 0 && st.literals[len(st.literals)-1].end <= off {
		st.literals = st.literals[:len(st.literals)-1]
	}
	for o := &st.uses.owners; len(*o) > 0 && (*o)[len(*o)-1].end <= off; {
		*o = (*o)[:len(*o)-1]
	}
	st.scopes.settle(off)
	if s := st.scopes; s != nil {
		for len(s.loops) > 0 && s.loops[len(s.loops)-1] <= off {
			s.loops = s.loops[:len(s.loops)-1]
		}
		for len(s.conds) > 0 && s.conds[len(s.conds)-1] <= off {
			s.conds = s.conds[:len(s.conds)-1]
		}
	}
	return st.scopes
}

// inFunc reports whether the innermost scope is a function body.
func (s *scope) inFunc() bool { return s != nil && s.env != nil }

func (st *fileState) visit(it *item) {
	sc := st.enter(it.start)
	switch it.kind {
	case "pkg":
		name, _ := it.get("name")
		pkg := st.text(name)
		if strings.HasSuffix(pkg, "_test") && st.res.IsTest {
			st.pkgPath += "_test"
		}
		st.ref(schemas.RefPackage, st.fileID, pkg, st.pkgPath, it.span)
	case "import":
		p, _ := it.get("path")
		ipath, err := strconv.Unquote(st.text(p))
		if err != nil {
			return
		}
		alias := ""
		if n, ok := it.get("name"); ok {
			alias = st.text(n)
		}
		st.ref(schemas.EdgeImports, st.fileID, ipath, alias, it.span)
	case "func":
		st.function(it, sc)
	case "method":
		st.method(it, sc)
	case "type", "alias":
		ns, _ := it.get("name")
		st.uses.decl = ns // a declaration, not a use
		if sc != nil {
			sc.declareType(st.text(ns)) // a type local to a function
			return
		}
		st.typeSpec(it)
	case "structlit", "ifacelit":
		st.literals = append(st.literals, it.span)
	case "field":
		st.field(it)
	case "melem":
		st.methodElem(it)
	case "telem":
		if td, ok := st.member(); ok {
			// A type union or approximation ("?…") marks a constraint.
			t := normType(st.text(it.span), nil)
			st.ref(schemas.RefEmbeds, td.id, st.text(it.span), t, it.span)
			if !strings.HasPrefix(t, "?") {
				st.uses.taken = it.start // an extends edge: no references edge besides
			}
		}
	case "const", "var":
		st.valueSpec(it, sc)
	case "param", "vparam":
		if sc == nil || !inAny(it.span, sc.params) {
			return
		}
		for _, n := range it.all("name") {
			v := "?variadic parameter"
			if it.kind == "param" {
				t, _ := it.get("type")
				v = normType(st.text(t), sc.typeParams())
			}
			sc.bind(st.text(n), v)
		}
	case "sv":
		if !sc.inFunc() {
			return
		}
		l, _ := it.get("left")
		r, _ := it.get("right")
		st.assign(sc, it.end, splitTop(st.text(l)), splitTop(st.text(r)))
	case "tsw": // switch v := x.(type): v has another type in every case
		st.unknowns(it, sc, "alias", "?type switch variable")
	case "recv":
		st.unknowns(it, sc, "left", "?received value")
	case "range":
		// for k, v := range x: v is an element of x ("x[r]": of a slice
		// or array, a value of a map, nothing else); k and a lone
		// variable, an index, a key or a received value, stay unknown.
		if !sc.inFunc() {
			return
		}
		l, _ := it.get("left")
		r, _ := it.get("right")
		names := splitTop(st.text(l))
		for i, n := range names {
			v := "?range variable"
			if i == 1 && len(names) == 2 {
				if x := normExpr(st.text(r), sc.lookup, sc.typeParams()); !strings.HasPrefix(x, "?") && !strings.Contains(x, "|") {
					v = x + "[r]"
				}
			}
			sc.bindAfter(it.end, strings.TrimSpace(n), v)
		}
	case "funclitparams":
		if sc == nil {
			return
		}
		// The function literal spans from its params to its end; the
		// func_literal capture itself comes first and opened the scope.
		if sc.env != nil && len(sc.params) == 0 && sc.outer != nil {
			sc.params = []span{it.span}
		}
	case "funclit":
		if sc == nil {
			return
		}
		st.scopes = &scope{end: it.end, sym: sc.sym, env: map[string]string{}, outer: sc}
	case "loop":
		if sc != nil {
			sc.loops = append(sc.loops, it.end)
		}
	case "cond":
		if sc != nil {
			sc.conds = append(sc.conds, it.end)
		}
	case "call":
		st.call(it, sc)
	case "conv":
		// G[A](x): a conversion or a call of a generic function, which
		// the resolver tells apart; the name G is no type use besides.
		st.call(it, sc)
		fn, _ := it.get("fn")
		st.uses.taken = fn.start
	case "clit":
		st.compositeLiteral(it)
	case "tid", "tq":
		st.typeUse(it, sc)
	}
}

// unknowns binds the names listed in a sub-capture to a value of unknown type.
func (st *fileState) unknowns(it *item, sc *scope, field, why string) {
	if !sc.inFunc() {
		return
	}
	l, _ := it.get(field)
	for _, n := range splitTop(st.text(l)) {
		sc.bind(strings.TrimSpace(n), why)
	}
}

func inAny(s span, spans []span) bool {
	for _, p := range spans {
		if s.start >= p.start && s.end <= p.end {
			return true
		}
	}
	return false
}

// member returns the type whose body directly holds the current position.
func (st *fileState) member() (typeDecl, bool) {
	if len(st.types) == 0 || len(st.literals) == 0 {
		return typeDecl{}, false
	}
	td := st.types[len(st.types)-1]
	return td, st.literals[len(st.literals)-1] == td.body
}

func (st *fileState) ref(kind string, src uint64, target, expr string, s span) {
	line, col := st.pos(s.start)
	st.res.Refs = append(st.res.Refs, schemas.Ref{
		File: st.file, Src: src, Kind: kind, Target: target, Expr: expr, Line: line, Col: col,
	})
}

func (st *fileState) node(kind, name, qname string, s span, parent uint64) *schemas.Node {
	sl, sc := st.pos(s.start)
	el, ec := st.pos(s.end)
	st.res.Nodes = append(st.res.Nodes, schemas.Node{
		ID: st.ids.Next(kind, qname), Kind: kind, Name: name, QualifiedName: qname,
		Language: "go", File: st.file, StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec,
		StartByte: s.start, EndByte: s.end, ParentID: parent,
		Visibility: visibility(name), Exported: exported(name),
		Doc: st.doc(s.start),
	})
	return &st.res.Nodes[len(st.res.Nodes)-1]
}

func exported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

func visibility(name string) string {
	if exported(name) {
		return schemas.Public
	}
	return schemas.Private
}

// doc returns the comment lines directly above the line of offset: a run
// of // lines, or one /* */ block. It reads the source text, which costs far
// less than matching every comment in the query.
func (st *fileState) doc(off uint32) string {
	line, _ := st.pos(off)
	var parts []string
	for l := int(line) - 1; l >= 1; l-- {
		text := strings.TrimSpace(st.lineText(l))
		if s, ok := strings.CutPrefix(text, "//"); ok {
			parts = append(parts, strings.TrimPrefix(s, " "))
			continue
		}
		if len(parts) == 0 && strings.HasSuffix(text, "*/") {
			// A block comment ending right above: find where it opens.
			var block []string
			for ; l >= 1; l-- {
				t := st.lineText(l)
				block = append(block, t)
				if i := strings.Index(t, "/*"); i >= 0 {
					if strings.TrimSpace(t[:i]) != "" {
						return "" // a comment after code
					}
					break
				}
			}
			slices.Reverse(block)
			b := strings.Join(block, "\n")
			b = strings.TrimSpace(b)
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(b, "/*"), "*/"))
		}
		break
	}
	slices.Reverse(parts)
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// lineText returns line l (1-based) without its newline.
func (st *fileState) lineText(l int) string {
	start := st.lines[l-1]
	end := uint32(len(st.src))
	if l < len(st.lines) {
		end = st.lines[l] - 1
	}
	return string(st.src[start:end])
}

// buildConstraint returns the //go:build expression above the package clause.
func buildConstraint(src []byte) string {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		t := bytes.TrimSpace(line)
		if rest, ok := bytes.CutPrefix(t, []byte("//go:build ")); ok {
			return string(bytes.TrimSpace(rest))
		}
		if bytes.HasPrefix(t, []byte("package ")) {
			break
		}
	}
	return ""
}

func bodyHash(src []byte, s span) uint64 { return xxhash.Sum64(src[s.start:s.end]) }

// header is the text of a declaration up to its body, on one line.
func (st *fileState) header(it *item) string {
	end := it.end
	if b, ok := it.get("body"); ok {
		end = b.start
	}
	return joinFields(st.text(span{it.start, end}), " ")
}

func isTestFunc(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			if rest == "" || !unicode.IsLower(r) {
				return true
			}
		}
	}
	return false
}

func (st *fileState) function(it *item, sc *scope) {
	if sc != nil {
		return
	}
	ns, _ := it.get("name")
	name := st.text(ns)
	n := st.node(schemas.KindFunction, name, st.pkgPath+"."+name, it.span, 0)
	n.Signature = st.header(it)
	n.IsTest = st.res.IsTest && isTestFunc(name)
	if b, ok := it.get("body"); ok {
		n.BodyHash = bodyHash(st.src, b)
	}
	var tparams map[string]bool
	if tp, ok := it.get("tparams"); ok {
		tparams = typeParamNames(st.text(tp))
	}
	st.openBody(it, n.ID, tparams)
}

// openBody opens the scope of a function or method body: its parameters
// and named results are its first locals, and its first result type is
// recorded for calls on its value.
func (st *fileState) openBody(it *item, id uint64, tparams map[string]bool) *scope {
	fs := &scope{end: it.end, sym: id, env: map[string]string{}, tparams: tparams}
	if p, ok := it.get("params"); ok {
		fs.params = append(fs.params, p)
	}
	if r, ok := it.get("result"); ok {
		fs.params = append(fs.params, r) // named results are locals too
		if t := firstResult(st.text(r), tparams); !strings.HasPrefix(t, "?") {
			st.ref(schemas.RefResult, id, st.text(r), t, r)
		}
	}
	st.scopes = fs
	return fs
}

func (st *fileState) method(it *item, sc *scope) {
	if sc != nil {
		return
	}
	ns, _ := it.get("name")
	rs, _ := it.get("recv")
	name := st.text(ns)
	recvName, recvType, ptr, tparams := parseReceiver(st.text(rs))
	if recvType == "" {
		return
	}
	q := st.pkgPath + "." + recvType + "." + name
	if ptr {
		q = st.pkgPath + ".(*" + recvType + ")." + name
	}
	n := st.node(schemas.KindMethod, name, q, it.span, 0)
	n.Signature = st.header(it)
	n.IsTest = false
	if b, ok := it.get("body"); ok {
		n.BodyHash = bodyHash(st.src, b)
	}
	id := n.ID
	st.ref(schemas.RefType, id, recvType, "{"+recvType+"}", rs)
	st.openBody(it, id, tparams).bind(recvName, "{"+recvType+"}")
}

// parseReceiver reads "(s *Server)", "(*Server)" or "(l *List[T])".
func parseReceiver(s string) (name, typ string, ptr bool, tparams map[string]bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "("), ")"))
	fields := strings.Fields(s)
	switch len(fields) {
	case 0:
		return "", "", false, nil
	case 1:
		typ = fields[0]
	default:
		name, typ = fields[0], strings.Join(fields[1:], "")
	}
	if strings.HasPrefix(typ, "*") {
		ptr, typ = true, typ[1:]
	}
	if i := strings.IndexByte(typ, '['); i > 0 {
		tparams = typeParamNames(typ[i:])
		typ = typ[:i]
	}
	if !isIdent(typ) {
		return "", "", false, nil
	}
	return name, typ, ptr, tparams
}

// typeParamNames reads "[K comparable, V any]" or "[T]" into names.
func typeParamNames(s string) map[string]bool {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "["), "]")
	names := make(map[string]bool)
	for _, part := range splitTop(s) {
		if f := strings.Fields(part); len(f) > 0 && isIdent(f[0]) {
			names[f[0]] = true
		}
	}
	return names
}

// firstResult normalizes the first result type of "T", "(T, error)" or
// "(n int, err error)".
func firstResult(s string, tparams map[string]bool) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		types := paramTypes(s[1 : len(s)-1])
		if len(types) == 0 {
			return "?no result"
		}
		s = types[0]
	}
	return normType(s, tparams)
}

// splitTop splits s at commas outside brackets and strings.
func splitTop(s string) []string { return splitAt(s, ',') }

// splitAt splits s at sep outside brackets and strings.
func splitAt(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'', '`':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' && q != '`' {
					i++
				}
			}
		case sep:
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

func (st *fileState) typeSpec(it *item) {
	ns, _ := it.get("name")
	ts, _ := it.get("type")
	name := st.text(ns)
	kind := schemas.KindType
	typeText := st.text(ts)
	switch {
	case it.kind == "alias":
		kind = schemas.KindTypeAlias
	case strings.HasPrefix(typeText, "struct"):
		kind = schemas.KindStruct
	case strings.HasPrefix(typeText, "interface"):
		kind = schemas.KindInterface
	}
	n := st.node(kind, name, st.pkgPath+"."+name, it.span, 0)
	if start, ok := declStart(st.src, it.start); ok {
		n.Doc = st.doc(start)
	}
	n.Signature = joinFields("type "+st.text(ns)+firstLineOf(typeText), " ")
	n.BodyHash = bodyHash(st.src, ts)
	id := n.ID
	var tparams map[string]bool
	if tp, ok := it.get("tparams"); ok {
		tparams = typeParamNames(st.text(tp))
	}
	st.uses.own(it.end, id, tparams)
	switch kind {
	case schemas.KindStruct, schemas.KindInterface:
		st.types = append(st.types, typeDecl{id: id, qname: n.QualifiedName, body: ts})
	default:
		if t := normType(typeText, nil); !strings.HasPrefix(t, "?") {
			st.ref(schemas.RefType, id, typeText, t, ts)
		}
	}
}

// declStart finds "type" before a single spec ("type T struct" has its doc
// above the keyword; a grouped spec has it above the spec).
func declStart(src []byte, off uint32) (uint32, bool) {
	i := int(off)
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i >= 4 && string(src[i-4:i]) == "type" {
		return uint32(i - 4), true
	}
	return off, false
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return " " + s
}

func (st *fileState) field(it *item) {
	td, ok := st.member()
	if !ok {
		return
	}
	ts, _ := it.get("type")
	typeText := st.text(ts)
	t := normType(typeText, nil)
	names := it.all("name")
	if len(names) == 0 {
		// An embedded field, named after its type.
		base := strings.TrimLeft(typeText, "*")
		if i := strings.IndexByte(base, '['); i > 0 {
			base = base[:i]
		}
		if i := strings.LastIndexByte(base, '.'); i >= 0 {
			base = base[i+1:]
		}
		if !isIdent(base) {
			return
		}
		n := st.node(schemas.KindField, base, td.qname+"."+base, it.span, td.id)
		n.Signature = joinFields(st.text(it.span), " ")
		fid := n.ID
		st.uses.own(it.end, fid, nil)
		if !strings.HasPrefix(t, "?") {
			st.ref(schemas.RefType, fid, typeText, t, ts)
			st.ref(schemas.RefEmbeds, td.id, typeText, t, ts)
		}
		return
	}
	for i, ns := range names {
		name := st.text(ns)
		n := st.node(schemas.KindField, name, td.qname+"."+name, it.span, td.id)
		n.Signature = name + " " + joinFields(typeText, " ")
		if i == 0 {
			st.uses.own(it.end, n.ID, nil) // the type's uses are the first field's
		}
		if !strings.HasPrefix(t, "?") {
			st.ref(schemas.RefType, n.ID, typeText, t, ts)
		}
	}
}

func (st *fileState) methodElem(it *item) {
	td, ok := st.member()
	if !ok {
		return
	}
	ns, _ := it.get("name")
	name := st.text(ns)
	n := st.node(schemas.KindMethod, name, td.qname+"."+name, it.span, td.id)
	n.Signature = joinFields(st.text(it.span), " ")
	n.IsAbstract = true
	id := n.ID
	st.uses.own(it.end, id, nil)
	if r, ok := it.get("result"); ok {
		if t := firstResult(st.text(r), nil); !strings.HasPrefix(t, "?") {
			st.ref(schemas.RefResult, id, st.text(r), t, r)
		}
	}
}

func (st *fileState) valueSpec(it *item, sc *scope) {
	names := it.all("name")
	ts, hasType := it.get("type")
	var values []string
	if vs, ok := it.get("value"); ok {
		values = splitTop(st.text(vs))
	}
	if sc.inFunc() {
		if it.kind == "const" {
			return
		}
		for i, ns := range names {
			v := "?no value"
			switch {
			case hasType:
				v = normType(st.text(ts), sc.typeParams())
			case len(values) == len(names):
				v = normExpr(values[i], sc.lookup, sc.typeParams())
			case len(values) == 1 && i == 0:
				v = normExpr(values[0], sc.lookup, sc.typeParams())
			}
			sc.bindAfter(it.end, st.text(ns), v)
		}
		return
	}
	if sc != nil {
		return // inside a function literal at package level, or similar
	}
	kind := schemas.KindVariable
	if it.kind == "const" {
		kind = schemas.KindConstant
	}
	var last *schemas.Node
	for i, ns := range names {
		name := st.text(ns)
		if name == "_" {
			continue
		}
		n := st.node(kind, name, st.pkgPath+"."+name, it.span, 0)
		if start, ok := specStart(st.src, it.start, it.kind); ok {
			n.Doc = st.doc(start)
		}
		n.Signature = joinFields(firstLineOf(st.text(it.span)), " ")
		id := n.ID
		switch {
		case hasType:
			if t := normType(st.text(ts), nil); !strings.HasPrefix(t, "?") {
				st.ref(schemas.RefType, id, st.text(ts), t, ts)
			}
		case len(values) == len(names) && kind == schemas.KindVariable:
			if v := normExpr(values[i], noLocals, nil); !strings.HasPrefix(v, "?") {
				st.ref(schemas.RefType, id, values[i], "="+v, it.span)
			}
		}
		last = &st.res.Nodes[len(st.res.Nodes)-1]
	}
	if last != nil {
		// Calls in the initializer belong to the (last) variable.
		st.scopes = &scope{end: it.end, sym: last.ID}
	}
}

func noLocals(string) (string, bool) { return "", false }

func specStart(src []byte, off uint32, kw string) (uint32, bool) {
	i := int(off)
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i >= len(kw) && string(src[i-len(kw):i]) == kw {
		return uint32(i - len(kw)), true
	}
	return off, false
}

// assign binds the names of a short variable declaration.
func (st *fileState) assign(sc *scope, end uint32, left, right []string) {
	tp := sc.typeParams()
	for i, l := range left {
		name := strings.TrimSpace(l)
		v := "?multiple values"
		switch {
		case len(right) == len(left):
			v = normExpr(right[i], sc.lookup, tp)
		case len(right) == 1 && i == 0:
			v = normExpr(right[0], sc.lookup, tp)
			if !strings.HasSuffix(v, "()") && !strings.HasPrefix(v, "{") {
				v = "?multiple values" // v, ok := m[k] and the like
			}
		}
		sc.bindAfter(end, name, v)
	}
}

func (st *fileState) call(it *item, sc *scope) {
	fn, _ := it.get("fn")
	args, _ := it.get("args")
	fnText := st.text(fn)
	if fnText == "new" && (sc == nil || !isLocalName(fnText, sc)) {
		st.constructs(args)
	}
	var expr string
	switch {
	case sc == nil:
		expr = normExpr(fnText, noLocals, nil)
	case isLocalName(strings.TrimSpace(fnText), sc):
		// f() where f is a local or parameter: a function value, which
		// has no static callee whatever it was last assigned.
		expr = "?call of a local function value"
	default:
		expr = normExpr(fnText, sc.lookup, sc.typeParams())
	}
	switch expr {
	case "?composite literal", "?composite type", "?function literal":
		return // a conversion to an unnamed type, or an immediately called literal
	}
	src := st.fileID
	if sc != nil {
		src = sc.sym
	}
	line, col := st.pos(fn.start)
	ab := st.src[args.start:args.end]
	ab = bytes.TrimSuffix(bytes.TrimPrefix(ab, []byte("(")), []byte(")"))
	a, longer := srctext.Words(ab, maxArgs)
	if longer {
		a += "…"
	}
	r := schemas.Ref{
		File: st.file, Src: src, Kind: schemas.EdgeCalls, Target: joinFields(fnText, ""),
		Expr: expr, Line: line, Col: col, Args: a,
	}
	if sc != nil {
		r.InLoop = len(sc.loops) > 0
		r.Conditional = len(sc.conds) > 0
	}
	st.res.Refs = append(st.res.Refs, r)
}

func isGenerated(src []byte) bool {
	head := src[:min(len(src), 4096)]
	for _, line := range strings.Split(string(head), "\n") {
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(strings.TrimSpace(line), "DO NOT EDIT.") {
			return true
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return false
}

func isLocalName(s string, sc *scope) bool {
	if !isIdent(s) {
		return false
	}
	_, ok := sc.lookup(s)
	return ok
}
