package php

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// docComment returns the text of a /** */ comment without its markers and
// leading stars.
func docComment(c string) string {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "/**"), "*/")
	var b strings.Builder
	for _, l := range strings.Split(c, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
		if l == "" && b.Len() == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return strings.TrimSpace(b.String())
}

// oneLine folds runs of white space into one space (srctext.Fold).
func oneLine(s string) string { return srctext.Fold(s) }

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// identEnd returns where the identifier at i of s ends.
func identEnd(s string, i int) int {
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return i
}

// isIdent reports whether s is one identifier.
func isIdent(s string) bool { return srctext.IsIdent(s, "") }

// isName reports whether s is a name, maybe qualified: a\b\c.
func isName(s string) bool { return srctext.IsQualified(s, "\\", "") }

// stringLiteral returns the content of a single- or double-quoted string
// literal without escapes or interpolation.
func stringLiteral(s string) (string, bool) {
	if len(s) < 2 || s[0] != s[len(s)-1] || s[0] != '\'' && s[0] != '"' {
		return "", false
	}
	in := s[1 : len(s)-1]
	if strings.ContainsAny(in, "\\$'\"") {
		return "", false
	}
	return in, true
}
