package scala

import (
	"regexp"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// The arguments of a call, as its Expr records them for the resolver to
// tell overloads of the same arity apart: the type of each argument where
// the code at hand tells it (see Expr).

const (
	argUnknown = "?"
	argInt     = "?int"  // an Int literal: it narrows to Byte, Short or Char when its value fits
	argNull    = "?null" // null: any reference type
	argSplat   = "?*"    // xs: _*, or name = v where a local is named name: no overload choice
	argPath    = "~"     // before the Expr of a member or object: its value's type

	// exprGiven is the type fact of a template (or file) declaring an
	// anonymous given conversion.
	exprGiven = "?given"
)

// argList returns the arguments of the argument list at s: "(" [ arg {
// "," arg } ] ")".
func (f *fileState) argList(s span, depth int) string {
	if strings.HasPrefix(f.Text(s), "{") {
		return "(" + argUnknown + ")" // f { ... }: one argument, a block
	}
	args := make([]string, len(f.argv[s.Start]))
	for i, a := range f.argv[s.Start] {
		args[i] = f.argOf(a, depth)
	}
	return "(" + strings.Join(args, ",") + ")"
}

// argOf returns the argument at s: its name and "=" when named, then
// "{" type "}" (a literal's type as scala.T, a local's or parameter's
// declared type, new T(...), e: T), "~" and the Expr of a member or
// object, ?int, ?null, ?* or ? when the type is not known here. In a file where a local implicit may convert a value, every
// argument is ?.
func (f *fileState) argOf(s span, depth int) string {
	t := f.Text(s)
	if name, ok := namedArg(t); ok {
		if f.lookup(name, s.Start) != nil {
			return argSplat // maybe an assignment to a local
		}
		v := span{Start: uint32(srctext.SkipSpace(f.Str, int(s.Start)+strings.IndexByte(t, '=')+1)), End: s.End}
		return name + "=" + f.argOf(v, depth+1)
	}
	if f.views || depth > indexer.MaxExprDepth {
		return argUnknown
	}
	for _, o := range f.opaque {
		if o.Start <= s.Start && s.Start < o.End {
			return argUnknown
		}
	}
	if i, ok := f.exprs[s.Key()]; ok {
		it := &f.Items[i]
		switch it.Kind {
		case kNew:
			if f.anonymous(it) {
				return argUnknown
			}
			if n := typeName(f.Text(it.Role[indexer.RoleType])); n != "" && !f.tvars.Heads(n, s.Start) && !strings.Contains(f.Text(it.Role[indexer.RoleType]), "[") {
				return "{" + n + "}" // type arguments' companions are in implicit scope: not known
			}
		case kParen:
			return f.argOf(it.Role[indexer.RoleValue], depth+1)
		case kField:
			return f.pathArg(s, depth)
		}
		return argUnknown
	}
	t = srctext.Squeeze(t)
	switch {
	case t == "null":
		return argNull
	case t == "true" || t == "false":
		return "{scala.Boolean}"
	case t == "":
		return argUnknown
	case t[0] == '"':
		return "{scala.String}" // java.lang.String, which Predef names String
	case t[0] == '\'' && len(t) >= 3 && t[len(t)-1] == '\'':
		return "{scala.Char}"
	case t[0] >= '0' && t[0] <= '9' || t[0] == '-' && len(t) > 1 && t[1] >= '0' && t[1] <= '9':
		return numLiteral(strings.TrimPrefix(t, "-"))
	case strings.HasSuffix(t, ":_*"):
		return argSplat
	case isIdent(t):
		b := f.lookup(t, s.Start)
		switch {
		case b == nil:
			return f.pathArg(s, depth) // a member, an object
		case b.value != span{}:
			// A val without a declared type: its initializer's, an Int
			// literal's widened to Int.
			if a := f.argOf(b.value, depth+1); a != argInt {
				return a
			}
			return "{scala.Int}"
		}
		e := b.expr.Get(func() string { return indexer.ExprExpr }, indexer.ExprExpr)
		if len(e) > 2 && e[0] == '{' && !b.generic && !f.tvars.Heads(e[1:len(e)-1], s.Start) {
			return e
		}
	}
	if typ, ok := ascribed(t); ok && !f.tvars.Heads(typ, s.Start) {
		return "{" + typ + "}"
	}
	return argUnknown
}

// pathArg returns "~" and the Expr of a name or a selection a.b with no
// call in it, whose value the resolver knows when it is a member or an
// object of the snapshot.
func (f *fileState) pathArg(s span, depth int) string {
	e := f.expr(s, depth+1)
	if e == "" || e[0] == '?' || strings.ContainsAny(e, "(),=") || strings.HasPrefix(e, "this") || strings.HasPrefix(e, "super") {
		return argUnknown
	}
	if t, ok := strings.CutPrefix(e, "{"); ok && f.tvars.Heads(t[:max(strings.IndexByte(t, '}'), 0)], s.Start) {
		return argUnknown // a value of a type parameter's type
	}
	return argPath + e
}

// ascribed returns the type of a typed expression e: T (T a type name).
func ascribed(t string) (string, bool) {
	if strings.Contains(t, "=>") || strings.ContainsAny(t, "\"'") {
		return "", false
	}
	depth, colon := 0, -1
	for i := range len(t) {
		switch t[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth == 0 {
				colon = i
			}
		}
	}
	if colon <= 0 {
		return "", false
	}
	typ := typeName(t[colon+1:])
	return typ, typ != "" && typ == strings.TrimSpace(t[colon+1:])
}

// anonymous reports whether the new expression it makes an anonymous
// class: new T(...) { ... }.
func (f *fileState) anonymous(it *item) bool {
	p := srctext.SkipSpace(f.Str, int(max(it.Role[indexer.RoleType].End, it.Role[indexer.RoleArgs].End)))
	return p < int(it.End) && f.Str[p] == '{'
}

// selfType matches a template body that opens with a self type,
// { self: T => ...: T's members are in scope.
var selfType = regexp.MustCompile(`^[{:]?\s*(?:[\pL_$][\pL\pN_$]*|this)\s*:[^={}]*=>`)

// namedArg reports whether the argument t is name = value, and its name.
func namedArg(t string) (string, bool) {
	i := strings.IndexByte(t, '=')
	if i <= 0 || i+1 < len(t) && (t[i+1] == '=' || t[i+1] == '>') {
		return "", false
	}
	name := strings.TrimSpace(t[:i])
	return name, isIdent(name)
}

// numLiteral returns the type of the numeric literal t (no sign).
func numLiteral(t string) string {
	t = strings.ToLower(strings.ReplaceAll(t, "_", ""))
	hex := strings.HasPrefix(t, "0x")
	switch {
	case strings.HasSuffix(t, "l"):
		return "{scala.Long}"
	case !hex && strings.HasSuffix(t, "f"):
		return "{scala.Float}"
	case !hex && (strings.HasSuffix(t, "d") || strings.ContainsAny(t, ".e")):
		return "{scala.Double}"
	}
	for i := range len(t) {
		if c := t[i]; !(c >= '0' && c <= '9' || hex && (c >= 'a' && c <= 'f' || c == 'x')) {
			return argUnknown
		}
	}
	return argInt
}

// mayConvert reports whether an implicit value of the type written t may
// be a conversion: a function type, a Conversion, an evidence of
// subtyping, or a type not written.
func mayConvert(t string) bool {
	t = strings.TrimSpace(t)
	return t == "" || strings.Contains(t, "=>") || strings.Contains(t, "<:<") || strings.Contains(t, "=:=") ||
		strings.Contains(t, "Conversion") || strings.Contains(t, "Function")
}

// implicitParams reports whether the parameter list at s is implicit (or
// using) and one of its parameters may be a conversion.
func (f *fileState) implicitParams(s span) bool {
	t := f.Text(s)
	p := srctext.SkipSpace(t, 1)
	if !strings.HasPrefix(t[p:], "implicit") && !strings.HasPrefix(t[p:], "using") {
		return false
	}
	for _, part := range strings.Split(stripGenerics(t[1:len(t)-1]), ",") {
		_, typ, _ := strings.Cut(part, ":")
		if mayConvert(typ) {
			return true
		}
	}
	return false
}

// lambdaImplicit matches an implicit lambda parameter, x in
// { implicit x => ... }: a value of unknown type in implicit scope.
var lambdaImplicit = regexp.MustCompile(`\bimplicit\s+[\pL_$][\pL\pN_$]*\s*=>`)

// implicitClassParams reports whether a class's parameter lists, from
// start to its body (or end), have an implicit one that may convert.
func (f *fileState) implicitClassParams(start, end uint32, body span) bool {
	if body.End > 0 {
		end = body.Start
	}
	t := f.Str[start:end]
	depth, open := 0, -1
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '(':
			if depth == 0 {
				open = i
			}
			depth++
		case ')':
			depth--
			if depth == 0 && open >= 0 && f.implicitParams(span{Start: start + uint32(open), End: start + uint32(i) + 1}) {
				return true
			}
		}
	}
	return false
}

