package snapshot_test

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/parquet-go/parquet-go"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// tree is a snapshot of a made-up repository of files files, each with
// perFile functions, each calling two others, and a ref a function;
// shifted names a file whose functions moved one line down, grown one
// whose content has a line more at its end.
func tree(files, perFile int, shifted, grown string) *snapshot.Snapshot {
	s := &snapshot.Snapshot{Manifest: schemas.Manifest{Repo: "r", Branch: "b"}}
	id := func(f, j int) uint64 { return xxhash.Sum64String(fmt.Sprintf("f%05d.%d", f, j)) | 1 }
	for f := range files {
		path := fmt.Sprintf("pkg%03d/file%05d.go", f/50, f)
		content := fmt.Sprintf("package pkg%03d\n", f/50)
		shift := uint32(0)
		if path == shifted {
			content += "// moved\n"
			shift = 1
		}
		for j := range perFile {
			content += fmt.Sprintf("func F%d() { F%d(); F%d() }\n", j, (j+1)%perFile, (j+2)%perFile)
		}
		if path == grown {
			content += "// grown\n"
		}
		sum := sha256.Sum256([]byte(content))
		s.Files = append(s.Files, schemas.File{Path: path, Language: "go", SHA256: hex.EncodeToString(sum[:]), Size: int64(len(content)), Status: schemas.StatusOK})
		s.Sources = append(s.Sources, schemas.Source{Path: path, Content: []byte(content)})
		for j := range perFile {
			line := uint32(2+j) + shift
			s.Nodes = append(s.Nodes, schemas.Node{ID: id(f, j), Kind: "function", Name: fmt.Sprintf("F%d", j), QualifiedName: fmt.Sprintf("pkg%03d.F%d", f/50, j), Language: "go", File: path, StartLine: line, EndLine: line})
			for k := 1; k <= 2; k++ {
				s.Edges = append(s.Edges, schemas.Edge{Src: id(f, j), Dst: id(f, (j+k)%perFile), Kind: "calls", File: path, Line: line, Col: uint32(14 + 6*k), Target: fmt.Sprintf("F%d", (j+k)%perFile), Resolution: "scope", Confidence: 1})
				s.Refs = append(s.Refs, schemas.Ref{File: path, Src: id(f, j), Kind: "calls", Target: fmt.Sprintf("F%d", (j+k)%perFile), Expr: fmt.Sprintf("F%d", (j+k)%perFile), Line: line, Col: uint32(14 + 6*k)})
			}
		}
	}
	slices.SortFunc(s.Nodes, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(s.Edges, func(a, b schemas.Edge) int { return schemas.CompareEdges(&a, &b) })
	slices.SortFunc(s.Refs, func(a, b schemas.Ref) int { return schemas.CompareRefs(&a, &b) })
	return s
}

// writeFrom writes s at prefix of st, copying from base, and returns its
// manifest and the row groups of each table.
func writeFrom(t *testing.T, st snapshot.Store, prefix string, s *snapshot.Snapshot, base *snapshot.Base) (schemas.Manifest, map[string]snapshot.RowGroups) {
	t.Helper()
	return writeEdges(t, st, prefix, s, base, func(w *snapshot.Writer) { w.Edges(s.Edges) })
}

// writeEdges is writeFrom with the edges given by edges.
func writeEdges(t *testing.T, st snapshot.Store, prefix string, s *snapshot.Snapshot, base *snapshot.Base, edges func(w *snapshot.Writer)) (schemas.Manifest, map[string]snapshot.RowGroups) {
	t.Helper()
	w, err := snapshot.NewWriter(context.Background(), st, prefix)
	if err != nil {
		t.Fatal(err)
	}
	w.CopyFrom(base)
	w.Files(s.Files)
	w.Sources(s.Sources)
	w.Refs(s.Refs)
	w.Nodes(s.Nodes)
	edges(w)
	m, err := w.Close(s.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	groups := make(map[string]snapshot.RowGroups)
	for _, tb := range m.Tables {
		groups[tb.Name] = w.RowGroups(tb.Name)
	}
	return m, groups
}

// TestWriterCopiesRowGroups: a snapshot written with a base copies, as
// stored, the row groups whose rows did not change and encodes the
// others, and every table is byte for byte the table encoded whole.
func TestWriterCopiesRowGroups(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	const files, perFile = 2000, 40 // 80,000 nodes: several row groups in every table but files
	mBase, whole := writeFrom(t, st, "base", tree(files, perFile, "", ""), nil)
	for name, g := range whole {
		if (g.All < 2 && name != schemas.TableFiles) || g.Copied != 0 {
			t.Fatalf("base: table %s has %+v row groups, want several, none copied", name, g)
		}
	}
	base, err := snapshot.OpenBase(ctx, st, "base", &mBase)
	if err != nil {
		t.Fatal(err)
	}
	const (
		all     = -1 // every row group copied
		allBut1 = -2 // all but one
		some    = -3 // two or more encoded: the edges' apart, on every core (encodeReusing)
	)
	steps := []struct {
		name           string
		shifted, grown string
		want           map[string]int
	}{
		{"nothing changed", "", "", map[string]int{"nodes": all, "edges": all, "refs": all, "files": all, "sources": all}},
		{"a comment at a file's end", "", "pkg020/file01000.go", map[string]int{"nodes": all, "edges": all, "refs": all, "files": allBut1, "sources": allBut1}},
		{"a file's functions moved down", "pkg030/file01500.go", "", map[string]int{"nodes": some, "edges": some, "refs": allBut1, "files": allBut1, "sources": allBut1}},
	}
	for i, s := range steps {
		snap := tree(files, perFile, s.shifted, s.grown)
		m, groups := writeFrom(t, st, fmt.Sprint("inc", i), snap, base)
		mWhole, whole := writeFrom(t, memstore.New(), "whole", snap, nil)
		for name, want := range s.want {
			g := groups[name]
			ok := g.All == whole[name].All
			switch want {
			case all:
				ok = ok && g.Copied == g.All
			case allBut1:
				ok = ok && g.Copied == g.All-1
			case some:
				ok = ok && g.All-g.Copied >= 2
			}
			if !ok {
				t.Errorf("%s: table %s: %+v row groups (encoded whole: %d)", s.name, name, g, whole[name].All)
			}
		}
		if fmt.Sprint(m.Tables) != fmt.Sprint(mWhole.Tables) {
			t.Errorf("%s: tables differ from those encoded whole:\n%v\n%v", s.name, m.Tables, mWhole.Tables)
		}
	}
}

// TestOpenBaseChecks: a base's table must be what its manifest says; a
// table without digests (another writer's) is never copied from.
func TestOpenBaseChecks(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	s := tree(20, 3, "", "")
	m, _ := writeFrom(t, st, "base", s, nil)
	raw := getRaw(t, st, "base/"+schemas.RefsFile)
	raw[len(raw)/2] ^= 1
	if _, err := st.Put(ctx, "base/"+schemas.RefsFile, bytes.NewReader(raw), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.OpenBase(ctx, st, "base", &m); err == nil || !strings.Contains(err.Error(), "sha256 mismatch") {
		t.Errorf("a changed table: %v, want a sha256 mismatch", err)
	}

	// The same rows by parquet-go's own writer: no digests in the footer.
	other := memstore.New()
	var buf bytes.Buffer
	if err := parquet.Write(&buf, s.Files); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	if _, err := other.Put(ctx, "o/"+schemas.FilesFile, bytes.NewReader(buf.Bytes()), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	mo := schemas.Manifest{Tables: []schemas.Table{{Name: schemas.TableFiles, File: schemas.FilesFile, Rows: int64(len(s.Files)), Bytes: int64(buf.Len()), SHA256: hex.EncodeToString(sum[:])}}}
	b, err := snapshot.OpenBase(ctx, other, "o", &mo)
	if err != nil {
		t.Fatal(err)
	}
	if _, groups := writeFrom(t, memstore.New(), "again", s, b); groups[schemas.TableFiles].Copied != 0 {
		t.Errorf("copied %+v row groups of a table without digests", groups[schemas.TableFiles])
	}
}

// TestVerifyChecksDigests: a table whose footer lists a digest its rows
// do not have fails Verify, which names the row group; the same snapshot
// with its digests true passes.
func TestVerifyChecksDigests(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	m, _ := writeFrom(t, st, "s", tree(50, 3, "", ""), nil)
	if _, err := snapshot.Verify(ctx, st, "s"); err != nil {
		t.Fatal(err)
	}
	key := "s/" + schemas.NodesFile
	raw := getRaw(t, st, key)
	at := bytes.Index(raw, []byte("graphsnap.row_group_sha256"))
	loc := regexp.MustCompile(`[0-9a-f]{64}`).FindIndex(raw[at:])
	if at < 0 || loc == nil {
		t.Fatal("no digests in the nodes table's footer")
	}
	copy(raw[at+loc[0]:], strings.Repeat("0", 64)) // another digest, same length: the footer still parses
	if _, err := st.Put(ctx, key, bytes.NewReader(raw), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	for i, tb := range m.Tables {
		if tb.Name == schemas.TableNodes {
			sum := sha256.Sum256(raw)
			m.Tables[i].SHA256, m.Tables[i].Bytes = hex.EncodeToString(sum[:]), int64(len(raw))
		}
	}
	manifest, err := snapshot.EncodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Put(ctx, "s/manifest.json", bytes.NewReader(manifest), snapshot.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = snapshot.Verify(ctx, st, "s")
	if err == nil || !strings.Contains(err.Error(), "table nodes: row group 0: its rows' digest is") {
		t.Errorf("Verify of a lying digest: %v", err)
	}
}

// TestReadBase: the rows ReadBase decodes are Read's (without edges and
// sources), and its tables copy every row group of an unchanged snapshot.
func TestReadBase(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	s := tree(200, 5, "", "")
	m, _ := writeFrom(t, st, "base", s, nil)
	got, base, err := snapshot.ReadBase(ctx, st, "base", &m)
	if err != nil {
		t.Fatal(err)
	}
	want, err := snapshot.Read(ctx, st, "base", snapshot.ReadOptions{SkipEdges: true, SkipSources: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Nodes, want.Nodes) || !reflect.DeepEqual(got.Files, want.Files) || !reflect.DeepEqual(got.Refs, want.Refs) || got.Edges != nil || got.Sources != nil {
		t.Errorf("ReadBase's rows differ from Read's: %d/%d nodes, %d/%d files, %d/%d refs, %d edges, %d sources",
			len(got.Nodes), len(want.Nodes), len(got.Files), len(want.Files), len(got.Refs), len(want.Refs), len(got.Edges), len(got.Sources))
	}
	_, groups := writeFrom(t, memstore.New(), "again", s, base)
	for name, g := range groups {
		if g.All == 0 || g.Copied != g.All {
			t.Errorf("table %s: %+v row groups, want all copied", name, g)
		}
	}
	m.Tables = slices.DeleteFunc(m.Tables, func(tb schemas.Table) bool { return tb.Name == schemas.TableRefs })
	if _, _, err := snapshot.ReadBase(ctx, st, "base", &m); err == nil || !strings.Contains(err.Error(), "missing table refs") {
		t.Errorf("ReadBase without a refs table: %v", err)
	}
}

// TestWriterSourcesUnread: of sources the run did not read, a row group
// of such rows alone, on the paths of one of the base's, is copied from
// the base without its content; the others load what they lack. The
// table is the one written with every content, byte for byte, with a base
// and without one; a load that fails fails the write.
func TestWriterSourcesUnread(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	const files, perFile = 3000, 1 // three row groups of sources at least
	mBase, _ := writeFrom(t, st, "base", tree(files, perFile, "", ""), nil)
	base, err := snapshot.OpenBase(ctx, st, "base", &mBase)
	if err != nil {
		t.Fatal(err)
	}
	const grown = "pkg020/file01000.go"
	snap := tree(files, perFile, "", grown)
	mWhole, whole := writeFrom(t, memstore.New(), "whole", snap, nil)
	if whole[schemas.TableSources].All < 3 {
		t.Fatalf("%d row groups of sources, want 3 or more", whole[schemas.TableSources].All)
	}
	contents := make(map[string][]byte)
	write := func(name string, base *snapshot.Base, load func(string) ([]byte, error)) (schemas.Manifest, snapshot.RowGroups, error) {
		rows := slices.Clone(snap.Sources)
		unread := make([]bool, len(rows))
		for i := range rows {
			if rows[i].Path != grown {
				contents[rows[i].Path] = rows[i].Content
				rows[i].Content, unread[i] = nil, true
			}
		}
		w, err := snapshot.NewWriter(ctx, st, name)
		if err != nil {
			t.Fatal(err)
		}
		w.CopyFrom(base)
		w.Files(snap.Files)
		w.SourcesUnread(rows, unread, load)
		w.Refs(snap.Refs)
		w.Nodes(snap.Nodes)
		w.Edges(snap.Edges)
		m, err := w.Close(snap.Manifest)
		return m, w.RowGroups(schemas.TableSources), err
	}
	for _, c := range []struct {
		name string
		base *snapshot.Base
	}{{"with a base", base}, {"without", nil}} {
		var loaded []string
		m, groups, err := write(c.name, c.base, func(p string) ([]byte, error) {
			loaded = append(loaded, p)
			return contents[p], nil
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if fmt.Sprint(m.Tables) != fmt.Sprint(mWhole.Tables) {
			t.Errorf("%s: tables differ from those written with every content:\n%v\n%v", c.name, m.Tables, mWhole.Tables)
		}
		if c.base == nil {
			if len(loaded) != files-1 || groups.Copied != 0 {
				t.Errorf("without a base: %d loaded, %d row groups copied; want %d, 0", len(loaded), groups.Copied, files-1)
			}
			continue
		}
		// The grown file's row group alone is encoded: its other rows, a
		// run of paths with the grown file among them, were loaded.
		if groups.Copied != groups.All-1 {
			t.Errorf("with a base: %+v row groups, want all but one copied", groups)
		}
		run := append(slices.Clone(loaded), grown)
		slices.Sort(run)
		lo := slices.IndexFunc(snap.Sources, func(s schemas.Source) bool { return s.Path == run[0] })
		for i, p := range run {
			if lo < 0 || lo+i >= len(snap.Sources) || snap.Sources[lo+i].Path != p || len(loaded) >= files/2 {
				t.Fatalf("with a base: loaded %d paths (%v), not the rest of one row group around %s", len(loaded), loaded, grown)
			}
		}
	}

	// The last file removed: the last row group is the base's but for
	// its last row, and is no longer the base's, though each of its rows
	// is.
	gone := snap.Sources[len(snap.Sources)-1].Path
	less := tree(files, perFile, "", "")
	less.Sources = slices.DeleteFunc(less.Sources, func(s schemas.Source) bool { return s.Path == gone })
	mLess, _ := writeFrom(t, memstore.New(), "less", less, nil)
	rows := slices.Clone(less.Sources)
	unread := make([]bool, len(rows))
	byPath := make(map[string][]byte)
	for i := range rows {
		byPath[rows[i].Path] = rows[i].Content
		rows[i].Content, unread[i] = nil, true
	}
	w, err := snapshot.NewWriter(ctx, st, "removed")
	if err != nil {
		t.Fatal(err)
	}
	w.CopyFrom(base)
	w.Files(less.Files)
	w.SourcesUnread(rows, unread, func(p string) ([]byte, error) { return byPath[p], nil })
	w.Refs(less.Refs)
	w.Nodes(less.Nodes)
	w.Edges(less.Edges)
	m, err := w.Close(less.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(m.Tables) != fmt.Sprint(mLess.Tables) {
		t.Errorf("the last file removed: tables differ from those written with every content:\n%v\n%v", m.Tables, mLess.Tables)
	}

	// A load that fails fails the write, and says why; so do flags that
	// are not one a row.
	if _, _, err := write("failed", base, func(p string) ([]byte, error) { return nil, fmt.Errorf("%s went away", p) }); err == nil || !strings.Contains(err.Error(), "went away") {
		t.Errorf("a failed load: %v", err)
	}
	w, err = snapshot.NewWriter(ctx, st, "flags")
	if err != nil {
		t.Fatal(err)
	}
	w.SourcesUnread(snap.Sources, make([]bool, 2), nil)
	w.Files(snap.Files)
	w.Refs(snap.Refs)
	w.Nodes(snap.Nodes)
	w.Edges(snap.Edges)
	if _, err := w.Close(snap.Manifest); err == nil || !strings.Contains(err.Error(), "unread flags") {
		t.Errorf("flags of another length: %v", err)
	}
}

// TestWriterRefsFrom: refs said to be the base's rows, where a row group
// of them is exactly one of the base's, take that row group as stored,
// with no digest to compare; the table is the one encoded whole.
func TestWriterRefsFrom(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	const files, perFile = 2000, 40
	mBase, _ := writeFrom(t, st, "base", tree(files, perFile, "", ""), nil)
	rows, base, err := snapshot.ReadBase(ctx, st, "base", &mBase)
	if err != nil {
		t.Fatal(err)
	}
	const shifted = "pkg030/file01500.go"
	snap := tree(files, perFile, shifted, "")
	// Every file's refs but shifted's are the base's, one file after
	// another: rows [lo, hi) of snap.Refs are the base's when none is
	// shifted's (the files keep their places: as many refs each).
	fromBase := func(lo, hi int) (int, bool) {
		for _, r := range snap.Refs[lo:hi] {
			if r.File == shifted {
				return 0, false
			}
		}
		return lo, true
	}
	if !slices.EqualFunc(rows.Refs, snap.Refs, func(a, b schemas.Ref) bool { return a.File == b.File }) {
		t.Fatal("the made-up trees' refs are not file for file")
	}
	write := func(prefix string, fromBase func(lo, hi int) (int, bool)) (schemas.Table, snapshot.RowGroups) {
		t.Helper()
		w, err := snapshot.NewWriter(ctx, st, prefix)
		if err != nil {
			t.Fatal(err)
		}
		w.CopyFrom(base)
		w.Files(snap.Files)
		w.RefsFrom(snap.Refs, fromBase)
		w.Nodes(snap.Nodes)
		w.Edges(snap.Edges)
		m, err := w.Close(snap.Manifest)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range m.Tables {
			if tb.Name == schemas.TableRefs {
				return tb, w.RowGroups(tb.Name)
			}
		}
		t.Fatal("no refs table")
		return schemas.Table{}, snapshot.RowGroups{}
	}
	mWhole, whole := writeFrom(t, memstore.New(), "whole", snap, nil)
	var want schemas.Table
	for _, tb := range mWhole.Tables {
		if tb.Name == schemas.TableRefs {
			want = tb
		}
	}
	got, groups := write("from", fromBase)
	if got != want || groups.All != whole[schemas.TableRefs].All || groups.Copied != groups.All-1 {
		t.Errorf("refs from the base: %+v, %+v row groups; encoded whole: %+v, %d", got, groups, want, whole[schemas.TableRefs].All)
	}
	// Rows one off from the base's never match a row group of its.
	got, groups = write("off", func(lo, hi int) (int, bool) { return lo + 1, true })
	if got != want || groups.Copied != groups.All-1 {
		t.Errorf("rows said to be the base's one row on: %+v, %+v row groups; want %+v, all but one copied (by digest)", got, groups, want)
	}
	// The writer takes fromBase's word: said to be the base's, the
	// shifted file's rows are written as they were there.
	got, groups = write("vouched", func(lo, hi int) (int, bool) { return lo, true })
	if got == want || groups.Copied != groups.All {
		t.Errorf("every row vouched for: %+v, %+v row groups; want the base's groups, all copied", got, groups)
	}
}

// TestBaseEdges: a base decodes its edges as Read does, with room for
// more, and EdgesFrom copies the row groups said to be the base's.
func TestBaseEdges(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	mBase, _ := writeFrom(t, st, "base", tree(2000, 40, "", ""), nil)
	read, err := snapshot.Read(ctx, st, "base", snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, base, err := snapshot.ReadBase(ctx, st, "base", &mBase)
	if err != nil {
		t.Fatal(err)
	}
	var none *snapshot.Base
	if none.HasEdges() || !base.HasEdges() {
		t.Fatal("HasEdges: wrong for no base, or for a base with edges")
	}
	edges, err := base.Edges(2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(edges, read.Edges) || cap(edges) == len(edges) {
		t.Fatalf("the base's edges: %d (room for %d), Read's %d", len(edges), cap(edges), len(read.Edges))
	}
	// A file's edges whose lines moved: every other row is the base's.
	const shifted = "pkg030/file01500.go"
	snap := tree(2000, 40, shifted, "")
	m, groups := writeEdges(t, st, "from", snap, base, func(w *snapshot.Writer) {
		w.EdgesFrom(snap.Edges, func(lo, hi int) (int, bool) {
			for _, e := range snap.Edges[lo:hi] {
				if e.File == shifted {
					return 0, false
				}
			}
			return lo, true
		})
	})
	mWhole, whole := writeFrom(t, memstore.New(), "whole", snap, nil)
	if fmt.Sprint(m.Tables) != fmt.Sprint(mWhole.Tables) {
		t.Errorf("tables differ from those encoded whole:\n%v\n%v", m.Tables, mWhole.Tables)
	}
	if g := groups[schemas.TableEdges]; g.All != whole[schemas.TableEdges].All || g.Copied == 0 || g.Copied == g.All {
		t.Errorf("edges: %+v row groups, %d encoded whole: want some copied, not all", g, whole[schemas.TableEdges].All)
	}
}
