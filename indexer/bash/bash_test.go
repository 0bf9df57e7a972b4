package bash_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/bash"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/bash/shop", "../../testdata/bash/shop.golden.json", bash.New())
}

// TestCorpus indexes the Bash tree named by $BASH_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	languagetest.Project(t, "BASH_CORPUS", bash.New())
}

func BenchmarkExtract(b *testing.B) {
	languagetest.BenchmarkExtract(b, bash.New(), languagetest.LoadCorpus(b, bash.New(), "../../testdata/bash/shop", "BASH_CORPUS"))
}

func BenchmarkParse(b *testing.B) {
	languagetest.BenchmarkParse(b, bash.New(), languagetest.LoadCorpus(b, bash.New(), "../../testdata/bash/shop", "BASH_CORPUS"))
}
