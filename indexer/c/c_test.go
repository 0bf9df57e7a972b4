package c_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestShop(t *testing.T) {
	languagetest.Run(t, "../../testdata/c/shop", "testdata/shop.golden.json", c.New(), cpp.New())
}

func TestProject(t *testing.T) {
	languagetest.Project(t, "C_CORPUS", c.New(), cpp.New())
}

func BenchmarkExtract(b *testing.B) {
	l := c.New()
	languagetest.BenchmarkExtract(b, l, languagetest.LoadCorpus(b, l, "../../testdata/c/shop", "C_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	l := c.New()
	languagetest.BenchmarkParse(b, l, languagetest.LoadCorpus(b, l, "../../testdata/c/shop", "C_CORPUS"))
}
