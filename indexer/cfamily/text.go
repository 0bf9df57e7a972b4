package cfamily

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "$") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// identEnd returns the end of the identifier starting at s[p].
func identEnd(s string, p int) int { return srctext.IdentEnd(s, p, len(s), "$") }

func isIdent(s string) bool { return srctext.IsIdent(s, "$") }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func skipSpace(s string, p int) int {
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	return p
}

// stripTemplates removes template argument lists: map<K, vector<V>> gives
// map. An operator's name (operator<) is left as is.
func stripTemplates(s string) string {
	if strings.Contains(s, "operator") {
		return s
	}
	return srctext.StripBrackets(s, '<', '>')
}

// isQName reports whether s is a (qualified) name: a, a::b, ::a, ~a, a::~a.
func isQName(s string) bool {
	s = strings.TrimPrefix(s, "::")
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, "::") {
		if !isIdent(strings.TrimPrefix(part, "~")) {
			return false
		}
	}
	return true
}

// typeWords are words of a type as written that say nothing of which type
// it is.
var typeWords = map[string]bool{
	"const": true, "volatile": true, "struct": true, "class": true, "union": true, "enum": true,
	"typename": true, "restrict": true, "__restrict": true, "mutable": true, "static": true,
	"extern": true, "inline": true, "register": true, "constexpr": true, "thread_local": true,
}

// specifierWords are keywords a parse of code it does not understand
// (macros in declarations) may take for a type name.
var specifierWords = map[string]bool{
	"friend": true, "typename": true, "template": true, "constexpr": true, "consteval": true, "constinit": true,
	"inline": true, "static": true, "virtual": true, "explicit": true, "mutable": true, "extern": true,
	"register": true, "thread_local": true, "noexcept": true, "override": true, "final": true, "typedef": true,
}

// primitives are C and C++ built-in types: they have no members.
var primitives = map[string]bool{
	"void": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true,
	"signed": true, "unsigned": true, "bool": true, "_Bool": true, "size_t": true, "wchar_t": true,
	"auto": true, "decltype": true, "char8_t": true, "char16_t": true, "char32_t": true,
}

// typeName normalizes a type as written to Expr's type form: qualifiers,
// struct/class/enum keywords, pointer and reference marks and template
// arguments dropped. It returns "" for built-in types, auto, function
// types and anything else that has no members of the snapshot.
func typeName(t string) string {
	t = stripTemplates(t)
	var name string
	for p := 0; p < len(t); {
		c := t[p]
		switch {
		case isIdentStart(c):
			e := identEnd(t, p)
			w := t[p:e]
			for {
				q := skipSpace(t, e)
				if q+1 < len(t) && t[q] == ':' && t[q+1] == ':' {
					r := skipSpace(t, q+2)
					if re := identEnd(t, r); re > r {
						w += "::" + t[r:re]
						e = re
						continue
					}
				}
				break
			}
			p = e
			switch {
			case typeWords[w]:
			case primitives[w]:
				return ""
			case name != "":
				return "" // two names: not a plain type
			default:
				name = w
			}
		case c == ':' && p+1 < len(t) && t[p+1] == ':':
			p += 2
		case c == '*' || c == '&' || isSpace(c):
			p++
		default:
			return ""
		}
	}
	return name
}

// countArgs counts the arguments of an argument or parameter list as
// written, parentheses included.
func countArgs(s string) int {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		s = "(" + s + ")"
	}
	return len(argSpans(s, span{Start: 0, End: uint32(len(s))}))
}

// splitTop splits s at the commas outside brackets.
func splitTop(s string) []string { return srctext.SplitTop(s, ',', "([{<", ")]}>") }

// docComment turns a run of comments into text: the comment marks and
// leading stars dropped, lines joined.
func docComment(lines []string) string {
	var parts []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "/*") {
			l = strings.TrimSuffix(strings.TrimLeft(l[2:], "*!"), "*/")
		} else {
			l = strings.TrimLeft(l, "/!<")
		}
		for _, s := range strings.Split(l, "\n") {
			s = strings.TrimSpace(s)
			s = strings.TrimSpace(strings.TrimLeft(s, "*"))
			if s != "" {
				parts = append(parts, s)
			}
		}
	}
	return srctext.CapText(strings.Join(parts, "\n"))
}

// qualifiedAt returns the type name at s in src with the scopes written
// before it (a::B; A<int>::B gives A::B, template arguments dropped), and
// where that starts.
func qualifiedAt(src string, s span) (uint32, string) {
	name := src[s.Start:s.End]
	start := int(s.Start)
	for {
		q := start
		for q > 0 && isSpace(src[q-1]) {
			q--
		}
		if q < 2 || src[q-2:q] != "::" {
			break
		}
		q -= 2
		for q > 0 && isSpace(src[q-1]) {
			q--
		}
		if q > 0 && src[q-1] == '>' { // the template arguments of the scope
			for depth := 0; q > 0; {
				q--
				if src[q] == '>' {
					depth++
				} else if src[q] == '<' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			for q > 0 && isSpace(src[q-1]) {
				q--
			}
		}
		b := q
		for b > 0 && isIdentByte(src[b-1]) {
			b--
		}
		if b == q || !isIdentStart(src[b]) { // ::B, from the global namespace
			break
		}
		name = src[b:q] + "::" + name
		start = b
	}
	return uint32(start), name
}
