package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

// indexed indexes a copy of a fixture into its local store and returns
// the copy, the snapshot folder and the snapshot as our reader reads it.
func indexed(t *testing.T, fixture string) (string, string, *snapshot.Snapshot) {
	t.Helper()
	dir := copyTree(t, fixture)
	code, stdout, stderr := run(t, dir, "index", "-q")
	if code != 0 {
		t.Fatalf("index: %s", stderr)
	}
	snap := strings.TrimSpace(stdout)
	return dir, snap, readDir(t, snap)
}

func readDir(t *testing.T, dir string) *snapshot.Snapshot {
	t.Helper()
	st, err := snapshot.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Read(context.Background(), st, "", snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExportArrow reads every exported table back with Arrow's IPC
// reader: the schema is the one Arrow's own Parquet reader sees in the
// snapshot's table (names, types, nullability, lists), the schema names
// the snapshot, and every cell equals the row our reader decoded.
func TestExportArrow(t *testing.T) {
	dir, snap, s := indexed(t, "../../testdata/python/app")
	out := filepath.Join(t.TempDir(), "graph")
	code, stdout, stderr := run(t, dir, "export", "--format", "arrow", "--out", out)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	if strings.TrimSpace(stdout) != out {
		t.Errorf("export printed %q, want the folder %s", stdout, out)
	}
	decorated := false
	for _, n := range s.Nodes {
		decorated = decorated || len(n.Decorators) > 0
	}
	if !decorated || len(s.Sources) == 0 {
		t.Fatal("the fixture should have decorated symbols and sources")
	}
	for _, tb := range s.Manifest.Tables {
		t.Run(tb.Name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(out, tb.Name+".arrow"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
			if err != nil {
				t.Fatalf("arrow cannot open %s.arrow: %v", tb.Name, err)
			}
			defer r.Close()

			want, elems := parquetSchema(t, filepath.Join(snap, tb.File))
			got := r.Schema()
			if len(got.Fields()) != len(want.Fields()) {
				t.Fatalf("schema:\n%s\nArrow's Parquet reader sees:\n%s", got, want)
			}
			for i, f := range got.Fields() {
				w := want.Field(i)
				if f.Name != w.Name || f.Nullable != w.Nullable {
					t.Errorf("column %d: %s nullable=%v; the Parquet table has %s nullable=%v", i, f.Name, f.Nullable, w.Name, w.Nullable)
				}
				gl, ok := f.Type.(*arrow.ListType)
				if !ok {
					if !arrow.TypeEqual(f.Type, w.Type) {
						t.Errorf("column %s: %s; the Parquet table has %s", f.Name, f.Type, w.Type)
					}
					continue
				}
				// pqarrow names a list's values after the repeated group and
				// makes them nullable whatever the element says; the
				// export keeps the element's own name and repetition.
				wl, ok := w.Type.(*arrow.ListType)
				e := gl.ElemField()
				if !ok || !arrow.TypeEqual(e.Type, wl.Elem()) || e.Name != elems[f.Name].name || e.Nullable != !elems[f.Name].required {
					t.Errorf("column %s: %s; the Parquet table has %s of %+v", f.Name, f.Type, w.Type, elems[f.Name])
				}
			}
			for k, v := range map[string]string{"snap.commit": s.Manifest.Commit, "snap.repo": s.Manifest.Repo, "snap.table": tb.Name, "snap.format_version": "1"} {
				if g, _ := got.Metadata().GetValue(k); g != v {
					t.Errorf("schema metadata %s = %q, want %q", k, g, v)
				}
			}

			rows := reflect.ValueOf(tableRows(s, tb.Name))
			n := 0
			for i := range r.NumRecords() {
				rec, err := r.Record(i)
				if err != nil {
					t.Fatal(err)
				}
				for c, col := range rec.Columns() {
					field := fieldByTag(rows.Type().Elem(), rec.ColumnName(c))
					for j := range col.Len() {
						want := normalizeCell(rows.Index(n + j).FieldByIndex(field.Index).Interface())
						if got := arrowCell(col, j); fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
							t.Fatalf("row %d, column %s: %#v, snapshot has %#v", n+j, rec.ColumnName(c), got, want)
						}
					}
				}
				n += int(rec.NumRows())
			}
			if int64(n) != tb.Rows || n != rows.Len() {
				t.Errorf("%d rows, manifest says %d", n, tb.Rows)
			}
		})
	}
}

// listElement is the element of a Parquet LIST column.
type listElement struct {
	name     string
	required bool
}

// parquetSchema is the schema Arrow's own Parquet reader sees in a table,
// and the elements of its list columns as the Parquet schema has them.
func parquetSchema(t *testing.T, path string) (*arrow.Schema, map[string]listElement) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	elems := map[string]listElement{}
	ps := pf.MetaData().Schema
	for i := range ps.NumColumns() {
		col := ps.Column(i)
		if col.MaxRepetitionLevel() > 0 {
			top, _, _ := strings.Cut(col.Path(), ".")
			elems[top] = listElement{col.Name(), col.SchemaNode().RepetitionType() == parquet.Repetitions.Required}
		}
	}
	return sc, elems
}

