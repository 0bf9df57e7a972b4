package typescript

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "$") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

type chars interface{ ~string | ~[]byte }

// identEnd returns the end of the identifier starting at p (p if none).
func identEnd[T chars](src T, p, end int) int { return srctext.IdentEnd(src, p, end, "$") }

// isIdent reports whether s is one identifier.
func isIdent(s string) bool { return srctext.IsIdent(s, "$") }

// isDotted reports whether s is identifiers joined by dots.
func isDotted(s string) bool { return srctext.IsQualified(s, ".", "$") }

// syntax is TypeScript's, as oneLine and skipSpace read it.
var syntax = srctext.Syntax{
	Space:        " \t\n\r\f\v",
	LineComment:  "//",
	BlockComment: [2]string{"/*", "*/"},
	Quotes:       "\"'`",
	QuotedSpace:  "\n\r\t",
	Open:         "([{<",
	Close:        ")]}>,;",
}

// skipSpace skips blanks and comments from p.
func skipSpace[T chars](src T, p, end int) int { return srctext.Skip(&syntax, src, p, end) }

// isBlank reports whether s holds only blanks.
func isBlank[T chars](s T) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// oneLine returns b on one line: comments dropped, blank runs made one
// space, no blank just inside brackets, capped at srctext.MaxText bytes.
func oneLine(b string) string { return syntax.OneLine(b) }

// jsdoc returns the text of a /** */ comment: markers and the leading
// stars of its lines removed, blank lines at both ends dropped; ok is
// false for other comments.
func jsdoc(c string) (doc string, ok bool) {
	if !strings.HasPrefix(c, "/**") || !strings.HasSuffix(c, "*/") || len(c) < 5 || c == "/**/" {
		return "", false
	}
	lines := strings.Split(c[3:len(c)-2], "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "*") {
			t = strings.TrimPrefix(t[1:], " ")
		} else if i == 0 {
			t = strings.TrimLeft(l, " ")
		} else {
			t = l
		}
		lines[i] = t
	}
	lines = srctext.TrimBlank(lines)
	return strings.Join(lines, "\n"), len(lines) > 0
}

// matchingClose returns the offset after the bracket closing the one at
// p, skipping strings and comments, or -1.
func matchingClose(src []byte, p, end int) int {
	depth := 0
	for i := p; i < end; i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return i + 1
			}
		case '"', '\'', '`':
			i = stringEnd(src, i, end) - 1
		case '/':
			if j := skipSpace(src, i, end); j > i {
				i = j - 1
			}
		}
	}
	return -1
}

// stringEnd returns the end of the string or template literal whose quote
// is at p (templates with substitutions are skipped whole, roughly).
func stringEnd(src []byte, p, end int) int {
	quote := src[p]
	depth := 0
	for i := p + 1; i < end; i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case quote == '`' && c == '$' && i+1 < end && src[i+1] == '{':
			depth++
			i++
		case quote == '`' && c == '}' && depth > 0:
			depth--
		case c == quote && depth == 0:
			return i + 1
		case c == '\n' && quote != '`':
			return i
		}
	}
	return end
}

// stringValue returns the value of a simple string literal ('x', "x", or
// `x` with no substitution), and whether lit is one.
func stringValue(lit string) (string, bool) {
	if len(lit) < 2 {
		return "", false
	}
	q := lit[0]
	if q != '"' && q != '\'' && q != '`' || lit[len(lit)-1] != q {
		return "", false
	}
	s := lit[1 : len(lit)-1]
	if strings.ContainsAny(s, "\\\n") || q == '`' && strings.Contains(s, "${") || strings.IndexByte(s, q) >= 0 {
		return "", false
	}
	return s, true
}
