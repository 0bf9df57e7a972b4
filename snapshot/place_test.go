package snapshot_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// objects returns every object of st with its bytes and ETag: equal twice
// when nothing was written in between (a file store's ETag changes with
// every rename into place, even of the same bytes).
func objects(t *testing.T, st snapshot.Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	infos, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, in := range infos {
		rc, info, err := st.Get(ctx, in.Key)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[in.Key] = info.ETag + " " + sha256Hex(b)
	}
	return out
}

// publishSample writes s under the sample's key of st with a Writer and
// returns what Publish said.
func publishSample(t *testing.T, st snapshot.Store, s *snapshot.Snapshot) snapshot.Published {
	t.Helper()
	prefix, err := snapshot.Prefix(s.Manifest.Repo, s.Manifest.Branch, s.Manifest.Commit)
	if err != nil {
		t.Fatal(err)
	}
	w, err := snapshot.NewWriter(context.Background(), st, prefix)
	if err != nil {
		t.Fatal(err)
	}
	w.Nodes(s.Nodes)
	w.Edges(s.Edges)
	w.Files(s.Files)
	if s.Sources != nil {
		w.Sources(s.Sources)
	}
	w.Refs(s.Refs)
	p, err := w.Publish(s.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkPublished fails t unless p's snapshot verifies under p.Prefix and
// its manifest there has the digest p names.
func checkPublished(t *testing.T, st snapshot.Store, p snapshot.Published) {
	t.Helper()
	ctx := context.Background()
	m, raw, err := snapshot.ReadManifest(ctx, st, p.Prefix)
	if err != nil {
		t.Fatalf("read %s: %v", p.Prefix, err)
	}
	if sha256Hex(raw) != p.ManifestSHA256 {
		t.Errorf("%s: manifest sha256 %s, Publish said %s", p.Prefix, sha256Hex(raw), p.ManifestSHA256)
	}
	if ref, _, err := snapshot.ParseKey(p.Prefix); err != nil || ref.Commit != m.Commit {
		t.Errorf("%s holds a manifest of commit %s (%v)", p.Prefix, m.Commit, err)
	}
	if _, err := snapshot.Verify(ctx, st, p.Prefix); err != nil {
		t.Errorf("verify %s: %v", p.Prefix, err)
	}
}

func stores(t *testing.T) map[string]func() snapshot.Store {
	return map[string]func() snapshot.Store{
		"mem": func() snapshot.Store { return memstore.New() },
		"file": func() snapshot.Store {
			st, err := filestore.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
}

// TestRepublish indexes one commit again and again, with the same tables
// and with others, as `snap index` run twice, with --no-sources, or by
// another build, does: no file of a stored snapshot is ever written again,
// the same tables meet at the same key, and every snapshot verifies.
func TestRepublish(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			st := open()
			first := publishSample(t, st, sample())
			if first.Reused || first.Tables != 5 {
				t.Fatalf("first publish: %+v", first)
			}
			checkPublished(t, st, first)
			before := objects(t, st)

			// The same tables, another manifest (a later run): nothing
			// written, the stored snapshot reused.
			again := sample()
			again.Manifest.IndexedAt = again.Manifest.IndexedAt.Add(time.Hour)
			again.Manifest.Build.DurationMS = 99
			p := publishSample(t, st, again)
			if !p.Reused || p.Prefix != first.Prefix || p.ManifestSHA256 != first.ManifestSHA256 || p.Tables != 0 {
				t.Errorf("same tables: %+v; want the first snapshot reused", p)
			}
			if after := objects(t, st); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("same tables: the store changed:\nbefore %v\nafter  %v", before, after)
			}

			// Other tables (no sources): under the commit's build key.
			other := sample()
			other.Sources = nil
			p = publishSample(t, st, other)
			wantCommit := snapshot.BuildCommit(other.Manifest.Commit, p.Manifest.Tables)
			if p.Reused || p.Manifest.Commit != wantCommit || !strings.HasSuffix(p.Prefix, "commit="+wantCommit) {
				t.Errorf("other tables: %+v; want a build key of %s", p, wantCommit)
			}
			checkPublished(t, st, p)
			for k, v := range before {
				if now := objects(t, st)[k]; now != v {
					t.Errorf("other tables rewrote %s", k)
				}
			}
			// Again: the build key is reused; the first tables again: the
			// commit's own key is.
			if q := publishSample(t, st, other); !q.Reused || q.Prefix != p.Prefix {
				t.Errorf("other tables again: %+v; want %s reused", q, p.Prefix)
			}
			if q := publishSample(t, st, again); !q.Reused || q.Prefix != first.Prefix {
				t.Errorf("first tables again: %+v; want %s reused", q, first.Prefix)
			}
			// A build of a build key's commit goes under the same one.
			if got := snapshot.BuildCommit(wantCommit, p.Manifest.Tables); got != wantCommit {
				t.Errorf("BuildCommit(%s) = %s", wantCommit, got)
			}
		})
	}
}

