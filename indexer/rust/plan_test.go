package rust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestPlanMatchesCursor extracts the shop fixture and the grammar's own
// samples (its examples and the code of its test corpus) both by plan and
// on the query cursor: the results must be the same, field for field.
func TestPlanMatchesCursor(t *testing.T) {
	q, err := compiled()
	if err != nil {
		t.Fatal(err)
	}
	if !q.q.Planned() {
		t.Fatal("the Rust query runs on the query cursor, not by plan")
	}
	names, srcs := languagetest.GrammarSamples(t, "github.com/tree-sitter/tree-sitter-rust", ".rs")
	shop, _ := filepath.Glob("../../testdata/rust/shop/src/*/*.rs")
	more, _ := filepath.Glob("../../testdata/rust/shop/src/*.rs")
	for _, p := range append(shop, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		names, srcs = append(names, p), append(srcs, data)
	}
	if len(names) < 100 {
		t.Fatalf("only %d Rust samples", len(names))
	}
	languagetest.ComparePlan(t, New(), treeOf(nil), names, srcs)
}

// FuzzPlan holds the plan to the query cursor on arbitrary bytes.
func FuzzPlan(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/rust/shop/src/*.rs")
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("fn f<T: A + B>(x: &mut T) -> impl Fn() { let (a, b): (i32, _) = x.m(); }"))
	f.Add([]byte("\x00\xff{{{(((("))
	tree := &indexer.Tree{Root: "/", Paths: map[string]bool{}}
	f.Fuzz(func(t *testing.T, src []byte) {
		languagetest.ComparePlan(t, New(), tree, []string{"src/lib.rs"}, [][]byte{src})
	})
}
