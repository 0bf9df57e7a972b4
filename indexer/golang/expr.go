package golang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphsnap/snap/indexer"
)

// Expressions in refs.parquet (Ref.Expr) for Go, as the resolver reads them:
//
//	exprs   = expr { "|" expr }
//	expr    = head { "." name | "()" | "[]" | "[r]" }
//	head    = name | "{" type "}"
//	type    = name | pkg "." name        (pkg: an import name of the file)
//
// A name head is a package-level name or an import name of the file:
// locals and parameters are substituted at extraction by what they were
// bound to (a `{T}` for a declared type, or the expression they were
// assigned). "()" is a call (its value is the callee's first result),
// "[]" an index or an instantiation, "[r]" the value a two-variable range
// gives (an element of a slice or an array, a value of a map). A head
// "{[]T}" is a slice, array or map of T. An expression that cannot be written
// this way is "?" followed by the reason. Pointers are dropped: Go's method
// sets are looked up through them. Alternatives ("a|b") come from a local
// declared more than once with different values: the expression means
// something only when every alternative means the same.

// lookupFunc returns what a local name is bound to, if it is local.
type lookupFunc func(name string) (string, bool)

// normType normalizes a type as written into "{T}" or "{pkg.T}", "{[]T}"
// for a slice, array or map of T (the elements an index or a range gives),
// or "?…".
func normType(s string, tparams map[string]bool) string {
	s = strings.TrimSpace(s)
	for {
		switch {
		case strings.HasPrefix(s, "*"):
			s = strings.TrimSpace(s[1:])
			continue
		case strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")"):
			s = strings.TrimSpace(s[1 : len(s)-1])
			continue
		}
		break
	}
	if strings.HasPrefix(s, "[") {
		// A slice or an array: its elements are what an index gives.
		if i := strings.IndexByte(s, ']'); i > 0 {
			return container(s[i+1:], tparams)
		}
		return "?unnamed type"
	}
	if rest, ok := strings.CutPrefix(s, "map"); ok && strings.HasPrefix(rest, "[") {
		// A map: an index gives a value.
		if i := indexer.Closing(rest, '[', ']'); i >= 0 {
			return container(rest[i+1:], tparams)
		}
		return "?unnamed type"
	}
	if strings.HasPrefix(s, "<-") {
		return "?unnamed type"
	}
	for _, kw := range []string{"map", "chan", "func", "struct", "interface"} {
		if rest, ok := strings.CutPrefix(s, kw); ok && (rest == "" || !isIdent("a"+rest[:1])) {
			return "?unnamed type"
		}
	}
	if i := strings.IndexByte(s, '['); i > 0 {
		s = s[:i] // generic instantiation
	}
	pkg, name, qualified := strings.Cut(s, ".")
	if !qualified {
		pkg, name = "", s
	}
	if !isIdent(name) || (qualified && !isIdent(pkg)) {
		return "?unnamed type"
	}
	if !qualified && tparams[name] {
		return "?type parameter"
	}
	if !qualified && builtinTypes[name] {
		return "?builtin type " + name
	}
	if qualified {
		return "{" + pkg + "." + name + "}"
	}
	return "{" + name + "}"
}

// container is the type of a slice, array or map whose element type is
// elem as written: "{[]T}" when elem is a named type, "?unnamed type"
// otherwise (a slice of slices, of maps, of builtins).
func container(elem string, tparams map[string]bool) string {
	e := normType(elem, tparams)
	if !strings.HasPrefix(e, "{") || strings.HasPrefix(e, "{[]") {
		return "?unnamed type"
	}
	return "{[]" + e[1:]
}

var builtinTypes = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true,
	"float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"any": true, "comparable": true,
}

func isIdent(s string) bool {
	if s == "" || s == "_" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

// exprParser normalizes an expression as written into the form above.
type exprParser struct {
	s       string
	i       int
	lookup  lookupFunc
	tparams map[string]bool
	alts    []string // heads standing for the placeholder, when several
}

// placeholder stands for the head while the selectors after it are read,
// when the head has alternatives.
const placeholder = "\x00"

// normExpr normalizes the expression s, substituting locals through lookup.
func normExpr(s string, lookup lookupFunc, tparams map[string]bool) string {
	p := &exprParser{s: s, lookup: lookup, tparams: tparams}
	out := p.expr()
	if out == "" {
		return "?unsupported expression"
	}
	if out[0] != '?' {
		p.space()
		if p.i < len(p.s) {
			return "?operator expression"
		}
	}
	if p.alts != nil && strings.HasPrefix(out, placeholder) {
		var b strings.Builder
		for i, a := range p.alts {
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString(a)
			b.WriteString(out[len(placeholder):])
		}
		return b.String()
	}
	return out
}

// head returns v as the head of the expression, or the placeholder when v
// has alternatives.
func (p *exprParser) head(v string) string {
	if strings.Contains(v, "|") {
		p.alts = strings.Split(v, "|")
		return placeholder
	}
	return v
}

func (p *exprParser) space() {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case strings.HasPrefix(p.s[p.i:], "//"):
			j := strings.IndexByte(p.s[p.i:], '\n')
			if j < 0 {
				p.i = len(p.s)
			} else {
				p.i += j
			}
		case strings.HasPrefix(p.s[p.i:], "/*"):
			j := strings.Index(p.s[p.i+2:], "*/")
			if j < 0 {
				p.i = len(p.s)
			} else {
				p.i += j + 4
			}
		default:
			return
		}
	}
}

