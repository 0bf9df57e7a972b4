package c_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestFixture runs the shared suite over the C fixture, and over the
// tree named by $C_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/c/shop", "C_CORPUS", c.New(), cpp.New())
}

func BenchmarkExtract(b *testing.B) {
	l := c.New()
	languagetest.BenchmarkExtract(b, l, languagetest.LoadCorpus(b, l, "../../testdata/c/shop", "C_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	l := c.New()
	languagetest.BenchmarkParse(b, l, languagetest.LoadCorpus(b, l, "../../testdata/c/shop", "C_CORPUS"))
}
