package languagetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// recorder collects what Invariants reports instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestInvariantsCatch(t *testing.T) {
	file := schemas.File{Path: "a.go", Language: "go", Lines: 10, Size: 100, Status: schemas.StatusOK}
	fn := schemas.Node{ID: 2, Kind: schemas.KindFunction, Name: "F", QualifiedName: "a.F", Language: "go", File: "a.go", StartLine: 1, EndLine: 2, EndByte: 10, ParentID: 1}
	fileNode := schemas.Node{ID: 1, Kind: schemas.KindFile, Name: "a.go", QualifiedName: "a.go", Language: "go", File: "a.go", StartLine: 1, EndLine: 10, EndByte: 100}
	good := func() *indexer.Graph {
		return &indexer.Graph{Files: []schemas.File{file}, Nodes: []schemas.Node{fileNode, fn}, Edges: []schemas.Edge{
			{Src: 2, Dst: 2, Kind: schemas.EdgeCalls, Resolution: schemas.ResolvedStructural, Confidence: 1, File: "a.go", Line: 1},
			{Src: 2, Kind: schemas.EdgeCalls, Target: "x", Reason: "name x is not defined", File: "a.go", Line: 2},
		}}
	}
	r := &recorder{TB: t}
	Invariants(r, good())
	if len(r.errs) != 0 {
		t.Fatalf("a sound graph fails: %v", r.errs)
	}
	for _, c := range []struct {
		name    string
		breakIt func(g *indexer.Graph)
		want    string
	}{
		{"repeated id", func(g *indexer.Graph) { g.Nodes[1].ID = 1 }, "repeated"},
		{"past the end", func(g *indexer.Graph) { g.Nodes[1].EndLine = 11 }, "lines 1-11"},
		{"lost parent", func(g *indexer.Graph) { g.Nodes[1].ParentID = 9 }, "parent 9 is not a node"},
		{"unknown file", func(g *indexer.Graph) { g.Nodes[1].File = "b.go" }, `file "b.go"`},
		{"call on a file", func(g *indexer.Graph) { g.Edges[0].Dst = 1 }, "lands on a file"},
		{"no reason", func(g *indexer.Graph) { g.Edges[1].Reason = "" }, "reason"},
		{"dangling", func(g *indexer.Graph) { g.Edges[0].Dst = 7 }, "destination 7"},
		{"extends a function", func(g *indexer.Graph) { g.Edges[0].Kind = schemas.EdgeExtends }, "does not connect types"},
	} {
		g := good()
		c.breakIt(g)
		r := &recorder{TB: t}
		Invariants(r, g)
		if !strings.Contains(strings.Join(r.errs, "\n"), c.want) {
			t.Errorf("%s: reports %q, want %q", c.name, r.errs, c.want)
		}
	}
}
