package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestPullMany pulls every repository of a store, then a list, into a
// checkout's cache: one transfer per line with --json, each valid.
func TestPullMany(t *testing.T) {
	store := t.TempDir()
	for _, r := range []struct{ repo, branch, fixture string }{
		{"example.com/go", "main", "go/shop"},
		{"example.com/go", "release", "go/shop"},
		{"example.com/py", "main", "python/app"},
	} {
		src := copyTree(t, filepath.Join("..", "..", "testdata", filepath.FromSlash(r.fixture)))
		if code, _, stderr := run(t, "", "index", "-q", "--store", store, "--repo", r.repo, "--branch", r.branch, src); code != 0 {
			t.Fatalf("index %s: %s", r.repo, stderr)
		}
	}
	work := t.TempDir()
	code, out, stderr := run(t, work, "pull", "--store", store, "--all", "--json")
	if code != 0 {
		t.Fatalf("pull --all: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("pull --all wrote %d lines, want 3:\n%s", len(lines), out)
	}
	var got []string
	for _, l := range lines {
		tr := jsonOf[schemas.Transfer](t, "transfer", l)
		if tr.Op != "pull" || tr.Present || !tr.Head.Moved {
			t.Errorf("transfer %+v: want a fresh pull moving HEAD", tr)
		}
		got = append(got, tr.Repo+" "+tr.Branch)
	}
	if want := "example.com/go main,example.com/go release,example.com/py main"; strings.Join(got, ",") != want {
		t.Errorf("pulled %q, want %q", got, want)
	}
	for _, b := range []string{"main", "release"} {
		if _, err := os.Stat(filepath.Join(work, ".snap", "repo=example.com%2Fgo", "branch="+b, "HEAD.json")); err != nil {
			t.Errorf("cache lacks %s: %v", b, err)
		}
	}
	// Again, by name: nothing to copy.
	code, out, _ = run(t, work, "pull", "--store", store, "example.com/go:release", "example.com/py")
	if code != 0 || strings.Count(out, "already holds it") != 2 {
		t.Errorf("pull by name again: exit %d\n%s", code, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--all", "example.com/go"}, "drop it, or the names"},
		{[]string{"--repo", "example.com/go", "example.com/py"}, "name each as NAME[:BRANCH]"},
		{[]string{"example.com/nope"}, "holds no snapshot of example.com/nope"},
		{[]string{"example.com/go:nope"}, "holds no snapshot of example.com/go:nope"},
	} {
		code, _, stderr := run(t, work, append([]string{"pull", "--store", store}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("pull %q: exit %d %q, want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
