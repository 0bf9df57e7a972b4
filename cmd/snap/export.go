package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/urfave/cli/v2"
	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// exportFormats are the forms `snap export` writes, and their files'
// extensions.
var exportFormats = map[string]string{"arrow": ".arrow", "parquet": ".parquet", "jsonl": ".jsonl"}

// exportBatch is the number of rows converted at a time: small enough that
// a batch of the sources table (whole files) stays a few MiB.
const exportBatch = 4096

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a snapshot's tables for notebooks: Arrow IPC, Parquet or JSON Lines",
		UsageText: "snap export --format arrow|parquet|jsonl [--out FOLDER] [--force] [--store URL] [--repo NAME] [--branch BRANCH] [SNAPSHOT]",
		ArgsUsage: "[SNAPSHOT]",
		Description: "Writes every table of one snapshot into a folder, one file per table:\n" +
			"  arrow    Arrow IPC files (nodes.arrow, …), uncompressed, so a reader can map them;\n" +
			"           the columns and types are those of schemas/FORMAT.md, none nullable, and\n" +
			"           the schema's metadata names the repo, branch, commit and table\n" +
			"  parquet  the tables as they are, with manifest.json: the folder is a snapshot\n" +
			"           that `snap verify` accepts\n" +
			"  jsonl    one JSON object per row (nodes.jsonl, …), columns in table order; ids are\n" +
			"           exact JSON integers up to 2^64-1 (a reader that parses numbers as doubles,\n" +
			"           such as JavaScript or jq, loses precision above 2^53: prefer arrow there);\n" +
			"           binary columns (sources.content) are base64\n\n" +
			"SNAPSHOT is a snapshot folder, a branch (its HEAD) or a commit (or a unique prefix\n" +
			"of one) of the repository in the store; without it, the HEAD of this checkout's\n" +
			"branch. The snapshot is verified first (checksums, schema, row order); the files are\n" +
			"written into a temporary folder beside --out and renamed into place when all are\n" +
			"written. --out must not exist or be empty, unless --force replaces it. The folder\n" +
			"is printed on stdout.\n\n" +
			"Examples:\n  snap export --format arrow --out graph\n" +
			"  snap export --format jsonl --out /tmp/main main\n" +
			"  snap export --format parquet --store s3://bucket/graphs --repo acme/shop 3f2a9c1\n\n" +
			"Flags go before SNAPSHOT.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "`FORMAT` of the files: arrow, parquet or jsonl (required)"},
			&cli.StringFlag{Name: "out", Usage: "`FOLDER` to write (default: snap-<commit>-<format> in the working folder)"},
			&cli.BoolFlag{Name: "force", Usage: "replace --out when it is a folder that is not empty"},
			&cli.StringFlag{Name: "store", Usage: "store `URL` holding the snapshot (default: .snap/ at the repository root)"},
			&cli.StringFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's)"},
			&cli.StringFlag{Name: "branch", Usage: "`BRANCH` whose HEAD to export when no SNAPSHOT is given (default: this checkout's)"},
		},
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, 1); err != nil {
				return err
			}
			format := c.String("format")
			if format == "" {
				return usagef("export: --format is required: arrow, parquet or jsonl")
			}
			if _, ok := exportFormats[format]; !ok {
				return usagef("export: --format %q is not a format (have arrow, parquet, jsonl)", format)
			}
			if c.NArg() == 1 && c.String("branch") != "" {
				return usagef("export: --branch and SNAPSHOT exclude each other (SNAPSHOT may name a branch)")
			}
			ctx := c.Context
			var src source
			var err error
			if c.NArg() == 1 {
				src, err = refSource(ctx, c, "export", c.Args().First())
			} else {
				src, err = findSnapshot(ctx, c)
			}
			if err != nil {
				return err
			}
			res, err := exportSnapshot(ctx, src, format, c.String("out"), c.Bool("force"))
			if err != nil {
				return err
			}
			var parts []string
			for _, t := range res.Tables {
				parts = append(parts, fmt.Sprintf("%s %d", t.Name, t.Rows))
			}
			m := res.Manifest
			fmt.Fprintf(c.App.ErrWriter, "exported %s %s %s as %s: %s rows\n", m.Repo, m.Branch, short(m.Commit), format, strings.Join(parts, ", "))
			if len(res.Skipped) > 0 {
				fmt.Fprintf(c.App.ErrWriter, "left out tables this build does not know (--format parquet copies them): %s\n", strings.Join(res.Skipped, ", "))
			}
			fmt.Fprintln(c.App.Writer, res.Dir)
			return nil
		},
	}
}

