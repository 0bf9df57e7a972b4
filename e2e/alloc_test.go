package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestAllocator indexes every language's fixture, each grammar's external
// scanner included, with tree-sitter allocating through mimalloc and
// through the C library's malloc (SNAP_ALLOCATOR): the snapshots' tables
// are the same bytes, each run says which allocator it used, mimalloc is
// the default where installed, and an allocator snap does not know is a
// warning, the run going on with malloc.
func TestAllocator(t *testing.T) {
	tree := t.TempDir()
	fixtures, err := filepath.Glob(filepath.Join("..", "testdata", "*", "shop"))
	if err != nil || len(fixtures) < 10 {
		t.Fatalf("fixtures: %v %v", fixtures, err)
	}
	for _, f := range fixtures {
		dst := filepath.Join(tree, filepath.Base(filepath.Dir(f)))
		if out, err := exec.Command("cp", "-R", f, dst).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v\n%s", err, out)
		}
	}
	index := func(alloc string) (tables []schemas.Table, log string) {
		t.Helper()
		cmd := exec.Command(snapBin, "index", "--full", "--store", filepath.Join(t.TempDir(), "store"), tree)
		cmd.Env = append(os.Environ(), "SNAP_ALLOCATOR="+alloc)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("SNAP_ALLOCATOR=%s snap index: %v\n%s", alloc, err, stderr.String())
		}
		raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(stdout.String()), "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m schemas.Manifest
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m.Tables, stderr.String()
	}
	byDefault, log := index("")
	if !strings.Contains(log, "allocator=mimalloc") {
		msg := "mimalloc is not installed (the default allocator was not it); install it with: apt install libmimalloc2.0\n" + log
		if os.Getenv("SNAP_REQUIRE_TOOLS") != "" {
			t.Fatal(msg + "\n(SNAP_REQUIRE_TOOLS is set, so this does not skip)")
		}
		t.Skip(msg)
	}
	for _, alloc := range []string{"mimalloc", "libc"} {
		tables, log := index(alloc)
		if !strings.Contains(log, "allocator="+alloc+"\n") || strings.Contains(log, "level=WARN") {
			t.Errorf("SNAP_ALLOCATOR=%s: the run should say it used %s, without a warning:\n%s", alloc, alloc, log)
		}
		if len(tables) != len(byDefault) {
			t.Fatalf("SNAP_ALLOCATOR=%s: %d tables, %d by default", alloc, len(tables), len(byDefault))
		}
		for i := range tables {
			if tables[i] != byDefault[i] {
				t.Errorf("SNAP_ALLOCATOR=%s: table %s differs: %+v, by default %+v", alloc, tables[i].Name, tables[i], byDefault[i])
			}
		}
	}
	if _, log := index("tcmalloc"); !strings.Contains(log, "level=WARN") || !strings.Contains(log, "SNAP_ALLOCATOR=tcmalloc: not an allocator snap knows") ||
		!strings.Contains(log, "allocator=libc\n") {
		t.Errorf("an unknown allocator should be a warning, and the run go on with libc:\n%s", log)
	}
}