// TestRepublishOverStrays: a run killed while it stored its tables left
// some of other bytes under the commit's key, with no manifest. A later
// run leaves them as they are and publishes under its build key; one of
// the killed run's options completes the key.
func TestRepublishOverStrays(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	s := sample()
	prefix, _ := snapshot.Prefix(s.Manifest.Repo, s.Manifest.Branch, s.Manifest.Commit)
	stray := []byte("PAR1 torn")
	if _, err := st.Put(ctx, prefix+"/"+schemas.NodesFile, bytes.NewReader(stray), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	p := publishSample(t, st, s)
	if p.Prefix == prefix || !strings.Contains(p.Prefix, "-build-") {
		t.Fatalf("published at %s over a stray table; want the build key", p.Prefix)
	}
	checkPublished(t, st, p)
	rc, _, err := st.Get(ctx, prefix+"/"+schemas.NodesFile)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, stray) {
		t.Errorf("the stray table was rewritten")
	}
	if _, _, err := snapshot.ReadManifest(ctx, st, prefix); err == nil {
		t.Errorf("a manifest was written beside the stray table")
	}
}

// TestRepublishOverBrokenSnapshot: the commit's key holds a manifest of
// the same tables, but one of them does not verify (damaged on disk). The
// run does not reuse it: it publishes under the build key, which verifies.
func TestRepublishOverBrokenSnapshot(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	first := publishSample(t, st, sample())
	if _, err := st.Put(ctx, first.Prefix+"/"+schemas.EdgesFile, strings.NewReader("damaged"), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	p := publishSample(t, st, sample())
	if p.Prefix == first.Prefix {
		t.Fatalf("a snapshot that does not verify was reused")
	}
	checkPublished(t, st, p)
}

// TestConcurrentPublish: writers of one commit race, half with one set of
// tables and half with another. Each publishes a snapshot that verifies
// under the key it names; the same tables end up under one key.
func TestConcurrentPublish(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			for trial := range 5 {
				st := open()
				const writers = 6
				res := make([]snapshot.Published, writers)
				var wg sync.WaitGroup
				for i := range writers {
					wg.Go(func() {
						s := sample()
						s.Manifest.Build.DurationMS = int64(i) // manifests all differ
						if i%2 == 1 {
							s.Sources = nil
						}
						res[i] = publishSample(t, st, s)
					})
				}
				wg.Wait()
				prefixes := map[bool]string{}
				for i, p := range res {
					checkPublished(t, st, p)
					if q, ok := prefixes[i%2 == 1]; ok && q != p.Prefix {
						t.Errorf("trial %d: the same tables under %s and %s", trial, q, p.Prefix)
					}
					prefixes[i%2 == 1] = p.Prefix
				}
				if prefixes[true] == prefixes[false] {
					t.Errorf("trial %d: two sets of tables under one key %s", trial, prefixes[true])
				}
			}
		})
	}
}

// TestCopyIntoTakenKey: a push or pull into a store whose key of the
// commit holds another build of it lands under the build key; one whose
// key holds the same tables under another manifest copies nothing.
func TestCopyIntoTakenKey(t *testing.T) {
	ctx := context.Background()
	src, dst := memstore.New(), memstore.New()
	s := sample()
	p := publishSample(t, src, s)
	other := sample()
	other.Sources = nil
	publishSample(t, dst, other)
	res, err := snapshot.Copy(ctx, dst, src, p.Prefix, snapshot.CopyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := snapshot.BuildCommit(s.Manifest.Commit, p.Manifest.Tables)
	if res.Present || res.Manifest.Commit != want || !strings.HasSuffix(res.Prefix, want) || res.Tables != 5 {
		t.Errorf("copy into a taken key: %+v; want the build key %s", res, want)
	}
	checkPublished(t, dst, snapshot.Published{Prefix: res.Prefix, ManifestSHA256: res.ManifestSHA256})

	// The same tables under another manifest: nothing copied.
	dst2 := memstore.New()
	again := sample()
	again.Manifest.Build.DurationMS = 77
	stored := publishSample(t, dst2, again)
	res, err = snapshot.Copy(ctx, dst2, src, p.Prefix, snapshot.CopyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Present || res.Tables != 0 || res.ManifestSHA256 != stored.ManifestSHA256 || res.Prefix != p.Prefix {
		t.Errorf("copy of the same tables: %+v; want dst's snapshot (%s) reused", res, stored.ManifestSHA256)
	}
}

// TestMoveHeadBetweenBuilds: a build key counts as its commit, so a shared
// store's HEAD moves between builds of one commit, and from a build to a
// child commit.
func TestMoveHeadBetweenBuilds(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	first := publishSample(t, st, sample())
	other := sample()
	other.Sources = nil
	build := publishSample(t, st, other)
	for _, p := range []snapshot.Published{first, build, first} {
		mv, err := snapshot.MoveHead(ctx, st, p.Manifest.Repo, p.Manifest.Branch, p.Manifest, p.ManifestSHA256, snapshot.HeadOptions{})
		if err != nil || !mv.Moved {
			t.Fatalf("move HEAD to %s: %+v, %v", p.Manifest.Commit, mv, err)
		}
	}
}

// TestPublishFileStoreLeavesNoTemp: a file store's folders hold the
// snapshot's files and nothing else, after a publish that reused one.
func TestPublishFileStoreLeavesNoTemp(t *testing.T) {
	root := t.TempDir()
	st, err := filestore.New(root)
	if err != nil {
		t.Fatal(err)
	}
	publishSample(t, st, sample())
	publishSample(t, st, sample())
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".snapstore-tmp") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
}
