package rust_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/rust"
)

// TestIncremental edits a crate step by step and checks after each edit
// that an index reusing the previous one's rows is the same, node for node
// (parents included) and edge for edge, as a full index: resolution moves
// impl items under their types and file modules under their declaring
// modules, and must do it again from reused rows.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, "testdata/incremental.txt", rust.New())
}
