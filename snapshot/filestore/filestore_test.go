package filestore_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
	"github.com/graphsnap/snap/snapshot/storetest"
)

func newStore(t *testing.T) *filestore.Store {
	t.Helper()
	st, err := filestore.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) snapshot.Store { return newStore(t) })
}

func TestLayout(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	key := "repo=a%2Fb/branch=main/commit=abc/manifest.json"
	if _, err := st.Put(ctx, key, strings.NewReader("{}\n"), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(st.Root(), "repo=a%2Fb", "branch=main", "commit=abc", "manifest.json"))
	if err != nil || string(b) != "{}\n" {
		t.Fatalf("object file = %q, %v", b, err)
	}
	// No temp files left beside it; the lock file is not listed.
	entries, _ := os.ReadDir(filepath.Join(st.Root(), "repo=a%2Fb", "branch=main", "commit=abc"))
	if len(entries) != 1 {
		t.Errorf("commit folder holds %d entries, want 1", len(entries))
	}
	infos, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Key != key {
		t.Errorf("List = %+v, want only %s", infos, key)
	}
	// Deleting the last object prunes the folders it leaves empty.
	if err := st.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(st.Root(), "repo=a%2Fb")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("empty folders left after Delete: %v", err)
	}
	if _, err := os.Stat(st.Root()); err != nil {
		t.Errorf("root removed: %v", err)
	}
}

func TestReservedKeys(t *testing.T) {
	st := newStore(t)
	for _, key := range []string{".snapstore.lock", "a/.snapstore-tmp-1", ".snapstore"} {
		_, err := st.Put(context.Background(), key, strings.NewReader("x"), snapshot.PutOptions{})
		if !errors.Is(err, snapshot.ErrInvalidKey) {
			t.Errorf("Put(%q) = %v, want ErrInvalidKey", key, err)
		}
	}
}

func TestDotSnapGitignore(t *testing.T) {
	repo := t.TempDir()
	root := filepath.Join(repo, ".snap")
	if _, err := filestore.New(root); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil || string(b) != "*\n" {
		t.Fatalf(".gitignore = %q, %v; want \"*\\n\"", b, err)
	}
	// An existing folder is left as it is.
	existing := filepath.Join(t.TempDir(), ".snap")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := filestore.New(existing); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(existing, ".gitignore")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("New wrote .gitignore into a folder it did not create: %v", err)
	}
	// Other names get none.
	other := filepath.Join(t.TempDir(), "store")
	if _, err := filestore.New(other); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(other, ".gitignore")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("New wrote .gitignore into %s: %v", other, err)
	}
}

func TestNewOnFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := filestore.New(f); err == nil {
		t.Errorf("New on a regular file succeeded")
	}
}

// TestCrossProcessSwap runs compare-and-swap racers in separate processes
// sharing one folder: the flock, not the in-process mutex, must make
// exactly one of them win.
func TestCrossProcessSwap(t *testing.T) {
	if os.Getenv("FILESTORE_RACER") != "" {
		racer()
		return
	}
	if testing.Short() {
		t.Skip("spawns processes")
	}
	root := t.TempDir()
	st, err := filestore.New(root)
	if err != nil {
		t.Fatal(err)
	}
	base, err := st.Put(context.Background(), "HEAD.json", strings.NewReader("base"), snapshot.PutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 6
	cmds := make([]*exec.Cmd, n)
	outs := make([]strings.Builder, n)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestCrossProcessSwap$")
		cmds[i].Env = append(os.Environ(), "FILESTORE_RACER="+root, "FILESTORE_ETAG="+base.ETag, "FILESTORE_ID="+string(rune('a'+i)))
		cmds[i].Stdout = &outs[i]
		cmds[i].Stderr = &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	var results []string
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("racer %d: %v\n%s", i, err, outs[i].String())
		}
		out := outs[i].String()
		switch {
		case strings.Contains(out, "RACER WON"):
			results = append(results, "won")
		case strings.Contains(out, "RACER LOST"):
			results = append(results, "lost")
		default:
			t.Fatalf("racer %d said: %s", i, out)
		}
	}
	if won := slices.Index(results, "won"); won < 0 || slices.Index(results[won+1:], "won") >= 0 {
		t.Errorf("results %v: want exactly one winner", results)
	}
}

func racer() {
	st, err := filestore.New(os.Getenv("FILESTORE_RACER"))
	if err != nil {
		panic(err)
	}
	_, err = st.Put(context.Background(), "HEAD.json", strings.NewReader(os.Getenv("FILESTORE_ID")),
		snapshot.PutOptions{IfMatch: os.Getenv("FILESTORE_ETAG")})
	switch {
	case err == nil:
		os.Stdout.WriteString("RACER WON\n")
	case errors.Is(err, snapshot.ErrPrecondition):
		os.Stdout.WriteString("RACER LOST\n")
	default:
		os.Stdout.WriteString("RACER ERROR " + err.Error() + "\n")
	}
}
