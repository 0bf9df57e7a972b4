package csharp

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "@") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// identEnd returns the end of the identifier starting at s[p].
func identEnd(s string, p int) int { return srctext.IdentEnd(s, p, len(s), "@") }

func isIdent(s string) bool { return srctext.IsIdent(s, "@") }

// stripGenerics removes type argument lists: Dictionary<K, List<V>> gives
// Dictionary.
func stripGenerics(s string) string {
	return srctext.StripBrackets(s, '<', '>')
}

// predefined are C#'s keyword types.
var predefined = map[string]string{
	"bool": "System.Boolean", "byte": "System.Byte", "sbyte": "System.SByte", "char": "System.Char",
	"decimal": "System.Decimal", "double": "System.Double", "float": "System.Single", "int": "System.Int32",
	"uint": "System.UInt32", "long": "System.Int64", "ulong": "System.UInt64", "short": "System.Int16",
	"ushort": "System.UInt16", "object": "System.Object", "string": "System.String", "nint": "System.IntPtr",
	"nuint": "System.UIntPtr", "dynamic": "dynamic",
}

// typeName normalizes a type as written to Expr's type form: type
// arguments, nullable marks and global:: dropped, keyword types spelled as
// their System type. It returns "" for void, arrays, tuples, pointers and
// anything else that has no members of the snapshot.
func typeName(t string) string {
	t = srctext.Squeeze(stripGenerics(t))
	t = strings.TrimPrefix(t, "global::")
	t = strings.TrimSuffix(t, "?")
	if t == "" || t == "void" || t == "var" || strings.ContainsAny(t, "[]()*,:<>") {
		return ""
	}
	if p, ok := predefined[t]; ok {
		return p
	}
	if !srctext.IsQualified(t, ".", "@") {
		return ""
	}
	return t
}

// docComment turns a run of /// comment lines into text: the slashes and
// XML tags dropped, lines joined.
func docComment(lines []string) string {
	var parts []string
	for _, l := range lines {
		l = strings.TrimPrefix(strings.TrimSpace(l), "///")
		var b strings.Builder
		in := false
		for i := 0; i < len(l); i++ {
			switch {
			case l[i] == '<':
				in = true
				if rest := l[i:]; strings.HasPrefix(rest, "<see cref=\"") || strings.HasPrefix(rest, "<paramref name=\"") {
					q := strings.IndexByte(rest, '"')
					e := strings.IndexByte(rest[q+1:], '"')
					if e >= 0 {
						b.WriteString(rest[q+1 : q+1+e])
					}
				}
			case l[i] == '>' && in:
				in = false
			case !in:
				b.WriteByte(l[i])
			}
		}
		if s := strings.TrimSpace(b.String()); s != "" {
			parts = append(parts, s)
		}
	}
	return srctext.CapText(strings.Join(parts, "\n"))
}

// nameAt is a type named inside a type as written: its offset in the text
// and its name in Expr's type form.
type nameAt struct {
	off  int
	name string
}

// typeWords are words a type as written may hold that name no type: the
// keyword types, modifiers of parameters and constraints.
var typeWords = map[string]bool{
	"void": true, "var": true, "ref": true, "out": true, "in": true, "params": true, "this": true,
	"scoped": true, "readonly": true, "class": true, "struct": true, "new": true, "notnull": true,
	"unmanaged": true, "default": true, "delegate": true, "managed": true, "enum": true,
}

// typeNames returns every type a type as written names, outermost first:
// Dictionary<string, List<Order>> names Dictionary, List and Order. Keyword
// types name nothing; the names of tuple elements are no types; a name
// qualified past type arguments (Outer<T>.Inner) gives its head only.
func typeNames(s string) []nameAt {
	var out []nameAt
	for p := 0; p < len(s); {
		if !isIdentStart(s[p]) || s[p] == '@' && p+1 < len(s) && s[p+1] == '"' {
			p++
			continue
		}
		prev, q := byte(0), p-1
		for ; q >= 0; q-- {
			if c := s[q]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				prev = c
				break
			}
		}
		if isIdentByte(prev) { // after a modifier, a type; after a type, an element's name
			b := q
			for b > 0 && isIdentByte(s[b-1]) {
				b--
			}
			if typeWords[s[b:q+1]] {
				prev = 0
			}
		}
		start := p
		var parts []string
		for {
			e := identEnd(s, p)
			parts = append(parts, s[p:e])
			q := srctext.SkipSpace(s, e)
			switch {
			case strings.HasPrefix(s[q:], "::"):
				q++
				fallthrough
			case q < len(s) && s[q] == '.':
				if n := srctext.SkipSpace(s, q+1); n < len(s) && isIdentStart(s[n]) {
					p = n
					continue
				}
			}
			p = e
			break
		}
		if parts[0] == "global" && len(parts) > 1 {
			parts = parts[1:]
		}
		// A name after a type is a tuple element's; after a '>' followed
		// by '.', a member of a generic type.
		if prev != 0 && (isIdentByte(prev) || prev == '>' || prev == ']' || prev == '?' || prev == ')' || prev == '*' || prev == '.') {
			continue
		}
		name := strings.Join(parts, ".")
		if len(parts) == 1 && (typeWords[name] || predefined[name] != "") {
			continue
		}
		out = append(out, nameAt{start, name})
	}
	return out
}
