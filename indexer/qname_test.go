package indexer_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
)

func TestQualifiedNames(t *testing.T) {
	if got := indexer.JoinName("a.b", "c"); got != "a.b.c" {
		t.Errorf("JoinName = %q", got)
	}
	if got := indexer.JoinName("", "c"); got != "c" {
		t.Errorf("JoinName of no scope = %q", got)
	}
	if got := indexer.ParentName("a.b.c"); got != "a.b" {
		t.Errorf("ParentName = %q", got)
	}
	if got := indexer.ParentName("c"); got != "" {
		t.Errorf("ParentName of a simple name = %q", got)
	}
}