// localConversion reports whether the local implicit def, val, var or
// given it may be an implicit conversion: a def with a parameter list
// that is not implicit, or a value that may be a function.
func (f *fileState) localConversion(it *item) bool {
	typ := ""
	if it.HasRole(indexer.RoleType) {
		typ = f.Text(it.Role[indexer.RoleType])
	}
	if it.Kind != kDef || !it.HasRole(indexer.RoleName) {
		return mayConvert(typ)
	}
	end := it.End
	switch {
	case it.HasRole(indexer.RoleType):
		end = it.Role[indexer.RoleType].Start
	case it.HasRole(indexer.RoleBody):
		end = it.Role[indexer.RoleBody].Start
	}
	h := strings.TrimSpace(stripGenerics(f.Str[it.Role[indexer.RoleName].End:end]))
	if strings.HasPrefix(h, "(") {
		p := srctext.SkipSpace(h, 1)
		if !strings.HasPrefix(h[p:], "implicit") && !strings.HasPrefix(h[p:], "using") {
			return true
		}
	}
	return mayConvert(typ)
}

// givenImport matches the given selector of a Scala 3 import.
var givenImport = regexp.MustCompile(`[.{,]\s*given\b`)

// anonGiven matches an anonymous given that may be a conversion (Scala
// 3), given Conversion[A, B] = ...: it makes no node.
var anonGiven = regexp.MustCompile(`\bgiven\s+(?:\[[^\]]*\]\s*)?(?:[\pL_$][\pL\pN_$]*\.)*Conversion\b`)

// anonymousGivens records a type fact "?given" on the innermost template
// around each anonymous given conversion, or on the file for one at the
// top level, for the resolver to know them in scope.
func (f *fileState) anonymousGivens() {
	for _, m := range anonGiven.FindAllStringIndex(f.Str, -1) {
		src, size := indexer.FileID(f.Path), uint32(len(f.Str)+1)
		for i := range f.Nodes {
			n := &f.Nodes[i]
			if (n.Kind == schemas.KindClass || n.Kind == schemas.KindTrait || n.Kind == schemas.KindModule || n.Kind == schemas.KindEnum) &&
				n.StartByte <= uint32(m[0]) && uint32(m[0]) < n.EndByte && n.EndByte-n.StartByte < size {
				src, size = n.ID, n.EndByte-n.StartByte
			}
		}
		f.AddRef(schemas.RefType, src, span{Start: uint32(m[0]), End: uint32(m[1])}, f.Str[m[0]:m[1]], exprGiven)
	}
}
