package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// A repository is hostile when whoever committed it wants snap, run in a
// fresh clone, to write outside it, read outside it, or never finish.
// These tests build such clones and run the real binary in them, the way
// a user would: `snap index` and `snap serve` with their defaults.

// hostileRepo makes a git repository of the go/shop fixture, committed,
// and returns its folder. plant, run before the commit, adds what makes
// it hostile.
func hostileRepo(t *testing.T, plant func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	cp := exec.Command("cp", "-R", filepath.Join("..", "testdata", "go", "shop")+"/.", dir)
	if out, err := cp.CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	plant(dir)
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "-A", "-f")
	gitIn(t, dir, "commit", "-q", "-m", "hostile")
	return dir
}

// tree lists every path below dir with its size and modification time,
// without following links: what it returns twice is the same when
// nothing below dir was written.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fmt.Sprint(fi.Mode(), fi.ModTime(), fi.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails t when what was below dir (before) changed.
func sameTree(t *testing.T, what, dir string, before map[string]string) {
	t.Helper()
	after := tree(t, dir)
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s: %s was written (%s)", what, p, v)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s: %s was deleted", what, p)
		}
	}
}

// TestHostileStoreLink: a committed .snap that is a symbolic link to a
// folder elsewhere, and a committed lock file that is a link out of the
// tree. snap index in the clone must refuse to write through either,
// saying why, and leave the folders they point to as they were.
func TestHostileStoreLink(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "keep.txt"), []byte("keep"), 0o644)
	before := tree(t, outside)

	dir := hostileRepo(t, func(dir string) {
		if err := os.Symlink(outside, filepath.Join(dir, ".snap")); err != nil {
			t.Fatal(err)
		}
	})
	code, _, stderr := snapWithin(t, dir, nil, 2*time.Minute, "index", "-q")
	if code == 0 {
		t.Errorf("snap index through a linked .snap succeeded; want a refusal")
	}
	if !strings.Contains(stderr, ".snap") {
		t.Errorf("the refusal does not name .snap:\n%s", stderr)
	}
	sameTree(t, "linked .snap", outside, before)

	outside = t.TempDir()
	before = tree(t, outside)
	target := filepath.Join(outside, "planted.lock")
	dir = hostileRepo(t, func(dir string) {
		os.MkdirAll(filepath.Join(dir, ".snap"), 0o755)
		if err := os.Symlink(target, filepath.Join(dir, ".snap", ".snapstore.lock")); err != nil {
			t.Fatal(err)
		}
	})
	snapWithin(t, dir, nil, 2*time.Minute, "index", "-q")
	if _, err := os.Lstat(target); err == nil {
		t.Errorf("snap index created %s through a linked lock file", target)
	}
	sameTree(t, "linked lock", outside, before)
}

// TestHostileMemoriesLink: a committed .snap/memories that is a link to a
// folder elsewhere. The memory tools must not list, read, write or delete
// anything there.
func TestHostileMemoriesLink(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "README.md"), []byte("# not yours\n"), 0o644)
	before := tree(t, outside)
	dir := hostileRepo(t, func(dir string) {
		os.MkdirAll(filepath.Join(dir, ".snap"), 0o755)
		if err := os.Symlink(outside, filepath.Join(dir, ".snap", "memories")); err != nil {
			t.Fatal(err)
		}
	})
	store := filepath.Join(t.TempDir(), "store")
	if code, _, stderr := snapWithin(t, dir, nil, 2*time.Minute, "index", "-q", "--store", store); code != 0 {
		t.Fatalf("snap index: exit %d\n%s", code, stderr)
	}
	cmd := exec.Command(snapBin, "serve", "--store", store, "--toolsets", "all", "--no-overlay")
	cmd.Dir = dir
	sess, _ := serveCmd(t, cmd)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"snap_list_memories", map[string]any{}},
		{"snap_read_memory", map[string]any{"name": "README"}},
		{"snap_write_memory", map[string]any{"name": "planted", "content": "x"}},
		{"snap_edit_memory", map[string]any{"name": "README", "find": "yours", "replacement": "mine"}},
		{"snap_delete_memory", map[string]any{"name": "README"}},
	} {
		ans, isErr := call(t, sess, c.tool, c.args)
		if c.tool == "snap_list_memories" && !isErr {
			if b, _ := json.Marshal(ans); strings.Contains(string(b), "README") {
				t.Errorf("%s lists the folder the link points to: %s", c.tool, b)
			}
			continue
		}
		if !isErr {
			b, _ := json.Marshal(ans)
			t.Errorf("%s through a linked memories folder succeeded: %s", c.tool, b)
		}
	}
	sameTree(t, "linked memories", outside, before)
}

