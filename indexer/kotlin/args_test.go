package kotlin

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

func TestLiterals(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"1", argInt}, {"1_000", argInt}, {"0x1F", argInt}, {"0b101", argInt},
		{"2L", "{kotlin.Long}"}, {"0xFFL", "{kotlin.Long}"},
		{"1.5", "{kotlin.Double}"}, {"1e3", "{kotlin.Double}"}, {".5", "{kotlin.Double}"}, {"1.5e-3", "{kotlin.Double}"},
		{"1f", "{kotlin.Float}"}, {"2.5F", "{kotlin.Float}"},
		{"1u", argUnknown}, {"1 + 2", argUnknown},
	} {
		if got := numLiteral(c.text); got != c.want {
			t.Errorf("numLiteral(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	for _, c := range []struct {
		text string
		str  bool
	}{
		{`"a"`, true}, {`"a${b + "c"}d"`, true}, {`"""x"y"""`, true}, {`"a\""`, true},
		{`"a" + b`, false}, {`"a" == "b"`, false}, {`"a".length`, false},
	} {
		if got := isStringLit(c.text); got != c.str {
			t.Errorf("isStringLit(%q) = %v", c.text, got)
		}
	}
	for _, c := range []struct {
		text string
		ch   bool
	}{{`'a'`, true}, {`'\n'`, true}, {`'\u0041'`, true}, {`'é'`, true}, {`'ab'`, false}, {`'a' + 1`, false}} {
		if got := isCharLit(c.text); got != c.ch {
			t.Errorf("isCharLit(%q) = %v", c.text, got)
		}
	}
}

// TestArgExprs pins the arguments calls record: their types where the
// code tells them, "?" where a smart cast, an operator or a lambda's
// receiver leaves them unknown.
func TestArgExprs(t *testing.T) {
	src := `package p

class A(val n: Int) {
    fun f(x: Int) = x
    fun go(s: String?, a: Any, l: Long, vararg v: Int) {
        f(1, 2L, 1.5, 1f, "s", 'c', true, null, this, s, a)
        f(x = 1, *v)
        f(v)
        f(n + 1)
        f(A(1))
        f(a as String)
        if (a is String) f(a)
        if (s != null) f(s)
        f(l) { }
        apply { f(n) }
        with(a) { f(this) }
    }
}

fun A.ext() = f(this)
`
	g := languagetest.Index(t, map[string]string{"A.kt": src}, New())
	var got []string
	for _, r := range g.Refs {
		if r.Kind == schemas.EdgeCalls && r.Target == "f" {
			got = append(got, r.Expr)
		}
	}
	want := []string{
		"f(#,{kotlin.Long},{kotlin.Double},{kotlin.Float},{kotlin.String},{kotlin.Char},{kotlin.Boolean},?null,this,{String?},{Any})",
		"f(x=#,*)",
		"f(?)",
		"f(?)",
		"f(A(#))",
		"f({String})",
		"f(?)",
		"f(?)",
		"f({Long},~?fn)",
		"f({Int})",
		"~f(?)",
		"~f({A})",
	}
	if len(got) != len(want) {
		t.Fatalf("calls of f:\n%q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
