package srctext

// A Syntax describes as much of a language's lexical syntax as OneLine
// and Skip read: its white space, comments, string literals and
// brackets.
type Syntax struct {
	// Space holds the bytes read as white space.
	Space string
	// LineComment opens a comment that runs to the end of the line
	// ("//", "#"); "" if the language has none.
	LineComment string
	// BlockComment opens and closes a block comment ("/*", "*/"); empty
	// if the language has none.
	BlockComment [2]string
	// Nested says whether block comments nest.
	Nested bool
	// Quotes holds the bytes that open and close a string literal, in
	// which a backslash escapes the byte after it. OneLine keeps what a
	// literal holds as it is, but for QuotedBreak and QuotedSpace.
	Quotes string
	// QuotedBreak holds the bytes read as white space inside a quoted
	// literal (a Java string broken across lines reads as one line).
	// They must be bytes of Space too.
	QuotedBreak string
	// QuotedSpace holds the bytes a space replaces inside a quoted
	// literal (a TypeScript template's line breaks and tabs). They must
	// be bytes of Space too.
	QuotedSpace string
	// Literal, if set, is used instead of Quotes: it returns the end of
	// the literal that starts at s[i], or i if none does. OneLine keeps
	// such a literal whole (Rust's raw strings, and quotes that may be
	// lifetimes).
	Literal func(s string, i int) int
	// OneLine keeps no space after a byte of Open or before one of Close.
	Open, Close string
}

// Chars are the types source text comes as.
type Chars interface{ ~string | ~[]byte }

// OneLine returns s on one line: comments dropped, runs of white space
// made one space, no space just inside brackets (see Open and Close),
// the result cut by CapText.
func (x *Syntax) OneLine(s string) string {
	if len(s) <= MaxText && x.plain(s) {
		return s
	}
	return CapText(string(x.oneLine(s)))
}

// oneLine is OneLine without its fast path and cap: it stops once it has
// more than MaxText bytes.
func (x *Syntax) oneLine(s string) []byte {
	out := make([]byte, 0, min(len(s), MaxText+8))
	var quote byte
	space := false // a space is owed before the next byte
	for i := 0; i < len(s) && len(out) <= MaxText; i++ {
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
			if in(x.QuotedBreak, c) {
				space = true
				continue
			}
			if in(x.QuotedSpace, c) {
				c = ' '
			}
		case commentAt(x, s, i, len(s)):
			i = commentEnd(x, s, i, len(s)) - 1
			space = true
			continue
		case in(x.Space, c):
			space = true
			continue
		case in(x.Quotes, c):
			quote = c
		}
		if space && len(out) > 0 && !in(x.Open, out[len(out)-1]) && !in(x.Close, c) {
			out = append(out, ' ')
		}
		space = false
		if x.Literal != nil {
			if e := x.Literal(s, i); e > i {
				out = append(out, s[i:e]...)
				i = e - 1
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// plain reports whether OneLine would leave s as it is, cap aside.
func (x *Syntax) plain(s string) bool {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if prev == ' ' || in(x.Open, prev) {
				return false
			}
		case in(x.Space, c), commentAt(x, s, i, len(s)):
			return false
		case in(x.Close, c):
			if prev == ' ' {
				return false
			}
		}
		prev = c
	}
	return prev != ' '
}

// Skip returns the offset of the first byte of src at or after p, and
// before end, that is neither white space nor in a comment; end if there
// is none.
func Skip[T Chars](x *Syntax, src T, p, end int) int {
	for p < end {
		switch {
		case in(x.Space, src[p]):
			p++
		case commentAt(x, src, p, end):
			p = commentEnd(x, src, p, end)
		default:
			return p
		}
	}
	return p
}

// commentAt reports whether a comment starts at src[p].
func commentAt[T Chars](x *Syntax, src T, p, end int) bool {
	return x.LineComment != "" && at(src, p, end, x.LineComment) ||
		x.BlockComment[0] != "" && at(src, p, end, x.BlockComment[0])
}

// commentEnd returns the end of the comment that starts at src[p]: the
// line break ending a line comment, or the byte after a block comment's
// close; end if it has none.
func commentEnd[T Chars](x *Syntax, src T, p, end int) int {
	if x.LineComment != "" && at(src, p, end, x.LineComment) {
		for p < end && src[p] != '\n' {
			p++
		}
		return p
	}
	open, close := x.BlockComment[0], x.BlockComment[1]
	depth := 0
	for p < end {
		switch {
		case at(src, p, end, open) && (depth == 0 || x.Nested):
			depth++
			p += len(open)
		case at(src, p, end, close):
			p += len(close)
			if depth--; depth == 0 {
				return p
			}
		default:
			p++
		}
	}
	return end
}

// at reports whether src[p:end] starts with s.
func at[T Chars](src T, p, end int, s string) bool {
	if end-p < len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if src[p+i] != s[i] {
			return false
		}
	}
	return true
}

// in reports whether set holds c.
func in(set string, c byte) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == c {
			return true
		}
	}
	return false
}
