package union_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/union"
)

// index indexes dir as a snapshot of commit.
func index(t *testing.T, dir, commit string) *snapshot.Snapshot {
	t.Helper()
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: languages.All(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &snapshot.Snapshot{
		Manifest: schemas.Manifest{FormatVersion: schemas.FormatVersion, Commit: commit},
		Nodes:    g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs,
	}
}

func write(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func merge(t *testing.T, parts ...union.Part) (*query.Engine, union.Stats) {
	t.Helper()
	s, repos, st, err := union.Merge(parts, languages.All())
	if err != nil {
		t.Fatal(err)
	}
	e, err := query.BuildWith(s, query.BuildOptions{Repos: repos})
	if err != nil {
		t.Fatal(err)
	}
	return e, st
}

// edgeText names an edge by what it links, as paths and names read in
// its repository, so that edges of a snapshot and of a union compare.
func edgeText(e *query.Engine, ed schemas.Edge, pre string) string {
	name := func(r int32) string {
		n := e.Node(r)
		file := strings.TrimPrefix(n.File, pre)
		if file == "" || file == "." || file+"/" == pre {
			file = "<top>" // a node of no file, or the top folder's package
		}
		return n.Kind + " " + strings.TrimPrefix(n.QualifiedName, pre) + " @" + file
	}
	dst := "-"
	if ed.DstRow >= 0 {
		dst = name(ed.DstRow)
	}
	return fmt.Sprintf("%s %s -> %s at %s:%d:%d %s %s %s", ed.Kind, name(ed.SrcRow), dst,
		strings.TrimPrefix(ed.File, pre), ed.Line, ed.Col, ed.Target, ed.Resolution, ed.Reason)
}

func edgesOf(e *query.Engine, pre string) []string {
	var out []string
	for i := range e.NumEdges() {
		ed := e.Edge(int32(i))
		if strings.HasPrefix(e.Node(ed.SrcRow).File, pre) {
			out = append(out, edgeText(e, ed, pre))
		}
	}
	slices.Sort(out)
	return out
}

// TestMergeKeepsEachRepository joins the fixture of every language: each
// repository's edges are its snapshot's, under its name, and nothing links
// across (no two fixtures depend on each other).
func TestMergeKeepsEachRepository(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/*/shop")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("fixtures: %v %v", dirs, err)
	}
	var parts []union.Part
	want := make(map[string][]string)
	nodes := 0
	for _, dir := range dirs {
		lang := filepath.Base(filepath.Dir(dir))
		s := index(t, dir, "c0ffee"+lang)
		e, err := query.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		name := "example.com/" + lang + "/shop"
		want[name] = edgesOf(e, "")
		nodes += e.NumNodes()
		parts = append(parts, union.Part{Repo: name, Branch: "main", Snapshot: s})
	}
	e, st := merge(t, parts...)
	if e.NumNodes() != nodes {
		t.Errorf("union has %d nodes, the snapshots %d", e.NumNodes(), nodes)
	}
	for name, w := range want {
		if got := edgesOf(e, name+"/"); !slices.Equal(got, w) {
			t.Errorf("%s: %d edges in the union, %d in its snapshot; first differing:\n%s", name, len(got), len(w), firstDiff(got, w))
		}
		r, ok := e.Repo(name)
		if !ok || r.Commit == "" || r.Branch != "main" {
			t.Errorf("Repo(%s) = %+v, %v", name, r, ok)
		}
	}
	if st.Cross != 0 {
		t.Errorf("%d edges across fixtures that do not depend on each other", st.Cross)
	}
	for i := range e.NumNodes() {
		n := e.Node(int32(i))
		if _, ok := e.RepoOf(n.File); !ok {
			t.Fatalf("node %s: file %q is under no repository", n.QualifiedName, n.File)
		}
	}
}

func firstDiff(a, b []string) string {
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return "union:    " + x + "\nsnapshot: " + y
		}
	}
	return ""
}

const libGo = `package greet

// Hello greets.
func Hello(name string) string { return "hello " + name }

// Namer names things.
type Namer interface{ Name() string }
`

const appGo = `package main

import (
	"fmt"

	"example.com/lib/greet"
)

type user struct{}

func (user) Name() string { return "u" }

func main() {
	fmt.Println(greet.Hello("x"))
	var n greet.Namer = user{}
	_ = n
}
`

func goRepos(t *testing.T) (lib, app *snapshot.Snapshot) {
	root := t.TempDir()
	lib = index(t, write(t, filepath.Join(root, "lib"), map[string]string{
		"go.mod": "module example.com/lib\n\ngo 1.22\n", "greet/greet.go": libGo,
	}), "aaaa")
	app = index(t, write(t, filepath.Join(root, "app"), map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v1.0.0\n", "main.go": appGo,
	}), "bbbb")
	return lib, app
}

// find returns the row of the node of that kind and qualified name under
// the repository.
func find(t *testing.T, e *query.Engine, repo, kind, qname string) int32 {
	t.Helper()
	for i := range e.NumNodes() {
		n := e.Node(int32(i))
		if n.Kind == kind && n.QualifiedName == qname && strings.HasPrefix(n.File, repo+"/") {
			return int32(i)
		}
	}
	t.Fatalf("no %s %s in %s", kind, qname, repo)
	return -1
}

func edgesInto(e *query.Engine, dst int32, kind string) []string {
	var out []string
	for i := range e.NumEdges() {
		ed := e.Edge(int32(i))
		if ed.DstRow == dst && ed.Kind == kind {
			out = append(out, e.Node(ed.SrcRow).QualifiedName+" @"+ed.File)
		}
	}
	slices.Sort(out)
	return out
}

// TestMergeGoAcrossRepositories: a call, a use of a type and an interface
// satisfied across two modules are linked; the same module loaded twice
// links to neither.
func TestMergeGoAcrossRepositories(t *testing.T) {
	lib, app := goRepos(t)
	e, st := merge(t,
		union.Part{Repo: "github.com/x/lib", Snapshot: lib},
		union.Part{Repo: "github.com/x/app", Snapshot: app})
	hello := find(t, e, "github.com/x/lib", schemas.KindFunction, "example.com/lib/greet.Hello")
	if got, want := edgesInto(e, hello, schemas.EdgeCalls), []string{"example.com/app.main @github.com/x/app/main.go"}; !slices.Equal(got, want) {
		t.Errorf("callers of Hello = %q, want %q", got, want)
	}
	namer := find(t, e, "github.com/x/lib", schemas.KindInterface, "example.com/lib/greet.Namer")
	if got := edgesInto(e, namer, schemas.EdgeImplements); len(got) != 1 || !strings.Contains(got[0], "user") {
		t.Errorf("implementations of Namer = %q, want app's user", got)
	}
	pkg := find(t, e, "github.com/x/lib", schemas.KindPackage, "example.com/lib/greet")
	if got := edgesInto(e, pkg, schemas.EdgeImports); len(got) != 1 || !strings.Contains(got[0], "github.com/x/app/main.go") {
		t.Errorf("importers of greet = %q, want app's main.go", got)
	}
	if got, want := edgesInto(e, namer, schemas.EdgeReferences), []string{"example.com/app.main @github.com/x/app/main.go"}; !slices.Equal(got, want) {
		t.Errorf("uses of the type Namer = %q, want %q", got, want)
	}
	if st.Cross != 4 {
		t.Errorf("Cross = %d, want 4 (call, implements, import, a use of a type)", st.Cross)
	}
	if e.Manifest().Commit == "" || e.Manifest().Commit == lib.Manifest.Commit {
		t.Errorf("union commit %q should name the union, not a part", e.Manifest().Commit)
	}

	// A fork of lib beside it: the call could mean either; it stays
	// unresolved, as in app's own snapshot.
	e, st = merge(t,
		union.Part{Repo: "github.com/x/lib", Snapshot: lib},
		union.Part{Repo: "github.com/y/lib", Snapshot: lib},
		union.Part{Repo: "github.com/x/app", Snapshot: app})
	if st.Cross != 0 {
		t.Errorf("with a fork, Cross = %d, want 0", st.Cross)
	}
	hello = find(t, e, "github.com/y/lib", schemas.KindFunction, "example.com/lib/greet.Hello")
	if got := edgesInto(e, hello, schemas.EdgeCalls); len(got) != 0 {
		t.Errorf("with a fork, callers of Hello = %q, want none", got)
	}
}

func TestMergeJavaAcrossRepositories(t *testing.T) {
	root := t.TempDir()
	lib := index(t, write(t, filepath.Join(root, "lib"), map[string]string{
		"src/main/java/com/example/lib/Greeter.java": "package com.example.lib;\n\npublic class Greeter {\n  public String greet(String n) { return \"hi \" + n; }\n}\n",
	}), "aaaa")
	app := index(t, write(t, filepath.Join(root, "app"), map[string]string{
		"src/main/java/com/example/app/Main.java": "package com.example.app;\n\nimport com.example.lib.Greeter;\n\n" +
			"public class Main {\n  public static void main(String[] args) {\n    Greeter g = new Greeter();\n    System.out.println(g.greet(\"x\"));\n  }\n}\n",
	}), "bbbb")
	e, st := merge(t, union.Part{Repo: "lib", Snapshot: lib}, union.Part{Repo: "app", Snapshot: app})
	greet := find(t, e, "lib", schemas.KindMethod, "com.example.lib.Greeter.greet")
	if got := edgesInto(e, greet, schemas.EdgeCalls); len(got) != 1 || !strings.Contains(got[0], "com.example.app.Main.main") {
		t.Errorf("callers of greet = %q, want Main.main", got)
	}
	if st.Cross == 0 {
		t.Error("no edge across the Java repositories")
	}
}

func TestMergeRefusesNames(t *testing.T) {
	lib, app := goRepos(t)
	for _, tc := range []struct {
		names [2]string
		want  string
	}{
		{[2]string{"a", "a/b"}, "lies inside"},
		{[2]string{"a", "a"}, "lies inside"},
		{[2]string{"/abs", "b"}, "cannot head paths"},
		{[2]string{"a/../b", "c"}, "cannot head paths"},
		{[2]string{"", "c"}, "cannot head paths"},
	} {
		_, _, _, err := union.Merge([]union.Part{{Repo: tc.names[0], Snapshot: lib}, {Repo: tc.names[1], Snapshot: app}}, languages.All())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge(%q) = %v, want an error saying %q", tc.names, err, tc.want)
		}
	}
}
