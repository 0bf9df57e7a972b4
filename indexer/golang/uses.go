package golang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphsnap/snap/schemas"
)

// A type's uses: every type name the grammar shows (a type_identifier, or
// a qualified_type pkg.T) outside its own declaration is a `references`
// ref of the innermost symbol holding it, or an `instantiates` ref when
// it is the type a composite literal or new(T) constructs. Expr is `{T}`
// or `{pkg.T}`, or `?` and why it names no declaration of the snapshot.
// Builtin types and type parameters make no ref, as calls of builtins
// make none. Conversions T(x) are calls for the grammar: the resolver
// turns those whose callee is a type into `references` edges.

// useState is what the extraction of a file knows of the type names to
// come.
type useState struct {
	owners    []owner // open package-level declarations, innermost last
	decl      span    // the name of the type being declared
	qualified span    // the last pkg.T: its T is no use of its own
	construct uint32  // where the type a literal or new(T) constructs starts
	taken     uint32  // where a name with an edge of its own starts (below)
}

// A name with an edge of its own: an interface's embedded type (extends),
// the callee of G[A](x) (a calls or a conversion's references edge).

// owner is a package-level type, field or interface method: the type
// names in its span are its uses.
type owner struct {
	end     uint32
	id      uint64
	tparams map[string]bool
}

// own opens a declaration until end; one without type parameters of its
// own sees those of the declaration holding it.
func (u *useState) own(end uint32, id uint64, tparams map[string]bool) {
	if tparams == nil && len(u.owners) > 0 {
		tparams = u.owners[len(u.owners)-1].tparams
	}
	u.owners = append(u.owners, owner{end, id, tparams})
}

// declareType records a type declared in a function body: the same name
// used after it in the body is not the package's.
func (s *scope) declareType(name string) {
	if s.types == nil {
		s.types = make(map[string]bool)
	}
	s.types[name] = true
}

func (s *scope) localType(name string) bool {
	for ; s != nil; s = s.outer {
		if s.types[name] {
			return true
		}
	}
	return false
}

// typeUse records the use of a type name, a "tid" or "tq" item.
func (st *fileState) typeUse(it *item, sc *scope) {
	u := &st.uses
	s := it.span
	if s.start == s.end {
		return // a name the parser supplied for one that is missing
	}
	if it.kind == "tq" {
		u.qualified = s
	} else if s.start >= u.qualified.start && s.end <= u.qualified.end {
		return // the T of pkg.T
	}
	if s == u.decl || (s.start == u.taken && u.taken != 0) {
		return
	}
	text := st.text(s)
	src := st.fileID
	var tparams map[string]bool
	switch {
	case len(u.owners) > 0:
		o := u.owners[len(u.owners)-1]
		src, tparams = o.id, o.tparams
	case sc != nil:
		src, tparams = sc.sym, sc.typeParams()
	}
	var expr string
	switch {
	case it.kind == "tq":
		text = joinFields(text, "")
		expr = "{" + text + "}"
	case builtinTypes[text] || tparams[text]:
		return
	case sc.localType(text):
		expr = "?type declared in a function"
	default:
		expr = "{" + text + "}"
	}
	kind := schemas.EdgeReferences
	if s.start == u.construct {
		kind = schemas.EdgeInstantiates
	}
	st.ref(kind, src, text, expr, s)
}

// compositeLiteral notes the type a composite literal constructs: its
// own when named (T{}, pkg.T{}, G[A]{}), or the named element type of a
// slice, array or map literal whose elements leave it out ([]T{{…}},
// []*T{{…}}, map[K]T{k: {…}}).
func (st *fileState) compositeLiteral(it *item) {
	ts, _ := it.get("type")
	body, _ := it.get("body")
	t := st.text(ts)
	if startsName(t) {
		if !strings.HasPrefix(t, "map") || !strings.HasPrefix(strings.TrimSpace(t[3:]), "[") {
			st.uses.construct = ts.start
			return
		}
	}
	if at, ok := elementType(t); ok && elidesType(st.text(body)) {
		st.uses.construct = ts.start + uint32(at)
	}
}