func fieldByTag(typ reflect.Type, column string) reflect.StructField {
	for i := range typ.NumField() {
		if name, _, _ := strings.Cut(typ.Field(i).Tag.Get("parquet"), ","); name == column {
			return typ.Field(i)
		}
	}
	panic("no field for column " + column)
}

func normalizeCell(v any) any {
	if s, ok := v.([]string); ok && s == nil {
		return []string{}
	}
	return v
}

func arrowCell(a arrow.Array, i int) any {
	switch a := a.(type) {
	case *array.Uint64:
		return a.Value(i)
	case *array.Uint32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return bytes.Clone(a.Value(i))
	case *array.List:
		start, end := a.ValueOffsets(i)
		out := []string{}
		for j := start; j < end; j++ {
			out = append(out, a.ListValues().(*array.String).Value(int(j)))
		}
		return out
	}
	return fmt.Sprintf("unexpected %T", a)
}

// TestExportJSONL parses every line of every exported table: the counts
// are the manifest's, the keys are the columns in table order, ids are
// exact above 2^53, binary is base64, and the values are the rows'.
func TestExportJSONL(t *testing.T) {
	dir, _, s := indexed(t, "../../testdata/python/app")
	out := filepath.Join(t.TempDir(), "jsonl")
	if code, _, stderr := run(t, dir, "export", "--format", "jsonl", "--out", out); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	for _, tb := range s.Manifest.Tables {
		t.Run(tb.Name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(out, tb.Name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			rows := reflect.ValueOf(tableRows(s, tb.Name))
			typ := rows.Type().Elem()
			var columns []string
			for i := range typ.NumField() {
				name, _, _ := strings.Cut(typ.Field(i).Tag.Get("parquet"), ",")
				columns = append(columns, name)
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 64<<20)
			n := 0
			for sc.Scan() {
				line := sc.Bytes()
				if got := jsonKeys(t, line); !reflect.DeepEqual(got, columns) {
					t.Fatalf("line %d has keys %v, want the columns %v", n+1, got, columns)
				}
				// Decoded into the row type, the line is the row.
				row := reflect.New(typ)
				dec := json.NewDecoder(bytes.NewReader(line))
				dec.DisallowUnknownFields()
				if err := dec.Decode(row.Interface()); err != nil {
					t.Fatalf("line %d: %v\n%s", n+1, err, line)
				}
				want := rows.Index(n).Interface()
				if got := row.Elem().Interface(); fmt.Sprintf("%#v", normalizeRow(got)) != fmt.Sprintf("%#v", normalizeRow(want)) {
					t.Fatalf("line %d:\n%#v\nsnapshot has\n%#v", n+1, got, want)
				}
				n++
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if int64(n) != tb.Rows {
				t.Errorf("%d lines, manifest says %d rows", n, tb.Rows)
			}
		})
	}
	// Spot checks of the form itself, on the raw text.
	nodes, _ := os.ReadFile(filepath.Join(out, "nodes.jsonl"))
	big := false
	for _, n := range s.Nodes {
		if n.ID > 1<<53 {
			big = true
			if !bytes.Contains(nodes, []byte(`{"id":`+strconv.FormatUint(n.ID, 10)+`,`)) {
				t.Errorf("node id %d is not written exactly", n.ID)
			}
			break
		}
	}
	sources, _ := os.ReadFile(filepath.Join(out, "sources.jsonl"))
	src := s.Sources[0]
	if !big || !bytes.Contains(sources, []byte(`"content":"`+base64.StdEncoding.EncodeToString(src.Content)+`"`)) {
		t.Errorf("big ids %v; sources.content is not base64 of %s", big, src.Path)
	}
}

// jsonKeys lists the keys of a JSON object in the order written.
func jsonKeys(t *testing.T, line []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", line)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// normalizeRow makes a nil list and an empty one compare equal.
func normalizeRow(row any) any {
	if n, ok := row.(schemas.Node); ok && n.Decorators == nil {
		n.Decorators = []string{}
		return n
	}
	return row
}

// TestExportParquet copies the tables and the manifest as they are: the
// folder is a snapshot that verifies.
func TestExportParquet(t *testing.T) {
	dir, snap, s := indexed(t, "../../testdata/go/shop")
	out := filepath.Join(t.TempDir(), "pq")
	if code, _, stderr := run(t, dir, "export", "--format", "parquet", "--out", out); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	for _, name := range append([]string{schemas.ManifestFile}, tableFiles(s)...) {
		a, _ := os.ReadFile(filepath.Join(snap, name))
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s is not copied as it is (%v)", name, err)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != len(s.Manifest.Tables)+1 {
		t.Errorf("%d files, want the %d tables and the manifest", len(entries), len(s.Manifest.Tables))
	}
	if code, stdout, stderr := run(t, dir, "verify", out); code != 0 || !strings.HasPrefix(stdout, "ok: ") {
		t.Errorf("verify of the export: exit %d, %s %s", code, stdout, stderr)
	}
}

func tableFiles(s *snapshot.Snapshot) []string {
	var out []string
	for _, t := range s.Manifest.Tables {
		out = append(out, t.File)
	}
	return out
}

// TestExportChoosesSnapshot exports by HEAD (no argument), by branch, by
// a commit's prefix and by folder, and names the default folder after the
// commit.
func TestExportChoosesSnapshot(t *testing.T) {
	dir, commits := history(t, 2)
	commitOf := func(out string) string {
		m, err := snapshot.VerifyDir(context.Background(), out)
		if err != nil {
			t.Fatalf("verify %s: %v", out, err)
		}
		return m.Commit
	}
	tmp := t.TempDir()
	folder, _ := snapshot.Prefix("example/shop", "main", commits[0])
	for i, c := range []struct {
		args []string
		want string
	}{
		{nil, commits[1]},
		{[]string{"main"}, commits[1]},
		{[]string{commits[0][:8]}, commits[0]},
		{[]string{filepath.Join(dir, ".snap", filepath.FromSlash(folder))}, commits[0]},
		{[]string{"--repo", "example/shop", commits[0][:8]}, commits[0]},
	} {
		out := filepath.Join(tmp, strconv.Itoa(i))
		args := append([]string{"export", "--format", "parquet", "--out", out}, c.args...)
		if code, _, stderr := run(t, dir, args...); code != 0 {
			t.Fatalf("snap %v: exit %d: %s", args, code, stderr)
		}
		if got := commitOf(out); got != c.want {
			t.Errorf("snap %v exported %s, want %s", args, got, c.want)
		}
	}
	// The default folder, in the working folder.
	code, stdout, stderr := run(t, dir, "export", "--format", "jsonl")
	want := "snap-" + commits[1][:12] + "-jsonl"
	if code != 0 || strings.TrimSpace(stdout) != want || !strings.Contains(stderr, "exported example/shop main "+commits[1][:12]+" as jsonl: nodes ") {
		t.Errorf("default --out: exit %d, %q, %q; want %s", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, want, "nodes.jsonl")); err != nil {
		t.Error(err)
	}
}

// TestExportS3 exports from a bucket: the HEAD of this checkout's branch,
// and a commit by its prefix.
func TestExportS3(t *testing.T) {
	srv := s3test.Start(t)
	setEnv(t, srv.Env())
	dir, commits := history(t, 1)
	url := srv.URL("export")
	if code, _, stderr := run(t, dir, "push", "--store", url); code != 0 {
		t.Fatal(stderr)
	}
	prefix, _ := snapshot.Prefix("example/shop", "main", commits[0])
	local := readDir(t, filepath.Join(dir, ".snap", filepath.FromSlash(prefix)))
	tmp := t.TempDir()
	if code, _, stderr := run(t, dir, "export", "--format", "parquet", "--store", url, "--out", filepath.Join(tmp, "pq")); code != 0 {
		t.Fatalf("parquet from a bucket: exit %d: %s", code, stderr)
	}
	if s := readDir(t, filepath.Join(tmp, "pq")); s.Manifest.Commit != commits[0] || len(s.Nodes) != len(local.Nodes) {
		t.Errorf("parquet from a bucket: commit %s, %d nodes; want %s, %d", s.Manifest.Commit, len(s.Nodes), commits[0], len(local.Nodes))
	}
	if code, _, stderr := run(t, dir, "export", "--format", "jsonl", "--store", url, "--out", filepath.Join(tmp, "jsonl"), commits[0][:8]); code != 0 {
		t.Fatalf("jsonl from a bucket: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(tmp, "jsonl", "edges.jsonl"))
	if n := bytes.Count(data, []byte("\n")); n != len(local.Edges) {
		t.Errorf("edges.jsonl from a bucket: %d lines, want %d", n, len(local.Edges))
	}
}

// TestExportRefuses holds the usage errors (exit 2) and the refusal of a
// damaged snapshot (exit 1, nothing written).
func TestExportRefuses(t *testing.T) {
	dir, snap, _ := indexed(t, "../../testdata/go/shop")
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(tmp, "file"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(tmp, "checkout", ".git"), 0o755)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "--format is required"},
		{[]string{"export", "--format", "csv"}, `--format "csv" is not a format`},
		{[]string{"export", "--format", "arrow", "a", "b"}, "takes 0 to 1 arguments"},
		{[]string{"export", "--format", "arrow", snap, "--out", "x"}, "put flags first"},
		{[]string{"export", "--format", "arrow", "--out", full}, "is not empty: choose another folder, or replace it with --force"},
		{[]string{"export", "--format", "arrow", "--out", filepath.Join(tmp, "file")}, "is not a folder"},
		{[]string{"export", "--format", "arrow", "--out", filepath.Join(dir, ".snap"), "--force"}, "holds a snapshot store"},
		{[]string{"export", "--format", "arrow", "--out", filepath.Join(snap, "x")}, "inside a snapshot store"},
		{[]string{"export", "--format", "arrow", "--out", filepath.Join(tmp, "checkout"), "--force"}, "holds a git repository"},
		{[]string{"export", "--format", "arrow", "--out", dir, "--force"}, "holds the working folder"},
		{[]string{"export", "--format", "arrow", "--branch", "main", snap}, "exclude each other"},
		{[]string{"export", "--format", "arrow", "nosuchref"}, "is not a snapshot folder, nor a branch or commit"},
	} {
		code, _, stderr := run(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if code, _, stderr := run(t, t.TempDir(), "export", "--format", "arrow"); code != 2 || !strings.Contains(stderr, "snap index") {
		t.Errorf("export with no store: exit %d, %q", code, stderr)
	}

	// --force replaces the folder whole.
	if code, _, stderr := run(t, dir, "export", "--format", "arrow", "--out", full, "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(full, "notes.txt")); err == nil {
		t.Error("--force kept a file of the folder it replaced")
	}
	if _, err := os.Stat(filepath.Join(full, "nodes.arrow")); err != nil {
		t.Error(err)
	}

	// A damaged table is refused in every format, and nothing is left.
	edges := filepath.Join(snap, "edges.parquet")
	data, _ := os.ReadFile(edges)
	data[len(data)/2] ^= 0xff
	os.WriteFile(edges, data, 0o644)
	parent := t.TempDir()
	for _, format := range []string{"arrow", "parquet", "jsonl"} {
		code, _, stderr := run(t, dir, "export", "--format", format, "--out", filepath.Join(parent, format), snap)
		if code != 1 || !strings.Contains(stderr, "edges") || !strings.Contains(stderr, "sha256") {
			t.Errorf("%s export of a flipped byte: exit %d, %q", format, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("a refused export left %v", entries)
	}
}

// TestExportEmpty exports a snapshot whose tables have no rows.
func TestExportEmpty(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	if code, _, stderr := run(t, dir, "index", "-q"); code != 0 {
		t.Fatal(stderr)
	}
	for _, format := range []string{"arrow", "jsonl"} {
		out := filepath.Join(t.TempDir(), format)
		if code, _, stderr := run(t, dir, "export", "--format", format, "--out", out); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		f, err := os.Open(filepath.Join(out, "nodes."+format))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if format == "jsonl" {
			if fi, _ := f.Stat(); fi.Size() != 0 {
				t.Errorf("nodes.jsonl of no rows has %d bytes", fi.Size())
			}
			continue
		}
		r, err := ipc.NewFileReader(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Schema().Fields()) != 23 {
			t.Errorf("nodes.arrow of no rows: schema %s", r.Schema())
		}
		r.Close()
	}
}
