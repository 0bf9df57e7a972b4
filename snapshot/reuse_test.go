package snapshot_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// sourceTree is n files, sorted by path, with their sources; edit may
// change a file's content ("" drops the file).
func sourceTree(n int, edit func(path, content string) string) ([]schemas.Source, []schemas.File) {
	var sources []schemas.Source
	var files []schemas.File
	for i := range n {
		path := fmt.Sprintf("pkg%03d/file%05d.go", i/50, i)
		content := fmt.Sprintf("package pkg%03d\n\n// F%d is number %d.\nfunc F%d() int { return %d }\n", i/50, i, i, i, i*i)
		if edit != nil {
			if content = edit(path, content); content == "" {
				continue
			}
		}
		sum := sha256.Sum256([]byte(content))
		sources = append(sources, schemas.Source{Path: path, Content: []byte(content)})
		files = append(files, schemas.File{Path: path, Language: "go", SHA256: hex.EncodeToString(sum[:]), Size: int64(len(content)), Status: schemas.StatusOK})
	}
	return sources, files
}

// writeSources writes a snapshot of sources and files at prefix, its
// sources table copying from base when not nil, and returns its manifest
// and the Writer's count of row groups.
func writeSources(t *testing.T, st snapshot.Store, prefix string, sources []schemas.Source, files []schemas.File, base *snapshot.BaseSources) (schemas.Manifest, snapshot.RowGroups) {
	t.Helper()
	w, err := snapshot.NewWriter(context.Background(), st, prefix)
	if err != nil {
		t.Fatal(err)
	}
	w.Files(files)
	w.SourcesFrom(sources, files, base)
	w.Refs([]schemas.Ref{})
	w.Nodes([]schemas.Node{})
	w.Edges([]schemas.Edge{})
	m, err := w.Close(schemas.Manifest{Repo: "r", Branch: "b", Commit: prefix})
	if err != nil {
		t.Fatal(err)
	}
	return m, w.RowGroups(schemas.TableSources)
}

// TestSourcesFromCopies: a sources table written from a base copies, as
// stored, the row groups whose files did not change, encodes the others,
// and is byte for byte the table encoded whole.
func TestSourcesFromCopies(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	baseSources, baseFiles := sourceTree(6000, nil)
	mBase, whole := writeSources(t, st, "base", baseSources, baseFiles, nil)
	if whole.All < 3 || whole.Copied != 0 {
		t.Fatalf("base: %+v row groups, want several, none copied", whole)
	}
	base, err := snapshot.OpenBaseSources(ctx, st, "base", &mBase, baseFiles)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name      string
		files     int
		edit      func(path, content string) string
		minCopied int // of the row groups, at least all but this many are copied
	}{
		{"nothing changed", 6000, nil, 0},
		{"one file changed", 6000, func(p, c string) string {
			if p == "pkg050/file02500.go" {
				return c + "// changed\n"
			}
			return c
		}, 1},
		{"one changed, one removed, one added", 6001, func(p, c string) string {
			switch p {
			case "pkg010/file00500.go":
				return c + "// changed\n"
			case "pkg100/file05000.go":
				return ""
			}
			return c
		}, 3},
	}
	for _, s := range steps {
		sources, files := sourceTree(s.files, s.edit)
		m, groups := writeSources(t, st, "inc-"+strings.ReplaceAll(s.name, " ", "-"), sources, files, base)
		mFresh, fresh := writeSources(t, memstore.New(), "fresh", sources, files, nil)
		if groups.All != fresh.All || groups.Copied < groups.All-s.minCopied || (s.minCopied > 0 && groups.Copied == groups.All) {
			t.Errorf("%s: %+v row groups (encoded whole: %d), want all but at most %d copied, and not all when a file changed",
				s.name, groups, fresh.All, s.minCopied)
		}
		if got, want := sourcesTable(t, m), sourcesTable(t, mFresh); got != want {
			t.Errorf("%s: sources table %+v, encoded whole %+v", s.name, got, want)
		}
		got, err := snapshot.Read(ctx, st, m.Commit, snapshot.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for i := range sources {
			if got.Sources[i].Path != sources[i].Path || !bytes.Equal(got.Sources[i].Content, sources[i].Content) {
				t.Fatalf("%s: row %d (%s) does not read back as written", s.name, i, sources[i].Path)
			}
		}
	}
}

// TestSourcesFromChecksItsBase: a base's sources table must be what its
// manifest says; a snapshot without one is no base, and writes as Sources.
func TestSourcesFromChecksItsBase(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	sources, files := sourceTree(100, nil)
	m, _ := writeSources(t, st, "base", sources, files, nil)
	raw := getRaw(t, st, "base/sources.parquet")
	raw[len(raw)/2] ^= 1
	if _, err := st.Put(ctx, "base/sources.parquet", bytes.NewReader(raw), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.OpenBaseSources(ctx, st, "base", &m, files); err == nil || !strings.Contains(err.Error(), "sha256 mismatch") {
		t.Errorf("a changed sources table: %v, want a sha256 mismatch", err)
	}
	none := m
	none.Tables = nil
	for _, tb := range m.Tables {
		if tb.Name != schemas.TableSources {
			none.Tables = append(none.Tables, tb)
		}
	}
	b, err := snapshot.OpenBaseSources(ctx, st, "base", &none, files)
	if b != nil || err != nil {
		t.Fatalf("no sources table: %v, %v; want neither", b, err)
	}
	if _, groups := writeSources(t, st, "again", sources, files, b); groups.All != 1 || groups.Copied != 0 {
		t.Errorf("without a base: %+v row groups, want 1, none copied", groups)
	}
}

func sourcesTable(t *testing.T, m schemas.Manifest) schemas.Table {
	t.Helper()
	for _, tb := range m.Tables {
		if tb.Name == schemas.TableSources {
			return tb
		}
	}
	t.Fatalf("no sources table in %+v", m.Tables)
	return schemas.Table{}
}
