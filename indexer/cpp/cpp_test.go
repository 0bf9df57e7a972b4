package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestFixture runs the shared suite over the C++ fixture, and over the
// tree named by $CPP_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/cpp/shop", "CPP_CORPUS", cpp.New(), c.New())
}

func BenchmarkExtract(b *testing.B) {
	l := cpp.New()
	languagetest.BenchmarkExtract(b, l, languagetest.LoadCorpus(b, l, "../../testdata/cpp/shop", "CPP_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	l := cpp.New()
	languagetest.BenchmarkParse(b, l, languagetest.LoadCorpus(b, l, "../../testdata/cpp/shop", "CPP_CORPUS"))
}
