package kotlin_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/kotlin"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestFixture runs the shared suite over the Kotlin fixture, and over the
// tree named by $KOTLIN_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/kotlin/shop", "KOTLIN_CORPUS", kotlin.New())
}
