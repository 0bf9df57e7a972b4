package grammar_test

import (
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/graphsnap/snap/indexer/swift/grammar"
)

func TestParse(t *testing.T) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(grammar.Language())); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse([]byte("struct A { func f() -> Int { return 1 } }\n"), nil)
	defer tree.Close()
	if root := tree.RootNode(); root.HasError() || root.Kind() != "source_file" {
		t.Fatalf("parse: %s", root.ToSexp())
	}
}
