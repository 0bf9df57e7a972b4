package java

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "$") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// identEnd returns the end of the identifier starting at p (p if none).
func identEnd(s string, p int) int { return srctext.IdentEnd(s, p, len(s), "$") }

// syntax is Java's, as oneLine and skipSpace read it.
var syntax = srctext.Syntax{
	Space:        " \t\n\r\f",
	LineComment:  "//",
	BlockComment: [2]string{"/*", "*/"},
	Quotes:       `"'`,
	QuotedBreak:  "\n\r",
	Open:         "([{",
	Close:        ")]}",
}

// skipSpace skips blanks and comments from p.
func skipSpace(s string, p int) int { return srctext.Skip(&syntax, s, p, len(s)) }

// oneLine returns s on one line: comments dropped, blank runs made one
// space, no blank just inside brackets, capped at srctext.MaxText bytes.
func oneLine(s string) string { return syntax.OneLine(s) }

// javadoc returns the text of a /** */ comment: markers and the leading
// stars of its lines stripped, blank lines at either end dropped.
func javadoc(c string) (string, bool) {
	if !strings.HasPrefix(c, "/**") || c == "/**/" || !strings.HasSuffix(c, "*/") || len(c) < 5 {
		return "", false
	}
	lines := strings.Split(c[3:len(c)-2], "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "*") {
			t = strings.TrimPrefix(t[1:], " ")
		} else if i == 0 {
			t = strings.TrimPrefix(l, " ")
		}
		lines[i] = t
	}
	lines = srctext.TrimBlank(lines)
	return strings.Join(lines, "\n"), len(lines) > 0
}

// squeeze removes the blanks and comments of a dotted name.
func squeeze(s string) string {
	if !strings.ContainsAny(s, " \t\r\n/") {
		return s
	}
	var out []byte
	for p := 0; p < len(s); {
		q := skipSpace(s, p)
		if q > p {
			p = q
			continue
		}
		out = append(out, s[p])
		p++
	}
	return string(out)
}
