package snapshot_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// FuzzReadHead fuzzes HEAD.json as ReadHead reads it from a store: it
// refuses what is not a HEAD with an error naming the key, and what it
// accepts names a valid commit and writes back to the same HEAD.
func FuzzReadHead(f *testing.F) {
	f.Add([]byte(`{"commit":"abc","manifest_sha256":"","generation":1,"updated_at":"2025-01-02T03:04:05Z"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		ctx := context.Background()
		st := memstore.New()
		key, _ := snapshot.HeadKey("o/r", "main")
		if _, err := st.Put(ctx, key, bytes.NewReader(raw), snapshot.PutOptions{}); err != nil {
			t.Fatal(err)
		}
		h, info, err := snapshot.ReadHead(ctx, st, "o/r", "main")
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "read head") || strings.Contains(msg, "\n") || len(msg) > 1024 {
				t.Fatalf("unclear error: %.300q", msg)
			}
			return
		}
		if info.ETag == "" {
			t.Error("no ETag")
		}
		if err := snapshot.ValidateCommit(h.Commit); err != nil {
			t.Fatalf("accepted commit %q: %v", h.Commit, err)
		}
		if h.Generation < 0 {
			t.Fatalf("accepted generation %d", h.Generation)
		}
		if s := h.ManifestSHA256; s != "" && (len(s) != 64 || strings.Trim(s, "0123456789abcdef") != "") {
			t.Fatalf("accepted manifest_sha256 %q", s)
		}
		// Written back, it reads the same.
		other := memstore.New()
		if _, err := snapshot.WriteHead(ctx, other, "o/r", "main", h, ""); err != nil {
			t.Fatalf("accepted HEAD does not write: %v", err)
		}
		h2, _, err := snapshot.ReadHead(ctx, other, "o/r", "main")
		if err != nil {
			t.Fatalf("written HEAD does not read: %v", err)
		}
		if h2.Commit != h.Commit || h2.ManifestSHA256 != h.ManifestSHA256 || h2.Generation != h.Generation || !h2.UpdatedAt.Equal(h.UpdatedAt) {
			t.Fatalf("HEAD changed in a round trip: %+v -> %+v", h, h2)
		}
	})
}

// FuzzKeys fuzzes the keys a store's listing gives (ParseKey) and the keys
// names make (Prefix, HeadKey): any repository, branch and commit name
// makes a valid key under the store's root that parses back to them.
func FuzzKeys(f *testing.F) {
	f.Add("o/r", "main", "abc", "repo=o%2Fr/branch=main/commit=abc/nodes.parquet")
	f.Add("..", "../..", "..", "repo=../branch=..")
	f.Fuzz(func(t *testing.T, repo, branch, commit, key string) {
		if r, rest, err := snapshot.ParseKey(key); err == nil {
			if r.Repo == "" || r.Commit != "" && r.Branch == "" {
				t.Fatalf("ParseKey(%q) = %+v, %q", key, r, rest)
			}
			if r.Commit != "" && snapshot.ValidateCommit(r.Commit) != nil {
				t.Fatalf("ParseKey(%q) accepted commit %q", key, r.Commit)
			}
		} else if !strings.HasPrefix(err.Error(), "parse key ") {
			t.Fatalf("unclear error: %v", err)
		}

		prefix, err := snapshot.Prefix(repo, branch, commit)
		if err != nil {
			return
		}
		for name, k := range map[string]string{"manifest.json": prefix + "/manifest.json", "": prefix} {
			if err := snapshot.ValidateKey(k); err != nil {
				t.Fatalf("Prefix(%q, %q, %q) makes an invalid key: %v", repo, branch, commit, err)
			}
			r, rest, err := snapshot.ParseKey(k)
			if err != nil || r != (snapshot.Ref{Repo: repo, Branch: branch, Commit: commit}) || rest != name {
				t.Fatalf("ParseKey(%q) = %+v, %q, %v; want %q %q %q", k, r, rest, err, repo, branch, commit)
			}
		}
		hk, err := snapshot.HeadKey(repo, branch)
		if err != nil {
			t.Fatal(err)
		}
		if r, rest, err := snapshot.ParseKey(hk); err != nil || r != (snapshot.Ref{Repo: repo, Branch: branch}) || rest != schemas.HeadFile {
			t.Fatalf("ParseKey(%q) = %+v, %q, %v", hk, r, rest, err)
		}
	})
}

// realSnapshot indexes the Go fixture repository as snap index does, with
// a manifest that does not depend on when or where it runs.
func realSnapshot(t *testing.T) *snapshot.Snapshot {
	t.Helper()
	g, err := indexer.Index(context.Background(), filepath.Join("..", "testdata", "go", "shop"),
		indexer.Options{Languages: []indexer.Language{golang.New()}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &snapshot.Snapshot{
		Manifest: schemas.Manifest{Repo: "example/shop", Branch: "main", Commit: "0123456789abcdef0123456789abcdef01234567",
			Parents: []string{"89abcdef0123456789abcdef0123456789abcdef"}, IndexedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
			Grammars: map[string]string{"go": "fixture"}},
		Nodes: g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs,
	}
}

// TestRealFuzzSeeds writes the tables, manifest and HEAD.json of real
// snapshots into the seed corpora (see TestFuzzSeeds): the Go fixture
// repository as the indexer sees it, and querytest's fixture. They are
// samples, made anew by -update-fuzz-seeds; otherwise the test only checks
// they are there, so that a change of the indexer's output does not fail
// it. The hand-written seeds must match.
func TestRealFuzzSeeds(t *testing.T) {
	ctx := context.Background()
	real := map[string][]string{
		"FuzzReadManifest": {"shop", "fixture"}, "FuzzReadHead": {"shop", "fixture"},
		"FuzzReadNodes": {"shop", "fixture"}, "FuzzReadEdges": {"shop", "fixture"}, "FuzzReadFiles": {"shop", "fixture"},
		"FuzzReadSources": {"shop", "fixture"}, "FuzzReadRefs": {"shop"},
	}
	var snapshots map[string]*snapshot.Snapshot
	if snapshot.UpdatingFuzzSeeds() {
		snapshots = map[string]*snapshot.Snapshot{"shop": realSnapshot(t), "fixture": querytest.Fixture()}
	} else {
		for target, names := range real {
			for _, name := range names {
				if _, err := os.Stat(filepath.Join("testdata", "fuzz", target, name)); err != nil {
					t.Errorf("seed missing (%v): run go test -run TestRealFuzzSeeds -update-fuzz-seeds ./snapshot", err)
				}
			}
		}
	}
	for name, s := range snapshots {
		if s.Manifest.Repo == "" {
			s.Manifest.Repo, s.Manifest.Branch, s.Manifest.Commit = "example/fixture", "main", "fedcba9876543210"
		}
		st := memstore.New()
		prefix, err := snapshot.Prefix(s.Manifest.Repo, s.Manifest.Branch, s.Manifest.Commit)
		if err != nil {
			t.Fatal(err)
		}
		m, err := snapshot.Write(ctx, st, prefix, s)
		if err != nil {
			t.Fatal(err)
		}
		raw := getRaw(t, st, prefix+"/"+schemas.ManifestFile)
		snapshot.CheckFuzzSeed(t, "FuzzReadManifest", name, raw)
		for _, tb := range m.Tables {
			target := map[string]string{
				schemas.TableNodes: "FuzzReadNodes", schemas.TableEdges: "FuzzReadEdges", schemas.TableFiles: "FuzzReadFiles",
				schemas.TableSources: "FuzzReadSources", schemas.TableRefs: "FuzzReadRefs",
			}[tb.Name]
			if target != "" && tb.Rows > 0 {
				snapshot.CheckFuzzSeed(t, target, name, getRaw(t, st, prefix+"/"+tb.File))
			}
		}
		head := schemas.Head{Commit: m.Commit, ManifestSHA256: sha256Hex(raw), Generation: 7, UpdatedAt: m.IndexedAt}
		if _, err := snapshot.WriteHead(ctx, st, m.Repo, m.Branch, head, ""); err != nil {
			t.Fatal(err)
		}
		hk, _ := snapshot.HeadKey(m.Repo, m.Branch)
		snapshot.CheckFuzzSeed(t, "FuzzReadHead", name, getRaw(t, st, hk))
	}
	for name, raw := range map[string]string{
		"empty":      `{}`,
		"traversal":  `{"commit":"../../etc","generation":1}`,
		"negative":   `{"commit":"abc","generation":-1}`,
		"digest":     `{"commit":"abc","manifest_sha256":"ZZ","generation":1}`,
		"array":      `[{"commit":"abc"}]`,
		"long":       `{"commit":"` + strings.Repeat("a", 200) + `"}`,
		"bad_time":   `{"commit":"abc","updated_at":"yesterday"}`,
		"not_json":   "HEAD\x00",
		"max_int":    `{"commit":"abc","generation":9223372036854775807}`,
		"big_number": `{"commit":"abc","generation":1e400}`,
	} {
		snapshot.CheckFuzzSeed(t, "FuzzReadHead", name, []byte(raw))
	}
	for name, args := range map[string][4]string{
		"snapshot": {"example/shop", "feature/x y", "0123abc", "repo=example%2Fshop/branch=feature%2Fx%20y/commit=0123abc/edges.parquet"},
		"head":     {"o/r", "main", "abc", "repo=o%2Fr/branch=main/HEAD.json"},
		"escapes":  {"%2F", "ü/..", "a.b-c_d", "repo=%zz/branch=%2F/commit=.x"},
		"extra":    {"r", "b", "c", "repo=r/branch=b/commit=c/a/b/c"},
	} {
		snapshot.CheckFuzzSeed(t, "FuzzKeys", name, args[0], args[1], args[2], args[3])
	}
}
