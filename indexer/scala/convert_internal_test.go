package scala

import (
	"slices"
	"testing"
)

func TestParamNames(t *testing.T) {
	for _, c := range []struct {
		sig, name string
		want      []string
	}{
		{"def f(a: Int, b: String = \"x,y\")", "f", []string{"a", "b"}},
		{"def ef[T](x: T, m: Map[String, Int] = Map())(implicit o: Ord)", "ef", []string{"x", "m"}},
		{"case class P(val x: Int, private var y: Long)", "P", []string{"x", "y"}},
		{"def this(s: String)", "this", []string{"s"}},
		{"def total: Int", "total", nil},
	} {
		if got := paramNames(c.sig, c.name); !slices.Equal(got, c.want) {
			t.Errorf("paramNames(%q) = %q, want %q", c.sig, got, c.want)
		}
	}
}
