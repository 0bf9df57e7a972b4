package python_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
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
	py := cmpOr(os.Getenv("SNAP_PYTHON"), "python3")
	if _, err := exec.LookPath(py); err != nil {
		languagetest.NeedTool(t, fmt.Sprintf("the check against Python's symbol tables needs python3: %v", err))
	}
	roots := []string{"../../testdata/python/app"}
	if extra := os.Getenv("SNAP_PY_PRECISION"); extra != "" {
		roots = append(roots, filepath.SplitList(extra)...)
	}
	for _, root := range roots {
		t.Run(filepath.Base(filepath.Dir(root))+"/"+filepath.Base(root), func(t *testing.T) {
			f1 := checkDefinitions(t, py, root)
			if f1 < definitionF1Floor && strings.HasPrefix(root, "../../testdata/") {
				t.Errorf("definitions F1 %.4f is below %.3f", f1, definitionF1Floor)
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// pyDecl is one declaration: its file and its name inside its module.
type pyDecl struct{ file, name string }

func checkDefinitions(t *testing.T, py, root string) float64 {
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "testdata/defs/decls.py", abs)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("decls.py: %v\n%s", err, stderr.String())
	}
	truth := make(map[pyDecl]string)
	skipped := make(map[string]bool)
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var d struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Name    string `json:"name"`
			Skipped bool   `json:"skipped"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("decls.py: %v: %s", err, sc.Text())
		}
		if d.Skipped {
			skipped[d.File] = true
			continue
		}
		if _, ok := truth[pyDecl{d.File, d.Name}]; !ok {
			truth[pyDecl{d.File, d.Name}] = fmt.Sprintf("%s:%d %s", d.File, d.Line, d.Name)
		}
	}
	if len(truth) == 0 {
		t.Fatalf("decls.py declared nothing under %s:\n%s", root, stderr.String())
	}

	g, err := indexer.Index(context.Background(), abs, indexer.Options{Languages: []indexer.Language{python.New()}, NoSources: true})
	if err != nil {
		t.Fatal(err)
	}
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
