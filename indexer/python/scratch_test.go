package python

import (
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

func TestScratchSexp(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("PYFILE"))
	p := sitter.NewParser()
	p.SetLanguage(sitter.NewLanguage(tree_sitter_python.Language()))
	tr := p.Parse(src, nil)
	t.Log(tr.RootNode().ToSexp())
}
