package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestIncremental edits a tree step by step and checks after each edit
// that an index reusing the previous one's rows is the same, node for
// node and edge for edge, as a full index: calls resolve through the
// includes of other files, and a header changes language when C++
// sources come to outnumber C ones.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, "testdata/incremental.txt", c.New(), cpp.New())
}
