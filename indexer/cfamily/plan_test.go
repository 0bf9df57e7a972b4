package cfamily

import (
	"testing"

	tree_sitter_c "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestPlanMatchesCursor: the C query runs by plan, and extracts the shop
// fixture and the grammar's own samples (its examples, among them a
// 2 MB generated parser, and the code of its test corpus) as the query
// cursor does, field for field. (C++'s query nests a pattern, so it stays
// on the cursor.)
func TestPlanMatchesCursor(t *testing.T) {
	l := New(Config{Name: "c", Extensions: []string{".c", ".h"}, Grammar: tree_sitter_c.Language(), Version: "test"})
	q, err := l.query()
	if err != nil {
		t.Fatal(err)
	}
	languagetest.CheckPlan(t, q.Query.Planned(), l, "github.com/tree-sitter/tree-sitter-c", []string{".c", ".h"},
		"../../testdata/c/shop/*/*.[ch]")
}

// FuzzPlan holds the C plan to the query cursor on arbitrary bytes.
func FuzzPlan(f *testing.F) {
	languagetest.Seed(f, "../../testdata/c/shop/*/*.[ch]")
	f.Add([]byte("struct s { int a, *b; } x; static int (*f)(void) = g; int main(int c, char **v) { return h(c)->n; }"))
	f.Add([]byte("#define M(x) ((x)+1)\n\x00\xff{{{(((("))
	l := New(Config{Name: "c", Extensions: []string{".c", ".h"}, Grammar: tree_sitter_c.Language(), Version: "test"})
	tree := &indexer.Tree{Root: "/", Paths: map[string]bool{}}
	f.Fuzz(func(t *testing.T, src []byte) {
		languagetest.ComparePlan(t, l, tree, []string{"src/a.c"}, [][]byte{src})
	})
}
