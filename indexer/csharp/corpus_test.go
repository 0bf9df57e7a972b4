package csharp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/csharp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestCorpus indexes the C# tree named by $CSHARP_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	languagetest.Project(t, "CSHARP_CORPUS", csharp.New())
}
