package golang

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestQueryPlanned: Go's query runs by plan (a pattern that does not fit
// would move every Go file back onto the slower query cursor), and
// extracts the shop fixture and the grammar's own samples as the query
// cursor does. TestPlanMatchesCursor does the same over GOROOT.
func TestQueryPlanned(t *testing.T) {
	l := New()
	l.init()
	if l.err != nil {
		t.Fatal(l.err)
	}
	languagetest.CheckPlan(t, l.query.Planned(), l, "github.com/tree-sitter/tree-sitter-go", []string{".go"},
		"../../testdata/go/shop/*/*.go")
}
