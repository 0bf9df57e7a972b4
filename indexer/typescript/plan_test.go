package typescript

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestPlanMatchesCursor: the JavaScript query runs by plan, and extracts
// the fixture's JavaScript and the grammar's own samples (jQuery, an Atom
// component, the code of its test corpus) as the query cursor does, field
// for field. (TypeScript's query nests a pattern, so it stays on the
// cursor.)
func TestPlanMatchesCursor(t *testing.T) {
	q, err := javascriptDialect.query()
	if err != nil {
		t.Fatal(err)
	}
	languagetest.CheckPlan(t, q.Query.Planned(), JavaScript(), "github.com/tree-sitter/tree-sitter-javascript",
		[]string{".js", ".jsx", ".mjs", ".cjs"}, "../../testdata/typescript/shop/lib/*.js", "../../testdata/typescript/shop/src/util/*.js")
}

// FuzzPlan holds the JavaScript plan to the query cursor on arbitrary
// bytes.
func FuzzPlan(f *testing.F) {
	languagetest.Seed(f, "../../testdata/typescript/shop/lib/logger.js", "../../testdata/typescript/shop/src/util/legacy.js")
	f.Add([]byte("let {a, b: {c, d}, ...e} = o; export default class extends B { m(x = 1) { return a?.b(c) ?? d } }"))
	f.Add([]byte("\x00\xff{{{(((("))
	tree := &indexer.Tree{Root: "/", Paths: map[string]bool{}}
	f.Fuzz(func(t *testing.T, src []byte) {
		languagetest.ComparePlan(t, JavaScript(), tree, []string{"src/a.js"}, [][]byte{src})
	})
}

// The JavaScript extraction benchmarks run over the shop fixture, or over
// the tree in $JS_CORPUS (three.js's package, say):
//
//	JS_CORPUS=/tmp/three/package go test -run '^$' -bench 'JS' ./indexer/typescript
func jsCorpus(b *testing.B) languagetest.Corpus {
	return languagetest.LoadCorpus(b, JavaScript(), "../../testdata/typescript/shop", "JS_CORPUS")
}

func BenchmarkJSExtract(b *testing.B) { languagetest.BenchmarkExtract(b, JavaScript(), jsCorpus(b)) }
func BenchmarkJSExtractCursor(b *testing.B) {
	languagetest.BenchmarkExtractCursor(b, JavaScript(), jsCorpus(b))
}
func BenchmarkJSParse(b *testing.B) { languagetest.BenchmarkParse(b, JavaScript(), jsCorpus(b)) }
