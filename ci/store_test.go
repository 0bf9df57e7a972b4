package ci

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// TestOpenStore: "" is the checkout's .snap/, a folder is local, and
// what the caller must fix (an unknown scheme, a .snap that is a link) is
// a ConfigError that says what to do.
func TestOpenStore(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	st, err := OpenStore(ctx, "", root)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, ".snap"); st.Dir != want || st.Label != want || !st.Local() {
		t.Errorf("OpenStore(\"\") = dir %q, label %q; want %q, local", st.Dir, st.Label, want)
	}
	var ce ConfigError
	if _, err := OpenStore(ctx, "ftp://host/x", root); !errors.As(err, &ce) || !strings.Contains(err.Error(), `"ftp" is not supported`) {
		t.Errorf("an unknown scheme: %v, want a ConfigError", err)
	}
	elsewhere, linked := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(linked, ".snap")); err != nil {
		t.Fatal(err)
	}
	_, err = OpenStore(ctx, "", linked)
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "is a symbolic link (to "+elsewhere+")") {
		t.Errorf("a linked .snap: %v, want a ConfigError naming the link's target", err)
	}
}

// TestOpenExistingStore opens a folder that is there, and refuses, with
// a ConfigError, one that is not, creating nothing.
func TestOpenExistingStore(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	var ce ConfigError
	if _, err := OpenExistingStore(ctx, "", root); !errors.As(err, &ce) || !strings.Contains(err.Error(), "no store at "+filepath.Join(root, ".snap")) {
		t.Errorf("no .snap: %v, want a ConfigError naming it", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".snap")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused store was created: %v", err)
	}
	if _, err := OpenExistingStore(ctx, "file://"+filepath.Join(root, "x"), root); !errors.As(err, &ce) {
		t.Errorf("a missing file:// folder: %v, want a ConfigError", err)
	}
	if st, err := OpenExistingStore(ctx, root, root); err != nil || st.Dir != root {
		t.Errorf("an existing folder: %+v, %v", st, err)
	}
}

// TestPickHeads picks a store's branches by repository, by repository
// and branch, or all, and refuses a name that picks none.
func TestPickHeads(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	for _, r := range []snapshot.Ref{{Repo: "example.com/go", Branch: "main"}, {Repo: "example.com/go", Branch: "release"}, {Repo: "example.com/py", Branch: "main"}} {
		writeHead(t, st, r.Repo, r.Branch)
	}
	store := Store{Store: st, Label: "mem"}
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{nil, "example.com/go main, example.com/go release, example.com/py main"},
		{[]string{"example.com/py", "example.com/go:release"}, "example.com/py main, example.com/go release"},
		{[]string{"example.com/go"}, "example.com/go main, example.com/go release"},
	} {
		heads, err := PickHeads(ctx, store, tc.names)
		var got []string
		for _, h := range heads {
			got = append(got, h.Repo+" "+h.Branch)
		}
		if err != nil || strings.Join(got, ", ") != tc.want {
			t.Errorf("PickHeads(%q) = %q, %v; want %q", tc.names, got, err, tc.want)
		}
	}
	var ce ConfigError
	for _, name := range []string{"example.com/nope", "example.com/go:nope"} {
		if _, err := PickHeads(ctx, store, []string{name}); !errors.As(err, &ce) || !strings.Contains(err.Error(), "mem holds no snapshot of "+name) {
			t.Errorf("PickHeads(%q): %v, want a ConfigError", name, err)
		}
	}
	if _, err := PickHeads(ctx, Store{Store: memstore.New(), Label: "empty"}, nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "empty holds no snapshot: run `snap push` first") {
		t.Errorf("PickHeads of an empty store: %v, want a ConfigError", err)
	}
}

func TestSplitRepo(t *testing.T) {
	for in, want := range map[string][2]string{"acme/api": {"acme/api", ""}, "acme/api:release": {"acme/api", "release"}, "acme/api:feat/x": {"acme/api", "feat/x"}} {
		if r, b := SplitRepo(in); r != want[0] || b != want[1] {
			t.Errorf("SplitRepo(%q) = %q, %q; want %q", in, r, b, want)
		}
	}
}

// writeHead puts a HEAD.json, as Heads finds it, for repo's branch.
func writeHead(t *testing.T, st snapshot.Store, repo, branch string) {
	t.Helper()
	key, err := snapshot.HeadKey(repo, branch)
	if err == nil {
		_, err = st.Put(context.Background(), key, strings.NewReader("{}"), snapshot.PutOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestPull copies a branch's HEAD snapshot into a cache and records the
// transfer; again, it finds it there; a branch the store lacks is a
// ConfigError.
func TestPull(t *testing.T) {
	ctx := context.Background()
	tree, remoteDir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(tree, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	langs, err := Languages([]string{"go"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Index(ctx, Config{Dir: tree, Store: remoteDir, Repo: "example/a", Branch: "main", Version: "test",
		Options: indexer.Options{Languages: langs}, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	remote, err := OpenStore(ctx, remoteDir, "")
	if err != nil {
		t.Fatal(err)
	}
	local := Store{Store: memstore.New(), Label: "cache"}
	tr, err := Pull(ctx, remote, local, "example/a", "main", "")
	if err != nil || tr.Op != "pull" || tr.Store != remoteDir || tr.Repo != "example/a" || tr.Branch != "main" ||
		tr.Commit != res.Manifest.Commit || tr.Present || tr.Tables == 0 || !tr.Head.Moved || tr.Head.To != res.Manifest.Commit {
		t.Fatalf("first pull: %+v, %v", tr, err)
	}
	if tr, err := Pull(ctx, remote, local, "example/a", "main", res.Manifest.Commit); err != nil || !tr.Present {
		t.Errorf("pull again by commit: %+v, %v; want the cache to hold it", tr, err)
	}
	var ce ConfigError
	if _, err := Pull(ctx, remote, local, "example/a", "dev", ""); !errors.As(err, &ce) || !strings.Contains(err.Error(), "holds no snapshot of example/a dev") {
		t.Errorf("pull of a missing branch: %v, want a ConfigError", err)
	}
}
