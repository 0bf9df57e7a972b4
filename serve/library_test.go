package serve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

// TestLibrary lists a branch's snapshots in a store and opens old ones
// through the local cache, as the history tools do.
func TestLibrary(t *testing.T) {
	dir := copyFixture(t, "go/shop")
	remote, cache := newStore(t, t.TempDir()), localStore(t, "cache")
	commits := []string{commit(0), commit(1), commit(2)}
	for i, c := range commits {
		os.WriteFile(filepath.Join(dir, "version.go"), []byte("package shop\n\nconst Version = "+string(rune('0'+i))+"\n"), 0o644)
		publish(t, remote, dir, "example/shop", "main", c)
	}
	// A store that is not Local is remote: opening copies into the cache.
	f := &follower{remote: ci.Store{Store: remote, Label: "remote"}, cache: cache,
		repo: "example/shop", branch: "main", holder: new(query.Holder), load: load}
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
	remote2 := &library{f: &follower{remote: ci.Store{Store: brokenStore{remote}, Label: "down"}, cache: f.cache,
		repo: f.repo, branch: f.branch, holder: new(query.Holder), load: load}}
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
