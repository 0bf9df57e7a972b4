package python_test

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/python"
	"github.com/graphsnap/snap/schemas"
)

// definitionF1Floor is the least F1 the fixture's definitions may score
// against Python's own symbol tables.
const definitionF1Floor = 0.99

// TestDefinitionsSymtable compares the graph's declarations with the ones
// Python's compiler finds (testdata/defs/decls.py, from the symtable
// module: functions, classes, module variables, class attributes, and
// the fields a method assigns through self), by file and name inside the
// module. The trees are the fixture and the folders in
// $SNAP_PY_PRECISION (colon-separated); $SNAP_PYTHON names the
// interpreter, python3 if unset.
func TestDefinitionsSymtable(t *testing.T) {
	py := languagetest.LookTool(t, cmp.Or(os.Getenv("SNAP_PYTHON"), "python3"), "the check against Python's symbol tables needs python3")
	for _, root := range languagetest.Roots("../../testdata/python/app", "SNAP_PY_PRECISION") {
		t.Run(filepath.Base(filepath.Dir(root))+"/"+filepath.Base(root), func(t *testing.T) {
			f1 := checkDefinitions(t, py, root)
			if f1 < definitionF1Floor && languagetest.IsFixture(root) {
				t.Errorf("definitions F1 %.4f is below %.3f", f1, definitionF1Floor)
			}
		})
	}
}

// pyDecl is one declaration: its file and its name inside its module.
type pyDecl struct{ file, name string }

func checkDefinitions(t *testing.T, py, root string) float64 {
	abs := languagetest.AbsTree(t, root)
	stdout, stderr := languagetest.RunJudge(t, exec.Command(py, "testdata/defs/decls.py", abs))
	truth := make(map[pyDecl]string)
	skipped := make(map[string]bool)
	for _, d := range languagetest.JSONLines[struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Name    string `json:"name"`
		Skipped bool   `json:"skipped"`
	}](t, "decls.py", stdout) {
		if d.Skipped {
			skipped[d.File] = true
			continue
		}
		if _, ok := truth[pyDecl{d.File, d.Name}]; !ok {
			truth[pyDecl{d.File, d.Name}] = fmt.Sprintf("%s:%d %s", d.File, d.Line, d.Name)
		}
	}
	if len(truth) == 0 {
		t.Fatalf("decls.py declared nothing under %s:\n%s", root, stderr)
	}

	g := languagetest.IndexTree(t, abs, python.New())
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	for i := range g.Nodes {
		byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	// module returns the qualified name of the module or package n is in.
	module := func(n *schemas.Node) string {
		for p := byID[n.ParentID]; p != nil; p = byID[p.ParentID] {
			if p.Kind == schemas.KindModule || p.Kind == schemas.KindPackage {
				return p.QualifiedName
			}
		}
		return ""
	}
	ours := make(map[pyDecl]string)
	for i := range g.Nodes {
		n := &g.Nodes[i]
		switch {
		case n.Kind == schemas.KindModule || n.Kind == schemas.KindPackage || n.Kind == schemas.KindFile:
		case skipped[n.File]: // no symbol table to compare with
		default:
			name, ok := strings.CutPrefix(n.QualifiedName, module(n)+".")
			if !ok {
				name = n.QualifiedName
			}
			ours[pyDecl{n.File, name}] = fmt.Sprintf("%s:%d %s", n.File, n.StartLine, name)
		}
	}
	if len(skipped) > 0 {
		t.Logf("%d files the compiler refuses, left out", len(skipped))
	}
	return languagetest.Definitions(t, "symtable", truth, ours, 0)
}
