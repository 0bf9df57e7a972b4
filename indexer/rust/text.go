package rust

import (
	"strings"
	"unicode/utf8"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

type chars interface{ ~string | ~[]byte }

// identEnd returns the end of the identifier starting at p (p if none). A
// raw identifier r#name counts as one.
func identEnd[T chars](src T, p, end int) int {
	if p+2 < end && src[p] == 'r' && src[p+1] == '#' && isIdentStart(src[p+2]) {
		p += 2
	}
	return srctext.IdentEnd(src, p, end, "")
}

// isIdent reports whether s is one identifier.
func isIdent(s string) bool { return len(s) > 0 && identEnd(s, 0, len(s)) == len(s) }

// unraw drops the r# of a raw identifier.
func unraw(s string) string { return strings.TrimPrefix(s, "r#") }

// syntax is Rust's, as oneLine and skipSpace read it: block comments
// nest, and literals are kept whole.
var syntax = srctext.Syntax{
	Space:        " \t\n\r\f",
	LineComment:  "//",
	BlockComment: [2]string{"/*", "*/"},
	Nested:       true,
	Literal:      literalAt,
	Open:         "([<",
	Close:        ")],",
}

// skipSpace skips blanks and comments from p.
func skipSpace[T chars](src T, p, end int) int { return srctext.Skip(&syntax, src, p, end) }

// literalEnd returns the end of the string, byte string, raw string or
// character literal at p, or p when there is none there (a lifetime 'a
// is not a literal).
func literalEnd[T chars](src T, p, end int) int {
	q := p
	if q < end && (src[q] == 'b' || src[q] == 'c') {
		q++
	}
	if q < end && src[q] == 'r' && q+1 < end && (src[q+1] == '"' || src[q+1] == '#') {
		r := q + 1
		hashes := 0
		for r < end && src[r] == '#' {
			hashes++
			r++
		}
		if r >= end || src[r] != '"' {
			return p
		}
		for i := r + 1; i < end; i++ {
			if src[i] != '"' {
				continue
			}
			n := 0
			for n < hashes && i+1+n < end && src[i+1+n] == '#' {
				n++
			}
			if n == hashes {
				return i + 1 + n
			}
		}
		return end
	}
	if q >= end {
		return p
	}
	switch src[q] {
	case '"':
		for i := q + 1; i < end; i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return end
	case '\'':
		if q+1 >= end {
			return p
		}
		if src[q+1] == '\\' {
			for i := q + 2; i < end && i < q+16; i++ {
				if src[i] == '\'' {
					return i + 1
				}
			}
			return p
		}
		_, w := utf8.DecodeRuneInString(string(src[q+1 : min(end, q+5)]))
		if q+1+w < end && src[q+1+w] == '\'' {
			return q + 2 + w
		}
	}
	return p
}

// closing returns the offset after the bracket closing the one at p,
// skipping literals and comments; end when it is not closed.
func closing[T chars](src T, p, end int) int {
	depth := 0
	for p < end {
		switch c := src[p]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth <= 0 {
				return p + 1
			}
		case '"', '\'', 'b', 'r', 'c':
			if c == 'b' || c == 'r' || c == 'c' {
				if p > 0 && isIdentByte(src[p-1]) {
					break
				}
			}
			if e := literalEnd(src, p, end); e > p {
				p = e
				continue
			}
		case '/':
			if e := skipSpace(src, p, end); e > p {
				p = e
				continue
			}
		}
		p++
	}
	return end
}

// angleEnd returns the offset after the '>' closing the '<' at p (generic
// arguments), or p when there is none.
func angleEnd[T chars](src T, p, end int) int {
	depth := 0
	for i := p; i < end; i++ {
		switch src[i] {
		case '<':
			depth++
		case '>':
			if i > p && src[i-1] == '-' {
				continue // ->
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case '(', '[':
			i = closing(src, i, end) - 1
		case '{', ';':
			return p
		}
	}
	return p
}

// oneLine returns b on one line: comments dropped, blank runs made one
// space, no blank just inside brackets, capped at srctext.MaxText bytes.
func oneLine(b string) string { return syntax.OneLine(b) }

// literalAt returns the end of the literal starting at b[i], or i: a
// string, a character, or a raw string whose r no identifier holds.
func literalAt(b string, i int) int {
	if c := b[i]; c == '"' || c == '\'' || c == 'r' && (i == 0 || !isIdentByte(b[i-1])) {
		return literalEnd(b, i, len(b))
	}
	return i
}

// docText returns the text of doc comments (/// and //! lines, /** */ and
// /*! */ blocks), markers and the common indentation removed.
func docText(comments []string) string {
	var lines []string
	for _, c := range comments {
		switch {
		case strings.HasPrefix(c, "///") || strings.HasPrefix(c, "//!"):
			lines = append(lines, strings.TrimRight(c[3:], " \t\r\n"))
		case strings.HasPrefix(c, "/**") || strings.HasPrefix(c, "/*!"):
			body := strings.TrimSuffix(c[3:], "*/")
			for _, l := range strings.Split(body, "\n") {
				l = strings.TrimRight(l, " \t\r")
				if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "*") {
					l = t[1:]
				}
				lines = append(lines, l)
			}
		}
	}
	indent := -1
	for _, l := range lines {
		if t := strings.TrimLeft(l, " "); t != "" {
			if n := len(l) - len(t); indent < 0 || n < indent {
				indent = n
			}
		}
	}
	for i, l := range lines {
		lines[i] = l[min(max(indent, 0), len(l)):]
	}
	lines = srctext.TrimBlank(lines)
	return strings.Join(lines, "\n")
}

// splitTop splits s at the commas outside brackets, trimming each part
// and leaving out empty ones.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i > 0 && s[i-1] == '-' {
				continue
			}
			depth--
		case '"', '\'':
			if e := literalEnd(s, i, len(s)); e > i {
				i = e - 1
			}
		default:
			if c == sep && depth == 0 {
				if p := strings.TrimSpace(s[start:i]); p != "" {
					parts = append(parts, p)
				}
				start = i + 1
			}
		}
	}
	if p := strings.TrimSpace(s[start:]); p != "" {
		parts = append(parts, p)
	}
	return parts
}
