package typescript_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

// definitionF1Floor is the least F1 the fixture's definitions may score
// against the TypeScript parser.
const definitionF1Floor = 0.99

// tsDecl is one declaration: its file and its name inside its module.
type tsDecl struct{ file, name string }

// checkDefinitionsTSC compares the graph's declarations in the TypeScript
// files under root with the ones testdata/tsc/decls.cjs finds with the
// compiler's parser (see the script for what counts), by file and name
// inside the module. The graph's declarations inside function bodies are
// left out, as the script leaves them out.
func checkDefinitionsTSC(t *testing.T, node, pkg, root string) {
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--max-old-space-size=4096", "testdata/tsc/decls.cjs", pkg, abs)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("decls.cjs: %v\n%s", err, stderr.String())
	}
	truth := make(map[tsDecl]int) // the line of its name, for the log
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var d struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Name string `json:"name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("decls.cjs: %v: %s", err, sc.Text())
		}
		truth[tsDecl{d.File, d.Name}] = d.Line
	}
	if len(truth) == 0 {
		t.Fatalf("decls.cjs declared nothing under %s:\n%s", abs, stderr.String())
	}

	g, err := indexer.Index(context.Background(), abs, indexer.Options{Languages: typescript.All(), Workers: 2, NoSources: true})
	if err != nil {
		t.Fatal(err)
	}
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	module := make(map[string]string) // file → its module's qualified name
	for i := range g.Nodes {
		n := &g.Nodes[i]
		byID[n.ID] = n
		if n.Kind == schemas.KindModule {
			module[n.File] = n.QualifiedName
		}
	}
	inBody := func(n *schemas.Node) bool {
		for p := byID[n.ParentID]; p != nil; p = byID[p.ParentID] {
			switch p.Kind {
			case schemas.KindFunction, schemas.KindMethod, schemas.KindConstructor:
				return true
			}
		}
		return false
	}
	ours := make(map[tsDecl]uint32)
	for i := range g.Nodes {
		n := &g.Nodes[i]
		switch {
		case n.Kind == schemas.KindModule || n.Kind == schemas.KindFile || n.Kind == schemas.KindPackage:
		case !strings.HasSuffix(n.File, "ts") && !strings.HasSuffix(n.File, ".tsx"): // .ts .mts .cts .tsx
		case inBody(n):
		default:
			name, ok := strings.CutPrefix(n.QualifiedName, module[n.File]+".")
			if !ok {
				name = n.QualifiedName
			}
			ours[tsDecl{n.File, name}] = n.StartLine
		}
	}
	var missed, extra []string
	agree := 0
	for d, line := range truth {
		if _, ok := ours[d]; ok {
			agree++
		} else {
			missed = append(missed, fmt.Sprintf("%s:%d %s", d.file, line, d.name))
		}
	}
	for d, line := range ours {
		if _, ok := truth[d]; !ok {
			extra = append(extra, fmt.Sprintf("%s:%d %s", d.file, line, d.name))
		}
	}
	p := float64(agree) / float64(max(len(ours), 1))
	r := float64(agree) / float64(max(len(truth), 1))
	f1 := 2 * p * r / max(p+r, 1e-9)
	t.Logf("definitions: the parser %d, ours %d, agree %d: precision %.4f, recall %.4f, F1 %.4f",
		len(truth), len(ours), agree, p, r, f1)
	slices.Sort(missed)
	slices.Sort(extra)
	for i, d := range missed {
		if i == 40 {
			t.Logf("  … and %d more missed", len(missed)-40)
			break
		}
		t.Logf("  missed %s", d)
	}
	for i, d := range extra {
		if i == 40 {
			t.Logf("  … and %d more not declared for the parser", len(extra)-40)
			break
		}
		t.Logf("  not declared for the parser: %s", d)
	}
	if f1 < definitionF1Floor && strings.HasPrefix(root, "../../testdata/") {
		t.Errorf("definitions F1 %.4f is below %.3f", f1, definitionF1Floor)
	}
}
