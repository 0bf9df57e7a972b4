package snapshot

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
)

// Base is an earlier snapshot's tables, opened so that a Writer may copy
// their row groups as stored (Writer.CopyFrom). A row group ends where its
// own rows say (tableSpec.groupEnd) and its footer lists the digest of its
// rows, so a row group of the new snapshot whose digest a base's row group
// has holds the same rows, which encode to the same bytes: copying them
// skips encoding and compressing them. After a change to a few files, most
// row groups of sources, refs and files are copied, and of nodes and edges
// every one the change left as it was. Sources a run did not read are
// matched by their paths instead (Writer.SourcesUnread).
type Base struct {
	tables map[string]baseTable
}

// baseTable is one table of a base: the file, and its row groups by
// digest. Of the sources table, each row group's paths too, and the row
// group each path begins (see sameSources).
type baseTable struct {
	file   *parquet.File
	groups map[[32]byte]int
	sums   [][32]byte // by row group
	paths  [][]string
	first  map[string]int
	starts map[int64]int // first row → row group
	data   []byte        // the file
	rows   int64         // as the manifest lists them
}

// OpenBase reads the tables of the snapshot at prefix, whose manifest is
// m, checking each as Read would its manifest entry (size and SHA-256) and
// its footer and schema; it reads no row. A table without digests (another
// writer's) is left out: its row groups are never copied.
func OpenBase(ctx context.Context, st Store, prefix string, m *schemas.Manifest) (*Base, error) {
	_, b, err := readBase(ctx, st, prefix, m, false)
	return b, err
}

// ReadBase is OpenBase that also decodes what an incremental index reuses
// of its base, the rows of its nodes, files and refs (Read with SkipEdges
// and SkipSources), from the same bytes: each table is fetched and checked
// once.
func ReadBase(ctx context.Context, st Store, prefix string, m *schemas.Manifest) (*Snapshot, *Base, error) {
	return readBase(ctx, st, prefix, m, true)
}

func readBase(ctx context.Context, st Store, prefix string, m *schemas.Manifest, rows bool) (*Snapshot, *Base, error) {
	s := &Snapshot{Manifest: *m}
	b := &Base{tables: make(map[string]baseTable)}
	var mu sync.Mutex
	workers := runtime.GOMAXPROCS(0)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	// A table whose rows are decoded must be listed, as Read wants it;
	// one only to copy from may be missing.
	open := func(t schemas.Table, data []byte, want func() ([]format.SchemaElement, error)) error {
		schema, err := want()
		if err != nil {
			return err
		}
		bt, err := openBaseTable(data, schema, t.Rows)
		if err == nil && t.Name == sourcesSpec.name && bt.groups != nil {
			err = bt.readPaths()
		}
		if err != nil {
			return fmt.Errorf("table %s: %w", t.Name, err)
		}
		if bt.groups != nil {
			mu.Lock()
			b.tables[t.Name] = bt
			mu.Unlock()
		}
		return nil
	}
	fetch := func(name string, want func() ([]format.SchemaElement, error)) {
		if t, ok := findTable(m, name); ok {
			g.Go(func() error {
				data, err := fetchTable(gctx, st, prefix, t)
				if err != nil {
					return err
				}
				return open(t, data, want)
			})
		}
	}
	decode := func(name string, load func() ([]byte, error), want func() ([]format.SchemaElement, error)) {
		if !rows {
			fetch(name, want)
			return
		}
		g.Go(func() error {
			data, err := load()
			if err != nil {
				return err
			}
			t, _ := findTable(m, name) // listed: load found it
			return open(t, data, want)
		})
	}
	decode(nodesSpec.name, loadInto(gctx, st, prefix, m, nodesSpec, workers, &s.Nodes), nodesSpec.schemaOnce)
	decode(filesSpec.name, loadInto(gctx, st, prefix, m, filesSpec, workers, &s.Files), filesSpec.schemaOnce)
	decode(refsSpec.name, loadInto(gctx, st, prefix, m, refsSpec, workers, &s.Refs), refsSpec.schemaOnce)
	fetch(edgesSpec.name, edgesSpec.schemaOnce)
	fetch(sourcesSpec.name, sourcesSpec.schemaOnce)
	if err := g.Wait(); err != nil {
		return nil, nil, fmt.Errorf("read snapshot %s: %w", where(prefix), err)
	}
	return s, b, nil
}

