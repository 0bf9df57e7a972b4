package kotlin

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// The arguments of a call, as its Expr records them for the resolver to
// tell overloads apart (see Expr): the type of each argument where the
// code at hand tells it.

const (
	argUnknown = "?"
	argNull    = "?null"
	argFn      = "?fn"  // a lambda, an anonymous function, a value of function type
	argInt     = "#"    // an integer literal: an Int that adapts to Long, Short and Byte
	argSpread  = "*"    // a spread array, *a
	argLambda  = "~?fn" // a trailing lambda
)

// argSpan is one argument in parentheses: all of it (a name, =, *) and
// its value.
type argSpan struct{ all, value span }

// argList returns the arguments of a call: "(" [arg {"," arg}] ")", the
// trailing lambda last when lambda is set.
func (f *fileState) argList(args []argSpan, lambda bool, depth int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.arg(a, depth))
	}
	if lambda {
		if len(args) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(argLambda)
	}
	b.WriteByte(')')
	return b.String()
}

// arg returns one argument: [name "="] value, or "*" for a spread array.
func (f *fileState) arg(a argSpan, depth int) string {
	if a.value == (span{}) {
		return argUnknown
	}
	before := f.Str[a.all.Start:a.value.Start]
	if strings.Contains(before, "*") || strings.HasPrefix(f.Text(a.value), "*") {
		return argSpread
	}
	v := f.argValue(a.value, depth)
	if name, _, ok := strings.Cut(before, "="); ok {
		return strings.Trim(strings.TrimSpace(name), "`") + "=" + v
	}
	return v
}

// argValue returns the type of the argument at s: "{" type "}" (type
// as written, "?" after a nullable one), "#" for an integer literal,
// "this", ?null, ?fn, the Expr of a call, a name or a navigation the
// resolver evaluates, or "?" when it is not known here. A value a smart
// cast may have narrowed (a test with is, as, == null or != null earlier
// in its declaration) is not known.
func (f *fileState) argValue(s span, depth int) string {
	if depth > indexer.MaxExprDepth {
		return argUnknown
	}
	t := f.Text(s)
	if i, ok := f.exprs[s.Key()]; ok && f.Items[i].Kind == kParen {
		return f.argValue(f.Items[i].Role[indexer.RoleValue], depth+1)
	}
	switch {
	case t == "null":
		return argNull
	case t == "true" || t == "false":
		return "{kotlin.Boolean}"
	case isStringLit(t):
		return "{kotlin.String}"
	case isCharLit(t):
		return "{kotlin.Char}"
	case t != "" && (t[0] >= '0' && t[0] <= '9' || t[0] == '.'):
		return numLiteral(t)
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, "fun") && strings.HasPrefix(strings.TrimSpace(t[3:]), "("):
		return argFn
	}
	if v, typ, ok := strings.Cut(t, " as"); ok && f.stable(strings.TrimSpace(v)) {
		return cast(typ, s.Start, f)
	}
	if !f.stable(t) || f.smartCast(t, s.Start) {
		return argUnknown
	}
	if t == "this" {
		if f.inLambda(s.Start) {
			return argUnknown
		}
		if e := f.this(s.Start); e != "this" {
			return f.declared(f.Text(f.innermostExtension(s.Start).recv), s.Start)
		}
		return "this"
	}
	if isIdent(t) {
		b := f.lookup(t, s.Start)
		switch {
		case (b == nil || b.member) && f.implicitReceiver(s.Start), b == nil && f.inLambda(s.Start):
			return argUnknown // a member of a receiver the lambda may have
		case b == nil:
			return t
		case b.local || b.vararg:
			return argUnknown
		case b.typ != (span{}):
			return f.declared(f.Text(b.typ), s.Start)
		case b.value != (span{}):
			return f.argValue(b.value, depth+1)
		}
		return argUnknown
	}
	if _, ok := f.exprs[s.Key()]; !ok || f.inLambda(s.Start) {
		return argUnknown
	}
	e := f.expr(s, depth+1)
	if strings.HasPrefix(e, "?") {
		return argUnknown
	}
	return e
}

