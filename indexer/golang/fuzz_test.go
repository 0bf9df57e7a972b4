package golang_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// FuzzExtract feeds arbitrary bytes to extraction and resolution: they
// must never panic or crash, whatever the input, and extraction by plan
// must give what the query cursor gives (see TestPlanMatchesCursor).
func FuzzExtract(f *testing.F) {
	seeds := []string{
		"package p\nfunc f(a, b int) (c T) { switch v := x.(type) { case T: v.M() } }",
		"package p\nvar a, b, = 1\nconst (x, y int = iota\n",
		"\x00\xff{{{((((",
	}
	lang := golang.New()
	tree := &indexer.Tree{Root: "/", Paths: map[string]bool{}}
	samePlan := func(t *testing.T, src []byte, _ *indexer.Result) {
		languagetest.ComparePlan(t, lang, tree, []string{"p/f.go"}, [][]byte{src})
	}
	languagetest.FuzzExtract(f, lang, tree, "p/f.go", seeds, samePlan, "../../testdata/go/shop/*/*.go")
}
