package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestDiff commits a change that removes a called function, re-signs a
// called method, moves one function, edits another and adds one, and
// holds `snap diff` to what that breaks.
func TestDiff(t *testing.T) {
	dir, commits := history(t, 1)
	storeGo := filepath.Join(dir, "store", "store.go")
	src, err := os.ReadFile(storeGo)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, "// Swap puts a into both")
	swap := s[i:]
	s = s[:i]
	s = strings.Replace(s, "// Total sums prices.\nfunc Total(items ...Item) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it.Price\n\t}\n\treturn sum\n}\n", "", 1)
	s = strings.Replace(s, "func (m *MemStore) Put(key string, it Item) error {", "func (m *MemStore) Put(key string, it Item, overwrite bool) error {", 1)
	s = strings.Replace(s, "func NewMemStore() *MemStore {\n", "func NewMemStore() *MemStore {\n\tFresh()\n", 1)
	s += "\n// Fresh is new.\nfunc Fresh() {}\n"
	os.WriteFile(storeGo, []byte(s), 0o644)
	os.WriteFile(filepath.Join(dir, "store", "swap.go"), []byte("package store\n\n"+swap), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "change")
	if code, _, stderr := run(t, dir, "index", "-q"); code != 0 {
		t.Fatal(stderr)
	}

	code, stdout, stderr := run(t, dir, "diff", "--json", commits[0][:10], "main")
	if code != 0 {
		t.Fatal(stderr)
	}
	d := jsonOf[schemas.Diff](t, "diff", stdout)
	got := map[string]string{}
	callers := map[string]int{}
	for _, sd := range d.Symbols {
		got[sd.QName] = sd.Change
		callers[sd.QName] = sd.CallersTotal
	}
	want := map[string]string{
		"example.com/shop/store.Total":           "removed",
		"example.com/shop/store.(*MemStore).Put": "signature",
		"example.com/shop/store.Swap":            "moved",
		"example.com/shop/store.NewMemStore":     "body",
		"example.com/shop/store.Fresh":           "added",
	}
	for q, c := range want {
		if got[q] != c {
			t.Errorf("%s: %q, want %q", q, got[q], c)
		}
	}
	if len(got) != len(want) {
		t.Errorf("symbols: %v", got)
	}
	if callers["example.com/shop/store.Total"] != 1 || callers["example.com/shop/store.(*MemStore).Put"] != 3 || d.Summary.Broken != 2 {
		t.Errorf("callers: %v, broken %d", callers, d.Summary.Broken)
	}
	if d.Summary.FilesAdded != 1 || d.Summary.FilesChanged != 1 || d.From.Commit != commits[0] {
		t.Errorf("summary %+v from %+v", d.Summary, d.From)
	}

	// The forms, held by golden files with the commits and times made fixed.
	norm := func(s string) string {
		s = strings.ReplaceAll(s, commits[0], "COMMIT_A")
		s = strings.ReplaceAll(s, commits[0][:12], "COMMIT_A")
		s = strings.ReplaceAll(s, commits[0][:10], "COMMIT_A")
		s = strings.ReplaceAll(s, d.To.Commit, "COMMIT_B")
		s = strings.ReplaceAll(s, d.To.Commit[:12], "COMMIT_B")
		return regexp.MustCompile(`"indexed_at": "[^"]*"`).ReplaceAllString(s, `"indexed_at": "TIME"`)
	}
	golden(t, "diff_shop.json", norm(stdout))
	for _, form := range []string{"text", "markdown"} {
		args := []string{"diff", commits[0][:10], "main"}
		if form == "markdown" {
			args = []string{"diff", "--markdown", commits[0][:10], "main"}
		}
		_, out, _ := run(t, dir, args...)
		golden(t, "diff_shop."+map[string]string{"text": "txt", "markdown": "md"}[form], norm(out))
	}

	// The text and Markdown forms, and the gates.
	code, stdout, _ = run(t, dir, "diff", commits[0][:10], "main")
	if code != 0 || !strings.Contains(stdout, "Likely to break (2)") || !strings.Contains(stdout, "server/server.go:38:9  example.com/shop/server.(*Server).Lookup") {
		t.Errorf("text: %s", stdout)
	}
	code, stdout, stderr = run(t, dir, "diff", "--markdown", "--fail-on", "broken", commits[0][:10], "main")
	if code != 1 || !strings.Contains(stdout, "**⚠️ 2 changed or removed symbols are still called**") || !strings.Contains(stdout, "```mermaid") ||
		!strings.Contains(stderr, "--fail-on broken: 2") {
		t.Errorf("markdown with a failing gate: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, _ = run(t, dir, "diff", "--fail-on", "any", "main", "main"); code != 0 || !strings.Contains(stdout, "symbols: +0 -0") {
		t.Errorf("a snapshot against itself: exit %d, %s", code, stdout)
	}
	// Any git revision names the snapshot of its commit.
	_, byCommit, _ := run(t, dir, "diff", "--json", commits[0][:10], "main")
	if code, got, stderr := run(t, dir, "diff", "--json", "HEAD~1", "HEAD"); code != 0 || got != byCommit {
		t.Errorf("snap diff HEAD~1 HEAD: exit %d, %s\n%s\nwant\n%s", code, stderr, got, byCommit)
	}
	if code, stdout, stderr := run(t, dir, "diff", "--markdown", "--fail-on", "broken", "HEAD~1", "HEAD"); code != 1 || !strings.Contains(stdout, "| signature |") || !strings.Contains(stderr, "still have callers") {
		t.Errorf("snap diff --markdown --fail-on broken HEAD~1 HEAD: exit %d, %s\n%s", code, stderr, stdout)
	}
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte("x"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "not indexed")
	if code, _, stderr := run(t, dir, "diff", "HEAD~1", "HEAD"); code != 2 || !strings.Contains(stderr, "holds no snapshot of it: index it there") {
		t.Errorf("a commit without a snapshot: exit %d, %s", code, stderr)
	}
	// Flags may follow the arguments.
	_, before, _ := run(t, dir, "diff", "--markdown", "main", "main")
	if code, after, stderr := run(t, dir, "diff", "main", "main", "--markdown"); code != 0 || after != before || !strings.Contains(after, "`main` → `main`") {
		t.Errorf("snap diff main main --markdown: exit %d, %s\n%s\nwant\n%s", code, stderr, after, before)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "main"}, "takes 2 argument"},
		{[]string{"diff", "nope", "main"}, "not a snapshot folder, nor a branch or commit"},
		{[]string{"diff", "--fail-on", "sometimes", "main", "main"}, `"sometimes" is not a condition`},
		{[]string{"diff", "--json", "--markdown", "main", "main"}, "exclude each other"},
	} {
		if code, _, stderr := run(t, dir, c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, %s", c.args, code, stderr)
		}
	}
}

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testdata is the golden files' folder, absolute: tests change directory.
var testdata, _ = filepath.Abs("testdata")