// nested returns source of about size bytes whose calls nest as deep as
// that allows, on lines of ordinary length (a file of one long line is
// taken for minified and not read): the shape that makes a query
// cursor's work grow faster than the file.
func nested(lang string, size int) (string, string) {
	depth := size / 4
	calls := strings.Repeat(strings.Repeat("f(", 20)+"\n", depth/20) + "1" + strings.Repeat(strings.Repeat(")", 20)+"\n", depth/20)
	switch lang {
	case "java":
		return "Nested.java", "class Nested { void m() { x = " + calls + "; } }\n"
	case "python":
		return "nested.py", "x = (" + calls + ")\n"
	}
	panic(lang)
}

// TestHostileFiles: a tree of files made to hang or stall an indexer,
// indexed with the defaults: links to a FIFO and to a device, a link out
// of the tree, deeply nested calls, a NUL byte, bytes that are not UTF-8,
// a name with a newline. The run must finish, publish a snapshot that
// verifies, and read nothing outside the tree.
func TestHostileFiles(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.go")
	os.WriteFile(secret, []byte("package shop\n\nfunc OutsideSecret() {}\n"), 0o644)
	dir := hostileRepo(t, func(dir string) {
		if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
			t.Fatal(err)
		}
		for name, target := range map[string]string{
			"fifo.go":   "pipe",
			"zero.go":   "/dev/zero",
			"leak.go":   secret,
			"escape.go": "../../" + filepath.Base(outside) + "/secret.go",
		} {
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		for _, lang := range []string{"java", "python"} {
			name, src := nested(lang, 200<<10)
			os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644)
		}
		os.WriteFile(filepath.Join(dir, "nul.go"), []byte("package shop\n\x00func Nul() {}\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "latin1.go"), []byte("package shop\n\n// caf\xe9\nfunc Latin1() {}\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "new\nline.go"), []byte("package shop\n\nfunc NewLine() {}\n"), 0o644)
	})
	before := tree(t, outside)
	code, stdout, stderr := snapWithin(t, dir, nil, 3*time.Minute, "index", "-q")
	if code != 0 {
		t.Fatalf("snap index: exit %d\n%s", code, stderr)
	}
	snap := strings.TrimSpace(stdout)
	if code, _, stderr := snapWithin(t, dir, nil, time.Minute, "verify", snap); code != 0 {
		t.Fatalf("snap verify %s: exit %d\n%s", snap, code, stderr)
	}
	sameTree(t, "index", outside, before)

	got, err := snapshot.ReadDir(context.Background(), snap, snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, f := range got.Files {
		status[f.Path] = f.Status
	}
	for path, want := range map[string][]string{
		"fifo.go":      {schemas.StatusSkippedSpecial},
		"zero.go":      {schemas.StatusUnreadable},
		"leak.go":      {schemas.StatusUnreadable},
		"escape.go":    {schemas.StatusUnreadable},
		"Nested.java":  {schemas.StatusParseError, schemas.StatusSkippedTimeout},
		"nested.py":    {schemas.StatusParseError, schemas.StatusSkippedTimeout},
		"nul.go":       {schemas.StatusSkippedBinary},
		"latin1.go":    {schemas.StatusOK},
		"new\nline.go": {schemas.StatusOK},
	} {
		if !slices.Contains(want, status[path]) {
			t.Errorf("%q recorded as %q, want one of %q", path, status[path], want)
		}
	}

	code, out, stderr := snapWithin(t, dir, nil, time.Minute, "query", "--snapshot", snap, "--json", "snap_search", "--query", "OutsideSecret")
	if strings.Contains(out, "OutsideSecret") {
		t.Errorf("a symbol of a file outside the tree was indexed (exit %d):\n%s%s", code, out, stderr)
	}
	code, out, stderr = snapWithin(t, dir, nil, time.Minute, "query", "--snapshot", snap, "--json", "snap_search", "--query", "NewLine")
	if code != 0 || !strings.Contains(out, "NewLine") {
		t.Errorf("the file named with a newline was not indexed (exit %d):\n%s%s", code, out, stderr)
	}
}