// refSource finds the snapshot an argument names: a snapshot folder, a
// branch of the repository in the store (its HEAD), or a commit or a
// unique prefix of one. verb starts its messages.
func refSource(ctx context.Context, c *cli.Context, verb, arg string) (source, error) {
	if fi, err := os.Stat(filepath.Join(arg, schemas.ManifestFile)); err == nil && !fi.IsDir() {
		st, err := snapshot.OpenDir(arg)
		if err != nil {
			return source{}, usagef("%s: %s: %v", verb, arg, err)
		}
		return source{store: st, label: arg}, nil
	}
	id := detect(ctx, ".")
	repo := id.Repo
	if v := c.String("repo"); v != "" {
		repo = v
	}
	st, err := openExistingStore(c.String("store"), id.Root)
	if err != nil {
		return source{}, err
	}
	head, _, err := snapshot.ReadHead(ctx, st.store, repo, arg)
	if err == nil {
		prefix, err := snapshot.Prefix(repo, arg, head.Commit)
		if err != nil {
			return source{}, err
		}
		return source{store: st.store, prefix: prefix, label: arg, manifestSHA256: head.ManifestSHA256}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return source{}, storeError(st, err)
	}
	list, err := snapshot.Catalog(ctx, st.store, repo, "")
	if err != nil {
		return source{}, storeError(st, err)
	}
	var hits []string
	var prefix string
	for _, b := range list {
		for _, s := range b.Snapshots {
			if s.Complete && len(arg) >= 4 && strings.HasPrefix(s.Commit, arg) && !slices.Contains(hits, s.Commit) {
				hits = append(hits, s.Commit)
				prefix, _ = snapshot.Prefix(repo, b.Branch, s.Commit)
			}
		}
	}
	switch len(hits) {
	case 1:
		return source{store: st.store, prefix: prefix, label: arg}, nil
	case 0:
		return source{}, usagef("%s: %s is not a snapshot folder, nor a branch or commit of %s in %s (see `snap ls`)", verb, arg, repo, st.label)
	}
	return source{}, usagef("%s: %s names %d commits of %s: %s; give more of it", verb, arg, len(hits), repo, strings.Join(hits, ", "))
}

// exported says what exportSnapshot wrote.
type exported struct {
	Dir      string
	Manifest schemas.Manifest
	Tables   []schemas.Table // written, as the manifest lists them
	Skipped  []string        // tables this build cannot convert
}

