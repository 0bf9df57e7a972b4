package csharp

import "testing"

func TestLiteralTypes(t *testing.T) {
	for _, c := range []struct{ lit, want string }{
		{"1", "#System.Int32"}, {"1_000", "#System.Int32"}, {"1L", "{System.Int64}"}, {"1u", "{System.UInt32}"},
		{"1UL", "{System.UInt64}"}, {"1f", "{System.Single}"}, {"1.5", "{System.Double}"}, {"1e3", "{System.Double}"},
		{"2.5m", "{System.Decimal}"}, {"1d", "{System.Double}"}, {"0x1F", "?"}, {"0xFFFFFFFF", "?"},
		{"12345678901", "?"}, {"1 + x", "?"}, {"2 * time", "?"},
	} {
		if got := numLiteral(c.lit); got != c.want {
			t.Errorf("numLiteral(%q) = %q, want %q", c.lit, got, c.want)
		}
	}
	for _, c := range []struct {
		lit  string
		want bool
	}{
		{`"a"`, true}, {`@"a""b"`, true}, {`$"x{y}"`, false}, {`$@"x"`, false}, {`"a\"b"`, true},
		{`"a" + b`, false}, {`"a" == b`, false}, {`"a" + "b"`, false}, {`@"a" + "b"`, false},
	} {
		if got := isStringLit(c.lit); got != c.want {
			t.Errorf("isStringLit(%q) = %v", c.lit, got)
		}
	}
	for _, c := range []struct {
		lit  string
		want bool
	}{
		{`'a'`, true}, {`'\n'`, true}, {`'\u0041'`, true}, {`'a' + 'b'`, false}, {`'a' + 1`, false},
	} {
		if got := isCharLit(c.lit); got != c.want {
			t.Errorf("isCharLit(%q) = %v", c.lit, got)
		}
	}
	for _, c := range []struct {
		e    string
		want bool
	}{
		{"x => x", true}, {"(a, b) => a", true}, {"async () => { }", true}, {"delegate { }", true},
		{"F(x => x)", false}, {"delegated", false}, {"name: x => x", false},
	} {
		if got := isLambda(c.e); got != c.want {
			t.Errorf("isLambda(%q) = %v", c.e, got)
		}
	}
}
