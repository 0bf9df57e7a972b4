package rust

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestPlanMatchesCursor: the Rust query runs by plan, and extracts the
// shop fixture and the grammar's own samples (its examples and the code
// of its test corpus) as the query cursor does, field for field.
func TestPlanMatchesCursor(t *testing.T) {
	q, err := compiled()
	if err != nil {
		t.Fatal(err)
	}
	languagetest.CheckPlan(t, q.Query.Planned(), New(), "github.com/tree-sitter/tree-sitter-rust", []string{".rs"},
		"../../testdata/rust/shop/src/*.rs", "../../testdata/rust/shop/src/*/*.rs")
}

// FuzzPlan holds the plan to the query cursor on arbitrary bytes.
func FuzzPlan(f *testing.F) {
	languagetest.Seed(f, "../../testdata/rust/shop/src/*.rs")
	f.Add([]byte("fn f<T: A + B>(x: &mut T) -> impl Fn() { let (a, b): (i32, _) = x.m(); }"))
	f.Add([]byte("\x00\xff{{{(((("))
	tree := &indexer.Tree{Root: "/", Paths: map[string]bool{}}
	f.Fuzz(func(t *testing.T, src []byte) {
		languagetest.ComparePlan(t, New(), tree, []string{"src/lib.rs"}, [][]byte{src})
	})
}
