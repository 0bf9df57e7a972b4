package swift_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

// TestFixture runs the shared suite over the Swift fixture, and over the
// tree named by $SWIFT_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/swift/shop", "SWIFT_CORPUS", swift.New())
}