// loadInto returns a function that loads spec's table into rows and
// returns its bytes.
func loadInto[T any](ctx context.Context, st Store, prefix string, m *schemas.Manifest, spec *tableSpec[T], workers int, rows *[]T) func() ([]byte, error) {
	return func() (data []byte, err error) {
		*rows, data, err = loadTableData(ctx, st, prefix, m, spec, workers, true)
		return data, err
	}
}

func openBaseTable(data []byte, want []format.SchemaElement, rows int64) (_ baseTable, err error) {
	cf, err := checkFile(data, want, rows)
	if err != nil {
		return baseTable{}, err
	}
	sums, err := footerDigests(cf.md)
	if err != nil || sums == nil {
		return baseTable{}, err
	}
	bt := baseTable{groups: make(map[[32]byte]int, len(sums)), sums: sums, starts: make(map[int64]int, len(sums)),
		data: data, rows: rows}
	at := int64(0)
	for g, sum := range sums {
		bt.groups[sum] = g
		bt.starts[at] = g
		at += cf.md.RowGroups[g].NumRows
	}
	defer recoverDecode(&err) // parquet-go reads bytes from anywhere
	if bt.file, err = parquet.OpenFile(bytes.NewReader(data), int64(len(data))); err != nil {
		return baseTable{}, fmt.Errorf("open parquet: %w", err)
	}
	if n := len(bt.file.RowGroups()); n != len(cf.md.RowGroups) {
		return baseTable{}, fmt.Errorf("%d row groups, footer says %d", n, len(cf.md.RowGroups))
	}
	return bt, nil
}

// readPaths reads the path column of each row group of a sources table.
func (bt *baseTable) readPaths() (err error) {
	defer recoverDecode(&err)
	leaf, ok := bt.file.Schema().Lookup("path")
	if !ok {
		return errors.New("no path column")
	}
	bt.first = make(map[string]int, len(bt.sums))
	for g, rg := range bt.file.RowGroups() {
		paths := make([]string, 0, rg.NumRows())
		pages := rg.ColumnChunks()[leaf.ColumnIndex].Pages()
		var vals []parquet.Value
		for {
			page, err := pages.ReadPage()
			if err == io.EOF {
				break
			}
			if err != nil {
				pages.Close()
				return fmt.Errorf("row group %d: %w", g, err)
			}
			if page.NumValues() > rg.NumRows()-int64(len(paths)) {
				pages.Close()
				return fmt.Errorf("row group %d: a page of %d paths past its %d rows", g, page.NumValues(), rg.NumRows())
			}
			vals = slices.Grow(vals[:0], int(page.NumValues()))[:page.NumValues()]
			n, err := page.Values().ReadValues(vals)
			if err != nil && err != io.EOF {
				pages.Close()
				return fmt.Errorf("row group %d: %w", g, err)
			}
			for _, v := range vals[:n] {
				paths = append(paths, string(v.ByteArray()))
			}
		}
		pages.Close()
		if int64(len(paths)) != rg.NumRows() {
			return fmt.Errorf("row group %d: %d paths for %d rows", g, len(paths), rg.NumRows())
		}
		bt.paths = append(bt.paths, paths)
		if len(paths) > 0 {
			bt.first[paths[0]] = g
		}
	}
	return nil
}

// sameSources returns the base's row group of sources on exactly the
// paths of rows, and its digest. Its rows are rows, when each of rows
// holds its path's content in the base (Writer.SourcesUnread).
func (b *Base) sameSources(rows []schemas.Source) (parquet.RowGroup, [32]byte, bool) {
	if b == nil || len(rows) == 0 {
		return nil, [32]byte{}, false
	}
	bt, ok := b.tables[sourcesSpec.name]
	if !ok || bt.first == nil {
		return nil, [32]byte{}, false
	}
	g, ok := bt.first[rows[0].Path]
	if !ok || len(bt.paths[g]) != len(rows) {
		return nil, [32]byte{}, false
	}
	for i, p := range bt.paths[g] {
		if rows[i].Path != p {
			return nil, [32]byte{}, false
		}
	}
	return bt.file.RowGroups()[g], bt.sums[g], true
}

