package srctext

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPos(t *testing.T) {
	src := []byte("ab\n\ncd\nе")
	starts := LineStarts(nil, src)
	if want := []uint32{0, 3, 4, 7}; !slices.Equal(starts, want) {
		t.Fatalf("starts %v, want %v", starts, want)
	}
	for off, want := range map[uint32][2]uint32{0: {1, 1}, 1: {1, 2}, 3: {2, 1}, 5: {3, 2}, 8: {4, 2}} {
		if l, c := Pos(starts, off); l != want[0] || c != want[1] {
			t.Errorf("Pos(%d) = %d:%d, want %d:%d", off, l, c, want[0], want[1])
		}
	}
	if again := LineStarts(starts[:0], []byte("x\ny")); !slices.Equal(again, []uint32{0, 2}) {
		t.Errorf("reused dst: %v", again)
	}
}

func TestCap(t *testing.T) {
	if Cap("short", 10) != "short" {
		t.Error("a short text was cut")
	}
	s := strings.Repeat("é", 50) // 100 bytes
	for _, max := range []int{10, 11, 12, 99} {
		got := Cap(s, max)
		if len(got) > max || !utf8.ValidString(got) || !strings.HasSuffix(got, Ellipsis) {
			t.Errorf("Cap(_, %d) = %q (%d bytes)", max, got, len(got))
		}
	}
}

// TestWords holds Words to its definition, strings.Join(strings.Fields),
// cut, over runs of ASCII and Unicode spaces, invalid bytes and runes cut
// by max.
func TestWords(t *testing.T) {
	parts := []string{" ", "\t", "\n", "\u00a0", "\u0085", "\u2003", "\xff", "\xc2", "a", "bc", "é", "Ω", "(", ")", "func() {", "}"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		in := b.String()
		max := rng.IntN(16)
		want := strings.Join(strings.Fields(in), " ")
		wantLonger := len(want) > max
		if wantLonger {
			want = want[:max]
		}
		if got, longer := Words([]byte(in), max); got != want || longer != wantLonger {
			t.Fatalf("Words(%q, %d) = %q, %v; want %q, %v", in, max, got, longer, want, wantLonger)
		}
	}
}

