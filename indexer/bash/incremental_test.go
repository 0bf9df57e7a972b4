package bash_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/bash"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestIncremental edits scripts step by step and checks after each edit
// that an index reusing the previous one's rows is the same as a full
// index: calls resolve through the files a script sources, which other
// files' edits change.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, "testdata/incremental.txt", bash.New())
}
