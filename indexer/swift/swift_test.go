package swift_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/swift/shop", "../../testdata/swift/shop.golden.json", swift.New())
}

// TestCorpus indexes the Swift tree named by $SWIFT_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	languagetest.Project(t, "SWIFT_CORPUS", swift.New())
}
