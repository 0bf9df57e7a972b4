package snapshot_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
	"github.com/graphsnap/snap/snapshot/memstore"
)

const prefix = "repo=graphsnap%2Fsnap/branch=main/commit=0123456789abcdef0123456789abcdef01234567"

// sample returns a small snapshot in which every column of every table has
// a non-zero value somewhere.
func sample() *snapshot.Snapshot {
	return &snapshot.Snapshot{
		Manifest: schemas.Manifest{
			Repo:      "graphsnap/snap",
			Branch:    "main",
			Commit:    "0123456789abcdef0123456789abcdef01234567",
			Parents:   []string{"fedcba9876543210fedcba9876543210fedcba98"},
			Dirty:     true,
			Base:      "repo=graphsnap%2Fsnap/branch=main/commit=fedcba9876543210fedcba9876543210fedcba98",
			IndexedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
			Indexer:   schemas.Indexer{Name: "snap", Version: "v0.1.0", GoVersion: "go1.26", Args: []string{"index", "."}},
			Grammars:  map[string]string{"go": "v0.25.0"},
			Counts:    schemas.Counts{Files: 2, Nodes: 3, Edges: 3, Unresolved: 1, Languages: map[string]int{"go": 2}},
			Build:     schemas.Build{DurationMS: 12, Workers: 2, FilesParsed: 1, FilesReused: 1, SourceBytes: 99},
		},
		Nodes: []schemas.Node{
			{ID: 1, Kind: schemas.KindFile, Name: "main.go", QualifiedName: "main.go", Language: "go", File: "main.go",
				StartLine: 1, EndLine: 20, EndCol: 1, EndByte: 300, Visibility: schemas.Public, Exported: true, BodyHash: 7},
			{ID: 42, Kind: schemas.KindFunction, Name: "Run", QualifiedName: "main.Run", Language: "go", File: "main.go",
				StartLine: 3, StartCol: 1, EndLine: 9, EndCol: 2, StartByte: 30, EndByte: 120, ParentID: 1,
				Signature: "func Run(ctx context.Context) error", Doc: "Run runs.", Visibility: schemas.Public,
				Exported: true, IsAsync: true, IsStatic: true, IsAbstract: true, IsTest: true,
				Decorators: []string{"@cached", "@trace(\"ü\")"}, BodyHash: 0xdeadbeefcafef00d},
			{ID: 1 << 63, Kind: schemas.KindMethod, Name: "héllo", QualifiedName: "main.T.héllo", Language: "go", File: "ü/x.go",
				StartLine: 1, StartCol: 5, EndLine: 2, EndCol: 6, StartByte: 4, EndByte: 40, ParentID: 42,
				Visibility: schemas.Private, Decorators: []string{}, BodyHash: 1},
		},
		Edges: []schemas.Edge{
			{Src: 1, Dst: 42, Kind: schemas.EdgeContains, File: "main.go", Line: 3, Col: 1, Target: "Run",
				Resolution: schemas.ResolvedStructural, Confidence: 1, SrcRow: 0, DstRow: 1},
			{Src: 42, Dst: 0, Kind: schemas.EdgeCalls, File: "main.go", Line: 5, Col: 9, Target: "fmt.Println",
				Resolution: schemas.Unresolved, Confidence: 0, Reason: "no_import", Args: `"hi"`,
				InLoop: true, InTry: true, Conditional: true, SrcRow: 1, DstRow: -1},
			{Src: 42, Dst: 1 << 63, Kind: schemas.EdgeCalls, File: "main.go", Line: 6, Col: 2, Target: "t.héllo",
				Resolution: schemas.ResolvedReceiver, Confidence: 0.75, Args: "", SrcRow: 1, DstRow: 2},
		},
		Files: []schemas.File{
			{Path: "main.go", Language: "go", SHA256: strings.Repeat("ab", 32), Size: 300, Lines: 20, Status: schemas.StatusOK, IsTest: true, IsGenerated: true},
			{Path: "ü/x.go", Language: "go", SHA256: strings.Repeat("cd", 32), Size: 40, Lines: 2, Status: schemas.StatusParseError, Error: "syntax error"},
		},
		Sources: []schemas.Source{
			{Path: "main.go", Content: []byte("package main\n\nfunc Run() {}\n")},
			{Path: "ü/x.go", Content: []byte{0xff, 0xfe, 0x00, 'x', 0x80}}, // not UTF-8
		},
		Refs: []schemas.Ref{
			{File: "main.go", Src: 42, Kind: schemas.RefResult, Target: "error", Expr: "error", Line: 3, Col: 30},
			{File: "main.go", Src: 42, Kind: schemas.EdgeCalls, Target: "fmt.Println", Expr: "fmt.Println", Line: 5, Col: 9,
				Args: `"hi"`, InLoop: true, InTry: true, Conditional: true},
		},
	}
}

