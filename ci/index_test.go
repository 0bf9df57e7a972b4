package ci

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// TestBaseFeatureVersion: a base whose manifest records another feature
// version than this build's is not reused, and the log says so with both
// versions; one that records this build's is.
func TestBaseFeatureVersion(t *testing.T) {
	ctx := context.Background()
	tree, store := t.TempDir(), t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(tree, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	langs, err := Languages([]string{"go"})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cfg := Config{Dir: tree, Store: store, Version: "test", Options: indexer.Options{Languages: langs},
		Log: slog.New(slog.NewTextHandler(&logs, nil))}
	index := func() Result {
		t.Helper()
		res, err := Index(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	write("a.go", "package a\n\nfunc A() {}\n")
	first := index()
	if got := first.Manifest.FeatureVersion; got != schemas.FeatureVersion {
		t.Fatalf("manifest feature version %d, want %d", got, schemas.FeatureVersion)
	}
	write("b.go", "package a\n\nfunc B() { A() }\n")
	second := index()
	if second.Manifest.Base != first.Manifest.Commit || second.Manifest.Build.FilesReused != 1 {
		t.Fatalf("same feature version: base %q, %d files reused; want base %q, 1 reused",
			second.Manifest.Base, second.Manifest.Build.FilesReused, first.Manifest.Commit)
	}

	for _, v := range []int{0, schemas.FeatureVersion + 1} {
		// The branch's HEAD now names a snapshot of another feature version.
		path := filepath.Join(second.Folder, schemas.ManifestFile)
		var m map[string]any
		raw, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(raw, &m)
		}
		if err != nil {
			t.Fatal(err)
		}
		m["feature_version"] = v
		raw, _ = json.Marshal(m)
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		logs.Reset()
		write(fmt.Sprintf("c%d.go", v), "package a\n\nfunc C() { B() }\n")
		third := index()
		if third.Manifest.Base != "" || third.Manifest.Build.FilesReused != 0 {
			t.Errorf("feature version %d: base %q, %d files reused; want none", v, third.Manifest.Base, third.Manifest.Build.FilesReused)
		}
		want := fmt.Sprintf("feature_version=%d want=%d", v, schemas.FeatureVersion)
		if !strings.Contains(logs.String(), "another feature version") || !strings.Contains(logs.String(), want) {
			t.Errorf("feature version %d: the log does not say why the base is not reused (%q):\n%s", v, want, logs.String())
		}
		second = third
	}
}

// TestSourceLoader: what the writer reads of the files a run did not read
// is checked against the files table: a file written since is an error
// that says to index again.
func TestSourceLoader(t *testing.T) {
	dir := t.TempDir()
	write := func(content string) {
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package a\n")
	files := []schemas.File{{Path: "a.go", SHA256: sha256Hex([]byte("package a\n"))}, {Path: "b.go", SHA256: sha256Hex(nil)}}
	load, done := sourceLoader(dir, files)
	defer done()
	if data, err := load("a.go"); err != nil || string(data) != "package a\n" {
		t.Fatalf("a.go as the run found it: %q, %v", data, err)
	}
	write("package b\n")
	for p, want := range map[string]string{"a.go": "changed while it was indexed: index again", "b.go": "no such file", "c.go": "not a file of the run"} {
		if _, err := load(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", p, err, want)
		}
	}
}
