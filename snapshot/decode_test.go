package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/graphsnap/snap/schemas"
)

// decodeRowsGeneric is how decodeRows used to decode, through parquet-go's
// row reader (GenericReader, which reconstructs rows by reflection): the
// reference the column readers must agree with.
func decodeRowsGeneric[T any](s *tableSpec[T], data []byte, maxRows int64) (rows []T, err error) {
	want, err := s.schemaOnce()
	if err != nil {
		return nil, err
	}
	md, err := checkParquet(data, want, maxRows)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			rows, err = nil, fmt.Errorf("decode: parquet reader failed: %v", p)
		}
	}()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)),
		parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("open parquet: %w", err)
	}
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	rows = make([]T, 0, min(md.NumRows, int64(len(data))))
	for {
		if len(rows) == cap(rows) {
			rows = slices.Grow(rows, 1024)
		}
		n, err := r.Read(rows[len(rows):cap(rows)])
		rows = rows[:len(rows)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
		if int64(len(rows)) > md.NumRows {
			break
		}
	}
	if int64(len(rows)) != md.NumRows {
		return nil, fmt.Errorf("decode: read %d rows, footer says %d", len(rows), md.NumRows)
	}
	return rows, nil
}

// testTables returns n rows of every table in which every column is
// non-zero somewhere and zero (empty) elsewhere, with strings long enough
// to fill several pages, non-UTF-8 bytes, and empty and non-empty lists.
func testTables(n int) ([]schemas.Node, []schemas.Edge, []schemas.File, []schemas.Source, []schemas.Ref) {
	str := func(i int, s string) string {
		switch i % 7 {
		case 0:
			return ""
		case 3:
			return s + "\xff\xfe" + strconv.Itoa(i) // not UTF-8
		case 5:
			return strings.Repeat(s, 1+i%40) // long
		}
		return s + strconv.Itoa(i)
	}
	pick := func(i int, vals ...string) string { return vals[i%len(vals)] }
	nodes := make([]schemas.Node, n)
	edges := make([]schemas.Edge, n)
	files := make([]schemas.File, n)
	sources := make([]schemas.Source, n)
	refs := make([]schemas.Ref, n)
	for i := range n {
		u := uint64(i)
		nodes[i] = schemas.Node{
			ID: u*0x9e3779b97f4a7c15>>1 + u, Kind: pick(i, "file", "function", "", "method"), Name: str(i, "name"),
			QualifiedName: str(i+1, "pkg.name"), Language: pick(i/3, "go", "python", ""), File: pick(i/5, "a.go", "", "ü/b.go", "c\xff.go"),
			StartLine: uint32(i * 3), StartCol: uint32(i % 9), EndLine: uint32(i*3 + i%4), EndCol: uint32(i % 11),
			StartByte: uint32(i * 17), EndByte: ^uint32(i), ParentID: u * 31 % 1000, Signature: str(i+2, "func f()"),
			Doc: str(i+4, "Doc comment. "), Visibility: pick(i, "public", "private", ""), Exported: i%2 == 0,
			IsAsync: i%3 == 0, IsStatic: i%5 == 0, IsAbstract: i%7 == 0, IsTest: i%11 == 0, BodyHash: ^u * 7,
		}
		switch i % 4 {
		case 0:
			nodes[i].Decorators = []string{}
		case 1:
			nodes[i].Decorators = []string{str(i, "deco")}
		case 2:
			nodes[i].Decorators = []string{"", str(i+3, "x"), "@trace(\"ü\")"}
		case 3:
			nodes[i].Decorators = nil // reads back as []string{}
		}
		edges[i] = schemas.Edge{
			Src: u / 3, Dst: u * 5, Kind: pick(i, "calls", "contains"), File: pick(i/7, "a.go", "b.go", ""), Line: uint32(i),
			Col: uint32(i % 13), Target: str(i, "t.target"), Resolution: pick(i, "scope", "", "unresolved"),
			Confidence: float32(i%5) / 4, Reason: pick(i, "", "no_import"), Args: str(i+5, "arg, "),
			InLoop: i%2 == 1, InTry: i%3 == 1, Conditional: i%4 == 1, SrcRow: int32(i / 3), DstRow: int32(i) - 1,
		}
		files[i] = schemas.File{
			Path: fmt.Sprintf("p%08d", i), Language: pick(i, "go", ""), SHA256: str(i, "ab"), Size: int64(i) * 1e6,
			Lines: uint32(i), Status: pick(i, "ok", "parse_error", "unsupported"), Error: str(i+6, "error: "),
			IsTest: i%2 == 0, IsGenerated: i%3 == 0,
		}
		content := []byte(str(i, "package x\n"))
		if i%9 == 1 {
			content = []byte{0xff, 0xfe, 0, 0x80, byte(i)}
		}
		sources[i] = schemas.Source{Path: files[i].Path, Content: content}
		refs[i] = schemas.Ref{
			File: pick(i/100, "a.go", "b.go", "c.go"), Src: u * 3, Kind: pick(i, "calls", "type", ""), Target: str(i, "x.y"),
			Expr: str(i+1, "{T}.m()"), Line: uint32(i), Col: uint32(i % 17), Args: str(i+2, "a"),
			InLoop: i%2 == 0, InTry: i%3 == 0, Conditional: i%5 == 0,
		}
	}
	return nodes, edges, files, sources, refs
}

