package swift_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

// TestIncremental edits a package step by step and checks after each
// edit that an index reusing the previous one's rows is the same, node
// for node and edge for edge, as a full index: resolution attaches
// extension members and conformances across files and modules.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, "testdata/incremental.txt", swift.New())
}
