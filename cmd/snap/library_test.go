package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
)

// TestLibrary lists a branch's snapshots in a store and opens old ones
// through the local cache, as the history tools do.
func TestLibrary(t *testing.T) {
	dir, commits := history(t, 3)
	remoteDir := filepath.Join(t.TempDir(), "remote")
	for _, c := range commits {
		if code, _, stderr := run(t, dir, "push", "--store", remoteDir, "--commit", c); code != 0 {
			t.Fatalf("push %s: %s", c, stderr)
		}
	}
	remote, err := filestore.New(remoteDir)
	if err != nil {
		t.Fatal(err)
	}
	cache, err := filestore.New(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	// A store without a root folder is remote: opening copies into the cache.
	f := &follower{remote: storeRef{store: remote, label: "remote"}, cache: storeRef{store: cache, label: "cache", root: "cache"},
		repo: "example/shop", branch: "main", holder: new(query.Holder)}
	l := &library{f: f}
	ctx := context.Background()

	snaps, err := l.Snapshots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != 3 || !snaps[0].Head || snaps[0].Manifest.Commit != commits[2] {
		t.Fatalf("snapshots: %+v", snaps)
	}
	for i, s := range snaps {
		if s.Manifest.Commit != commits[2-i] || s.Bytes == 0 || s.Manifest.Counts.Nodes == 0 {
			t.Errorf("snapshot %d: %s, %d bytes, %d nodes; want %s", i, s.Manifest.Commit, s.Bytes, s.Manifest.Counts.Nodes, commits[2-i])
		}
	}

	e, err := l.Open(ctx, commits[0])
	if err != nil || e.Commit() != commits[0] {
		t.Fatalf("open %s: %v", commits[0], err)
	}
	if again, _ := l.Open(ctx, commits[0]); again != e {
		t.Error("opening the same snapshot twice loaded it twice")
	}
	if _, err := l.Open(ctx, "0123456789012345678901234567890123456789"); !errors.Is(err, mcp.ErrSnapshotNotFound) {
		t.Errorf("open of a missing commit: %v", err)
	}

	// The opened snapshot is in the cache now: it opens without the store.
	remote2 := &library{f: &follower{remote: storeRef{store: brokenStore{remote}, label: "down"}, cache: f.cache,
		repo: f.repo, branch: f.branch, holder: new(query.Holder)}}
	if e, err := remote2.Open(ctx, commits[0]); err != nil || e.Commit() != commits[0] {
		t.Errorf("open from the cache with the store down: %v", err)
	}
	if _, err := remote2.Open(ctx, commits[1]); !errors.Is(err, mcp.ErrStoreUnavailable) {
		t.Errorf("open of an uncached snapshot with the store down: %v", err)
	}
	// With the store down, the listing is the cache's.
	if snaps, err := remote2.Snapshots(ctx); err != nil || len(snaps) != 1 || snaps[0].Manifest.Commit != commits[0] {
		t.Errorf("listing with the store down: %v %+v", err, snaps)
	}
}

// brokenStore is a store that cannot be reached.
type brokenStore struct{ snapshot.Store }

func (brokenStore) Get(context.Context, string) (io.ReadCloser, snapshot.Info, error) {
	return nil, snapshot.Info{}, snapshot.ErrUnavailable
}

func (brokenStore) Put(context.Context, string, io.Reader, snapshot.PutOptions) (snapshot.Info, error) {
	return snapshot.Info{}, snapshot.ErrUnavailable
}

func (brokenStore) List(context.Context, string) ([]snapshot.Info, error) {
	return nil, snapshot.ErrUnavailable
}

func (brokenStore) Delete(context.Context, string) error { return snapshot.ErrUnavailable }

// TestQueryHistoryGolden holds the answers of the history tools over a
// real history of the Go fixture, through `snap query` and the local
// cache: the second commit adds a function and changes a signature, the
// third removes a function its file's neighbours call. Commit hashes are
// replaced by their order; times, sizes and versions are blanked.
func TestQueryHistoryGolden(t *testing.T) {
	dir := copyTree(t, "../../testdata/go/shop")
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "remote", "add", "origin", "https://github.com/example/shop.git")
	file := filepath.Join(dir, "store", "store.go")
	edits := []func(string) string{
		func(s string) string { return s },
		func(s string) string {
			s = strings.Replace(s, "func Total(items ...Item) int {", "func Total(discount int, items ...Item) int {", 1)
			return s + "\n// Discount lowers an item's price.\nfunc Discount(it Item, pct int) Item {\n\tit.Price -= it.Price * pct / 100\n\treturn it\n}\n"
		},
		func(s string) string {
			i := strings.Index(s, "// Swap puts")
			j := strings.Index(s, "// Discount lowers")
			return s[:i] + s[j:]
		},
	}
	var commits []string
	for i, edit := range edits {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(edit(string(src))), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", i+1))
		commits = append(commits, gitRun(t, dir, "rev-parse", "HEAD"))
		if code, _, stderr := run(t, dir, "index", "-q"); code != 0 {
			t.Fatalf("index: %s", stderr)
		}
	}
	blank := regexp.MustCompile(`"(indexed_at|bytes|build_ms|snap_version|indexer_version)": ("[^"]*"|[0-9]+)`)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"snapshots", []string{"snapshots"}},
		{"diff_first_last", []string{"diff", "--from", commits[0][:8]}},
		{"diff_middle", []string{"diff", "--from", commits[0][:8], "--to", commits[1][:8]}},
		{"history_total", []string{"history", "--name", "store.Total"}},
		{"history_swap", []string{"history", "--name", "Swap"}},
		{"history_nodes", []string{"history", "--metric", "nodes"}},
	} {
		code, stdout, stderr := run(t, dir, append([]string{"query"}, c.args...)...)
		if code != 0 {
			t.Errorf("query %v: exit %d\n%s%s", c.args, code, stdout, stderr)
			continue
		}
		got := blank.ReplaceAllString(stdout, `"$1": "…"`)
		for i, commit := range commits {
			got = strings.ReplaceAll(got, commit, fmt.Sprintf("COMMIT%d", i+1))
		}
		golden(t, "history_"+c.name+".json", got)
	}
}
