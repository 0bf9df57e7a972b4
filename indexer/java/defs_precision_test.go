package java_test

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/java"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// definitionF1Floor is the least F1 the definitions may score against
// javac on every project TestPrecisionJavac checks.
const definitionF1Floor = 0.99

// checkDefinitions compares the graph's declarations under root with the
// ones javac's trees hold (testdata/javac/DeclDump.java): types, methods,
// constructors written in the source and fields, by file, start line and
// qualified name. The methods and fields of an enum constant's body are
// named under the constant; what they and the body declare beyond (types,
// anonymous classes), which the graph holds as their code, counts as
// missed.
func checkDefinitions(t *testing.T, javac, plugin, root string, args []string) {
	abs := languagetest.AbsTree(t, root)
	stdout, stderr := runPlugin(t, javac, plugin, "DeclDump", abs, args)
	truth := make(map[languagetest.Decl]string)
	enumBody := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			continue
		}
		rel, err := filepath.Rel(abs, f[0])
		if err != nil {
			continue
		}
		if f[2] == "enumbody" {
			enumBody++
			continue
		}
		var line int
		fmt.Sscan(f[1], &line)
		d := languagetest.Decl{File: filepath.ToSlash(rel), Line: line, Name: f[3]}
		truth[d] = d.String()
	}
	if len(truth) == 0 {
		t.Fatalf("javac declared nothing under %s:\n%s", root, stderr.String())
	}

	g := languagetest.IndexTree(t, abs, java.New())
	ours := make(map[languagetest.Decl]string)
	for _, n := range g.Nodes {
		switch n.Kind {
		case schemas.KindFile, schemas.KindPackage, schemas.KindModule, schemas.KindNamespace:
			continue
		}
		d := languagetest.Decl{File: n.File, Line: int(n.StartLine), Name: n.QualifiedName}
		ours[d] = d.String()
	}
	// The graph holds what an enum constant's members declare as their
	// code: it is missed.
	if f1 := languagetest.Definitions(t, "javac", truth, ours, enumBody); f1 < definitionF1Floor {
		t.Errorf("definitions F1 %.4f is below %.3f", f1, definitionF1Floor)
	}
}
