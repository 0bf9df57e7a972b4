package indexer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWalkFolder lists a folder outside any git work tree, with nested
// .gitignore files, a negation, an anchored rule and a repository inside
// it: through git (plainFiles) and by the walk without git (walkDir),
// both give the files that git would leave unignored.
func TestWalkFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required")
	}
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":        "*.log\n!keep.log\nbuild/\n/top-only.txt\n",
		"a.go":              "package a\n",
		"x.log":             "",
		"keep.log":          "",
		"build/out.go":      "package build\n",
		"top-only.txt":      "",
		"sub/top-only.txt":  "",
		"sub/.gitignore":    "local.txt\n",
		"sub/local.txt":     "",
		"sub/b.go":          "package sub\n",
		"deep/dir/d.go":     "package dir\n",
		".hg/store":         "",
		"nested/.gitignore": "gen.go\n",
		"nested/c.go":       "package nested\n",
		"nested/gen.go":     "package nested\n",
	}
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = filepath.Join(dir, "nested")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	want := ".gitignore,a.go,deep/dir/d.go,keep.log,nested/.gitignore,nested/c.go,sub/.gitignore,sub/b.go,sub/top-only.txt"
	ctx := context.Background()
	if _, err := gitFiles(ctx, dir); err == nil {
		t.Fatalf("%s is inside a git work tree: the test needs a folder outside one", dir)
	}
	plain := func(ctx context.Context, root string) ([]string, error) {
		w, err := plainFiles(ctx, root)
		// Each path with its own Lstat, in the same order.
		for i, p := range w.Paths {
			if fi, lerr := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); lerr != nil || w.Info[i] == nil || !os.SameFile(fi, w.Info[i]) {
				t.Errorf("plainFiles: %s comes with the stat of another file", p)
			}
		}
		return w.Paths, err
	}
	for name, walk := range map[string]func(context.Context, string) ([]string, error){"Walk": Walk, "plainFiles": plain, "walkDir": walkDir} {
		paths, err := walk(ctx, dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.Join(paths, ","); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