// footerDigests returns the row group digests md lists, one per row
// group, or nil when it lists none.
func footerDigests(md *format.FileMetaData) ([][32]byte, error) {
	var list string
	for _, kv := range md.KeyValueMetadata {
		if kv.Key == digestsKey {
			list = kv.Value
		}
	}
	if list == "" {
		return nil, nil
	}
	hexes := strings.Split(list, ",")
	if len(hexes) != len(md.RowGroups) {
		return nil, fmt.Errorf("%d row group digests for %d row groups", len(hexes), len(md.RowGroups))
	}
	sums := make([][32]byte, len(hexes))
	for g, s := range hexes {
		if n, err := hex.Decode(sums[g][:], []byte(s)); err != nil || n != len(sums[g]) {
			return nil, fmt.Errorf("row group %d: digest %q is not 64 hex digits", g, clip(s))
		}
	}
	return sums, nil
}

// checkDigests checks the digests data's footer lists, if any, against
// rows, the rows data decodes to.
func checkDigests[T any](spec *tableSpec[T], data []byte, rows []T) error {
	md, err := readFooter(data)
	if err != nil {
		return err
	}
	sums, err := footerDigests(md)
	if err != nil || sums == nil {
		return err
	}
	h, scratch := newDigestHash(), []byte(nil)
	var size T
	at := 0
	for g, rg := range md.RowGroups {
		n := int(rg.NumRows)
		if n < 0 || n > len(rows)-at {
			return fmt.Errorf("row group %d: %d rows past the table's %d", g, n, len(rows))
		}
		var sum [32]byte
		sum, scratch = spec.digest.sum(h, unsafe.Pointer(unsafe.SliceData(rows[at:])), n, unsafe.Sizeof(size), scratch)
		if sum != sums[g] {
			return fmt.Errorf("row group %d: its rows' digest is %x…, the footer lists %x…: a run taking this snapshot as its base would copy the wrong rows", g, sum[:6], sums[g][:6])
		}
		at += n
	}
	return nil
}

// copier returns the function encodeReusing asks for the base's row
// group of a digest, or nil without a base table of that name.
func (b *Base) copier(table string) func([32]byte) parquet.RowGroup {
	if b == nil {
		return nil
	}
	bt, ok := b.tables[table]
	if !ok {
		return nil
	}
	return func(sum [32]byte) parquet.RowGroup {
		if g, ok := bt.groups[sum]; ok {
			return bt.file.RowGroups()[g]
		}
		return nil
	}
}

// HasEdges reports whether the base has an edges table to copy from,
// which Edges decodes.
func (b *Base) HasEdges() bool { return b != nil && b.tables[edgesSpec.name].data != nil }

// Edges decodes the base's edges, in table order, on up to workers cores
// (0: one per CPU), with room for a few more: what an index that resolves
// only the files it parsed merges its own into (indexer.Options.BaseEdges).
// A base whose edges table has no digests has none to give.
func (b *Base) Edges(workers int) ([]schemas.Edge, error) {
	if !b.HasEdges() {
		return nil, errors.New("the base has no edges table to copy from")
	}
	bt := b.tables[edgesSpec.name]
	return decodeChecked(edgesSpec, bt.data, bt.rows, ReadOptions{Workers: workers}.workers(), true)
}

// groupAt returns the base's row group of table that holds its rows
// [from, from+n) exactly, and its digest.
func (b *Base) groupAt(table string, from, n int) (parquet.RowGroup, [32]byte, bool) {
	if b == nil {
		return nil, [32]byte{}, false
	}
	bt, ok := b.tables[table]
	if !ok {
		return nil, [32]byte{}, false
	}
	g, ok := bt.starts[int64(from)]
	if !ok {
		return nil, [32]byte{}, false
	}
	rg := bt.file.RowGroups()[g]
	if rg.NumRows() != int64(n) {
		return nil, [32]byte{}, false
	}
	return rg, bt.sums[g], true
}

// size returns the size in bytes of the base's table, 0 without one.
func (b *Base) size(table string) int {
	if b == nil {
		return 0
	}
	return len(b.tables[table].data)
}

// CopyFrom makes w copy, as stored, the row groups of b whose rows it
// would write again; call it before giving w any table. A nil b copies
// nothing.
func (w *Writer) CopyFrom(b *Base) {
	w.mu.Lock()
	w.base = b
	w.mu.Unlock()
}