func newFileStore(t *testing.T) *filestore.Store {
	t.Helper()
	st, err := filestore.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func write(t *testing.T, st snapshot.Store, s *snapshot.Snapshot) schemas.Manifest {
	t.Helper()
	m, err := snapshot.Write(context.Background(), st, prefix, s)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	for name, st := range map[string]snapshot.Store{"file": newFileStore(t), "mem": memstore.New()} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			in := sample()
			m := write(t, st, in)
			if m.FormatVersion != schemas.FormatVersion {
				t.Errorf("FormatVersion = %d, want %d", m.FormatVersion, schemas.FormatVersion)
			}
			if m.FeatureVersion != schemas.FeatureVersion {
				t.Errorf("FeatureVersion = %d, want %d", m.FeatureVersion, schemas.FeatureVersion)
			}
			var names []string
			for _, tb := range m.Tables {
				names = append(names, tb.Name)
			}
			if want := []string{"nodes", "edges", "files", "sources", "refs"}; !reflect.DeepEqual(names, want) {
				t.Errorf("tables = %v, want %v", names, want)
			}

			out, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{})
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			want := sample()
			// An empty or nil list reads back as an empty one.
			want.Nodes[0].Decorators = []string{}
			want.Manifest = m
			if !reflect.DeepEqual(out, want) {
				for _, f := range []string{"Manifest", "Nodes", "Edges", "Files", "Sources", "Refs"} {
					g := reflect.ValueOf(out).Elem().FieldByName(f).Interface()
					w := reflect.ValueOf(want).Elem().FieldByName(f).Interface()
					if !reflect.DeepEqual(g, w) {
						t.Errorf("%s:\n got %+v\nwant %+v", f, g, w)
					}
				}
			}

			// The manifest on disk is indented JSON with a trailing newline.
			rc, _, err := st.Get(ctx, prefix+"/manifest.json")
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(rc)
			rc.Close()
			if !bytes.HasPrefix(raw, []byte("{\n  \"format_version\": 1,")) || !bytes.HasSuffix(raw, []byte("}\n")) {
				t.Errorf("manifest.json is not indented JSON with a newline:\n%s", raw)
			}
			if enc, _ := snapshot.EncodeManifest(m); !bytes.Equal(enc, raw) {
				t.Errorf("EncodeManifest(Write's manifest) differs from manifest.json")
			}

			if one, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{Workers: 1}); err != nil || !reflect.DeepEqual(one, out) {
				t.Errorf("Read with one worker: %v, or it read other rows", err)
			}

			lazy, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SourceFiles: true})
			if err != nil {
				t.Fatalf("Read into SourceFiles: %v", err)
			}
			if lazy.Sources != nil || lazy.SourceFiles == nil || lazy.SourceFiles.Len() != len(out.Sources) {
				t.Fatalf("Read into SourceFiles: %d sources, SourceFiles %v", len(lazy.Sources), lazy.SourceFiles)
			}
			for _, src := range out.Sources {
				if b, ok := lazy.SourceFiles.Content(src.Path); !ok || !bytes.Equal(b, src.Content) {
					t.Errorf("SourceFiles.Content(%q) = %q, %v; want %q", src.Path, b, ok, src.Content)
				}
			}

			part, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SkipSources: true, SkipRefs: true})
			if err != nil {
				t.Fatalf("Read with skips: %v", err)
			}
			if part.Sources != nil || part.Refs != nil || len(part.Nodes) != 3 {
				t.Errorf("Read with skips loaded %d sources, %d refs, %d nodes", len(part.Sources), len(part.Refs), len(part.Nodes))
			}
			if _, err := snapshot.Verify(ctx, st, prefix); err != nil {
				t.Errorf("Verify: %v", err)
			}
		})
	}
}

