package srctext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The syntaxes the tests read: most of what a language's can say.
var (
	cLike = Syntax{
		Space:        " \t\n\r\f",
		LineComment:  "//",
		BlockComment: [2]string{"/*", "*/"},
		Quotes:       `"'`,
		QuotedBreak:  "\n\r",
		Open:         "([{",
		Close:        ")]}",
	}
	template = Syntax{
		Space:        " \t\n\r\f\v",
		LineComment:  "//",
		BlockComment: [2]string{"/*", "*/"},
		Quotes:       "\"'`",
		QuotedSpace:  "\n\r\t",
		Open:         "([{<",
		Close:        ")]}>,;",
	}
	hash = Syntax{
		Space:       " \t\n\r\f\\",
		LineComment: "#",
		Quotes:      `"'`,
		Open:        "([{",
		Close:       ")]}",
	}
	nested = Syntax{
		Space:        " \t\n\r\f",
		LineComment:  "//",
		BlockComment: [2]string{"/*", "*/"},
		Nested:       true,
		Literal:      rawString,
		Open:         "([<",
		Close:        ")],",
	}
	syntaxes = map[string]*Syntax{"cLike": &cLike, "template": &template, "hash": &hash, "nested": &nested}
)

// rawString returns the end of the r"…" literal at s[i], or i.
func rawString(s string, i int) int {
	if !strings.HasPrefix(s[i:], `r"`) {
		return i
	}
	if e := strings.IndexByte(s[i+2:], '"'); e >= 0 {
		return i + 2 + e + 1
	}
	return len(s)
}

func TestSyntaxOneLine(t *testing.T) {
	long := strings.Repeat("ab ", 80)
	for _, tc := range []struct {
		syntax, in, want string
	}{
		{"cLike", "f(a, b)", "f(a, b)"},
		{"cLike", "f(\n\ta,\n\tb,\n)", "f(a, b,)"},
		{"cLike", "  a  b  ", "a b"},
		{"cLike", "f(a /* one */, b) // two", "f(a , b)"},
		{"cLike", "a /* never closed", "a"},
		{"cLike", "/* a /* b */ c */ d", "c */ d"},
		{"cLike", `g("a  b", 'c\'  d')`, `g("a  b", 'c\'  d')`},
		{"cLike", "g(\"a\n  b\")", `g("a   b")`},
		{"cLike", "g(\"(\nb\n)\")", `g("(b)")`},
		{"cLike", "a/\n/b", "a/ /b"},
		{"template", "f(a /* one */, b) // two", "f(a, b)"},
		{"template", "Map< K , V >", "Map<K, V>"},
		{"template", "`a\n\tb` ;", "`a  b`;"},
		{"template", "`a // b`", "`a // b`"},
		{"hash", "f(a, # one\n  b)", "f(a, b)"},
		{"hash", "a + \\\n  b", "a + b"},
		{"hash", "'# no'  # yes", "'# no'"},
		{"nested", "/* a /* b */ c */ d", "d"},
		{"nested", `x(r"a  // b",  c )`, `x(r"a  // b", c)`},
		{"nested", "Vec< T >", "Vec<T >"},
		{"cLike", long, long[:197] + Ellipsis},
		{"cLike", "a\tb" + strings.Repeat("é", 100), "a b" + strings.Repeat("é", 97) + Ellipsis},
	} {
		if got := syntaxes[tc.syntax].OneLine(tc.in); got != tc.want {
			t.Errorf("%s.OneLine(%q) = %q, want %q", tc.syntax, tc.in, got, tc.want)
		}
	}
}

func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		syntax, in   string
		p, end, want int
	}{
		{"cLike", "  x", 0, 3, 2},
		{"cLike", "  x", 0, 1, 1},
		{"cLike", "x  ", 1, 3, 3},
		{"cLike", " /* a */ // b\n x", 0, 16, 15},
		{"cLike", " /* a ", 0, 6, 6},
		{"cLike", "/* a */ x", 0, 4, 4},
		{"cLike", "/ x", 0, 3, 0},
		{"hash", "# a\n \\\n x", 0, 9, 8},
		{"nested", "/* /* */ */x", 0, 12, 11},
		{"cLike", "/* /* */ */x", 0, 12, 9},
	} {
		x := syntaxes[tc.syntax]
		if got := Skip(x, tc.in, tc.p, tc.end); got != tc.want {
			t.Errorf("%s: Skip(%q, %d, %d) = %d, want %d", tc.syntax, tc.in, tc.p, tc.end, got, tc.want)
		}
		if got := Skip(x, []byte(tc.in), tc.p, tc.end); got != tc.want {
			t.Errorf("%s: Skip([]byte(%q), %d, %d) = %d, want %d", tc.syntax, tc.in, tc.p, tc.end, got, tc.want)
		}
	}
}

func FuzzSyntaxOneLine(f *testing.F) {
	for _, s := range []string{"f( a,\n b )", "x /* c */ // d\n y", `"a\n b" 'c'`, "`a\tb`", "a # b\n\\ c", `r"a  b" /* /* */ */`, "é  é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, x := range syntaxes {
			checkOneLine(t, name, x, s)
			for p := 0; p <= len(s); p++ {
				checkSkip(t, name, x, s, p)
			}
		}
	})
}

// checkOneLine checks what OneLine promises of s.
func checkOneLine(t *testing.T, name string, x *Syntax, s string) {
	got := x.OneLine(s)
	if len(got) > MaxText {
		t.Fatalf("%s.OneLine(%q) = %q: %d bytes", name, s, got, len(got))
	}
	if utf8.ValidString(s) && !utf8.ValidString(got) {
		t.Fatalf("%s.OneLine(%q) = %q: not UTF-8", name, s, got)
	}
	full := string(x.oneLine(s))
	if len(s) <= MaxText && x.plain(s) && full != s {
		t.Fatalf("%s: %q is plain, but reads as %q", name, s, full)
	}
	if strings.ContainsAny(s, "\"'`") {
		return // literals keep what they hold
	}
	if again := x.OneLine(got); again != got {
		t.Fatalf("%s.OneLine(%q) = %q, and of that %q", name, s, got, again)
	}
	if len(full) > MaxText || strings.Contains(s, x.LineComment) || x.BlockComment[0] != "" && strings.Contains(s, x.BlockComment[0]) {
		return
	}
	drop := func(s, set string) string {
		return strings.Map(func(r rune) rune {
			if r < utf8.RuneSelf && in(set, byte(r)) {
				return -1
			}
			return r
		}, s)
	}
	if a, b := drop(s, x.Space), drop(full, " "); a != b {
		t.Fatalf("%s.OneLine(%q) = %q: the words changed", name, s, full)
	}
}

// checkSkip checks what Skip promises of s from p.
func checkSkip(t *testing.T, name string, x *Syntax, s string, p int) {
	q := Skip(x, s, p, len(s))
	if q < p || q > len(s) {
		t.Fatalf("%s: Skip(%q, %d) = %d: out of range", name, s, p, q)
	}
	if q < len(s) && (in(x.Space, s[q]) || commentAt(x, s, q, len(s))) {
		t.Fatalf("%s: Skip(%q, %d) = %d: a blank or a comment", name, s, p, q)
	}
	if b := Skip(x, []byte(s), p, len(s)); b != q {
		t.Fatalf("%s: Skip(%q, %d) = %d, of the bytes %d", name, s, p, q, b)
	}
}
