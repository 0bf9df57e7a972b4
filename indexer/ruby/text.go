package ruby

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// isIdent reports whether s is a local variable name or a method name
// without a ? ! = suffix, starting in lower case.
func isIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) || s[0] >= 'A' && s[0] <= 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// isMethodName reports whether s is a method name: an identifier with an
// optional ?, ! or = suffix.
func isMethodName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) && !(i == len(s)-1 && (s[i] == '?' || s[i] == '!' || s[i] == '=')) {
			return false
		}
	}
	return true
}

// isConstPath reports whether s is a constant path: A, A::B, ::A::B.
func isConstPath(s string) bool {
	s = strings.TrimPrefix(s, "::")
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, "::") {
		if part == "" || part[0] < 'A' || part[0] > 'Z' {
			return false
		}
		for i := 1; i < len(part); i++ {
			if !isIdentByte(part[i]) {
				return false
			}
		}
	}
	return true
}

// splitArgs splits an argument list at its top-level commas, parentheses
// dropped.
func splitArgs(s string) []string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = s[1 : len(s)-1]
	}
	var out []string
	start := 0
	for _, c := range srctext.TopCommas(s) {
		out = append(out, s[start:c])
		start = c + 1
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// docComment turns a run of # comment lines into text: the hashes
// dropped, lines joined. Magic comments are no documentation.
func docComment(lines []string) string {
	var parts []string
	for _, l := range lines {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if strings.HasPrefix(l, "frozen_string_literal:") || strings.HasPrefix(l, "-*-") || strings.HasPrefix(l, "encoding:") || strings.HasPrefix(l, "rubocop:") {
			continue
		}
		if l != "" {
			parts = append(parts, l)
		}
	}
	return srctext.CapText(strings.Join(parts, "\n"))
}
