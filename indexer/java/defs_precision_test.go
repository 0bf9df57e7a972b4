package java_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/java"
	"github.com/graphsnap/snap/schemas"
)

// definitionF1Floor is the least F1 the definitions may score against
// javac on every project TestPrecisionJavac checks.
const definitionF1Floor = 0.94

// decl is one declaration: where it starts and its qualified name.
type decl struct {
	file string
	line int
	name string
}

func (d decl) String() string { return fmt.Sprintf("%s:%d %s", d.file, d.line, d.name) }

// checkDefinitions compares the graph's declarations under root with the
// ones javac's trees hold (testdata/javac/DeclDump.java): types, methods,
// constructors written in the source and fields, by file, start line and
// qualified name. Members of anonymous classes, which the graph does not
// hold, count as missed.
func checkDefinitions(t *testing.T, javac, root string, args []string) {
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ = filepath.EvalSymlinks(abs)
	plugin := t.TempDir()
	if out, err := exec.Command(javac, "-d", plugin, "testdata/javac/DeclDump.java").CombinedOutput(); err != nil {
		t.Fatalf("compile the plugin: %v\n%s", err, out)
	}
	services := filepath.Join(plugin, "META-INF", "services")
	if err := os.MkdirAll(services, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(services, "com.sun.source.util.Plugin"), []byte("DeclDump\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(abs, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") && d.Name() != "module-info.java" {
			files = append(files, p)
		}
		return nil
	})
	tmp := t.TempDir()
	list := filepath.Join(tmp, "files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(javac, append(append([]string{"-proc:none", "-implicit:none", "-nowarn", "-encoding", "UTF-8", "-d", filepath.Join(tmp, "out"),
		"-processorpath", plugin, "-Xplugin:DeclDump", "-XDshould-stop.ifError=FLOW", "-Xmaxerrs", "1000000"}, args...), "@"+list)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run() // errors are expected where a library is missing
	truth := make(map[decl]bool)
	anonymous := 0
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			continue
		}
		rel, err := filepath.Rel(abs, f[0])
		if err != nil {
			continue
		}
		if f[2] == "anonymous" {
			anonymous++
			continue
		}
		var line int
		fmt.Sscan(f[1], &line)
		truth[decl{filepath.ToSlash(rel), line, f[3]}] = true
	}
	if len(truth) == 0 {
		t.Fatalf("javac declared nothing under %s:\n%s", root, stderr.String())
	}

	g, err := indexer.Index(context.Background(), abs, indexer.Options{Languages: []indexer.Language{java.New()}, NoSources: true})
	if err != nil {
		t.Fatal(err)
	}
	ours := make(map[decl]bool)
	for _, n := range g.Nodes {
		switch n.Kind {
		case schemas.KindFile, schemas.KindPackage, schemas.KindModule, schemas.KindNamespace:
			continue
		}
		ours[decl{n.File, int(n.StartLine), n.QualifiedName}] = true
	}
	var missed, extra []string
	agree := 0
	for d := range truth {
		if ours[d] {
			agree++
		} else {
			missed = append(missed, d.String())
		}
	}
	for d := range ours {
		if !truth[d] {
			extra = append(extra, d.String())
		}
	}
	p := float64(agree) / float64(max(len(ours), 1))
	// The graph holds no member of an anonymous class: each is missed.
	r := float64(agree) / float64(max(len(truth)+anonymous, 1))
	f1 := 2 * p * r / max(p+r, 1e-9)
	t.Logf("definitions: javac %d and %d members of anonymous classes, ours %d, agree %d: precision %.4f, recall %.4f, F1 %.4f",
		len(truth), anonymous, len(ours), agree, p, r, f1)
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
			t.Logf("  … and %d more not declared there for javac", len(extra)-40)
			break
		}
		t.Logf("  not declared there for javac: %s", d)
	}
	if f1 < definitionF1Floor {
		t.Errorf("definitions F1 %.4f is below %.3f", f1, definitionF1Floor)
	}
}
