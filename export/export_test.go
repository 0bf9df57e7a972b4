package export

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
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

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
)

// write writes s as a snapshot folder and returns the folder.
func write(t *testing.T, s *snapshot.Snapshot) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "snapshot")
	st, err := filestore.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Write(context.Background(), st, "", s); err != nil {
		t.Fatal(err)
	}
	return dir
}

// indexed indexes a fixture into a snapshot folder and returns the folder
// and the snapshot as our reader reads it.
func indexed(t *testing.T, fixture string) (string, *snapshot.Snapshot) {
	t.Helper()
	g, err := indexer.Index(context.Background(), fixture, indexer.Options{Languages: languages.All()})
	if err != nil {
		t.Fatal(err)
	}
	dir := write(t, &snapshot.Snapshot{
		Manifest: schemas.Manifest{Repo: "example/shop", Branch: "main", Commit: "0123456789abcdef0123456789abcdef01234567"},
		Nodes:    g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs,
	})
	s, err := snapshot.ReadDir(context.Background(), dir, snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, s
}

// exportDir exports the snapshot folder snap as opts say.
func exportDir(t *testing.T, snap string, opts Options) Result {
	t.Helper()
	st, err := snapshot.OpenDir(snap)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Snapshot(context.Background(), st, "", opts)
	if err != nil {
		t.Fatalf("export %s: %v", opts.Format, err)
	}
	return res
}

// TestExportArrow reads every exported table back with Arrow's IPC
// reader: the schema is the one Arrow's own Parquet reader sees in the
// snapshot's table (names, types, nullability, lists), the schema names
// the snapshot, and every cell equals the row our reader decoded.
func TestExportArrow(t *testing.T) {
	snap, s := indexed(t, "../testdata/python/app")
	out := filepath.Join(t.TempDir(), "graph")
	if res := exportDir(t, snap, Options{Format: "arrow", Out: out}); res.Dir != out {
		t.Errorf("exported into %q, want %s", res.Dir, out)
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
	snap, s := indexed(t, "../testdata/python/app")
	out := filepath.Join(t.TempDir(), "jsonl")
	exportDir(t, snap, Options{Format: "jsonl", Out: out})
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
	snap, s := indexed(t, "../testdata/go/shop")
	out := filepath.Join(t.TempDir(), "pq")
	exportDir(t, snap, Options{Format: "parquet", Out: out})
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
	if _, err := snapshot.VerifyDir(context.Background(), out); err != nil {
		t.Errorf("verify of the export: %v", err)
	}
}

func tableFiles(s *snapshot.Snapshot) []string {
	var out []string
	for _, t := range s.Manifest.Tables {
		out = append(out, t.File)
	}
	return out
}

// TestExportRefuses refuses the folders export never writes (an
// OutError, nothing written) and a damaged snapshot in every format; with
// Force it replaces a folder whole.
func TestExportRefuses(t *testing.T) {
	snap, _ := indexed(t, "../testdata/go/shop")
	st, err := snapshot.OpenDir(snap)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(tmp, "file"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(tmp, "checkout", ".git"), 0o755)
	os.MkdirAll(filepath.Join(tmp, "store", "repo=x"), 0o755)
	work := filepath.Join(tmp, "work")
	os.MkdirAll(filepath.Join(work, "inner"), 0o755)
	t.Chdir(filepath.Join(work, "inner"))
	for _, c := range []struct {
		out   string
		force bool
		want  string
	}{
		{full, false, "is not empty: choose another folder, or replace it with --force"},
		{filepath.Join(tmp, "file"), false, "is not a folder"},
		{filepath.Join(tmp, "store"), true, "holds a snapshot store"},
		{filepath.Join(tmp, "store", "repo=x", "out"), false, "inside a snapshot store"},
		{filepath.Join(tmp, "checkout"), true, "holds a git repository"},
		{work, true, "holds the working folder"},
	} {
		_, err := Snapshot(ctx, st, "", Options{Format: "arrow", Out: c.out, Force: c.force})
		var oe *OutError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--out %s (force %v): %v; want an OutError saying %q", c.out, c.force, err, c.want)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(full, "notes.txt")); string(got) != "mine" {
		t.Errorf("a refused export changed %s", full)
	}

	// Force replaces the folder whole.
	exportDir(t, snap, Options{Format: "arrow", Out: full, Force: true})
	if _, err := os.Stat(filepath.Join(full, "notes.txt")); err == nil {
		t.Error("Force kept a file of the folder it replaced")
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
	for _, format := range Formats {
		_, err := Snapshot(ctx, st, "", Options{Format: format, Out: filepath.Join(parent, format), Label: snap})
		var oe *OutError
		if err == nil || errors.As(err, &oe) || !strings.Contains(err.Error(), "edges") || !strings.Contains(err.Error(), "sha256") {
			t.Errorf("%s export of a flipped byte: %v", format, err)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("a refused export left %v", entries)
	}
}

// TestExportEmpty exports a snapshot whose tables have no rows.
func TestExportEmpty(t *testing.T) {
	snap := write(t, &snapshot.Snapshot{Manifest: schemas.Manifest{Repo: "example/empty", Branch: "main", Commit: "tree-0123456789abcdef"},
		Sources: []schemas.Source{}})
	for _, format := range []string{"arrow", "jsonl"} {
		out := filepath.Join(t.TempDir(), format)
		exportDir(t, snap, Options{Format: format, Out: out})
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

// TestResultText says what was exported, and which tables were left
// out, on one line each.
func TestResultText(t *testing.T) {
	res := Result{Dir: "out", Format: "arrow", Manifest: schemas.Manifest{Repo: "example/shop", Branch: "main", Commit: strings.Repeat("a", 40)},
		Tables: []schemas.Table{{Name: "nodes", Rows: 12}, {Name: "edges", Rows: 30}}}
	var b strings.Builder
	res.Text(&b)
	if want := "exported example/shop main aaaaaaaaaaaa as arrow: nodes 12, edges 30 rows\n"; b.String() != want {
		t.Errorf("Text = %q, want %q", b.String(), want)
	}
	res.Skipped = []string{"later"}
	b.Reset()
	res.Text(&b)
	if !strings.HasSuffix(b.String(), "left out tables this build does not know (--format parquet copies them): later\n") {
		t.Errorf("Text with a table left out = %q", b.String())
	}
}
