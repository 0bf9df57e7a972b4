package cfamily

import (
	"regexp"
	"strings"
)

// The static types of a C++ call's arguments, written after its argument
// count ("f(2:int,shop::Item*)") so that the resolver can tell overloads
// of one arity apart. A type is written as normType writes it; "0" is the
// literal 0 (an int and a null pointer constant), "nullptr" the null
// pointer, "this" a pointer to the enclosing class, "?" a type the facts
// do not tell.

// arithmetic maps the words of C++'s arithmetic types, as normType
// combines them, to the type they name.
var arithmetic = map[string]string{
	"bool": "bool", "char": "char", "signed char": "signed char", "unsigned char": "unsigned char",
	"wchar_t": "wchar_t", "char8_t": "char8_t", "char16_t": "char16_t", "char32_t": "char32_t",
	"short": "short", "short int": "short", "signed short": "short", "signed short int": "short",
	"unsigned short": "unsigned short", "unsigned short int": "unsigned short",
	"int": "int", "signed": "int", "signed int": "int", "unsigned": "unsigned int", "unsigned int": "unsigned int",
	"long": "long", "long int": "long", "signed long": "long", "signed long int": "long",
	"unsigned long": "unsigned long", "unsigned long int": "unsigned long",
	"long long": "long long", "long long int": "long long", "signed long long": "long long", "signed long long int": "long long",
	"unsigned long long": "unsigned long long", "unsigned long long int": "unsigned long long",
	"float": "float", "double": "double", "long double": "long double", "void": "void",
}

// normType normalizes a C++ type as written: qualifiers of the value
// itself dropped, "const " kept before a pointee, pointer marks kept,
// "const T&" read as T, "&" or "&&" kept after other references, template
// arguments and class keywords dropped. It returns "?" for what it
// cannot read (arrays, function pointers, auto, decltype, packs).
func normType(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	var words []string
	name, ptr, ref, constBefore := "", 0, "", false
	for p := 0; p < len(t); {
		c := t[p]
		switch {
		case isSpace(c):
			p++
		case c == '*':
			ptr++
			p++
		case c == '&':
			ref += "&"
			p++
		case c == '<':
			depth := 0
			for ; p < len(t); p++ {
				if t[p] == '<' {
					depth++
				} else if t[p] == '>' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			p++
		case isIdentStart(c) || c == ':':
			e := p
			for e < len(t) && (isIdentByte(t[e]) || t[e] == ':') {
				e++
			}
			w := strings.TrimPrefix(t[p:e], "::")
			p = e
			switch w {
			case "const":
				constBefore = constBefore || ptr == 0 // a const pointer is a pointer
			case "volatile", "struct", "class", "enum", "union", "typename":
			case "auto", "decltype":
				return "?"
			default:
				if _, ok := arithmetic[w]; ok || w == "signed" || w == "unsigned" {
					words = append(words, w)
				} else if name != "" || !isQName(w) {
					return "?"
				} else {
					name = w
				}
			}
		default:
			return "?"
		}
	}
	if name != "" && len(words) > 0 {
		return "?"
	}
	if name == "" {
		a, ok := arithmetic[strings.Join(words, " ")]
		if !ok {
			return "?"
		}
		name = a
	}
	if ref == "&" && constBefore && ptr == 0 {
		ref = ""
	}
	if constBefore && ptr > 0 {
		name = "const " + name
	}
	return name + strings.Repeat("*", ptr) + ref
}

// argTypes returns the types of the arguments of a call, their list at a,
// comma-separated.
func (f *fileState) argTypes(a span) string {
	var out []string
	for _, s := range argSpans(f.Str, a) {
		out = append(out, f.argType(s))
	}
	return strings.Join(out, ",")
}

// argSpans splits the argument list at a (its parentheses or braces
// included) at the commas outside brackets and literals.
func argSpans(src string, a span) []span {
	if a.End-a.Start < 2 {
		return nil
	}
	start, end := int(a.Start)+1, int(a.End)-1
	if strings.TrimSpace(src[start:end]) == "" {
		return nil
	}
	var out []span
	depth, from := 0, start
	for i := start; i < end; i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, span{Start: uint32(from), End: uint32(i)})
				from = i + 1
			}
		case '"', '\'':
			for i++; i < end && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		}
	}
	return append(out, span{Start: uint32(from), End: uint32(end)})
}

