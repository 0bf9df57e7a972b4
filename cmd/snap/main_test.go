package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain keeps the runs' stat caches (see statCachePath) out of the
// user's cache folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "snap-cmd-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("SNAP_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireTool finds a program a test needs. Where it is missing the test
// skips, unless SNAP_REQUIRE_TOOLS is set (make test sets it and installs
// what it needs): there a missing program fails the test.
func requireTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("SNAP_REQUIRE_TOOLS") != "" {
			t.Fatalf("%s: %v (SNAP_REQUIRE_TOOLS is set, so this does not skip)", name, err)
		}
		t.Skipf("no %s here", name)
	}
}

// run runs snap in-process in dir and returns its exit code and output.
func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), append([]string{"snap"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file.txt"), []byte("x"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"index", filepath.Join(dir, "missing")}, "cannot index"},
		{[]string{"index", filepath.Join(dir, "file.txt")}, "not a directory"},
		{[]string{"index", "a", "b"}, "takes 0 to 1 arguments"},
		{[]string{"index", "--no-such-flag"}, "flag provided but not defined"},
		{[]string{"index", "--languages", "cobol"}, `unknown language "cobol" (have go, python`},
		{[]string{"index", "--exclude", "[oops"}, `"[oops" is not a valid glob`},
		{[]string{"index", "--full", "--base", dir}, "exclude each other"},
		{[]string{"verify"}, "takes 1 argument"},
		{[]string{"verify", filepath.Join(dir, "missing")}, "not a snapshot folder"},
		{[]string{"query"}, "name a tool"},
		{[]string{"query", "no_such_tool"}, "unknown tool"},
		{[]string{"query", "status", "--snapshot"}, "needs a value"},
		{[]string{"query", "impact", "--depth", "deep"}, "want integer"},
		{[]string{"serve", "--toolsets", "bogus"}, "unknown toolset"},
		{[]string{"no-such-command"}, "unknown command"},
	} {
		code, _, stderr := run(t, dir, c.args...)
		if code != 2 {
			t.Errorf("snap %v: exit %d, want 2 (stderr %q)", c.args, code, stderr)
		}
		if !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: stderr %q does not say %q", c.args, stderr, c.want)
		}
	}
}

func TestIndexVerifyQuery(t *testing.T) {
	dir := copyTree(t, "../../testdata/go/shop")
	// Flags may follow the arguments.
	code, stdout, stderr := run(t, dir, "index", ".", "--quiet")
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	snap := strings.TrimSpace(stdout)
	if !strings.HasPrefix(snap, filepath.Join(dir, ".snap")) {
		t.Fatalf("index printed %q, want a folder under %s/.snap", snap, dir)
	}
	if data, err := os.ReadFile(filepath.Join(dir, ".snap", ".gitignore")); err != nil || strings.TrimSpace(string(data)) != "*" {
		t.Errorf(".snap/.gitignore = %q, %v; want *", data, err)
	}
	if code, stdout, stderr := run(t, dir, "verify", snap); code != 0 || !strings.HasPrefix(stdout, "ok: ") {
		t.Fatalf("verify: exit %d, %q %q", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, dir, "query", "calls", "--name", "Lookup", "--json")
	if code != 0 {
		t.Fatalf("query: exit %d: %s", code, stderr)
	}
	var ans struct {
		Commit  string `json:"commit"`
		Callers []struct {
			QName string `json:"qname"`
			At    string `json:"at"`
		} `json:"callers"`
	}
	if err := json.Unmarshal([]byte(stdout), &ans); err != nil {
		t.Fatalf("query --json printed %q: %v", stdout, err)
	}
	if len(ans.Callers) != 1 || ans.Callers[0].QName != "example.com/shop/cmd/shop.main" || ans.Callers[0].At != "cmd/shop/main.go:12" {
		t.Errorf("callers of Lookup = %+v", ans.Callers)
	}
	if !strings.HasPrefix(ans.Commit, "tree-") {
		t.Errorf("answer names commit %q", ans.Commit)
	}
	// On a terminal, the answer is text: a symbol a line.
	if code, text := runOnTerminal(t, dir, "query", "calls", "--name", "Lookup"); code != 0 ||
		!strings.Contains(text, "\ncallers (1):\n  function example.com/shop/cmd/shop.main  cmd/shop/main.go:12\n") ||
		!strings.Contains(text, "commit: "+ans.Commit+"\n") {
		t.Errorf("query calls on a terminal: exit %d\n%s", code, text)
	}
	// A tool error is exit 1, with the structured error on stdout.
	code, stdout, _ = run(t, dir, "query", "callers", "--name", "NoSuchSymbol", "--json")
	if code != 1 || !strings.Contains(stdout, `"SYMBOL_NOT_FOUND"`) {
		t.Errorf("unknown symbol: exit %d, %s", code, stdout)
	}
	// Tampering with a table is caught by verify and by loading.
	edges := filepath.Join(snap, "edges.parquet")
	data, _ := os.ReadFile(edges)
	data[len(data)/2] ^= 0xff
	os.WriteFile(edges, data, 0o644)
	code, _, stderr = run(t, dir, "verify", snap)
	if code != 1 || !strings.Contains(stderr, "edges") || !strings.Contains(stderr, "sha256") {
		t.Errorf("verify of a flipped byte: exit %d, %q", code, stderr)
	}
	code, _, stderr = run(t, dir, "query", "status")
	if code != 1 || !strings.Contains(stderr, "sha256") {
		t.Errorf("query over a flipped byte: exit %d, %q", code, stderr)
	}
}

func TestQueryWithoutSnapshot(t *testing.T) {
	code, _, stderr := run(t, t.TempDir(), "query", "status")
	if code != 2 || !strings.Contains(stderr, "snap index") {
		t.Errorf("query with no store: exit %d, %q; want 2 and a hint to run snap index", code, stderr)
	}
}

func TestReproducibleTables(t *testing.T) {
	dir := copyTree(t, "../../testdata/go/shop")
	var folders []string
	for _, args := range [][]string{
		{"index", "-q", "--workers", "1", "--store", filepath.Join(t.TempDir(), "a")},
		{"index", "-q", "--workers", "3", "--store", filepath.Join(t.TempDir(), "b")},
	} {
		code, stdout, stderr := run(t, dir, args...)
		if code != 0 {
			t.Fatalf("index: %s", stderr)
		}
		folders = append(folders, strings.TrimSpace(stdout))
	}
	tables, _ := filepath.Glob(filepath.Join(folders[0], "*.parquet"))
	if len(tables) != 5 {
		t.Fatalf("want 5 tables, have %v", tables)
	}
	for _, a := range tables {
		b := filepath.Join(folders[1], filepath.Base(a))
		da, _ := os.ReadFile(a)
		db, err := os.ReadFile(b)
		if err != nil || !bytes.Equal(da, db) {
			t.Errorf("%s differs between two runs over the same tree", filepath.Base(a))
		}
	}
}

func TestEmptyRepository(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	code, stdout, stderr := run(t, dir, "index", "-q")
	if code != 0 {
		t.Fatalf("index of an empty repository: exit %d: %s", code, stderr)
	}
	snap := strings.TrimSpace(stdout)
	if code, _, stderr := run(t, dir, "verify", snap); code != 0 {
		t.Fatalf("verify: %s", stderr)
	}
	code, stdout, stderr = run(t, dir, "query", "status", "--json")
	if code != 0 || !strings.Contains(stdout, `"commit":"tree-`) {
		t.Errorf("status of an empty snapshot: exit %d, %s %s", code, stdout, stderr)
	}
}
