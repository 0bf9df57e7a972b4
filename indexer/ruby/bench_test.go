package ruby_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

func BenchmarkExtract(b *testing.B) {
	languagetest.BenchmarkExtract(b, ruby.New(), languagetest.LoadCorpus(b, ruby.New(), "../../testdata/ruby/shop", "RUBY_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	languagetest.BenchmarkParse(b, ruby.New(), languagetest.LoadCorpus(b, ruby.New(), "../../testdata/ruby/shop", "RUBY_CORPUS"))
}
