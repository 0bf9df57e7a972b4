package python

import (
	"os"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

func TestScratchQuery(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("PYFILE"))
	qs, _ := os.ReadFile(os.Getenv("QFILE"))
	lang := sitter.NewLanguage(tree_sitter_python.Language())
	p := sitter.NewParser()
	p.SetLanguage(lang)
	tr := p.Parse(src, nil)
	q, err := sitter.NewQuery(lang, string(qs))
	if err != nil {
		t.Fatal(err)
	}
	qc := sitter.NewQueryCursor()
	ms := qc.Matches(q, tr.RootNode(), src)
	for m := ms.Next(); m != nil; m = ms.Next() {
		for _, c := range m.Captures {
			t.Logf("p%d %s %q", m.PatternIndex, q.CaptureNames()[c.Index], src[c.Node.StartByte():c.Node.EndByte()])
		}
	}
}
