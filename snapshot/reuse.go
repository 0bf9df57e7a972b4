package snapshot

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/graphsnap/snap/schemas"
)

// Base is an earlier snapshot's tables, opened so that a Writer may copy
// their row groups as stored (Writer.CopyFrom). A row group ends where its
// own rows say (tableSpec.groupEnd) and its footer lists the digest of its
// rows, so a row group of the new snapshot whose digest a base's row group
// has holds the same rows, which encode to the same bytes: copying them
// skips encoding and compressing them. After a change to a few files, most
// row groups of sources, refs and files are copied, and of nodes and edges
// every one the change left as it was.
type Base struct {
	tables map[string]baseTable
}

// baseTable is one table of a base: the file, and its row groups by
// digest.
type baseTable struct {
	file   *parquet.File
	groups map[[32]byte]int
}

// OpenBase reads the tables of the snapshot at prefix, whose manifest is
// m, checking each as Read would its manifest entry (size and SHA-256) and
// its footer and schema; it reads no row. A table without digests (another
// writer's) is left out: its row groups are never copied.
func OpenBase(ctx context.Context, st Store, prefix string, m *schemas.Manifest) (*Base, error) {
	b := &Base{tables: make(map[string]baseTable)}
	for _, t := range m.Tables {
		var want []format.SchemaElement
		var err error
		switch t.Name {
		case nodesSpec.name:
			want, err = nodesSpec.schemaOnce()
		case edgesSpec.name:
			want, err = edgesSpec.schemaOnce()
		case filesSpec.name:
			want, err = filesSpec.schemaOnce()
		case sourcesSpec.name:
			want, err = sourcesSpec.schemaOnce()
		case refsSpec.name:
			want, err = refsSpec.schemaOnce()
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		data, err := fetchTable(ctx, st, prefix, t)
		if err != nil {
			return nil, err
		}
		bt, err := openBaseTable(data, want, t.Rows)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t.Name, err)
		}
		if bt.groups != nil {
			b.tables[t.Name] = bt
		}
	}
	return b, nil
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
	bt := baseTable{groups: make(map[[32]byte]int, len(sums))}
	for g, sum := range sums {
		bt.groups[sum] = g
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

// CopyFrom makes w copy, as stored, the row groups of b whose rows it
// would write again; call it before giving w any table. A nil b copies
// nothing.
func (w *Writer) CopyFrom(b *Base) {
	w.mu.Lock()
	w.base = b
	w.mu.Unlock()
}
