package indexer_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

func langs() []indexer.Language { return []indexer.Language{golang.New()} }

func write(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func statuses(g *indexer.Graph) map[string]schemas.File {
	m := make(map[string]schemas.File)
	for _, f := range g.Files {
		m[f.Path] = f
	}
	return m
}

func TestMissingOrNotADirectory(t *testing.T) {
	dir := t.TempDir()
	if _, err := indexer.Index(context.Background(), filepath.Join(dir, "nope"), indexer.Options{Languages: langs()}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing path: got %v, want a no-such-file error", err)
	}
	write(t, dir, "f.go", []byte("package f\n"))
	if _, err := indexer.Index(context.Background(), filepath.Join(dir, "f.go"), indexer.Options{Languages: langs()}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file as root: got %v, want a not-a-directory error", err)
	}
}

// TestWalkedPaths holds Index to the walk it is given (Options.Paths):
// its paths are the files indexed, its error is the run's.
func TestWalkedPaths(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.go", []byte("package a\n"))
	write(t, dir, "b.go", []byte("package a\n"))
	walks := 0
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs(),
		Paths: func() (indexer.Walked, error) { walks++; return indexer.Walked{Paths: []string{"b.go"}}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if walks != 1 || len(g.Files) != 1 || g.Files[0].Path != "b.go" {
		t.Errorf("walked %d times, files %v; want once, b.go alone", walks, statuses(g))
	}
	refused := errors.New("walk refused")
	if _, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs(),
		Paths: func() (indexer.Walked, error) { return indexer.Walked{}, refused }}); !errors.Is(err, refused) {
		t.Errorf("a failed walk: got %v, want its error", err)
	}
}

func TestEmptyDirectory(t *testing.T) {
	g, err := indexer.Index(context.Background(), t.TempDir(), indexer.Options{Languages: langs()})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Files)+len(g.Nodes)+len(g.Edges) != 0 {
		t.Errorf("empty directory gave %d files, %d nodes, %d edges", len(g.Files), len(g.Nodes), len(g.Edges))
	}
}

func TestAwkwardFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok.go", []byte("package a\n\nfunc A() { B() }\n\nfunc B() {}\n"))
	write(t, dir, "broken.go", []byte("package a\n\nfunc C( {\n\tA()\n}\n\nfunc D() {}\n"))
	write(t, dir, "bin.go", []byte("package a\x00\x01\x02"))
	write(t, dir, "big.go", append([]byte("package a\n//"), bytes.Repeat([]byte("x"), 2<<20)...))
	write(t, dir, "latin1.go", []byte("package a\n\n// caf\xe9\nfunc E() {}\n"))
	write(t, dir, "with space/ünï code.go", []byte("package b\n\nfunc F() {}\n"))
	write(t, dir, "notes.txt", []byte("hello\n"))
	write(t, dir, "ignored/x.go", []byte("package ignored\n"))
	write(t, dir, ".gitignore", []byte("ignored/\n"))
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs()})
	if err != nil {
		t.Fatal(err)
	}
	st := statuses(g)
	for path, want := range map[string]string{
		"ok.go":                  schemas.StatusOK,
		"broken.go":              schemas.StatusParseError,
		"bin.go":                 schemas.StatusSkippedBinary,
		"big.go":                 schemas.StatusSkippedLarge,
		"latin1.go":              schemas.StatusOK,
		"with space/ünï code.go": schemas.StatusOK,
		"notes.txt":              schemas.StatusUnsupported,
		"loop":                   schemas.StatusUnreadable,
	} {
		f, ok := st[path]
		if !ok {
			t.Errorf("%s: not recorded", path)
			continue
		}
		if f.Status != want {
			t.Errorf("%s: status %s (%s), want %s", path, f.Status, f.Error, want)
		}
		if want != schemas.StatusUnreadable && len(f.SHA256) != 64 {
			t.Errorf("%s: sha256 %q", path, f.SHA256)
		}
	}
	if _, ok := st["ignored/x.go"]; ok {
		t.Error("ignored/x.go was indexed despite .gitignore")
	}
	if st["latin1.go"].Error == "" {
		t.Error("latin1.go: want a note that it is not UTF-8")
	}
	names := make(map[string]bool)
	for _, n := range g.Nodes {
		names[n.QualifiedName] = true
	}
	// Symbols of the broken file survive around the error.
	for _, q := range []string{"main.A", "main.D", "main.E", "with space.F"} {
		if !names[q] {
			t.Errorf("symbol %s missing; have %v", q, names)
		}
	}
}

func TestGitWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required")
	}
	dir := t.TempDir()
	write(t, dir, "a.go", []byte("package a\n"))
	write(t, dir, "untracked.go", []byte("package a\n"))
	write(t, dir, "skip.go", []byte("package a\n"))
	write(t, dir, ".gitignore", []byte("skip.go\n"))
	// Enough files for their checks to be split among workers, two of
	// them tracked and then deleted from the work tree.
	var many []string
	for i := range 2500 {
		name := fmt.Sprintf("many/f%04d.go", i)
		write(t, dir, name, []byte("package many\n"))
		many = append(many, name)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.go", ".gitignore", "many/f0007.go", "many/f1800.go"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, gone := range []string{"many/f0007.go", "many/f1800.go"} {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(gone))); err != nil {
			t.Fatal(err)
		}
		many = slices.DeleteFunc(many, func(p string) bool { return p == gone })
	}
	paths, err := indexer.Walk(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(paths, ",")
	if want := strings.Join(append([]string{".gitignore", "a.go"}, append(many, "untracked.go")...), ","); got != want {
		t.Errorf("walk = %.300s…, want tracked and untracked files without ignored or deleted ones", got)
	}
}

func TestReproducible(t *testing.T) {
	a, err := indexer.Index(context.Background(), "../testdata/go/shop", indexer.Options{Languages: langs(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := indexer.Index(context.Background(), "../testdata/go/shop", indexer.Options{Languages: langs(), Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Nodes) != len(b.Nodes) || len(a.Edges) != len(b.Edges) || len(a.Refs) != len(b.Refs) {
		t.Fatalf("1 and 4 workers differ: %d/%d nodes, %d/%d edges", len(a.Nodes), len(b.Nodes), len(a.Edges), len(b.Edges))
	}
	for i := range a.Edges {
		if a.Edges[i] != b.Edges[i] {
			t.Fatalf("edge %d differs: %+v vs %+v", i, a.Edges[i], b.Edges[i])
		}
	}
}

// TestSkipped: vendored and minified files are recorded and not parsed
// unless asked, generated ones when asked to; excluded paths are left out
// altogether.
func TestSkipped(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.go", []byte("package a\n\nfunc A() {}\n"))
	write(t, dir, "vendor/x/y.go", []byte("package y\n\nfunc Y() {}\n"))
	write(t, dir, "sub/third_party/z.go", []byte("package z\n\nfunc Z() {}\n"))
	write(t, dir, "gen.go", []byte("// Code generated by stringer; DO NOT EDIT.\n\npackage a\n\nfunc G() {}\n"))
	write(t, dir, "gen2.go", []byte("package a\n\n// @generated by a tool\nfunc G2() {}\n"))
	write(t, dir, "bundle.min.go", []byte("package a\n\nfunc M() {}\n"))
	write(t, dir, "long.go", append([]byte("package a\nvar L = \""), append(bytes.Repeat([]byte("x"), 8000), "\"\n"...)...))
	write(t, dir, "testdata/t.go", []byte("package t\n\nfunc T() {}\n"))
	write(t, dir, "deep/x_gen.go", []byte("package deep\n\nfunc X() {}\n"))
	want := map[string]string{
		"a.go":                 schemas.StatusOK,
		"vendor/x/y.go":        schemas.StatusSkippedVendored,
		"sub/third_party/z.go": schemas.StatusSkippedVendored,
		"gen.go":               schemas.StatusSkippedGenerated,
		"gen2.go":              schemas.StatusSkippedGenerated,
		"bundle.min.go":        schemas.StatusSkippedMinified,
		"long.go":              schemas.StatusSkippedMinified,
	}
	opts := indexer.Options{Languages: langs(), Exclude: []string{"testdata", "**/*_gen.go"}, SkipGenerated: true}
	g, err := indexer.Index(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	st := statuses(g)
	if len(st) != len(want) {
		t.Errorf("%d files recorded, want %d (excluded paths left out): %v", len(st), len(want), st)
	}
	for p, w := range want {
		if st[p].Status != w {
			t.Errorf("%s: status %q, want %q", p, st[p].Status, w)
		}
	}
	for _, n := range g.Nodes {
		if n.Kind != schemas.KindFile && n.Kind != schemas.KindPackage && want[n.File] != schemas.StatusOK {
			t.Errorf("%s of skipped %s was extracted", n.QualifiedName, n.File)
		}
	}

	opts.Vendored, opts.SkipGenerated, opts.Minified = true, false, true
	if g, err = indexer.Index(context.Background(), dir, opts); err != nil {
		t.Fatal(err)
	}
	for p, f := range statuses(g) {
		if f.Status != schemas.StatusOK {
			t.Errorf("%s asked for, but %s", p, f.Status)
		}
	}
	if st := statuses(g); !st["gen.go"].IsGenerated || !st["gen2.go"].IsGenerated || st["a.go"].IsGenerated {
		t.Errorf("generated files indexed are not marked, or written ones are: %v", st)
	}

	if _, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs(), Exclude: []string{"[oops"}}); err == nil ||
		!strings.Contains(err.Error(), `"[oops" is not a valid glob`) {
		t.Errorf("bad pattern: %v", err)
	}
}

// TestSymlinkOutOfTree checks that a symbolic link leading out of the
// repository is recorded unreadable, its target's bytes kept out of the
// snapshot (a pull request must not publish a CI runner's secret), while
// a link within the tree is read.
// TestNestedFolders reads files up and down a tree of folders, as a
// worker keeps the folders of its last path open and opens the next
// path's from there: every file is read whole, from its own folder, with
// one worker and with several.
func TestNestedFolders(t *testing.T) {
	dir := t.TempDir()
	paths := []string{"a.go", "x/a.go", "x/y/a.go", "x/y/z/a.go", "x/y/z/b.go", "x/y2/a.go", "x/y2/z/a.go",
		"x/yz/a.go", "x2/y/z/a.go", "y/a.go", "y/y/y/y/a.go", "z.go"}
	want := map[string]string{}
	for i, p := range paths {
		want[p] = fmt.Sprintf("package p%d // %s\n", i, p)
		write(t, dir, p, []byte(want[p]))
	}
	for _, workers := range []int{1, 3} {
		g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs(), Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Sources) != len(paths) {
			t.Fatalf("%d workers: %d sources, want %d", workers, len(g.Sources), len(paths))
		}
		for _, src := range g.Sources {
			if string(src.Content) != want[src.Path] {
				t.Errorf("%d workers: %s read %q, want %q", workers, src.Path, src.Content, want[src.Path])
			}
		}
		for _, f := range g.Files {
			if f.Status != schemas.StatusOK {
				t.Errorf("%d workers: %s: %s %s", workers, f.Path, f.Status, f.Error)
			}
		}
	}
}

func TestSymlinkOutOfTree(t *testing.T) {
	outside := t.TempDir()
	secret := []byte("package leak\n\nconst Key = \"AKIA-planted-secret\"\n")
	write(t, outside, "secret.go", secret)
	dir := t.TempDir()
	write(t, dir, "ok.go", []byte("package a\n\nfunc A() {}\n"))
	if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(dir, "leak.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../"+filepath.Base(outside)+"/secret.go", filepath.Join(dir, "rel.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ok.go", filepath.Join(dir, "inside.go")); err != nil {
		t.Fatal(err)
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs()})
	if err != nil {
		t.Fatal(err)
	}
	st := statuses(g)
	for _, p := range []string{"leak.go", "rel.go"} {
		if st[p].Status != schemas.StatusUnreadable {
			t.Errorf("%s: status %s, want %s", p, st[p].Status, schemas.StatusUnreadable)
		}
	}
	if st["inside.go"].Status != schemas.StatusOK {
		t.Errorf("inside.go: status %s (%s), want ok", st["inside.go"].Status, st["inside.go"].Error)
	}
	for _, s := range g.Sources {
		if bytes.Contains(s.Content, []byte("planted-secret")) {
			t.Errorf("%s: the secret outside the tree is in the sources", s.Path)
		}
	}
	for _, n := range g.Nodes {
		if n.Name == "Key" {
			t.Errorf("symbol %s of the file outside the tree was indexed", n.QualifiedName)
		}
	}
}

// TestEarlyTables: Gathered and NodesDone hand out rows that are final,
// the very slices Index returns, each once, Gathered before NodesDone;
// a writer encoding them meanwhile writes what Index returns.
func TestEarlyTables(t *testing.T) {
	g, err := indexer.Index(context.Background(), "../testdata/go/shop", indexer.Options{Languages: langs()})
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	var gathered indexer.Graph
	var nodes []schemas.Node
	opts := indexer.Options{
		Languages: langs(),
		Gathered: func(g *indexer.Graph) {
			calls = append(calls, "gathered")
			gathered = indexer.Graph{Files: slices.Clone(g.Files), Sources: slices.Clone(g.Sources), Refs: slices.Clone(g.Refs)}
		},
		NodesDone: func(n []schemas.Node) {
			calls = append(calls, "nodes")
			nodes = slices.Clone(n)
		},
	}
	got, err := indexer.Index(context.Background(), "../testdata/go/shop", opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"gathered", "nodes"}; !slices.Equal(calls, want) {
		t.Fatalf("calls %v, want %v", calls, want)
	}
	if len(got.Nodes) == 0 || len(got.Refs) == 0 {
		t.Fatalf("%d nodes, %d refs: the fixture should give some", len(got.Nodes), len(got.Refs))
	}
	for name, same := range map[string]bool{
		"files":   reflect.DeepEqual(gathered.Files, got.Files),
		"sources": reflect.DeepEqual(gathered.Sources, got.Sources),
		"refs":    reflect.DeepEqual(gathered.Refs, got.Refs),
		"nodes":   reflect.DeepEqual(nodes, got.Nodes),
		"run":     reflect.DeepEqual(g.Nodes, got.Nodes) && reflect.DeepEqual(g.Edges, got.Edges),
	} {
		if !same {
			t.Errorf("%s: the rows handed out early differ from those Index returned", name)
		}
	}
}

// TestLinksAcrossFolders: a file is opened through its folder, kept open
// while a worker reads the folder's files; a link from one folder to a
// file of another, within the tree, is still read (the tree's root
// decides), and links out of the tree or in a loop are still refused.
func TestLinksAcrossFolders(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "secret.go", []byte("package leak\n\nconst Key = \"planted\"\n"))
	dir := t.TempDir()
	write(t, dir, "a/x.go", []byte("package a\n\nfunc X() {}\n"))
	write(t, dir, "a/y.go", []byte("package a\n\nfunc Y() { X() }\n"))
	write(t, dir, "b/z.go", []byte("package b\n\nfunc Z() {}\n"))
	for link, target := range map[string]string{
		"b/sibling.go": "../a/x.go",                                      // within the tree
		"b/out.go":     "../../" + filepath.Base(outside) + "/secret.go", // out of it
		"b/loop.go":    "loop.go",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	st := statuses(g)
	for p, want := range map[string]string{
		"a/x.go": schemas.StatusOK, "a/y.go": schemas.StatusOK, "b/z.go": schemas.StatusOK,
		"b/sibling.go": schemas.StatusOK, "b/out.go": schemas.StatusUnreadable, "b/loop.go": schemas.StatusUnreadable,
	} {
		if st[p].Status != want {
			t.Errorf("%s: status %s (%s), want %s", p, st[p].Status, st[p].Error, want)
		}
	}
	if st["b/sibling.go"].SHA256 != st["a/x.go"].SHA256 {
		t.Errorf("b/sibling.go: sha256 %s, want a/x.go's %s", st["b/sibling.go"].SHA256, st["a/x.go"].SHA256)
	}
	for _, s := range g.Sources {
		if bytes.Contains(s.Content, []byte("planted")) {
			t.Errorf("%s: the file outside the tree is in the sources", s.Path)
		}
	}
}

// statCacheTree returns a folder holding go.mod alone, for a test of the
// stat cache, which reads change times and inodes on Linux and macOS only.
func statCacheTree(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the stat cache compares change times and inodes, read on Linux and macOS only")
	}
	root := t.TempDir()
	write(t, root, "go.mod", []byte("module example.com/m\n"))
	return root
}

// TestKnownFilesUnread: with a base and the stat cache of the run that
// made it, the files found as they were are not read, their sources are
// left for the writer (Graph.Unread), and every table is the one a full
// index makes: the files edited, the one rewritten to its old size and
// modification time, and the one added are read; the others, indexed or
// not (go.mod, a binary, a file too large, a generated one), are not.
func TestKnownFilesUnread(t *testing.T) {
	root := statCacheTree(t)
	write(t, root, "a/a.go", []byte("package a\n\nfunc A() int { return B() }\n\nfunc B() int { return 1 }\n"))
	write(t, root, "b/b.go", []byte("package b\n\nimport \"example.com/m/a\"\n\nfunc C() int { return a.A() }\n\nfunc D() {}\n\nfunc E() {}\n"))
	write(t, root, "b/same.go", []byte("package b\n\nfunc Same() {}\n"))
	write(t, root, "README.md", []byte("# m\n"))
	write(t, root, "blob.bin", []byte{0, 1, 2, 3})
	write(t, root, "big.txt", bytes.Repeat([]byte("big\n"), 500))
	write(t, root, "b/gen.go", []byte("// Code generated by hand. DO NOT EDIT.\n\npackage b\n"))
	old := time.Now().Add(-time.Hour)
	age := func(name string) {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), old, old); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"go.mod", "a/a.go", "b/b.go", "b/same.go", "README.md", "blob.bin", "big.txt", "b/gen.go"} {
		age(name)
	}
	index := func(base *indexer.Base, known *indexer.StatCache) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: langs(), Workers: 2, Base: base, Known: known, MaxFileSize: 1500, SkipGenerated: true})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	first := index(nil, nil)
	if first.Seen == nil || first.Seen.Len() != 8 {
		t.Fatalf("the first run saw %v files, want 8", first.Seen)
	}
	if st := statuses(first); st["big.txt"].Status != schemas.StatusSkippedLarge || st["b/gen.go"].Status != schemas.StatusSkippedGenerated {
		t.Fatalf("big.txt %s, b/gen.go %s", st["big.txt"].Status, st["b/gen.go"].Status)
	}

	time.Sleep(50 * time.Millisecond) // the rewrites' change times a tick of the kernel's clock apart
	write(t, root, "a/a.go", []byte("package a\n\nfunc A() int { return B() + 1 }\n\nfunc B() int { return 1 }\n"))
	write(t, root, "b/same.go", []byte("package b\n\nfunc Sam2() {}\n")) // as long as before
	age("b/same.go")
	write(t, root, "c/c.go", []byte("package c\n\nimport \"example.com/m/b\"\n\nfunc D() { b.Same() }\n"))
	write(t, root, "README.md", []byte("# n\n")) // as long as before
	for _, name := range []string{"a/a.go", "c/c.go", "README.md"} {
		age(name) // for the cache of the full run below to trust
	}

	baseOf := func(g *indexer.Graph) *indexer.Base { // Index empties it
		return &indexer.Base{Files: g.Files, Nodes: slices.Clone(g.Nodes), Refs: g.Refs,
			Grammars: map[string]string{golang.New().Name(): golang.New().GrammarVersion()}}
	}
	inc := index(baseOf(first), first.Seen)
	full := index(nil, nil)
	if inc.Stats.FilesUnread != 5 || inc.Stats.FilesParsed != 3 {
		t.Errorf("unread %d files, parsed %d; want 5 unread (go.mod, b.go, blob.bin, big.txt, gen.go), 3 parsed",
			inc.Stats.FilesUnread, inc.Stats.FilesParsed)
	}
	for name, eq := range map[string]bool{
		"files": reflect.DeepEqual(inc.Files, full.Files), "nodes": reflect.DeepEqual(inc.Nodes, full.Nodes),
		"edges": reflect.DeepEqual(inc.Edges, full.Edges), "refs": reflect.DeepEqual(inc.Refs, full.Refs),
	} {
		if !eq {
			t.Errorf("%s differ from a full index's", name)
		}
	}
	if len(inc.Unread) != len(inc.Sources) || len(inc.Sources) != len(full.Sources) {
		t.Fatalf("%d unread flags, %d sources, full index %d sources", len(inc.Unread), len(inc.Sources), len(full.Sources))
	}
	for i, s := range inc.Sources {
		switch {
		case s.Path != full.Sources[i].Path:
			t.Fatalf("source %d: %s, full index %s", i, s.Path, full.Sources[i].Path)
		case inc.Unread[i] != (s.Path == "b/b.go"):
			t.Errorf("%s: unread %v", s.Path, inc.Unread[i])
		case !inc.Unread[i] && !bytes.Equal(s.Content, full.Sources[i].Content):
			t.Errorf("%s: read content differs from a full index's", s.Path)
		case inc.Unread[i] && s.Content != nil:
			t.Errorf("%s: unread, yet content set", s.Path)
		}
	}
	// What the run saw is what a full run sees: every file, the edited
	// ones with their new hashes.
	if inc.Seen.Len() != 9 {
		t.Errorf("the incremental run saw %d files, want 9", inc.Seen.Len())
	}

	// A base whose nodes are out of order (not a snapshot's) gives the
	// same: its reused nodes are sorted with the others.
	reversed := baseOf(first)
	slices.Reverse(reversed.Nodes)
	if g := index(reversed, first.Seen); !reflect.DeepEqual(g.Nodes, full.Nodes) || !reflect.DeepEqual(g.Edges, full.Edges) {
		t.Error("a base of nodes out of order: nodes or edges differ from a full index's")
	}

	// A cache newer than the base: the edited files are as the cache saw
	// them, not as the base holds them, and are read.
	again := index(baseOf(first), full.Seen)
	if n := again.Stats.FilesUnread; n != 5 || !reflect.DeepEqual(again.Edges, full.Edges) || !reflect.DeepEqual(again.Files, full.Files) {
		t.Errorf("base older than the cache: %d unread, want 5; edges or files differ from a full index's", n)
	}

	// Other options: the generated file parsed, the large one under the
	// limit. Neither's row is the base's any more: both are read.
	opts := indexer.Options{Languages: langs(), Workers: 2, MaxFileSize: 4000}
	fullOpts, err := indexer.Index(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Base, opts.Known = baseOf(first), full.Seen
	incOpts, err := indexer.Index(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := incOpts.Stats.FilesUnread; n != 3 || !reflect.DeepEqual(incOpts.Files, fullOpts.Files) || !reflect.DeepEqual(incOpts.Nodes, fullOpts.Nodes) {
		t.Errorf("other options: %d unread, want 3; files or nodes differ from a full index's", n)
	}
}

// TestKnownLinkFollowed: a link's stat is its target's, not the Lstat the
// walk took: a target rewritten behind an unchanged link is read again.
func TestKnownLinkFollowed(t *testing.T) {
	root := statCacheTree(t)
	write(t, root, "a/a.go", []byte("package a\n\nfunc A() {}\n"))
	if err := os.Symlink("a.go", filepath.Join(root, "a", "link.go")); err != nil {
		t.Fatal(err)
	}
	index := func(base *indexer.Base, known *indexer.StatCache) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: langs(), Workers: 2, Base: base, Known: known})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "a", "a.go"), old, old)
	first := index(nil, nil)
	time.Sleep(50 * time.Millisecond)
	write(t, root, "a/a.go", []byte("package a\n\nfunc B() {}\n")) // as long as before
	os.Chtimes(filepath.Join(root, "a", "a.go"), old, old)
	inc := index(&indexer.Base{Files: first.Files, Nodes: slices.Clone(first.Nodes), Refs: first.Refs,
		Grammars: map[string]string{golang.New().Name(): golang.New().GrammarVersion()}}, first.Seen)
	if st := statuses(inc); st["a/link.go"].SHA256 == statuses(first)["a/link.go"].SHA256 {
		t.Errorf("a/link.go kept the rows of its target's old content (unread %d, parsed %d)", inc.Stats.FilesUnread, inc.Stats.FilesParsed)
	}
}