// exportSnapshot verifies the snapshot src names and writes its tables in
// format into out ("" for the default folder): into a temporary folder
// beside out first, tables then (for parquet) manifest.json, each synced,
// and the folder renamed into place last.
func exportSnapshot(ctx context.Context, src source, format, out string, force bool) (exported, error) {
	// Parquet copies the verified bytes; arrow and jsonl convert the rows
	// our reader decoded, checking as it went everything Verify checks.
	var m schemas.Manifest
	var raw []byte
	var snap *snapshot.Snapshot
	var err error
	if format == "parquet" {
		m, raw, err = verifiedManifest(ctx, src)
	} else {
		snap, err = snapshot.Read(ctx, src.store, src.prefix, snapshot.ReadOptions{ManifestSHA256: src.manifestSHA256})
		if snap != nil {
			m = snap.Manifest
		}
	}
	if err != nil {
		return exported{}, fmt.Errorf("export %s: %w", src.label, err)
	}
	if out == "" {
		out = "snap-" + short(m.Commit) + "-" + format
	}
	out = filepath.Clean(out)
	if err := checkOut(out, force); err != nil {
		return exported{}, err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return exported{}, fmt.Errorf("export: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".snap-export-*")
	if err != nil {
		return exported{}, fmt.Errorf("export: %w", err)
	}
	defer os.RemoveAll(tmp) // nothing left to remove once renamed
	if err := os.Chmod(tmp, 0o755); err != nil {
		return exported{}, fmt.Errorf("export: %w", err)
	}
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return exported{}, fmt.Errorf("export: %w", err)
	}
	defer root.Close()

	res := exported{Dir: out, Manifest: m}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, t := range m.Tables {
		var rows any
		if snap != nil {
			if rows = tableRows(snap, t.Name); rows == nil {
				res.Skipped = append(res.Skipped, t.Name)
				continue
			}
		}
		res.Tables = append(res.Tables, t)
		g.Go(func() error {
			var err error
			if format == "parquet" {
				err = copyTable(gctx, src, root, t)
			} else {
				err = convertTable(gctx, root, m, t, rows, format)
			}
			if err != nil {
				return fmt.Errorf("export %s: table %s: %w", src.label, t.Name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return exported{}, err
	}
	if format == "parquet" {
		// The manifest as it is, last: the folder is a snapshot itself.
		if err := writeFile(root, schemas.ManifestFile, func(w io.Writer) error {
			_, err := w.Write(raw)
			return err
		}); err != nil {
			return exported{}, fmt.Errorf("export: %w", err)
		}
	}
	if err := syncDir(tmp); err != nil {
		return exported{}, fmt.Errorf("export: %w", err)
	}
	if err := publishDir(tmp, out); err != nil {
		return exported{}, fmt.Errorf("export: %w", err)
	}
	return res, nil
}

// tableRows returns the rows of a table this build knows, nil for
// another.
func tableRows(s *snapshot.Snapshot, name string) any {
	switch name {
	case schemas.TableNodes:
		return s.Nodes
	case schemas.TableEdges:
		return s.Edges
	case schemas.TableFiles:
		return s.Files
	case schemas.TableSources:
		return s.Sources
	case schemas.TableRefs:
		return s.Refs
	}
	return nil
}

// verifiedManifest verifies the snapshot (every table's size, SHA-256,
// Parquet structure, schema, row count and order) and returns its
// manifest and manifest.json's bytes, checked against HEAD's digest when
// the snapshot was found through HEAD.
func verifiedManifest(ctx context.Context, src source) (schemas.Manifest, []byte, error) {
	m, raw, err := snapshot.ReadManifest(ctx, src.store, src.prefix)
	if err != nil {
		return schemas.Manifest{}, nil, err
	}
	if src.manifestSHA256 != "" && sha256Hex(raw) != src.manifestSHA256 {
		return schemas.Manifest{}, nil, fmt.Errorf("manifest sha256 mismatch: HEAD says %s, manifest has %s", src.manifestSHA256, sha256Hex(raw))
	}
	vm, err := snapshot.Verify(ctx, src.store, src.prefix)
	if err != nil {
		return schemas.Manifest{}, nil, err
	}
	if !slices.Equal(vm.Tables, m.Tables) {
		return schemas.Manifest{}, nil, errors.New("the manifest changed while it was verified")
	}
	return m, raw, nil
}

// checkOut refuses an --out that is a file, a folder that is not empty
// (unless force), a folder that holds a git repository or the working
// folder, or a place in a store or a store itself: export never writes
// into a store.
func checkOut(out string, force bool) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, el := range strings.Split(filepath.ToSlash(abs), "/") {
		if strings.HasPrefix(el, "repo=") || strings.HasPrefix(el, "branch=") || strings.HasPrefix(el, "commit=") {
			return usagef("export: --out %s is inside a snapshot store: choose a folder outside it", out)
		}
	}
	fi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if !fi.IsDir() {
		return usagef("export: --out %s is not a folder", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Name(), "repo="):
			return usagef("export: --out %s holds a snapshot store: choose another folder", out)
		case e.Name() == ".git":
			return usagef("export: --out %s holds a git repository: choose another folder", out)
		}
	}
	if len(entries) > 0 && !force {
		return usagef("export: --out %s is not empty: choose another folder, or replace it with --force", out)
	}
	if wd, err := os.Getwd(); err == nil && (wd == abs || strings.HasPrefix(wd, abs+string(filepath.Separator))) {
		return usagef("export: --out %s holds the working folder: choose another folder", out)
	}
	return nil
}

// publishDir renames the folder tmp to out, moving an existing out aside
// first and removing it once tmp is in place.
func publishDir(tmp, out string) error {
	old := ""
	if _, err := os.Lstat(out); err == nil {
		old = tmp + ".old"
		if err := os.Rename(out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		if old != "" {
			os.Rename(old, out)
		}
		return err
	}
	if err := syncDir(filepath.Dir(out)); err != nil {
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// writeFile creates name in root (it must not exist), lets write fill it
// through a buffer, and syncs it.
func writeFile(root *os.Root, name string, write func(w io.Writer) error) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// copyTable copies a table's file as it is, checking it is the one the
// verified manifest names.
func copyTable(ctx context.Context, src source, root *os.Root, t schemas.Table) error {
	key := t.File
	if src.prefix != "" {
		key = src.prefix + "/" + t.File
	}
	rc, _, err := src.store.Get(ctx, key)
	if err != nil {
		return err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, t.Bytes+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", t.File, err)
	}
	if int64(len(data)) != t.Bytes || sha256Hex(data) != t.SHA256 {
		return fmt.Errorf("%s changed after it was verified: %d bytes, sha256 %s; manifest says %d, %s",
			t.File, len(data), sha256Hex(data), t.Bytes, t.SHA256)
	}
	return writeFile(root, t.File, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// convertTable writes the rows of one table (a slice of a row type of
// schemas) as an Arrow IPC file, its schema carrying the snapshot's
// repo, branch, commit and table, or as JSON Lines.
func convertTable(ctx context.Context, root *os.Root, m schemas.Manifest, t schemas.Table, rows any, format string) error {
	v := reflect.ValueOf(rows)
	cols, err := arrowColumns(v.Type().Elem())
	if err != nil {
		return err
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.field
	}
	meta := arrow.NewMetadata(
		[]string{"snap.repo", "snap.branch", "snap.commit", "snap.table", "snap.format_version"},
		[]string{m.Repo, m.Branch, m.Commit, t.Name, strconv.Itoa(m.FormatVersion)})
	schema := arrow.NewSchema(fields, &meta)
	name := strings.TrimSuffix(t.File, ".parquet") + exportFormats[format]
	return writeFile(root, name, func(w io.Writer) error {
		var write func(arrow.Record) error
		var finish func() error
		switch format {
		case "arrow":
			fw, err := ipc.NewFileWriter(&positionWriter{w: w}, ipc.WithSchema(schema), ipc.WithAllocator(memory.DefaultAllocator))
			if err != nil {
				return err
			}
			write, finish = fw.Write, fw.Close
		case "jsonl":
			jw := newJSONLWriter(w, schema)
			write, finish = jw.write, func() error { return nil }
		default:
			return fmt.Errorf("unknown format %q", format)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer b.Release()
		// One batch at least, so that an empty table has its schema too.
		for start := 0; start == 0 || start < v.Len(); start += exportBatch {
			if err := ctx.Err(); err != nil {
				return err
			}
			end := min(start+exportBatch, v.Len())
			for i := start; i < end; i++ {
				row := v.Index(i)
				for c, col := range cols {
					col.append(b.Field(c), row.Field(col.index))
				}
			}
			rec := b.NewRecord()
			err := write(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return finish()
	})
}

// positionWriter tells the Arrow file writer its position, the only
// seek it makes, so that it can write through a buffer.
type positionWriter struct {
	w   io.Writer
	pos int64
}

func (p *positionWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *positionWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return p.pos, errors.New("positionWriter: only tells the position")
	}
	return p.pos, nil
}

// arrowColumn is one column of a row type: its Arrow field, named by the
// parquet tag, and how a Go value is appended to its builder.
type arrowColumn struct {
	field  arrow.Field
	index  int // of the struct field
	append func(b array.Builder, v reflect.Value)
}

// arrowColumns maps the fields of a row type of schemas, in order, to
// Arrow columns of the types FORMAT.md declares, none nullable: unsigned
// and signed integers as themselves, float as float32, bool, string as
// utf8, []byte as binary, []string as list<element: utf8 not null>.
func arrowColumns(t reflect.Type) ([]arrowColumn, error) {
	var cols []arrowColumn
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if name == "" || name == "-" {
			continue
		}
		c := arrowColumn{index: i}
		switch f.Type.Kind() {
		case reflect.Uint64:
			c.field.Type = arrow.PrimitiveTypes.Uint64
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Uint64Builder).Append(v.Uint()) }
		case reflect.Uint32:
			c.field.Type = arrow.PrimitiveTypes.Uint32
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Uint32Builder).Append(uint32(v.Uint())) }
		case reflect.Int64:
			c.field.Type = arrow.PrimitiveTypes.Int64
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Int64Builder).Append(v.Int()) }
		case reflect.Int32:
			c.field.Type = arrow.PrimitiveTypes.Int32
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Int32Builder).Append(int32(v.Int())) }
		case reflect.Float32:
			c.field.Type = arrow.PrimitiveTypes.Float32
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.Float32Builder).Append(float32(v.Float())) }
		case reflect.Bool:
			c.field.Type = arrow.FixedWidthTypes.Boolean
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.BooleanBuilder).Append(v.Bool()) }
		case reflect.String:
			c.field.Type = arrow.BinaryTypes.String
			c.append = func(b array.Builder, v reflect.Value) { b.(*array.StringBuilder).Append(v.String()) }
		case reflect.Slice:
			switch f.Type.Elem().Kind() {
			case reflect.Uint8:
				c.field.Type = arrow.BinaryTypes.Binary
				c.append = func(b array.Builder, v reflect.Value) { b.(*array.BinaryBuilder).Append(v.Bytes()) }
			case reflect.String:
				// As the Parquet schema says: a LIST whose repeated group
				// holds a required "element".
				c.field.Type = arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String})
				c.append = func(b array.Builder, v reflect.Value) {
					lb := b.(*array.ListBuilder)
					lb.Append(true)
					sb := lb.ValueBuilder().(*array.StringBuilder)
					for j := range v.Len() {
						sb.Append(v.Index(j).String())
					}
				}
			}
		}
		if c.append == nil {
			return nil, fmt.Errorf("column %s: no Arrow type for Go type %s", name, f.Type)
		}
		c.field.Name = name
		cols = append(cols, c)
	}
	return cols, nil
}

