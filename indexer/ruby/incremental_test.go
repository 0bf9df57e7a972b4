package ruby_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

// TestIncremental edits a tree step by step and checks after each edit
// that an index reusing the previous one's rows is the same, edge for
// edge, as a full index: resolution links classes, mixins and requires
// across files, and must do it again from reused rows.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, "testdata/incremental.txt", ruby.New())
}