// golden compares got with the file under testdata/ (rewritten with
// -update, then reviewed).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdata, name)
	if *updateGolden {
		os.MkdirAll(testdata, 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update, then review the diff):\n%s", path, got)
	}
}

// TestDiffFeatureVersions: snapshots compare by id only when made at one
// feature version. The kept snapshot of this version compares with a
// fresh one; one of an older version is refused, exit 2, naming both
// versions, and so is one with its feature version unrecorded.
func TestDiffFeatureVersions(t *testing.T) {
	kept := func(name string) string {
		abs, err := filepath.Abs(filepath.Join("..", "..", "testdata", "backcompat", name))
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	current := kept(fmt.Sprintf("format%d-feature%d", schemas.FormatVersion, schemas.FeatureVersion))
	older := kept("format1-feature1")
	unrecorded := copyTree(t, older)
	m, err := os.ReadFile(filepath.Join(unrecorded, schemas.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(unrecorded, schemas.ManifestFile), regexp.MustCompile(`"feature_version": \d+,`).ReplaceAll(m, nil), 0o644)
	dir := copyTree(t, "../../testdata/go/shop")
	code, out, stderr := run(t, dir, "index", "-q", "--store", filepath.Join(t.TempDir(), "store"), ".")
	if code != 0 {
		t.Fatal(stderr)
	}
	fresh := strings.TrimSpace(out)
	if code, _, stderr := run(t, "", "diff", "--json", current, fresh); code != 0 {
		t.Errorf("diff with the kept snapshot of this version: exit %d: %s", code, stderr)
	}
	for old, says := range map[string]string{older: "feature versions 1 and", unrecorded: "feature versions unrecorded"} {
		if code, _, stderr := run(t, "", "diff", old, fresh); code != 2 || !strings.Contains(stderr, says) {
			t.Errorf("diff of %s across feature versions: exit %d: %s", filepath.Base(old), code, stderr)
		}
	}
}
