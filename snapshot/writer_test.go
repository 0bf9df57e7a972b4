package snapshot_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// TestWriterSameAsWrite gives a Writer the tables in the order the indexer
// does (files, sources and refs, then nodes, then edges): every object it
// stores is byte for byte what Write stores, manifest included.
func TestWriterSameAsWrite(t *testing.T) {
	ctx := context.Background()
	s := sample()
	want := memstore.New()
	mWant, err := snapshot.Write(ctx, want, prefix, s)
	if err != nil {
		t.Fatal(err)
	}
	got := memstore.New()
	mGot, _ := writeFrom(t, got, prefix, s, nil)
	if len(mGot.Tables) != 5 || len(mWant.Tables) != 5 {
		t.Fatalf("tables: Writer %d, Write %d, want 5", len(mGot.Tables), len(mWant.Tables))
	}
	infos, err := want.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range infos {
		if a, b := getRaw(t, want, info.Key), getRaw(t, got, info.Key); !bytes.Equal(a, b) {
			t.Errorf("%s: Writer stored %d bytes, Write %d, not the same", info.Key, len(b), len(a))
		}
	}
	if gotInfos, _ := got.List(ctx, ""); len(gotInfos) != len(infos) {
		t.Errorf("Writer stored %d objects, Write %d", len(gotInfos), len(infos))
	}
}

// TestWriterRefuses: a table missing, given twice or out of order fails
// Close, and no manifest is written, so no reader sees the snapshot.
func TestWriterRefuses(t *testing.T) {
	cases := map[string]struct {
		give func(w *snapshot.Writer, s *snapshot.Snapshot)
		want string
	}{
		"missing edges": {func(w *snapshot.Writer, s *snapshot.Snapshot) {
			w.Nodes(s.Nodes)
			w.Files(s.Files)
			w.Refs(s.Refs)
		}, "no edges table"},
		"nodes twice": {func(w *snapshot.Writer, s *snapshot.Snapshot) {
			w.Nodes(s.Nodes)
			w.Nodes(s.Nodes)
			w.Edges(s.Edges)
			w.Files(s.Files)
			w.Refs(s.Refs)
		}, "table nodes given twice"},
		"refs out of order": {func(w *snapshot.Writer, s *snapshot.Snapshot) {
			s.Refs[0], s.Refs[1] = s.Refs[1], s.Refs[0]
			w.Nodes(s.Nodes)
			w.Edges(s.Edges)
			w.Files(s.Files)
			w.Refs(s.Refs)
		}, "table refs: "},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := memstore.New()
			w, err := snapshot.NewWriter(ctx, st, prefix)
			if err != nil {
				t.Fatal(err)
			}
			s := sample()
			c.give(w, s)
			if _, err := w.Close(s.Manifest); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Close = %v, want an error with %q", err, c.want)
			}
			infos, _ := st.List(ctx, "")
			for _, info := range infos {
				if strings.HasSuffix(info.Key, schemas.ManifestFile) {
					t.Errorf("refused snapshot has a manifest: %s", info.Key)
				}
			}
		})
	}
	if _, err := snapshot.NewWriter(context.Background(), memstore.New(), "../x"); err == nil {
		t.Error("NewWriter accepted the prefix ../x")
	}
}

// TestLargeValues: values that compress well and, 64 to a chunk, would
// have made one page a reader refuses are written in pages of their own
// and read back; a single value past the reader's bound is refused at
// write time, and no manifest is stored.
func TestLargeValues(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes 100 MB")
	}
	ctx := context.Background()
	st := memstore.New()
	s := sample()
	s.Sources = nil
	s.Files = nil
	for _, p := range []string{"a.txt", "b.txt", "c.txt"} {
		s.Files = append(s.Files, schemas.File{Path: p, Language: "text", SHA256: strings.Repeat("ab", 32), Status: schemas.StatusOK})
		s.Sources = append(s.Sources, schemas.Source{Path: p, Content: bytes.Repeat([]byte("x = 1\n"), 25<<20/6)})
	}
	prefix, _ := snapshot.Prefix(s.Manifest.Repo, s.Manifest.Branch, s.Manifest.Commit)
	if _, err := snapshot.Write(ctx, st, prefix, s); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Verify(ctx, st, prefix); err != nil {
		t.Fatalf("three 25 MB files: %v", err)
	}

	st = memstore.New()
	s.Sources = s.Sources[:1]
	s.Sources[0].Content = bytes.Repeat([]byte("x = 1\n"), 70<<20/6)
	_, err := snapshot.Write(ctx, st, prefix, s)
	if err == nil || !strings.Contains(err.Error(), "a reader would refuse it") {
		t.Fatalf("a 70 MB file: %v; want a refusal", err)
	}
	if _, err := snapshot.Verify(ctx, st, prefix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused snapshot was published: %v", err)
	}
	if _, _, err := st.Get(ctx, prefix+"/"+schemas.SourcesFile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused table was stored: %v", err)
	}
}
