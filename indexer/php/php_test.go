package php_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/php"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/php/shop", "../../testdata/php/shop.golden.json", php.New())
}

// TestCorpus indexes the PHP tree named by $PHP_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	languagetest.Project(t, "PHP_CORPUS", php.New())
}

func BenchmarkExtract(b *testing.B) {
	languagetest.BenchmarkExtract(b, php.New(), languagetest.LoadCorpus(b, php.New(), "../../testdata/php/shop", "PHP_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	languagetest.BenchmarkParse(b, php.New(), languagetest.LoadCorpus(b, php.New(), "../../testdata/php/shop", "PHP_CORPUS"))
}
