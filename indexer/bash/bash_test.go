package bash_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/bash"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestFixture runs the shared suite over the Bash fixture, and over the
// tree named by $BASH_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/bash/shop", "BASH_CORPUS", bash.New())
}

func BenchmarkExtract(b *testing.B) {
	languagetest.BenchmarkExtract(b, bash.New(), languagetest.LoadCorpus(b, bash.New(), "../../testdata/bash/shop", "BASH_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	languagetest.BenchmarkParse(b, bash.New(), languagetest.LoadCorpus(b, bash.New(), "../../testdata/bash/shop", "BASH_CORPUS"))
}
