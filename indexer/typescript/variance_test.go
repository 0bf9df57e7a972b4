package typescript

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestVariance(t *testing.T) {
	src := `export interface Box<in out T> { get(): T }
export class Reader<out T, const in U extends object = {}> {
  read(): T { return null as T }
}
export type Sink<in T> = (x: T) => void;
const out = 1, y = 2;
let less = y < out;
`
	for _, l := range []*dialect{typescriptDialect, tsxDialect} {
		res := languagetest.Extract(t, lang{l}, nil, "src/v.ts", src)
		if res.ParseError != "" {
			t.Errorf("%s: %s", l.name, res.ParseError)
		}
		sigs := make(map[string]string)
		for _, n := range res.Nodes {
			sigs[n.QualifiedName] = n.Signature
		}
		for name, sig := range map[string]string{
			"src/v.Box":         "interface Box<in out T>",
			"src/v.Reader":      "class Reader<out T, const in U extends object = {}>",
			"src/v.Reader.read": "read(): T",
			"src/v.Sink":        "type Sink<in T> = (x: T) => void",
		} {
			if sigs[name] != sig {
				t.Errorf("%s: %s: signature %q, want %q", l.name, name, sigs[name], sig)
			}
		}
	}
}

func TestBlankVariance(t *testing.T) {
	for src, want := range map[string]string{
		"interface I<in T> {}":              "interface I<   T> {}",
		"class C<in out T, out U = T> {}":   "class C<       T,     U = T> {}",
		"type F<const out T extends X> = T": "type F<const     T extends X> = T",
		"f(a < out, b > c)":                 "f(a < out, b > c)",
		"x < out\ny = 3":                    "x < out\ny = 3",
		"for (const k in obj) {}":           "for (const k in obj) {}",
		"interface I<in out> {}":            "interface I<in out> {}",
	} {
		if got := string(blankVariance([]byte(src))); got != want {
			t.Errorf("blankVariance(%q) = %q, want %q", src, got, want)
		}
	}
}
