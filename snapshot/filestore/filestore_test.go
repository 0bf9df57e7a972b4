package filestore_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// snapshotOf lists every path below dir with its size and modification
// time, not following links: equal twice when nothing below dir changed.
func snapshotOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.Mode().String() + fi.ModTime().String() + strconv.FormatInt(fi.Size(), 10)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLinkedRoot: a root that is a symbolic link (a committed .snap) is
// refused with NoLinkedRoot, saying where it points, and nothing is
// written where it points.
func TestLinkedRoot(t *testing.T) {
	outside := t.TempDir()
	before := snapshotOf(t, outside)
	root := filepath.Join(t.TempDir(), ".snap")
	if err := os.Symlink(outside, root); err != nil {
		t.Fatal(err)
	}
	_, err := filestore.Open(root, filestore.Options{NoLinkedRoot: true})
	if !errors.Is(err, filestore.ErrLinkedRoot) || !strings.Contains(err.Error(), outside) {
		t.Fatalf("Open of a linked root = %v; want ErrLinkedRoot naming %s", err, outside)
	}
	// A link to nowhere too: nothing is created where it points.
	dangling := filepath.Join(t.TempDir(), ".snap")
	if err := os.Symlink(filepath.Join(outside, "made"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := filestore.Open(dangling, filestore.Options{NoLinkedRoot: true}); !errors.Is(err, filestore.ErrLinkedRoot) {
		t.Errorf("Open of a dangling linked root = %v; want ErrLinkedRoot", err)
	}
	if after := snapshotOf(t, outside); len(after) != len(before) {
		t.Errorf("refused roots wrote outside: %v", after)
	}
}

// TestLinkedLock: a lock file that is a link (to a file outside, or
// inside) makes every write fail, saying so; the file it points to is
// neither created nor written.
func TestLinkedLock(t *testing.T) {
	ctx := context.Background()
	outside := t.TempDir()
	for name, target := range map[string]string{
		"outside": filepath.Join(outside, "planted.lock"),
		"inside":  "planted.lock",
	} {
		t.Run(name, func(t *testing.T) {
			st := newStore(t)
			if err := os.Symlink(target, filepath.Join(st.Root(), ".snapstore.lock")); err != nil {
				t.Fatal(err)
			}
			_, err := st.Put(ctx, "repo=a/branch=main/HEAD.json", strings.NewReader("{}"), snapshot.PutOptions{IfNoneMatch: true})
			if err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("Put with a linked lock file = %v; want a refusal naming the link", err)
			}
			if err := st.Delete(ctx, "repo=a/branch=main/HEAD.json"); err == nil {
				t.Errorf("Delete with a linked lock file succeeded")
			}
			for _, p := range []string{filepath.Join(outside, "planted.lock"), filepath.Join(st.Root(), "planted.lock")} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s was created through the lock link", p)
				}
			}
			// Nor is a temp file left behind.
			var left []string
			filepath.WalkDir(st.Root(), func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasPrefix(d.Name(), ".snapstore-tmp-") {
					left = append(left, p)
				}
				return nil
			})
			if len(left) > 0 {
				t.Errorf("temp files left: %v", left)
			}
		})
	}
}

// TestLinksOutOfRoot: folders and files inside the root that are links
// out of it (a committed .snap/repo=… to a folder elsewhere) are never
// followed: Put, Get, List and Delete neither write, read nor remove
// anything where they point.
func TestLinksOutOfRoot(t *testing.T) {
	ctx := context.Background()
	outside := t.TempDir()
	secret := filepath.Join(outside, "HEAD.json")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshotOf(t, outside)
	st := newStore(t)
	if err := os.Symlink(outside, filepath.Join(st.Root(), "repo=a")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(st.Root(), "repo=b", "branch=main"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(st.Root(), "repo=b", "branch=main", "HEAD.json")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"HEAD.json", "branch=main/commit=abc/nodes.parquet"} {
		if _, err := st.Put(ctx, "repo=a/"+key, strings.NewReader("x"), snapshot.PutOptions{}); err == nil {
			t.Errorf("Put of repo=a/%s through a link out of the root succeeded", key)
		}
	}
	if rc, _, err := st.Get(ctx, "repo=a/HEAD.json"); err == nil {
		rc.Close()
		t.Errorf("Get through a linked folder succeeded")
	}
	if rc, _, err := st.Get(ctx, "repo=b/branch=main/HEAD.json"); err == nil {
		rc.Close()
		t.Errorf("Get of a file linked out of the root succeeded")
	}
	if infos, err := st.List(ctx, ""); err != nil || len(infos) != 0 {
		t.Errorf("List = %v, %v; want nothing (links are not objects)", infos, err)
	}
	st.Delete(ctx, "repo=a/HEAD.json")
	// Replacing the linked HEAD.json replaces the link, not the file.
	if _, err := st.Put(ctx, "repo=b/branch=main/HEAD.json", strings.NewReader("mine"), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	sameAs := snapshotOf(t, outside)
	for p, v := range before {
		if sameAs[p] != v {
			t.Errorf("%s changed through a link", p)
		}
	}
	if len(sameAs) != len(before) {
		t.Errorf("files appeared outside the root: %v", sameAs)
	}
}