func TestSqueeze(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "",
		"Map<K, V>":             "Map<K,V>",
		"a\tb\r\nc":             "abc",
		"x\u00a0y\vz":           "xyz", // every space strings.Fields knows
		"already":               "already",
		"  List< Map<A , B> > ": "List<Map<A,B>>",
	} {
		if got := Squeeze(in); got != want {
			t.Errorf("Squeeze(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"f(a,\n\t  b)", "f(a, b)"},
		{"  x  ", "x"},
		{strings.Repeat("ab ", 100), strings.Repeat("ab ", 65) + "ab" + Ellipsis}, // 197 bytes and the ellipsis,
	} {
		if got := OneLine(c.in); got != c.want {
			t.Errorf("OneLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDocLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"/** One line. */", []string{"One line."}},
		{"/**\n * First.\n *\n *   Indented.\n **/", []string{"First.", "Indented."}},
		{"/***/", nil},
		{" * a line of one", []string{"a line of one"}},
		{"/* not a doc */", []string{"/* not a doc"}},
	} {
		if got := DocLines(nil, tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("DocLines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := DocLines([]string{"kept"}, "/** b */"); !slices.Equal(got, []string{"kept", "b"}) {
		t.Errorf("DocLines appends to %q", got)
	}
}

func TestTrimBlank(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"", " \t", "a", "", "b", "\r", ""}, []string{"a", "", "b"}},
		{[]string{"a"}, []string{"a"}},
		{[]string{" ", ""}, []string{}},
		{nil, nil},
	} {
		if got := TrimBlank(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("TrimBlank(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFold(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"f(a,\n\t  b)", "f(a, b)"},
		{"a  b ", "a b"},
		{" a b ", " a b "}, // no tab, line break or double space: as it is
		{strings.Repeat("ab ", 100) + "\n", strings.Repeat("ab ", 99) + "ab"},
	} {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSkipSpace(t *testing.T) {
	for _, c := range []struct {
		s    string
		p    int
		want int
	}{
		{" \t\r\nx", 0, 4},
		{"a b", 1, 2},
		{"a\fb", 1, 1}, // a form feed is not skipped
		{"  ", 0, 2},
		{"x", 1, 1},
	} {
		if got := SkipSpace(c.s, c.p); got != c.want {
			t.Errorf("SkipSpace(%q, %d) = %d, want %d", c.s, c.p, got, c.want)
		}
	}
}

func TestIsIdent(t *testing.T) {
	for _, tc := range []struct {
		s, extra string
		want     bool
	}{
		{"a", "", true}, {"_a1", "", true}, {"é", "", true}, {"", "", false}, {"1a", "", false},
		{"a-b", "", false}, {"$a", "", false}, {"$a", "$", true}, {"a$1", "$", true}, {"@class", "@", true},
	} {
		if got := IsIdent(tc.s, tc.extra); got != tc.want {
			t.Errorf("IsIdent(%q, %q) = %v, want %v", tc.s, tc.extra, got, tc.want)
		}
	}
}

func TestIdentEnd(t *testing.T) {
	for _, tc := range []struct {
		s, extra     string
		p, end, want int
	}{
		{"ab1 c", "", 0, 5, 3}, {"ab1 c", "", 1, 5, 3}, {"ab1 c", "", 3, 5, 3}, {"ab1 c", "", 4, 5, 5},
		{"1ab", "", 0, 3, 0}, {"abc", "", 0, 2, 2}, {"abc", "", 3, 3, 3}, {"$a.b", "$", 0, 4, 2}, {"$a", "", 0, 2, 0},
	} {
		if got := IdentEnd(tc.s, tc.p, tc.end, tc.extra); got != tc.want {
			t.Errorf("IdentEnd(%q, %d, %d, %q) = %d, want %d", tc.s, tc.p, tc.end, tc.extra, got, tc.want)
		}
		if got := IdentEnd([]byte(tc.s), tc.p, tc.end, tc.extra); got != tc.want {
			t.Errorf("IdentEnd([]byte(%q), %d, %d, %q) = %d, want %d", tc.s, tc.p, tc.end, tc.extra, got, tc.want)
		}
	}
}

func TestIsQualified(t *testing.T) {
	for _, tc := range []struct {
		s, sep, extra string
		want          bool
	}{
		{"a", ".", "", true}, {"a.b1.c", ".", "", true}, {"", ".", "", false}, {"a.", ".", "", false},
		{".a", ".", "", false}, {"a..b", ".", "", false}, {"a.1b", ".", "", false}, {"$a.b", ".", "$", true},
		{`a\b`, `\`, "", true}, {"a::b", "::", "", true}, {"a.b", "::", "", false},
	} {
		if got := IsQualified(tc.s, tc.sep, tc.extra); got != tc.want {
			t.Errorf("IsQualified(%q, %q, %q) = %v, want %v", tc.s, tc.sep, tc.extra, got, tc.want)
		}
	}
}

func TestStripBrackets(t *testing.T) {
	for _, tc := range []struct {
		s           string
		open, close byte
		want        string
	}{
		{"Map<K, List<V>>", '<', '>', "Map"},
		{"Map[K, List[V]].Entry", '[', ']', "Map.Entry"},
		{"a>b", '<', '>', "a>b"},
		{"a<b>>c", '<', '>', "ac"},
	} {
		if got := StripBrackets(tc.s, tc.open, tc.close); got != tc.want {
			t.Errorf("StripBrackets(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestSplitTop(t *testing.T) {
	for _, tc := range []struct {
		s           string
		sep         byte
		open, close string
		want        []string
	}{
		{"f(a, b), c", ',', "([{", ")]}", []string{"f(a, b)", " c"}},
		{"Map<K, V>, int", ',', "<", ">", []string{"Map<K, V>", " int"}},
		{"a.{b.c}.d", '.', "{", "}", []string{"a", "{b.c}", "d"}},
		{"", ',', "(", ")", []string{""}},
		{"a)b,c", ',', "(", ")", []string{"a)b,c"}},
	} {
		if got := SplitTop(tc.s, tc.sep, tc.open, tc.close); !slices.Equal(got, tc.want) {
			t.Errorf("SplitTop(%q, %q) = %q, want %q", tc.s, tc.sep, got, tc.want)
		}
	}
}

func TestTopCommas(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []int
	}{
		{"a, b", []int{1}},
		{"f(a, b), [c, d], {e, f}", []int{7, 15}},
		{`"a,b", 'c,\'d', e`, []int{5, 14}},
		{`"a\",b",c`, []int{7}},
		{"", nil},
	} {
		if got := TopCommas(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("TopCommas(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestArgs(t *testing.T) {
	for in, want := range map[string]string{
		" (a,\n  b) ": "a, b",
		"a, b":        "a, b",
		"()":          "",
	} {
		if got := Args(in); got != want {
			t.Errorf("Args(%q) = %q, want %q", in, got, want)
		}
	}
}