// constructs notes the type new(T) constructs, when named.
func (st *fileState) constructs(args span) {
	a := st.text(args)
	i := 1
	for i < len(a) && (a[i] == ' ' || a[i] == '\t' || a[i] == '\n') {
		i++
	}
	if i < len(a) && startsName(a[i:]) {
		st.uses.construct = args.start + uint32(i)
	}
}

func startsName(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r)
}

// elementType finds where the element type of "[]*T", "[N]T" or
// "map[K]T" starts, when it is a name.
func elementType(t string) (int, bool) {
	i := 0
	if strings.HasPrefix(t, "map") {
		i = 3
	}
	p := &exprParser{s: t, i: i}
	p.space()
	if _, ok := p.group('[', ']'); !ok {
		return 0, false
	}
	for p.space(); p.i < len(t) && t[p.i] == '*'; p.space() {
		p.i++
	}
	if p.i < len(t) && startsName(t[p.i:]) {
		return p.i, true
	}
	return 0, false
}

// elidesType reports whether some element of a literal's body, "{…}", is
// itself a literal whose type is left out: "{…}", or "k: {…}".
func elidesType(body string) bool {
	body = strings.TrimSpace(body)
	body = strings.TrimSuffix(strings.TrimPrefix(body, "{"), "}")
	for _, e := range splitTop(body) {
		if strings.HasPrefix(e, "{") {
			return true
		}
		if kv := splitAt(e, ':'); len(kv) > 1 && strings.HasPrefix(kv[1], "{") {
			return true // key: {…}
		}
	}
	return false
}

// typeUse resolves a `references` or `instantiates` ref to the type it
// names.
func (r *resolver) typeUse(out *[]schemas.Edge, ref schemas.Ref) {
	f := r.files[ref.File]
	if f == nil {
		return
	}
	if why, ok := strings.CutPrefix(ref.Expr, "?"); ok {
		edge(out, ref, ref.Kind, 0, schemas.Unresolved, why)
		return
	}
	r.typeEdge(out, ref, ref.Kind, ref.Expr, f)
}

// conversion makes the `references` edge of a call whose callee is a type
// (T(x), pkg.T(x), (*T)(x)), at the type's name.
func (r *resolver) conversion(out *[]schemas.Edge, ref schemas.Ref, f *fileInfo) {
	name := strings.TrimSuffix(ref.Expr, "[]")
	if strings.ContainsAny(name, "(){}[]|?") {
		return
	}
	lead := strings.IndexFunc(ref.Target, func(c rune) bool { return c != '(' && c != '*' })
	if lead < 0 {
		return
	}
	ref.Col += uint32(lead)
	ref.Target = strings.TrimRight(ref.Target[lead:], ")")
	ref.Args = ""
	r.typeEdge(out, ref, schemas.EdgeReferences, "{"+name+"}", f)
}

// typeEdge links ref to the declaration of the type expr names: the one
// in ref's file when the type has one there, else the one built by
// default.
func (r *resolver) typeEdge(out *[]schemas.Edge, ref schemas.Ref, kind, expr string, f *fileInfo) {
	t, how, why := r.typeNamed(expr, f)
	if t == nil {
		edge(out, ref, kind, 0, schemas.Unresolved, why)
		return
	}
	var decls []int32
	for _, n := range t.nodes {
		if r.nodes[n].File == ref.File {
			decls = append(decls, n)
			break
		}
	}
	if decls == nil {
		decls = r.pick(t.nodes)
	}
	if len(decls) > 1 {
		edge(out, ref, kind, 0, schemas.Ambiguous, "several declarations (build variants)")
		return
	}
	edge(out, ref, kind, r.nodes[decls[0]].ID, how, "")
}