// checkDecode encodes rows with spec (and the writer options given, if
// any) and checks that decodeRows and the generic reader read them back
// the same, and as written (nil lists read back empty).
func checkDecode[T any](t *testing.T, spec *tableSpec[T], rows []T, opts ...parquet.WriterOption) {
	t.Helper()
	var data []byte
	if opts == nil {
		var err error
		if data, err = encodeRows(spec, rows); err != nil {
			t.Fatal(err)
		}
	} else {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[T](&buf, opts...)
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data = buf.Bytes()
	}
	md, err := readFooter(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRows(spec, data, int64(len(rows)), 2)
	if err != nil {
		t.Fatalf("decodeRows: %v", err)
	}
	ref, err := decodeRowsGeneric(spec, data, int64(len(rows)))
	if err != nil {
		t.Fatalf("decodeRowsGeneric: %v", err)
	}
	if len(got) != len(ref) {
		t.Fatalf("decodeRows read %d rows, the generic reader %d", len(got), len(ref))
	}
	// One worker decodes the row groups in turn, to the same rows.
	if one, err := decodeRows(spec, data, int64(len(rows)), 1); err != nil || !reflect.DeepEqual(one, got) {
		t.Errorf("decodeRows with one worker: %v, or rows differ from two workers'", err)
	}
	want := slices.Clone(rows)
	for i := range want {
		if n, ok := any(&want[i]).(*schemas.Node); ok && n.Decorators == nil {
			n.Decorators = []string{}
		}
	}
	bad := 0
	for i := range got {
		if !reflect.DeepEqual(got[i], ref[i]) {
			t.Errorf("row %d:\ncolumns %#v\ngeneric %#v", i, got[i], ref[i])
			bad++
		} else if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("row %d:\n    got %#v\nwritten %#v", i, got[i], want[i])
			bad++
		}
		if bad > 5 {
			t.Fatal("too many differences")
		}
	}
	encs := map[string]bool{}
	for _, rg := range md.RowGroups {
		for _, c := range rg.Columns {
			for _, e := range c.MetaData.Encoding {
				encs[e.String()] = true
			}
			for _, st := range c.MetaData.EncodingStats {
				encs[st.PageType.String()] = true
			}
		}
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	chunks, pages := 0, 0
	for _, rg := range f.RowGroups() {
		for _, c := range rg.ColumnChunks() {
			chunks++
			p := c.Pages()
			for {
				page, err := p.ReadPage()
				if err != nil {
					break
				}
				parquet.Release(page)
				pages++
			}
			p.Close()
		}
	}
	t.Logf("%d rows in %d row groups, %d pages in %d column chunks; encodings and pages: %v",
		len(rows), len(md.RowGroups), pages, chunks, slices.Sorted(maps.Keys(encs)))
}

// TestDecodeColumnsMatchesGeneric reads tables both ways: column by
// column (decodeRows) and with parquet-go's row reader.
func TestDecodeColumnsMatchesGeneric(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 5_000
	}
	nodes, edges, files, sources, refs := testTables(n)
	// Small row groups, so a table has several; the strings fill several
	// 256 KiB pages per chunk.
	t.Run("nodes", func(t *testing.T) { checkDecode(t, withRowGroups(nodesSpec, 3000), nodes) })
	t.Run("edges", func(t *testing.T) { checkDecode(t, withRowGroups(edgesSpec, 7000), edges) })
	t.Run("files", func(t *testing.T) { checkDecode(t, withRowGroups(filesSpec, 4096), files) })
	t.Run("sources", func(t *testing.T) { checkDecode(t, sourcesSpec, sources) }) // 1024 rows a group
	t.Run("refs", func(t *testing.T) { checkDecode(t, withRowGroups(refsSpec, 5000), refs) })
	if testing.Short() {
		return
	}
	// The real row group size: one more row than a group holds.
	big, _, _, _, _ := testTables(int(nodesSpec.rowGroupRows) + 1)
	t.Run("nodes-full-group", func(t *testing.T) { checkDecode(t, nodesSpec, big) })
	// Rows of zeros compress to less than a byte each: decodeRows grows
	// the rows group by group instead of allocating them at once.
	t.Run("edges-zero", func(t *testing.T) {
		zero := make([]schemas.Edge, 200_000)
		if data, _ := encodeRows(edgesSpec, zero); len(data) >= len(zero) {
			t.Fatalf("%d rows of zeros take %d bytes", len(zero), len(data))
		}
		checkDecode(t, edgesSpec, zero)
	})
}

