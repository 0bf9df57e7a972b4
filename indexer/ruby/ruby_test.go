package ruby_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/ruby/shop", "../../testdata/ruby/shop.golden.json", ruby.New())
}

// TestCorpus indexes the Ruby tree named by $RUBY_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	languagetest.Project(t, "RUBY_CORPUS", ruby.New())
}
