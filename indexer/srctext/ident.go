package srctext

import "strings"

// IsIdentStart reports whether c can start an identifier: an ASCII
// letter, an underscore, a byte of a non-ASCII character, or one of the
// bytes of extra (a language's own, such as "$").
func IsIdentStart(c byte, extra string) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || strings.IndexByte(extra, c) >= 0
}

// IsIdent reports whether s is an identifier: a byte IsIdentStart takes,
// then bytes it takes or digits.
func IsIdent(s, extra string) bool { return s != "" && IdentEnd(s, 0, len(s), extra) == len(s) }

// IdentEnd returns the end of the identifier (see IsIdent) that starts
// at src[p] and ends at end at the latest; p if none starts there.
func IdentEnd[T Chars](src T, p, end int, extra string) int {
	if p >= end || !IsIdentStart(src[p], extra) {
		return p
	}
	for p++; p < end && (IsIdentStart(src[p], extra) || src[p] >= '0' && src[p] <= '9'); p++ {
	}
	return p
}

// IsQualified reports whether s is identifiers (see IsIdent) joined by
// sep: a.b.c with ".".
func IsQualified(s, sep, extra string) bool {
	for part := range strings.SplitSeq(s, sep) {
		if !IsIdent(part, extra) {
			return false
		}
	}
	return true
}

// StripBrackets removes from s every bracketed list, nested ones with
// it: with '<' and '>', Map<K, List<V>> gives Map. A close bracket with
// no open one before it is dropped.
func StripBrackets(s string, open, close byte) string {
	if strings.IndexByte(s, open) < 0 {
		return s
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == open:
			depth++
		case c == close:
			if depth > 0 {
				depth--
			}
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// SplitTop splits s at each sep outside brackets: a byte of open
// deepens the nesting, a byte of close makes it shallower. With "([{",
// ")]}" and ',', f(a, b), c gives "f(a, b)" and " c".
func SplitTop(s string, sep byte, open, close string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case strings.IndexByte(open, c) >= 0:
			depth++
		case strings.IndexByte(close, c) >= 0:
			depth--
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// TopCommas returns the offsets of the commas of s outside brackets
// ((), [] and {}) and quoted strings ('…' and "…", where a backslash
// escapes the byte after it): those that separate the items of a list.
func TopCommas(s string) []int {
	var commas []int
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			commas = append(commas, i)
		}
	}
	return commas
}

// Args returns a call's argument list as written, on one line (see
// OneLine): the white space around it and the parentheses around that
// dropped.
func Args(a string) string {
	a = strings.TrimSpace(a)
	if len(a) >= 2 && a[0] == '(' && a[len(a)-1] == ')' {
		a = a[1 : len(a)-1]
	}
	return OneLine(strings.TrimSpace(a))
}