// TestDerived: build output — a tsconfig's outDir, the folder of a
// package's entry points when it holds source maps, a script whose source
// map names a file of the tree — is recorded as skipped_derived and not
// parsed, unless asked for; a folder a config names outside the tree, or
// around the config itself, and a package's own source folder are not.
func TestDerived(t *testing.T) {
	dir := t.TempDir()
	inline := base64.StdEncoding.EncodeToString([]byte(`{"version":3,"sources":["../src/index.ts"]}`))
	for name, content := range map[string]string{
		"package.json":             `{"main": "./dist/cjs/index.js", "exports": {".": {"types": "./dist/types/index.d.ts"}}}`,
		"tsconfig.json":            "{\n  // built here\n  \"compilerOptions\": {\"outDir\": \"./build\",},\n}\n",
		"src/index.ts":             "export function main(): number { return 1 }\n",
		"dist/cjs/index.js":        "exports.main = function main() { return 1 }\n",
		"dist/cjs/index.js.map":    `{"version":3,"sources":["../../src/index.ts"]}`,
		"dist/types/index.d.ts":    "export declare function main(): number;\n",
		"build/index.js":           "function main() { return 1 }\n",
		"lib/a.js":                 "function a() {}\n//# sourceMappingURL=a.js.map\n",
		"lib/a.js.map":             `{"version":3,"sourceRoot":"../src","sources":["index.ts"]}`,
		"lib/b.js":                 "function b() {}\n",
		"lib/c.js":                 "function c() {}\n//# sourceMappingURL=c.js.map\n",
		"lib/c.js.map":             `{"version":3,"sources":["elsewhere.ts"]}`,
		"lib/d.js":                 "function d() {}\n//# sourceMappingURL=data:application/json;base64," + inline + "\n",
		"odd/tsconfig.json":        `{"compilerOptions": {"outDir": "."}}`,
		"odd/x.ts":                 "export const x = 1\n",
		"far/tsconfig.json":        `{"compilerOptions": {"outDir": "../../../etc"}}`,
		"pkg/package.json":         `{"main": "lib/index.js", "bin": {"p": "./bin/p.js"}}`,
		"pkg/lib/index.js":         "module.exports = function p() {}\n",
		"pkg/bin/p.js":             "require('../lib')\n",
		"broken/tsconfig.json":     `{"compilerOptions": `,
		"broken/package.json":      `["not", "an", "object"]`,
		"nested/tsconfig.app.json": `{"compilerOptions": {"declarationDir": "types"}}`,
		"nested/types/n.d.ts":      "export declare const n: number;\n",
	} {
		write(t, dir, name, []byte(content))
	}
	derived := []string{"dist/cjs/index.js", "dist/cjs/index.js.map", "dist/types/index.d.ts", "build/index.js", "lib/a.js", "lib/d.js", "nested/types/n.d.ts"}
	written := []string{"src/index.ts", "lib/b.js", "lib/c.js", "odd/x.ts", "pkg/lib/index.js", "pkg/bin/p.js"}
	opts := indexer.Options{Languages: append(langs(), typescript.All()...)}
	g, err := indexer.Index(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	st := statuses(g)
	for _, p := range derived {
		if st[p].Status != schemas.StatusSkippedDerived {
			t.Errorf("%s: %q, want %s", p, st[p].Status, schemas.StatusSkippedDerived)
		}
	}
	for _, p := range written {
		if st[p].Status != schemas.StatusOK {
			t.Errorf("%s: %q, want ok", p, st[p].Status)
		}
	}
	for _, n := range g.Nodes {
		if slices.Contains(derived, n.File) && n.Kind != schemas.KindFile {
			t.Errorf("%s of build output %s was extracted", n.QualifiedName, n.File)
		}
	}
	opts.Derived = true
	if g, err = indexer.Index(context.Background(), dir, opts); err != nil {
		t.Fatal(err)
	}
	for _, p := range derived {
		if st := statuses(g)[p].Status; st == schemas.StatusSkippedDerived {
			t.Errorf("%s asked for, but %s", p, st)
		}
	}
}

// slowStart is a language whose extractors take long to make, as one
// compiling a large query does on a loaded machine.
type slowStart struct {
	indexer.Language
	delay time.Duration
}

func (l slowStart) NewExtractor(t *indexer.Tree) (indexer.Extractor, error) {
	time.Sleep(l.delay)
	return l.Language.NewExtractor(t)
}

// TestMaxFileTimeLeavesOutExtractorStart indexes a small file whose
// extractor takes longer to make than a file's time: making it is the
// run's cost, so the file is indexed, not given up.
func TestMaxFileTimeLeavesOutExtractorStart(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.go", []byte("package a\n\nfunc f() { g() }\n\nfunc g() {}\n"))
	limit := 500 * time.Millisecond
	g, err := indexer.Index(context.Background(), dir, indexer.Options{
		Languages: []indexer.Language{slowStart{golang.New(), limit + 300*time.Millisecond}},
		Workers:   1, MaxFileTime: limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	if f := statuses(g)["a.go"]; f.Status != schemas.StatusOK {
		t.Fatalf("a.go: status %s (%s), want %s", f.Status, f.Error, schemas.StatusOK)
	}
	if len(g.Nodes) < 2 {
		t.Errorf("a.go: %d nodes, want its functions", len(g.Nodes))
	}
}
