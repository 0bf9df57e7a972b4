package query_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// TestBackcompat reads every snapshot kept in testdata/backcompat — one
// per format and feature version this code has written, made by `snap
// index` over testdata/go/shop — verifies it, builds an engine and asks
// it what any snapshot of that tree answers. A snapshot this code can no
// longer read goes only with a MinFormatVersion bump that means it. After a
// FormatVersion or FeatureVersion bump the test fails until one of the new
// versions is added:
//
//	cp -R testdata/go/shop /tmp/bc-shop
//	go run ./cmd/snap index -q --store /tmp/bc --repo example/shop --branch main /tmp/bc-shop
//	cp -R /tmp/bc/repo=example%2Fshop/branch=main/commit=*/ testdata/backcompat/formatF-featureN
func TestBackcompat(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "backcompat", "format*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no snapshot in testdata/backcompat: %v", err)
	}
	current := false
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			ctx := context.Background()
			m, err := snapshot.VerifyDir(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			if m.FormatVersion < schemas.MinFormatVersion {
				t.Fatalf("format %d is below MinFormatVersion %d: remove the fixture with the bump", m.FormatVersion, schemas.MinFormatVersion)
			}
			current = current || m.FormatVersion == schemas.FormatVersion && m.FeatureVersion == schemas.FeatureVersion
			s, err := snapshot.ReadDir(ctx, dir, snapshot.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			e, err := query.Build(s)
			if err != nil {
				t.Fatal(err)
			}
			rows := e.Find("store.NewMemStore", "")
			if len(rows) != 1 {
				t.Fatalf("store.NewMemStore: %d symbols", len(rows))
			}
			callers := map[string]bool{}
			for _, l := range e.Callers(rows[0]) {
				callers[e.Node(l.Node).QualifiedName] = true
			}
			for _, want := range []string{"example.com/shop/cmd/shop.main", "example.com/shop/server.(*Server).Fill", "example.com/shop/store.TestPut"} {
				if !callers[want] {
					t.Errorf("callers of NewMemStore %v lack %s", callers, want)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, schemas.SourcesFile)); err == nil && e.Manifest().Counts.Files == 0 {
				t.Errorf("manifest counts no files")
			}
		})
	}
	if !current {
		t.Errorf("testdata/backcompat has no snapshot of format %d, feature %d: add one (see TestBackcompat)", schemas.FormatVersion, schemas.FeatureVersion)
	}
}