// cast returns the argument a cast to t is: what follows " as" in
// v as T or v as? T.
func cast(t string, p uint32, f *fileState) string {
	t, safe := strings.CutPrefix(t, "?")
	if !strings.HasPrefix(t, " ") || userTypeName(strings.TrimSuffix(strings.TrimSpace(t), "?")) == "" {
		return argUnknown
	}
	if safe {
		t = strings.TrimSuffix(strings.TrimSpace(t), "?") + "?"
	}
	return f.declared(t, p)
}

// declared returns the argument a value of declared type t is, at p.
func (f *fileState) declared(t string, p uint32) string {
	t = strings.TrimSpace(t)
	n := typeName(t)
	switch {
	case n == "" && strings.Contains(t, "->") && !strings.HasSuffix(t, "?"):
		return argFn
	case n == "", f.tvars.Has(n, p):
		return argUnknown
	case strings.HasSuffix(t, "?"):
		return "{" + n + "?}"
	}
	return "{" + n + "}"
}

// stable reports whether t is a name or a chain of names and calls,
// with no operator: the text of one value. Space may stand only around
// the dots of a chain.
func (f *fileState) stable(t string) bool {
	depth := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '(' || c == '[' || c == '<' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '>' || c == '}':
			depth--
		case depth > 0:
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j := srctext.SkipSpace(t, i)
			if j < len(t) && t[j] != '.' && strings.TrimSpace(t[:i])[len(strings.TrimSpace(t[:i]))-1] != '.' {
				return false
			}
		case c == '.' || c == '_' || c == '`' || c >= '0' && c <= '9' || srctext.IsIdentStart(c, ""):
		default:
			return false
		}
	}
	return depth == 0
}

