package java

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "$") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// identEnd returns the end of the identifier starting at p (p if none).
func identEnd(s string, p int) int {
	if p >= len(s) || !isIdentStart(s[p]) {
		return p
	}
	for p < len(s) && isIdentByte(s[p]) {
		p++
	}
	return p
}

// skipSpace skips blanks and comments from p.
func skipSpace(s string, p int) int {
	for p < len(s) {
		switch s[p] {
		case ' ', '\t', '\n', '\r', '\f':
			p++
		case '/':
			switch {
			case p+1 < len(s) && s[p+1] == '/':
				for p < len(s) && s[p] != '\n' {
					p++
				}
			case p+1 < len(s) && s[p+1] == '*':
				e := strings.Index(s[p+2:], "*/")
				if e < 0 {
					return len(s)
				}
				p += e + 4
			default:
				return p
			}
		default:
			return p
		}
	}
	return p
}

// oneLine returns s on one line: comments dropped, blank runs made one
// space, no blank just inside brackets, capped at srctext.MaxText bytes.
func oneLine(s string) string {
	if len(s) <= srctext.MaxText && plain(s) {
		return s
	}
	out := make([]byte, 0, min(len(s), srctext.MaxText+8))
	var quote byte
	space := false
	for i := 0; i < len(s) && len(out) <= srctext.MaxText; i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && i+1 < len(s) {
				out = append(out, c, s[i+1])
				i++
				continue
			}
			if c == quote {
				quote = 0
			}
			if c == '\n' || c == '\r' {
				space = true
				continue
			}
		case c == '/' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '*'):
			i = skipSpace(s, i) - 1
			space = true
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			space = true
			continue
		case c == '"' || c == '\'':
			quote = c
		}
		if space && len(out) > 0 && !strings.ContainsRune("([{", rune(out[len(out)-1])) && c != ')' && c != ']' && c != '}' {
			out = append(out, ' ')
		}
		space = false
		out = append(out, c)
	}
	return srctext.CapText(string(out))
}

// plain reports whether oneLine would leave s as it is.
func plain(s string) bool {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n', '\t', '\r', '\f':
			return false
		case '/':
			if i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '*') {
				return false
			}
		case ' ':
			if prev == ' ' || prev == '(' || prev == '[' || prev == '{' {
				return false
			}
		case ')', ']', '}':
			if prev == ' ' {
				return false
			}
		}
		prev = s[i]
	}
	return prev != ' '
}

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
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
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