// jsonlWriter writes records as JSON Lines: one object per row, its keys
// the columns in schema order.
type jsonlWriter struct {
	w    io.Writer
	keys [][]byte // `"name":` per column
	buf  []byte
}

func newJSONLWriter(w io.Writer, schema *arrow.Schema) *jsonlWriter {
	jw := &jsonlWriter{w: w}
	for _, f := range schema.Fields() {
		jw.keys = append(jw.keys, append(appendJSONString(nil, f.Name), ':'))
	}
	return jw
}

func (jw *jsonlWriter) write(rec arrow.Record) error {
	cols := rec.Columns()
	for i := range int(rec.NumRows()) {
		b := append(jw.buf[:0], '{')
		for c, col := range cols {
			if c > 0 {
				b = append(b, ',')
			}
			b = append(b, jw.keys[c]...)
			var err error
			if b, err = appendJSONValue(b, col, i); err != nil {
				return fmt.Errorf("column %s: %w", rec.ColumnName(c), err)
			}
		}
		b = append(b, '}', '\n')
		if _, err := jw.w.Write(b); err != nil {
			return err
		}
		jw.buf = b
	}
	return nil
}

// appendJSONValue appends the JSON form of a[i]: integers exactly,
// floats in their shortest form, strings escaped, binary as base64,
// lists as arrays, null as null.
func appendJSONValue(b []byte, a arrow.Array, i int) ([]byte, error) {
	if a.IsNull(i) {
		return append(b, "null"...), nil
	}
	switch a := a.(type) {
	case *array.Uint64:
		return strconv.AppendUint(b, a.Value(i), 10), nil
	case *array.Uint32:
		return strconv.AppendUint(b, uint64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.AppendInt(b, a.Value(i), 10), nil
	case *array.Int32:
		return strconv.AppendInt(b, int64(a.Value(i)), 10), nil
	case *array.Float32:
		return appendJSONFloat(b, float64(a.Value(i)), 32)
	case *array.Float64:
		return appendJSONFloat(b, a.Value(i), 64)
	case *array.Boolean:
		return strconv.AppendBool(b, a.Value(i)), nil
	case *array.String:
		return appendJSONString(b, a.Value(i)), nil
	case *array.Binary:
		v := a.Value(i)
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v)
		return append(b, '"'), nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		b = append(b, '[')
		for j := start; j < end; j++ {
			if j > start {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONValue(b, vals, int(j)); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	return b, fmt.Errorf("cannot write Arrow type %s as JSON", a.DataType())
}

func appendJSONFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("%v has no JSON form", f)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits), nil
}

// appendJSONString appends s as a JSON string, escaping what JSON and
// JavaScript need and nothing more (no HTML escapes); invalid UTF-8
// becomes U+FFFD, as with encoding/json.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