// argType returns the type of the argument at s.
func (f *fileState) argType(s span) string {
	t := strings.Join(strings.Fields(f.Text(s)), " ")
	switch {
	case t == "":
		return "?"
	case t == "this" || t == "nullptr":
		return t
	case t == "true" || t == "false":
		return "bool"
	case t[0] == '"' && literalEnd(t, 0) == len(t):
		return "const char*"
	case t[0] == '\'' && literalEnd(t, 0) == len(t):
		return "char"
	case t[0] >= '0' && t[0] <= '9' || t[0] == '.':
		return literalType(t)
	case isIdent(t):
		if b := f.lookup(t, s.Start); b != nil && b.typ != "" {
			return b.typ
		}
		return "?"
	case t[0] == '&' && isIdent(strings.TrimSpace(t[1:])):
		x := strings.TrimSpace(t[1:])
		if b := f.lookup(x, s.Start); b != nil && b.typ != "" && b.typ != "?" {
			return strings.TrimRight(b.typ, "&") + "*"
		}
		return "?"
	case strings.HasPrefix(t, "new "):
		return f.scoped(normType(strings.TrimPrefix(typeHead(t[4:]), "const ")), s.Start, "*")
	case strings.HasPrefix(t, "static_cast<"):
		if e := strings.Index(t, ">("); e > 0 && closing(t, e+1) == len(t)-1 {
			return f.scoped(normType(t[len("static_cast<"):e]), s.Start, "")
		}
	case t[0] == '(':
		// (T)x or (T)(x): a C-style cast of a name or of a parenthesized
		// expression, nothing after it.
		if e := closing(t, 0); e > 0 && e+1 < len(t) {
			rest := strings.TrimSpace(t[e+1:])
			if n := normType(t[1:e]); n != "?" && (isIdent(rest) || rest[0] == '(' && closing(rest, 0) == len(rest)-1) {
				return f.scoped(n, s.Start, "")
			}
		}
	}
	return "?"
}

// typeHead returns the type named at the start of a new expression.
func typeHead(t string) string {
	if i := strings.IndexAny(t, "({["); i >= 0 {
		return t[:i]
	}
	return t
}

// scoped returns the normalized type n written at p with suffix added,
// or "?" when it names a template parameter in scope.
func (f *fileState) scoped(n string, p uint32, suffix string) string {
	if n == "?" || strings.HasSuffix(n, "&") && suffix != "" {
		return "?"
	}
	base := strings.TrimRight(strings.TrimPrefix(n, "const "), "*&")
	head, _, _ := strings.Cut(base, "::")
	if f.tvars.Has(head, p) {
		return "?"
	}
	return n + suffix
}

// floatLiteral is a decimal floating-point literal, lower-cased.
var floatLiteral = regexp.MustCompile(`^([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?[fl]?$`)

// literalType returns the type of a numeric literal, or "?" for an
// expression that starts with one.
func literalType(t string) string {
	l := strings.ToLower(strings.ReplaceAll(t, "'", ""))
	hex := strings.HasPrefix(l, "0x")
	if !hex && strings.ContainsAny(l, ".e") {
		if !floatLiteral.MatchString(l) {
			return "?" // an expression, or a hex float
		}
		switch {
		case strings.HasSuffix(l, "f"):
			return "float"
		case strings.HasSuffix(l, "l"):
			return "long double"
		}
		return "double"
	}
	digits := strings.TrimRight(l, "ul")
	suffix := l[len(digits):]
	if len(digits) > 9 || hex && len(digits) > 9 {
		return "?" // may not fit an int
	}
	for i := 0; i < len(digits); i++ {
		if c := digits[i]; !(c >= '0' && c <= '9' || hex && (c >= 'a' && c <= 'f' || c == 'x' || c == 'b')) {
			return "?"
		}
	}
	switch suffix {
	case "":
		if strings.Trim(digits, "0") == "" {
			return "0"
		}
		return "int"
	case "u":
		return "unsigned int"
	case "l":
		return "long"
	case "ul", "lu":
		return "unsigned long"
	case "ll":
		return "long long"
	case "ull", "llu":
		return "unsigned long long"
	}
	return "?"
}

// localType returns the type of a local declared with type t by the
// declarator d naming ns, or "?" for an array or a function pointer.
func (f *fileState) localType(t, d, ns span) string {
	marks := f.Str[d.Start:ns.Start]
	rest := strings.TrimSpace(f.Str[ns.End:d.End])
	if strings.ContainsAny(marks, "([") || strings.HasPrefix(rest, "[") {
		return "?"
	}
	return f.scoped(normType(f.Text(t)+" "+marks), t.Start, "")
}

// templateMark starts the params fact of a C++ function template (or of
// a member defined under a template header).
const templateMark = "template:"

// templated reports whether the declaration starting at start in src
// follows a template header (template <...>).
func templated(src string, start int) bool {
	p := trimEnd(src, start)
	if p == 0 || src[p-1] != '>' {
		return false
	}
	for depth := 0; p > 0; {
		p--
		if src[p] == '>' {
			depth++
		} else if src[p] == '<' {
			if depth--; depth == 0 {
				break
			}
		}
	}
	return strings.HasSuffix(src[:trimEnd(src, p)], "template")
}

// closing returns the index of the parenthesis that closes the one at
// open in t, or -1.
func closing(t string, open int) int {
	depth := 0
	for i := open; i < len(t); i++ {
		switch t[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		case '"', '\'':
			i = literalEnd(t, i) - 1
		}
	}
	return -1
}

// literalEnd returns the end of the string or character literal at p in
// t: past its closing quote, or len(t).
func literalEnd(t string, p int) int {
	q := t[p]
	for i := p + 1; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return len(t)
}
