package swift

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isIdent(s string) bool { return srctext.IsIdent(s, "") }

// stripGenerics removes generic argument lists: Dictionary<K, [V]> gives
// Dictionary.
func stripGenerics(s string) string {
	return srctext.StripBrackets(s, '<', '>')
}

// typeName normalizes a type as written to Expr's type form: generic
// arguments, optional marks, attributes, some and any dropped. It returns
// "" for arrays, dictionaries, tuples, functions, compositions and Self.
func typeName(t string) string {
	t = strings.TrimSpace(t)
	t = strings.TrimSpace(strings.TrimPrefix(t, ":"))
	for {
		switch {
		case strings.HasPrefix(t, "@"):
			i := strings.IndexAny(t, " \t\n")
			if i < 0 {
				return ""
			}
			t = strings.TrimSpace(t[i:])
			continue
		case strings.HasPrefix(t, "some ") || strings.HasPrefix(t, "any ") || strings.HasPrefix(t, "inout "):
			t = strings.TrimSpace(t[strings.IndexByte(t, ' '):])
			continue
		}
		break
	}
	t = srctext.Squeeze(stripGenerics(t))
	t = strings.TrimRight(t, "?!")
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		if topIndex(t[1:len(t)-1], ':') >= 0 {
			return "Dictionary"
		}
		return "Array"
	}
	if t == "" || t == "Self" || strings.ContainsAny(t, "[]()&-<>:,") || strings.HasSuffix(t, ".Type") || strings.HasSuffix(t, "...") {
		return ""
	}
	if !srctext.IsQualified(t, ".", "") {
		return ""
	}
	return t
}

// docComment turns /// lines or a /** */ comment into text.
func docComment(lines []string) string {
	var parts []string
	for _, c := range lines {
		parts = srctext.DocLines(parts, strings.TrimPrefix(c, "///"))
	}
	return srctext.CapText(strings.Join(parts, "\n"))
}

// topIndex returns the index of the first c in s outside brackets,
// parentheses and angle brackets, or -1.
func topIndex(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if depth > 0 && !(s[i] == '>' && i > 0 && s[i-1] == '-') {
				depth--
			}
		case '"':
			return -1
		default:
			if s[i] == c && depth == 0 {
				return i
			}
		}
	}
	return -1
}
