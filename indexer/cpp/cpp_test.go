package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestShop(t *testing.T) {
	languagetest.Run(t, "../../testdata/cpp/shop", "testdata/shop.golden.json", cpp.New(), c.New())
}

func TestProject(t *testing.T) {
	languagetest.Project(t, "CPP_CORPUS", cpp.New(), c.New())
}

func BenchmarkExtract(b *testing.B) {
	l := cpp.New()
	languagetest.BenchmarkExtract(b, l, languagetest.LoadCorpus(b, l, "../../testdata/cpp/shop", "CPP_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	l := cpp.New()
	languagetest.BenchmarkParse(b, l, languagetest.LoadCorpus(b, l, "../../testdata/cpp/shop", "CPP_CORPUS"))
}