func (p *exprParser) ident() string {
	p.space()
	start := p.i
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if r == '_' || unicode.IsLetter(r) || (p.i > start && unicode.IsDigit(r)) {
			p.i += n
			continue
		}
		break
	}
	return p.s[start:p.i]
}

// group skips a bracketed group starting at p.i and returns its inside.
func (p *exprParser) group(open, close byte) (string, bool) {
	if p.i >= len(p.s) || p.s[p.i] != open {
		return "", false
	}
	depth, start := 0, p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch c {
		case '"', '\'', '`':
			p.skipString(c)
			continue
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				p.i++
				return p.s[start+1 : p.i-1], c == close
			}
		}
		p.i++
	}
	return "", false
}

func (p *exprParser) skipString(q byte) {
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '\\' && q != '`' {
			p.i += 2
			continue
		}
		p.i++
		if c == q {
			return
		}
	}
}

func (p *exprParser) expr() string {
	p.space()
	if p.i >= len(p.s) {
		return ""
	}
	var out string
	c := p.s[p.i]
	switch {
	case c == '&' || c == '*':
		p.i++
		return p.expr()
	case c == '(':
		inner, ok := p.group('(', ')')
		if !ok {
			return "?unbalanced parentheses"
		}
		out = normExpr(inner, p.lookup, p.tparams)
		if strings.HasPrefix(out, "?") {
			return out
		}
		if strings.Contains(out, "|") {
			return p.rest(p.head(out))
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '(' && !strings.Contains(out, "()") && isTypeLike(out) {
			// (T)(x) or (pkg.T)(x): a conversion.
			p.group('(', ')')
			out = "{" + strings.Trim(out, "{}") + "}"
		}
	case c == '[':
		return "?composite literal"
	case c == '_' || c >= utf8.RuneSelf || unicode.IsLetter(rune(c)):
		name := p.ident()
		switch name {
		case "func":
			return "?function literal"
		case "map", "chan", "struct", "interface":
			return "?composite type"
		case "new":
			p.space()
			if inner, ok := p.group('(', ')'); ok {
				return p.rest(normType(inner, p.tparams))
			}
		}
		if v, ok := p.lookup(name); ok {
			if strings.HasPrefix(v, "?") {
				return "?local " + name + ": " + v[1:]
			}
			out = p.head(v)
		} else {
			out = name
			if p.tparams[name] {
				return "?type parameter"
			}
			// pkg.T{…} or T{…}: a composite literal of a named type.
			save := p.i
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '.' {
				p.i++
				sel := p.ident()
				p.space()
				if sel != "" && p.i < len(p.s) && p.s[p.i] == '{' {
					p.group('{', '}')
					return p.rest("{" + name + "." + sel + "}")
				}
				p.i = save
			} else if p.i < len(p.s) && p.s[p.i] == '[' {
				// T[A]{…}: a generic composite literal.
				if _, ok := p.group('[', ']'); ok {
					p.space()
					if p.i < len(p.s) && p.s[p.i] == '{' {
						p.group('{', '}')
						return p.rest("{" + name + "}")
					}
				}
				p.i = save
			} else if p.i < len(p.s) && p.s[p.i] == '{' {
				p.group('{', '}')
				return p.rest("{" + name + "}")
			} else {
				p.i = save
			}
		}
	default:
		return indexer.ExprLiteral
	}
	return p.rest(out)
}

func isTypeLike(s string) bool {
	if strings.HasPrefix(s, "{") {
		return true
	}
	return !strings.ContainsAny(s, "(){}[]")
}

// rest parses selectors, calls, indexes and type assertions after a head.
func (p *exprParser) rest(out string) string {
	if strings.HasPrefix(out, "?") {
		return out
	}
	for {
		p.space()
		if p.i >= len(p.s) {
			return out
		}
		switch p.s[p.i] {
		case '.':
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '(' {
				inner, ok := p.group('(', ')')
				if !ok || strings.TrimSpace(inner) == "type" {
					return "?type switch"
				}
				out = normType(inner, p.tparams)
				if strings.HasPrefix(out, "?") {
					return out
				}
				continue
			}
			name := p.ident()
			if name == "" {
				return "?selector"
			}
			out += "." + name
		case '(':
			if _, ok := p.group('(', ')'); !ok {
				return "?unbalanced parentheses"
			}
			out += "()"
		case '[':
			if _, ok := p.group('[', ']'); !ok {
				return "?unbalanced brackets"
			}
			out += "[]"
		default:
			return out
		}
	}
}
