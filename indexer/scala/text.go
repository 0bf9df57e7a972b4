package scala

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "$") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isIdent(s string) bool { return srctext.IsIdent(s, "$") }

// stripGenerics removes type argument lists: Map[K, List[V]] gives Map.
func stripGenerics(s string) string {
	return srctext.StripBrackets(s, '[', ']')
}

// typeName normalizes a type as written to Expr's type form: type
// arguments dropped, _root_. dropped. It returns "" for function types,
// tuples, compound, structural and singleton types.
func typeName(t string) string {
	t = srctext.Squeeze(stripGenerics(t))
	t = strings.TrimPrefix(t, "_root_.")
	if t == "" || strings.ContainsAny(t, "()=>{}#*@,[]") || strings.HasSuffix(t, ".type") {
		return ""
	}
	if !srctext.IsQualified(t, ".", "$") {
		return ""
	}
	return t
}

// docComment turns a /** */ comment into text: the markers and leading
// stars dropped, lines trimmed.
func docComment(c string) string {
	return srctext.CapText(strings.Join(srctext.DocLines(nil, c), "\n"))
}
