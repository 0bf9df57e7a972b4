package scala_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
)

// TestFixture runs the shared suite over the Scala fixture, and over the
// tree named by $SCALA_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/scala/shop", "SCALA_CORPUS", scala.New())
}