func TestNoSources(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	s := sample()
	s.Sources = nil
	m := write(t, st, s)
	for _, tb := range m.Tables {
		if tb.Name == schemas.TableSources {
			t.Errorf("sources table written for nil Sources")
		}
	}
	out, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Sources != nil {
		t.Errorf("Sources = %v, want nil", out.Sources)
	}
}

func TestEmptySnapshot(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	m, err := snapshot.Write(ctx, st, "", &snapshot.Snapshot{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := snapshot.EncodeManifest(m)
	if !bytes.Contains(raw, []byte(`"parents": []`)) {
		t.Errorf("nil Parents not written as []:\n%s", raw)
	}
	out, err := snapshot.Read(ctx, st, "", snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Nodes)+len(out.Edges)+len(out.Files)+len(out.Refs) != 0 || out.Sources != nil {
		t.Errorf("empty snapshot read back rows: %+v", out)
	}
}

func TestReproducible(t *testing.T) {
	a, b := newFileStore(t), newFileStore(t)
	ma := write(t, a, sample())
	mb := write(t, b, sample())
	if !reflect.DeepEqual(ma.Tables, mb.Tables) {
		t.Errorf("table entries differ:\n%+v\n%+v", ma.Tables, mb.Tables)
	}
	for _, tb := range ma.Tables {
		da, err := os.ReadFile(filepath.Join(a.Root(), filepath.FromSlash(prefix), tb.File))
		if err != nil {
			t.Fatal(err)
		}
		db, err := os.ReadFile(filepath.Join(b.Root(), filepath.FromSlash(prefix), tb.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(da, db) {
			t.Errorf("%s differs between two writes of the same rows", tb.File)
		}
	}
}

// manifestOf reads and parses the stored manifest, bypassing checks.
func manifestOf(t *testing.T, st snapshot.Store) schemas.Manifest {
	t.Helper()
	rc, _, err := st.Get(context.Background(), prefix+"/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var m schemas.Manifest
	if err := json.NewDecoder(rc).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func putRaw(t *testing.T, st snapshot.Store, key string, data []byte) {
	t.Helper()
	if _, err := st.Put(context.Background(), key, bytes.NewReader(data), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
}

func getRaw(t *testing.T, st snapshot.Store, key string) []byte {
	t.Helper()
	rc, _, err := st.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantRefused checks that Read and Verify both fail with messages holding
// every one of wants.
func wantRefused(t *testing.T, st snapshot.Store, wants ...string) {
	t.Helper()
	ctx := context.Background()
	_, rerr := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{})
	_, verr := snapshot.Verify(ctx, st, prefix)
	for name, err := range map[string]error{"Read": rerr, "Verify": verr} {
		if err == nil {
			t.Errorf("%s succeeded, want an error containing %q", name, wants)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s error %q does not contain %q", name, err, w)
			}
		}
	}
}

func TestRefuseMissingTable(t *testing.T) {
	st := memstore.New()
	write(t, st, sample())
	if err := st.Delete(context.Background(), prefix+"/edges.parquet"); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, st, "missing table edges (edges.parquet)")
	_, err := snapshot.Read(context.Background(), st, prefix, snapshot.ReadOptions{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing table error %v does not wrap fs.ErrNotExist", err)
	}
}

func TestRefuseUnlistedTable(t *testing.T) {
	st := memstore.New()
	write(t, st, sample())
	m := manifestOf(t, st)
	var kept []schemas.Table
	for _, tb := range m.Tables {
		if tb.Name != schemas.TableRefs {
			kept = append(kept, tb)
		}
	}
	m.Tables = kept
	raw, _ := json.Marshal(m)
	putRaw(t, st, prefix+"/manifest.json", raw)
	wantRefused(t, st, "missing table refs (refs.parquet)")
}

func TestRefuseFlippedByte(t *testing.T) {
	for _, file := range []string{"nodes.parquet", "edges.parquet", "files.parquet", "sources.parquet", "refs.parquet"} {
		t.Run(file, func(t *testing.T) {
			st := memstore.New()
			write(t, st, sample())
			data := getRaw(t, st, prefix+"/"+file)
			data[len(data)/2] ^= 0x01
			putRaw(t, st, prefix+"/"+file, data)
			name := strings.TrimSuffix(file, ".parquet")
			wantRefused(t, st, "table "+name+": sha256 mismatch: manifest says ")
		})
	}
}

func TestRefuseTruncated(t *testing.T) {
	st := memstore.New()
	m := write(t, st, sample())
	data := getRaw(t, st, prefix+"/nodes.parquet")
	putRaw(t, st, prefix+"/nodes.parquet", data[:len(data)-10])
	wantRefused(t, st, "table nodes: size mismatch: manifest says", "bytes, file has")
	_ = m
}

func TestRefuseHugeDeclaredSize(t *testing.T) {
	st := memstore.New()
	write(t, st, sample())
	m := manifestOf(t, st)
	m.Tables[0].Bytes = 1 << 62
	m.Tables[0].Rows = 1 << 62
	raw, _ := json.Marshal(m)
	putRaw(t, st, prefix+"/manifest.json", raw)
	wantRefused(t, st, "table nodes: size mismatch: manifest says 4611686018427387904 bytes")
}

func TestRefuseFormatVersion(t *testing.T) {
	st := memstore.New()
	write(t, st, sample())
	m := manifestOf(t, st)
	m.FormatVersion = 99
	raw, _ := json.Marshal(m)
	putRaw(t, st, prefix+"/manifest.json", raw)
	wantRefused(t, st, "format_version 99", "reads versions 1 to 1")
	_, _, err := snapshot.ReadManifest(context.Background(), st, prefix)
	if err == nil || !strings.Contains(err.Error(), "format_version 99") {
		t.Errorf("ReadManifest = %v, want the version named", err)
	}
}

func TestRefuseManifestNotJSON(t *testing.T) {
	st := memstore.New()
	write(t, st, sample())
	putRaw(t, st, prefix+"/manifest.json", []byte("PAR1 this is not json"))
	wantRefused(t, st, "parse manifest")
}

func TestMissingSnapshot(t *testing.T) {
	_, err := snapshot.Read(context.Background(), memstore.New(), prefix, snapshot.ReadOptions{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read of a missing snapshot = %v, want fs.ErrNotExist", err)
	}
}

// replaceTable stores data as a table's file and makes the manifest agree
// with it, so only the checks after the checksum can catch what is wrong.
func replaceTable(t *testing.T, st snapshot.Store, name string, data []byte, rows int64) {
	t.Helper()
	m := manifestOf(t, st)
	for i, tb := range m.Tables {
		if tb.Name == name {
			putRaw(t, st, prefix+"/"+tb.File, data)
			m.Tables[i].Bytes = int64(len(data))
			m.Tables[i].SHA256 = sha256Hex(data)
			if rows >= 0 {
				m.Tables[i].Rows = rows
			}
		}
	}
	raw, _ := json.Marshal(m)
	putRaw(t, st, prefix+"/manifest.json", raw)
}

func TestRefuseWrongSchema(t *testing.T) {
	st := memstore.New()
	write(t, st, sample())
	// files.parquet's bytes, declared as nodes.
	files := getRaw(t, st, prefix+"/files.parquet")
	replaceTable(t, st, schemas.TableNodes, files, 2)
	wantRefused(t, st, "table nodes: schema mismatch", "missing columns id, kind, name", "and 16 more", "unexpected columns path, sha256")
}

func TestRefuseWrongRowCount(t *testing.T) {
	st := memstore.New()
	write(t, st, sample())
	nodes := getRaw(t, st, prefix+"/nodes.parquet")
	replaceTable(t, st, schemas.TableNodes, nodes, 4)
	wantRefused(t, st, "table nodes: 3 rows, manifest says 4")
}

// TestRefuseCorruptConsistent flips bytes of a table and fixes up the
// manifest to match: the structural checks must refuse (or, for bytes
// that do not matter, accept) without panicking.
func TestRefuseCorruptConsistent(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	write(t, st, sample())
	orig := getRaw(t, st, prefix+"/nodes.parquet")
	refused, tried := 0, 0
	for i := 0; i < len(orig); i += 13 { // every byte: see TestCorruptTables
		tried++
		data := bytes.Clone(orig)
		data[i] ^= 0xff
		replaceTable(t, st, schemas.TableNodes, data, 3)
		if _, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SkipSources: true, SkipRefs: true}); err != nil {
			refused++
		}
	}
	if refused < tried/2 {
		t.Errorf("only %d of %d corrupted tables refused", refused, tried)
	}
}

func TestWriteRefusesOutOfOrder(t *testing.T) {
	cases := map[string]func(s *snapshot.Snapshot){
		"nodes":          func(s *snapshot.Snapshot) { s.Nodes[0], s.Nodes[1] = s.Nodes[1], s.Nodes[0] },
		"nodes repeated": func(s *snapshot.Snapshot) { s.Nodes[1].ID = s.Nodes[0].ID },
		"edges":          func(s *snapshot.Snapshot) { s.Edges[1].Dst, s.Edges[2].Dst = s.Edges[2].Dst, s.Edges[1].Dst },
		"edges kind":     func(s *snapshot.Snapshot) { s.Edges[2].Kind = "aaa" },
		"files":          func(s *snapshot.Snapshot) { s.Files[0], s.Files[1] = s.Files[1], s.Files[0] },
		"sources":        func(s *snapshot.Snapshot) { s.Sources[1].Path = "main.go" },
		"refs":           func(s *snapshot.Snapshot) { s.Refs[0], s.Refs[1] = s.Refs[1], s.Refs[0] },
		"refs src": func(s *snapshot.Snapshot) {
			s.Refs[1].Line, s.Refs[1].Col, s.Refs[1].Kind, s.Refs[1].Target = 3, 30, s.Refs[0].Kind, s.Refs[0].Target
			s.Refs[1].Src = 1
		},
		"refs expr": func(s *snapshot.Snapshot) {
			s.Refs[1] = s.Refs[0]
			s.Refs[1].Expr = "a" // sorts before "error"
		},
		"edges file": func(s *snapshot.Snapshot) {
			s.Edges[2] = s.Edges[1]
			s.Edges[2].File = "a.go" // sorts before "main.go"
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			st := memstore.New()
			s := sample()
			mutate(s)
			_, err := snapshot.Write(context.Background(), st, prefix, s)
			table := strings.Fields(name)[0]
			if err == nil || !strings.Contains(err.Error(), "table "+table+": ") {
				t.Fatalf("Write = %v, want an order error for table %s", err, table)
			}
			if infos, _ := st.List(context.Background(), ""); len(infos) != 0 {
				t.Errorf("refused Write stored %d objects", len(infos))
			}
		})
	}
	// Equal keys are fine where keys are not unique.
	s := sample()
	s.Edges = append(s.Edges, s.Edges[2])
	if _, err := snapshot.Write(context.Background(), memstore.New(), prefix, s); err != nil {
		t.Errorf("Write with a repeated edge: %v", err)
	}
}

func TestVerifyDir(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "snap")
	st, err := filestore.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Write(ctx, st, "", sample()); err != nil {
		t.Fatal(err)
	}
	m, err := snapshot.VerifyDir(ctx, dir)
	if err != nil {
		t.Fatalf("VerifyDir: %v", err)
	}
	if m.Commit != sample().Manifest.Commit {
		t.Errorf("VerifyDir manifest commit = %q", m.Commit)
	}
	ds, err := snapshot.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := snapshot.Read(ctx, ds, "", snapshot.ReadOptions{})
	if err != nil || len(out.Nodes) != 3 {
		t.Fatalf("Read from OpenDir: %d nodes, %v", len(out.Nodes), err)
	}
	infos, err := ds.List(ctx, "")
	if err != nil || len(infos) != 6 {
		t.Errorf("List of the folder = %d objects, %v; want 6", len(infos), err)
	}
	if _, err := ds.Put(ctx, "x", strings.NewReader("x"), snapshot.PutOptions{}); err == nil {
		t.Errorf("Put on OpenDir's store succeeded")
	}
	// A flipped byte: every problem reported, table named.
	p := filepath.Join(dir, "files.parquet")
	data, _ := os.ReadFile(p)
	data[20] ^= 1
	os.WriteFile(p, data, 0o644)
	os.Remove(filepath.Join(dir, "refs.parquet"))
	_, err = snapshot.VerifyDir(ctx, dir)
	if err == nil || !strings.Contains(err.Error(), "table files: sha256 mismatch") || !strings.Contains(err.Error(), "missing table refs") {
		t.Errorf("VerifyDir = %v, want both problems", err)
	}
	// Symlinks out of the folder are not followed.
	os.Remove(p)
	outside := filepath.Join(t.TempDir(), "files.parquet")
	os.WriteFile(outside, data, 0o644)
	if err := os.Symlink(outside, p); err == nil {
		if _, _, err := ds.Get(ctx, "files.parquet"); err == nil {
			t.Errorf("Get followed a symlink out of the folder")
		}
	}
}

func TestHead(t *testing.T) {
	ctx := context.Background()
	st := newFileStore(t)
	const repo, branch = "graphsnap/snap", "feature/x"
	if _, _, err := snapshot.ReadHead(ctx, st, repo, branch); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadHead of a new branch = %v, want fs.ErrNotExist", err)
	}
	h1 := schemas.Head{Commit: "aaaa", ManifestSHA256: strings.Repeat("1", 64), Generation: 1, UpdatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	i1, err := snapshot.WriteHead(ctx, st, repo, branch, h1, "")
	if err != nil {
		t.Fatalf("first WriteHead: %v", err)
	}
	if _, err := snapshot.WriteHead(ctx, st, repo, branch, h1, ""); !errors.Is(err, snapshot.ErrPrecondition) {
		t.Errorf("second create = %v, want ErrPrecondition", err)
	}
	got, info, err := snapshot.ReadHead(ctx, st, repo, branch)
	if err != nil || got != h1 || info.ETag != i1.ETag {
		t.Fatalf("ReadHead = %+v, %+v, %v; want %+v", got, info, err, h1)
	}
	h2 := h1
	h2.Commit, h2.Generation = "bbbb", 2
	if _, err := snapshot.WriteHead(ctx, st, repo, branch, h2, info.ETag); err != nil {
		t.Fatalf("move HEAD: %v", err)
	}
	h3 := h2
	h3.Commit = "cccc"
	if _, err := snapshot.WriteHead(ctx, st, repo, branch, h3, info.ETag); !errors.Is(err, snapshot.ErrPrecondition) {
		t.Errorf("move with a stale etag = %v, want ErrPrecondition", err)
	}
	if got, _, _ := snapshot.ReadHead(ctx, st, repo, branch); got.Commit != "bbbb" {
		t.Errorf("HEAD = %s, want bbbb", got.Commit)
	}
	if _, err := snapshot.WriteHead(ctx, st, repo, branch, schemas.Head{Commit: "../x"}, ""); err == nil {
		t.Errorf("WriteHead accepted commit ../x")
	}
	// HEAD lives where HeadKey says.
	key, _ := snapshot.HeadKey(repo, branch)
	if key != "repo=graphsnap%2Fsnap/branch=feature%2Fx/HEAD.json" {
		t.Errorf("HeadKey = %s", key)
	}
	if _, err := os.Stat(filepath.Join(st.Root(), filepath.FromSlash(key))); err != nil {
		t.Errorf("HEAD file: %v", err)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestSourceFilesStayOnDisk: read from a file store, SourceFiles holds no
// page but reads each back from the table's file, so bytes changed in
// place on disk since are refused rather than served.
func TestSourceFilesStayOnDisk(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := filestore.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	in := sample()
	write(t, st, in)
	s, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SourceFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range in.Sources {
		if b, err := s.SourceFiles.ReadContent(src.Path); err != nil || !bytes.Equal(b, src.Content) {
			t.Fatalf("ReadContent(%q) = %q, %v; want %q", src.Path, b, err, src.Content)
		}
	}
	// Read again, then overwrite the file in place (the store itself
	// replaces files whole, by rename).
	s, err = snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SourceFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(prefix), schemas.SourcesFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, fi.Size()-8), 4); err != nil {
		t.Fatal(err)
	}
	for _, src := range in.Sources {
		if b, err := s.SourceFiles.ReadContent(src.Path); err == nil || !strings.Contains(err.Error(), "changed on disk") {
			t.Errorf("ReadContent(%q) after the file changed = %q, %v; want an error", src.Path, b, err)
		}
	}
}
