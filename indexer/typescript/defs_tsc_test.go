package typescript_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
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
// inside the module.
func checkDefinitionsTSC(t *testing.T, node, pkg, root string) {
	abs := languagetest.AbsTree(t, root)
	stdout, stderr := languagetest.RunJudge(t, exec.Command(node, "--max-old-space-size=4096", "testdata/tsc/decls.cjs", pkg, abs))
	truth := make(map[tsDecl]string)
	for _, d := range languagetest.JSONLines[struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Name string `json:"name"`
	}](t, "decls.cjs", stdout) {
		truth[tsDecl{d.File, d.Name}] = fmt.Sprintf("%s:%d %s", d.File, d.Line, d.Name)
	}
	if len(truth) == 0 {
		t.Fatalf("decls.cjs declared nothing under %s:\n%s", abs, stderr)
	}

	g := languagetest.IndexTree(t, abs, typescript.All()...)
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	module := make(map[string]string) // file → its module's qualified name
	for i := range g.Nodes {
		n := &g.Nodes[i]
		byID[n.ID] = n
		if n.Kind == schemas.KindModule {
			module[n.File] = n.QualifiedName
		}
	}
	ours := make(map[tsDecl]string)
	for i := range g.Nodes {
		n := &g.Nodes[i]
		switch {
		case n.Kind == schemas.KindModule || n.Kind == schemas.KindFile || n.Kind == schemas.KindPackage:
		case !strings.HasSuffix(n.File, "ts") && !strings.HasSuffix(n.File, ".tsx"): // .ts .mts .cts .tsx
		default:
			name, ok := strings.CutPrefix(n.QualifiedName, module[n.File]+".")
			if !ok {
				name = n.QualifiedName
			}
			ours[tsDecl{n.File, name}] = fmt.Sprintf("%s:%d %s", n.File, n.StartLine, name)
		}
	}
	f1 := languagetest.Definitions(t, "the parser", truth, ours, 0)
	if f1 < definitionF1Floor && languagetest.IsFixture(root) {
		t.Errorf("definitions F1 %.4f is below %.3f", f1, definitionF1Floor)
	}
}