// smartCast reports whether the value written t, used at p, may have
// been smart cast: its declaration's code before p tests it with is or
// !is, compares it with null, casts it with as, asserts it with !!, or
// checks it with a contract function, or a when takes it as subject.
func (f *fileState) smartCast(t string, p uint32) bool {
	if t == "" {
		return false
	}
	start := f.scopeStart(p)
	code := f.Str[start:p]
	for i := strings.Index(code, t); i >= 0; {
		before := strings.TrimSpace(code[:i])
		after := strings.TrimSpace(code[i+len(t):])
		whole := (i == 0 || !isNameByte(code[i-1]) && code[i-1] != '.') && (i+len(t) == len(code) || !isNameByte(code[i+len(t)]))
		if whole && (hasWord(after, "is") || hasWord(after, "!is") || hasWord(after, "as") ||
			strings.HasPrefix(after, "!= null") || strings.HasPrefix(after, "== null") ||
			strings.HasPrefix(after, "!!") || strings.HasPrefix(after, ".isNullOr") || strings.HasPrefix(after, "?.isNullOr") ||
			strings.HasSuffix(before, "null ==") || strings.HasSuffix(before, "null !=") ||
			strings.HasSuffix(before, "NotNull(") || strings.HasSuffix(before, "when (") || strings.HasSuffix(before, "when(")) {
			return true
		}
		j := strings.Index(code[i+1:], t)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isNameByte(c byte) bool { return c == '_' || c >= '0' && c <= '9' || srctext.IsIdentStart(c, "") }

// hasWord reports whether s starts with the word w.
func hasWord(s, w string) bool {
	return strings.HasPrefix(s, w) && (len(s) == len(w) || !isNameByte(s[len(w)]))
}

// scopeStart returns where the declaration around p starts (the start
// of the file outside one): the code a smart cast of a value used at p
// may be in. Declarations with nodes other than classes do not nest.
func (f *fileState) scopeStart(p uint32) uint32 {
	if f.scopes == nil {
		f.scopes = []span{}
		for i := range f.Nodes {
			if k := f.Nodes[i].Kind; k != schemas.KindClass && k != schemas.KindInterface && k != schemas.KindEnum {
				f.scopes = append(f.scopes, span{Start: f.Nodes[i].StartByte, End: f.Nodes[i].EndByte})
			}
		}
		slices.SortFunc(f.scopes, func(a, b span) int { return cmp.Compare(a.Start, b.Start) })
	}
	i, _ := slices.BinarySearchFunc(f.scopes, p+1, func(s span, p uint32) int { return cmp.Compare(s.Start, p) })
	// The last span starting at or before p, or the one before it (a
	// constructor around the property of one of its parameters).
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		if s := f.scopes[j]; p < s.End {
			return s.Start
		}
	}
	return 0
}

// this returns the Expr of this at p: in an extension function, the
// type of its receiver ({T}; ?expr in a lambda, which may have a receiver
// of its own).
func (f *fileState) this(p uint32) string {
	e := f.innermostExtension(p)
	switch {
	case f.implicitReceiver(p):
		return exprReceiver
	case e == nil:
		return "this"
	}
	return typeExpr(f.Text(e.recv))
}

// innermostExtension returns the innermost extension function around p,
// or nil.
func (f *fileState) innermostExtension(p uint32) *extension {
	var in *extension
	for i := range f.extensions {
		e := &f.extensions[i]
		if e.fun.Start > p {
			break
		}
		if p < e.fun.End {
			in = e
		}
	}
	return in
}

// inLambda reports whether p is in a lambda or an object literal, where
// this and unqualified names may stand for a receiver the code does not
// tell.
func (f *fileState) inLambda(p uint32) bool {
	for _, l := range f.lambdas {
		if l.Start > p {
			break
		}
		if p < l.End {
			return true
		}
	}
	return false
}

// implicitReceiver reports whether code at p is in a lambda that may
// have a receiver (one not passed to a function of noReceiver) or in an
// object literal: this and unqualified names there may be its members.
func (f *fileState) implicitReceiver(p uint32) bool {
	for _, l := range f.lambdas {
		if l.Start > p {
			break
		}
		if p < l.End && (l.anon || !f.plain[l.End]) {
			return true
		}
	}
	return false
}

// isStringLit reports whether t is one string literal, "..." or
// """...""".
func isStringLit(t string) bool {
	if strings.HasPrefix(t, `"""`) {
		return len(t) >= 6 && strings.HasSuffix(t, `"""`) && !strings.Contains(t[3:len(t)-3], `"""`)
	}
	if len(t) < 2 || t[0] != '"' {
		return false
	}
	depth := 0 // inside ${...}
	for i := 1; i < len(t); i++ {
		switch c := t[i]; {
		case c == '\\':
			i++
		case c == '$' && i+1 < len(t) && t[i+1] == '{':
			depth++
			i++
		case c == '}' && depth > 0:
			depth--
		case c == '"' && depth == 0:
			return i == len(t)-1
		}
	}
	return false
}

// isCharLit reports whether t is one character literal.
func isCharLit(t string) bool {
	if len(t) < 3 || t[0] != '\'' || t[len(t)-1] != '\'' {
		return false
	}
	in := t[1 : len(t)-1]
	if in[0] == '\\' {
		return len(in) >= 2 && !strings.Contains(in[2:], "'")
	}
	return utf8.RuneCountInString(in) == 1
}

// numLiteral returns the argument a number literal is: "#" for an
// integer one, {kotlin.Long}, {kotlin.Double} or {kotlin.Float}; "?" for
// an unsigned one or any other text.
func numLiteral(t string) string {
	l := strings.ToLower(strings.ReplaceAll(t, "_", ""))
	hex := strings.HasPrefix(l, "0x")
	bin := strings.HasPrefix(l, "0b")
	body := l
	if hex || bin {
		body = l[2:]
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		ok := c >= '0' && c <= '9' || hex && c >= 'a' && c <= 'f' ||
			!hex && !bin && (c == '.' || c == 'e' || (c == '+' || c == '-') && i > 0 && body[i-1] == 'e') ||
			i == len(body)-1 && (c == 'l' || !hex && !bin && c == 'f')
		if !ok {
			return argUnknown
		}
	}
	switch {
	case body == "":
		return argUnknown
	case strings.HasSuffix(body, "l"):
		return "{kotlin.Long}"
	case strings.HasSuffix(body, "f") && !hex:
		return "{kotlin.Float}"
	case !hex && !bin && strings.ContainsAny(body, ".e"):
		return "{kotlin.Double}"
	}
	return argInt
}
