package ruby_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

// TestFixture runs the shared suite over the Ruby fixture, and over the
// tree named by $RUBY_CORPUS when set.
func TestFixture(t *testing.T) {
	languagetest.Fixture(t, "../../testdata/ruby/shop", "RUBY_CORPUS", ruby.New())
}
