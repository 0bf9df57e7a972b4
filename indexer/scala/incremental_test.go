package scala_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
)

// TestIncremental edits a project step by step and checks after each
// edit that an index reusing the previous one's rows is the same, node
// for node and edge for edge, as a full index: resolution reads packages,
// imports and parents across files.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, "testdata/incremental.txt", scala.New())
}
