package scala_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/scala/shop", "../../testdata/scala/shop.golden.json", scala.New())
}

// TestCorpus indexes the Scala tree named by $SCALA_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	languagetest.Project(t, "SCALA_CORPUS", scala.New())
}
