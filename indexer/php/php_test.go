package php_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/php"
)

// TestFixture runs the shared suite over the PHP fixture, and over the
// tree named by $PHP_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/php/shop", "PHP_CORPUS", php.New())
}

func BenchmarkExtract(b *testing.B) {
	languagetest.BenchmarkExtract(b, php.New(), languagetest.LoadCorpus(b, php.New(), "../../testdata/php/shop", "PHP_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	languagetest.BenchmarkParse(b, php.New(), languagetest.LoadCorpus(b, php.New(), "../../testdata/php/shop", "PHP_CORPUS"))
}
