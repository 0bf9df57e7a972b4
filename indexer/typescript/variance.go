package typescript

// The TypeScript grammar does not know the variance modifiers of type
// parameters (`interface Foo<in out T>`, TypeScript 4.7): it makes an
// error of them, and of the declaration around them. The parser is given
// the source with those modifiers blanked out instead; the extractor reads
// the source as written, and every offset is the same in both.

// blankVariance returns src with the in and out modifiers of type
// parameters replaced by spaces, or src itself when it has none. A
// modifier is `in`, `out` or `in out`, after `<` or `,` (and an optional
// `const`), followed on the same line by the parameter's name and then by
// `,`, `>`, `=` or `extends`: outside a type parameter list, such text is
// a syntax error itself, or lies in a string or a comment.
func blankVariance(src []byte) []byte {
	out, copied := src, false
	for i := 0; i < len(src); i++ {
		if c := src[i]; c != '<' && c != ',' {
			continue
		}
		from, to, ok := varianceAt(src, i+1)
		if !ok {
			continue
		}
		if !copied {
			out, copied = append([]byte(nil), src...), true
		}
		for j := from; j < to; j++ {
			out[j] = ' '
		}
		i = to - 1
	}
	return out
}

// varianceAt returns the range of the variance modifiers of a type
// parameter whose list item starts at p.
func varianceAt(src []byte, p int) (from, to int, ok bool) {
	p = skipSpace(src, p, len(src))
	if w := identEnd(src, p, len(src)); string(src[p:w]) == "const" {
		p = skipInline(src, w)
	}
	from = p
	for _, m := range []string{"in", "out"} {
		w := identEnd(src, p, len(src))
		if string(src[p:w]) != m {
			continue
		}
		q := skipInline(src, w)
		if q == w {
			return 0, 0, false
		}
		p, to = q, w
	}
	if to == 0 {
		return 0, 0, false
	}
	w := identEnd(src, p, len(src))
	if w == p || string(src[p:w]) == "extends" {
		return 0, 0, false
	}
	q := skipSpace(src, w, len(src))
	if q < len(src) && (src[q] == ',' || src[q] == '>' || src[q] == '=') {
		return from, to, true
	}
	if e := identEnd(src, q, len(src)); string(src[q:e]) == "extends" {
		return from, to, true
	}
	return 0, 0, false
}

// skipInline skips spaces and tabs, not line breaks.
func skipInline(src []byte, p int) int {
	for p < len(src) && (src[p] == ' ' || src[p] == '\t') {
		p++
	}
	return p
}