// withRowGroups returns spec writing row groups of rows rows; it reads
// as spec does.
func withRowGroups[T any](spec *tableSpec[T], rows int64) *tableSpec[T] {
	s := *spec
	s.rowGroupRows = rows
	return &s
}

// TestDecodeOtherWriters reads files with the same schema as snap's but
// written otherwise, as another writer might: data pages v1, no
// compression, and every column dictionary-encoded, or every column
// plain, with small pages.
func TestDecodeOtherWriters(t *testing.T) {
	nodes, edges, files, sources, refs := testTables(3000)
	for _, enc := range []string{"dict", "plain"} {
		t.Run(enc, func(t *testing.T) {
			opts := func(typ any) []parquet.WriterOption {
				o := []parquet.WriterOption{
					parquet.DataPageVersion(1), parquet.PageBufferSize(4 << 10), parquet.MaxRowsPerRowGroup(1000),
					parquet.Compression(&parquet.Uncompressed),
				}
				rt := reflect.TypeOf(typ)
				for i := range rt.NumField() {
					f := rt.Field(i)
					name, rest, _ := strings.Cut(f.Tag.Get("parquet"), ",")
					tag := name + "," + enc
					if strings.Contains(rest, "list") {
						tag = name + ",list," + enc
					}
					if f.Type.Kind() == reflect.Bool && enc == "dict" {
						continue
					}
					o = append(o, parquet.StructTag(reflect.StructTag(`parquet:"`+tag+`"`), f.Name))
				}
				return o
			}
			t.Run("nodes", func(t *testing.T) { checkDecode(t, nodesSpec, nodes, opts(schemas.Node{})...) })
			t.Run("edges", func(t *testing.T) { checkDecode(t, edgesSpec, edges, opts(schemas.Edge{})...) })
			t.Run("files", func(t *testing.T) { checkDecode(t, filesSpec, files, opts(schemas.File{})...) })
			t.Run("sources", func(t *testing.T) { checkDecode(t, sourcesSpec, sources, opts(schemas.Source{})...) })
			t.Run("refs", func(t *testing.T) { checkDecode(t, refsSpec, refs, opts(schemas.Ref{})...) })
		})
	}
}

// TestColumnPlans checks every table has a reader for each of its
// columns.
func TestColumnPlans(t *testing.T) {
	for _, plan := range []func() error{
		func() error { _, err := nodesSpec.planOnce(); return err },
		func() error { _, err := edgesSpec.planOnce(); return err },
		func() error { _, err := filesSpec.planOnce(); return err },
		func() error { _, err := sourcesSpec.planOnce(); return err },
		func() error { _, err := refsSpec.planOnce(); return err },
	} {
		if err := plan(); err != nil {
			t.Error(err)
		}
	}
}

// TestDecodePanicIsError checks a panic while decoding a row group (in
// its own goroutine) comes back as an error.
func TestDecodePanicIsError(t *testing.T) {
	spec := newSpec(*filesSpec)
	spec.columns = slices.Clone(spec.columns)
	spec.columns[0] = stringColumn("path", func(*schemas.File) *string { panic("boom") })
	_, _, files, _, _ := testTables(10)
	data, err := encodeRows(spec, files)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodeRows(spec, data, 100, 2); err == nil || !strings.Contains(err.Error(), "parquet reader failed: boom") {
		t.Errorf("decodeRows = %v, want the panic as an error", err)
	}
}

// BenchmarkDecode decodes the tables of a large snapshot (see Realistic)
// column by column and, for comparison, with parquet-go's row reader:
// checks included, fetching and sort-order checks not.
func BenchmarkDecode(b *testing.B) {
	s := Realistic(300_000, 800_000, 10_000)
	benchDecode(b, nodesSpec, s.Nodes)
	benchDecode(b, edgesSpec, s.Edges)
	benchDecode(b, filesSpec, s.Files)
	benchDecode(b, sourcesSpec, s.Sources)
	benchDecode(b, refsSpec, s.Refs)
}

func benchDecode[T any](b *testing.B, spec *tableSpec[T], rows []T) {
	data, err := encodeRows(spec, rows)
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []struct {
		name   string
		decode func(*tableSpec[T], []byte, int64) ([]T, error)
	}{{"columns", func(s *tableSpec[T], data []byte, n int64) ([]T, error) {
		return decodeRows(s, data, n, runtime.GOMAXPROCS(0))
	}}, {"generic", decodeRowsGeneric[T]}} {
		b.Run(spec.name+"/"+d.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := d.decode(spec, data, int64(len(rows))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
