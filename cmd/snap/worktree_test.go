package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
)

// TestDiffWorktree edits a checkout without committing (a called function
// removed, a called method re-signed, a file added, one deleted) and holds
// `snap diff --worktree` to what that changes and breaks, with the store
// left as it was.
func TestDiffWorktree(t *testing.T) {
	dir, commits := history(t, 2)
	cache := listTree(t, filepath.Join(dir, ".snap"))

	// A clean checkout at the snapshot's commit: nothing differs.
	code, stdout, stderr := run(t, dir, "diff", "--worktree", "--json", "--fail-on", "any")
	if code != 0 {
		t.Fatalf("clean checkout: exit %d: %s", code, stderr)
	}
	d := jsonOf[schemas.Diff](t, "diff", stdout)
	if len(d.Files) != 0 || len(d.Symbols) != 0 || d.Summary != (schemas.DiffSummary{}) {
		t.Errorf("clean checkout: %s", stdout)
	}
	if d.From.Commit != commits[1] || d.To.Commit != commits[1]+"+worktree" || d.To.Branch != "main" || d.To.Repo != "example/shop" {
		t.Errorf("clean checkout: from %+v to %+v", d.From, d.To)
	}
	// An older snapshot against the tree at HEAD: the commit between them.
	code, stdout, stderr = run(t, dir, "diff", "--worktree", "--json", commits[0][:10])
	if code != 0 {
		t.Fatalf("older snapshot: exit %d: %s", code, stderr)
	}
	d = jsonOf[schemas.Diff](t, "diff", stdout)
	if len(d.Files) != 1 || d.Files[0].Path != "version.go" || d.Files[0].Change != "changed" || d.From.Commit != commits[0] ||
		len(d.Symbols) != 1 || d.Symbols[0].QName != "example.com/shop.Version" || d.Symbols[0].Signature != "Version = 1" {
		t.Errorf("older snapshot: from %+v, files %+v, symbols %+v", d.From, d.Files, d.Symbols)
	}

	storeGo := filepath.Join(dir, "store", "store.go")
	src, err := os.ReadFile(storeGo)
	if err != nil {
		t.Fatal(err)
	}
	total := "// Total sums prices.\nfunc Total(items ...Item) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it.Price\n\t}\n\treturn sum\n}\n"
	put := "func (m *MemStore) Put(key string, it Item) error {"
	if !strings.Contains(string(src), total) || !strings.Contains(string(src), put) {
		t.Fatal("the fixture's store.go has changed")
	}
	s := strings.Replace(string(src), total, "", 1)
	s = strings.Replace(s, put, "func (m *MemStore) Put(key string, it Item, overwrite bool) error {", 1)
	if err := os.WriteFile(storeGo, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "store", "fresh.go"), []byte("package store\n\n// Fresh is new.\nfunc Fresh() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "cmd", "shop", "broken.go")); err != nil {
		t.Fatal(err)
	}

	before := time.Now().UTC().Truncate(time.Second)
	code, stdout, stderr = run(t, dir, "diff", "--worktree", "--json")
	if code != 0 {
		t.Fatalf("edited checkout: exit %d: %s", code, stderr)
	}
	d = jsonOf[schemas.Diff](t, "diff", stdout)
	got := map[string]string{}
	callers := map[string][]string{}
	for _, sd := range d.Symbols {
		got[sd.QName] = sd.Change
		for _, c := range sd.Callers {
			callers[sd.QName] = append(callers[sd.QName], c.QName+" "+c.Location)
		}
	}
	want := map[string]string{
		"example.com/shop/store.Total":           "removed",
		"example.com/shop/store.(*MemStore).Put": "signature",
		"example.com/shop/store.Fresh":           "added",
		"example.com/shop/cmd/shop.broken":       "removed",
		"example.com/shop/cmd/shop.helper":       "removed",
	}
	for q, c := range want {
		if got[q] != c {
			t.Errorf("%s: %q, want %q", q, got[q], c)
		}
	}
	if len(got) != len(want) {
		t.Errorf("symbols: %v", got)
	}
	if c := callers["example.com/shop/store.Total"]; !slices.Equal(c, []string{"example.com/shop/server.(*Server).Lookup server/server.go:38:9"}) {
		t.Errorf("callers of the removed Total: %v", c)
	}
	if c := callers["example.com/shop/store.(*MemStore).Put"]; len(c) != 3 || !slices.Contains(c, "example.com/shop/server.(*Server).Fill server/server.go:50:2") {
		t.Errorf("callers of the re-signed Put: %v", c)
	}
	if len(callers) != 2 || d.Summary.Broken != 2 {
		t.Errorf("broken %d, callers %v", d.Summary.Broken, callers)
	}
	var files []string
	for _, f := range d.Files {
		files = append(files, f.Change+" "+f.Path)
	}
	if !slices.Equal(files, []string{"removed cmd/shop/broken.go", "added store/fresh.go", "changed store/store.go"}) {
		t.Errorf("files %v", files)
	}
	if d.Summary.FilesAdded != 1 || d.Summary.FilesRemoved != 1 || d.Summary.FilesChanged != 1 || d.Summary.SymbolsRemoved != 3 {
		t.Errorf("summary %+v", d.Summary)
	}
	if d.From.Commit != commits[1] || d.To.Commit != commits[1]+"+worktree" || d.To.IndexedAt.Before(before) {
		t.Errorf("from %+v to %+v", d.From, d.To)
	}

	// The same, named by branch, in the other forms, and as a gate.
	code, stdout, _ = run(t, dir, "diff", "--worktree", "main")
	if code != 0 || !strings.Contains(stdout, "main ("+commits[1][:12]+") → worktree") || !strings.Contains(stdout, "Likely to break (2)") ||
		!strings.Contains(stdout, "server/server.go:38:9  example.com/shop/server.(*Server).Lookup") {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
	code, stdout, stderr = run(t, dir, "diff", "--worktree", "--markdown", "--fail-on", "broken")
	if code != 1 || !strings.Contains(stdout, "### snap diff: `main` → `worktree`") || !strings.Contains(stdout, "**⚠️ 2 changed or removed symbols are still called**") ||
		!strings.Contains(stderr, "--fail-on broken: 2") {
		t.Errorf("markdown with a failing gate: exit %d\n%s\n%s", code, stdout, stderr)
	}

	if got := listTree(t, filepath.Join(dir, ".snap")); !slices.Equal(got, cache) {
		t.Errorf("diff --worktree wrote into the store:\n%v\nwas\n%v", got, cache)
	}
	if status := gitRun(t, dir, "status", "--porcelain"); !strings.Contains(status, "?? store/fresh.go") || !strings.Contains(status, "D cmd/shop/broken.go") {
		t.Errorf("git status after diff --worktree:\n%s", status)
	}
}

// TestDiffWorktreeErrors holds the usage errors of diff --worktree to
// exit code 2 and a message that says what is wrong.
func TestDiffWorktreeErrors(t *testing.T) {
	dir, _ := history(t, 1)

	// A snapshot of another repository.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	gitRun(t, other, "init", "-q", "-b", "main")
	gitRun(t, other, "remote", "add", "origin", "https://github.com/example/other.git")
	gitRun(t, other, "add", "-A")
	gitRun(t, other, "commit", "-q", "-m", "other")
	code, stdout, stderr := run(t, other, "index", "-q")
	if code != 0 {
		t.Fatal(stderr)
	}
	otherSnap := strings.TrimSpace(stdout)

	noGit := t.TempDir()
	noCommit := t.TempDir()
	gitRun(t, noCommit, "init", "-q", "-b", "main")
	for _, c := range []struct {
		dir  string
		args []string
		want string
	}{
		{noGit, []string{"diff", "--worktree"}, "is not inside one"},
		{noCommit, []string{"diff", "--worktree"}, "no store at"},
		{dir, []string{"diff", "--worktree", "nope"}, "not a snapshot folder, nor a branch or commit of example/shop"},
		{dir, []string{"diff", "--worktree", otherSnap}, "is a snapshot of example/other"},
		{dir, []string{"diff", "--worktree", "main", "main"}, "takes 0 to 1 arguments"},
		{dir, []string{"diff", "--worktree", "--json", "--markdown"}, "exclude each other"},
	} {
		if code, _, stderr := run(t, c.dir, c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, %s; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	// The other repository's own checkout compares with its snapshot.
	if code, stdout, stderr := run(t, other, "diff", "--worktree", otherSnap); code != 0 || !strings.Contains(stdout, "files: +0 -0 ~0") {
		t.Errorf("snap diff --worktree FOLDER in its checkout: exit %d, %s %s", code, stdout, stderr)
	}
}
