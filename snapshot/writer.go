package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"

	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
)

// A Writer writes one snapshot table by table, as each becomes ready,
// encoding several at once; Close then writes manifest.json. Data first,
// the record that names it last: until Close succeeds, no reader sees the
// snapshot, whatever tables are already stored.
//
// Each table is given once. Rows must be in the table's sort order, and
// must not change until Close returns.
type Writer struct {
	st     Store
	prefix string
	g      *errgroup.Group
	ctx    context.Context // the caller's, for the manifest
	gctx   context.Context // the tables', done at the first error

	mu     sync.Mutex
	tables map[string]schemas.Table
	groups map[string]RowGroups
	given  map[string]bool
	base   *Base // to copy row groups from
	err    error // a table given twice
}

// NewWriter returns a Writer of the snapshot at prefix ("" for the
// store's root). Its work stops when ctx is done.
func NewWriter(ctx context.Context, st Store, prefix string) (*Writer, error) {
	if err := checkPrefix(prefix); err != nil {
		return nil, fmt.Errorf("write snapshot: %w", err)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	return &Writer{st: st, prefix: prefix, g: g, ctx: ctx, gctx: gctx,
		tables: make(map[string]schemas.Table), groups: make(map[string]RowGroups), given: make(map[string]bool)}, nil
}

// Nodes, Edges, Files, Sources and Refs start writing a table; they block
// only while as many tables as there are CPUs are being encoded. A
// snapshot without a sources table never calls Sources.
func (w *Writer) Nodes(rows []schemas.Node)     { put(w, nodesSpec, rows, true, false, nil, nil) }
func (w *Writer) Files(rows []schemas.File)     { put(w, filesSpec, rows, true, false, nil, nil) }
func (w *Writer) Sources(rows []schemas.Source) { put(w, sourcesSpec, rows, true, false, nil, nil) }
func (w *Writer) Refs(rows []schemas.Ref)       { put(w, refsSpec, rows, true, false, nil, nil) }

// RefsFrom is Refs for rows many of which are the refs of the base given
// to CopyFrom, as decoded from it: fromBase reports, for rows [lo, hi),
// the base's row from which they are its rows [from, from+hi-lo), when
// they are. A row group of such rows that is exactly one of the base's is
// copied without being hashed: the rows it was decoded into are these.
func (w *Writer) RefsFrom(rows []schemas.Ref, fromBase func(lo, hi int) (from int, ok bool)) {
	putFrom(w, refsSpec, rows, false, fromBase)
}

// NodesFrom is Nodes as RefsFrom is Refs, for nodes many of which are the
// base's.
func (w *Writer) NodesFrom(rows []schemas.Node, fromBase func(lo, hi int) (from int, ok bool)) {
	putFrom(w, nodesSpec, rows, false, fromBase)
}

// EdgesFrom is Edges as RefsFrom is Refs, for edges many of which are
// those of the base (Base.Edges).
func (w *Writer) EdgesFrom(rows []schemas.Edge, fromBase func(lo, hi int) (from int, ok bool)) {
	putFrom(w, edgesSpec, rows, true, fromBase)
}

// putFrom is put with the row groups fromBase vouches for known.
func putFrom[T any](w *Writer, spec *tableSpec[T], rows []T, apart bool, fromBase func(lo, hi int) (from int, ok bool)) {
	put(w, spec, rows, true, apart, nil, func(b *Base) func(lo, hi int) (parquet.RowGroup, [32]byte, bool) {
		return func(lo, hi int) (parquet.RowGroup, [32]byte, bool) {
			if from, ok := fromBase(lo, hi); ok {
				return b.groupAt(spec.name, from, hi-lo)
			}
			return nil, [32]byte{}, false
		}
	})
}

// Edges is the table snap index gives last, when nothing else is left to
// run: the row groups the base lacks are encoded on every core (see
// encodeReusing).
func (w *Writer) Edges(rows []schemas.Edge) { put(w, edgesSpec, rows, true, true, nil, nil) }

// SourcesUnread is Sources for a run that did not read every file (see
// indexer.Options.Known): where unread[i], rows[i].Content is not set, and
// the base given to CopyFrom holds that path's content. A row group of
// such rows alone, on the same paths as one of the base's, is copied from
// the base without its content; for any other, load gives the content of
// its unread rows, which are then written as Sources would. Neither rows
// nor unread may change until Close returns, but for the contents load
// fills in.
func (w *Writer) SourcesUnread(rows []schemas.Source, unread []bool, load func(path string) ([]byte, error)) {
	if len(unread) != len(rows) {
		w.mu.Lock()
		w.err = errors.Join(w.err, fmt.Errorf("sources: %d rows, %d unread flags", len(rows), len(unread)))
		w.mu.Unlock()
		return
	}
	put(w, sourcesSpec, rows, true, false, func(b *Base) func(lo, hi int) (parquet.RowGroup, [32]byte, error) {
		return func(lo, hi int) (parquet.RowGroup, [32]byte, error) {
			if !slices.Contains(unread[lo:hi], false) {
				if rg, sum, ok := b.sameSources(rows[lo:hi]); ok {
					return rg, sum, nil
				}
			}
			for i := lo; i < hi; i++ {
				if unread[i] && rows[i].Content == nil {
					data, err := load(rows[i].Path)
					if err != nil {
						return nil, [32]byte{}, err
					}
					rows[i].Content = data
				}
			}
			return nil, [32]byte{}, nil
		}
	}, nil)
}

// put writes a table in the background, checking the order of its rows
// first unless the caller has (Write checks every table before it writes
// any). prepare and known, if not nil, make groupReuse.prepare and
// groupReuse.known from the base.
func put[T any](w *Writer, spec *tableSpec[T], rows []T, check, apart bool, prepare func(*Base) func(lo, hi int) (parquet.RowGroup, [32]byte, error),
	known func(*Base) func(lo, hi int) (parquet.RowGroup, [32]byte, bool)) {
	w.mu.Lock()
	reuse := groupReuse{byDigest: w.base.copier(spec.name), apart: apart, size: w.base.size(spec.name)}
	if prepare != nil {
		reuse.prepare = prepare(w.base)
	}
	if known != nil {
		reuse.known = known(w.base)
	}
	if w.given[spec.name] {
		w.err = errors.Join(w.err, fmt.Errorf("table %s given twice", spec.name))
	}
	w.given[spec.name] = true
	w.mu.Unlock()
	w.g.Go(func() error {
		if check {
			if err := orderError(spec, rows); err != nil {
				return err
			}
		}
		t, groups, err := putTable(w.gctx, w.st, w.prefix, spec, rows, reuse)
		if err != nil {
			return err
		}
		w.mu.Lock()
		w.tables[spec.name], w.groups[spec.name] = t, groups
		w.mu.Unlock()
		return nil
	})
}

// RowGroups reports the row groups of table, once written, and how many
// of them were copied from a base (CopyFrom).
func (w *Writer) RowGroups(table string) RowGroups {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.groups[table]
}

// Wait waits for the tables given so far and returns the first error of
// any. A caller giving up on the snapshot calls it, so that no write
// outlives it.
func (w *Writer) Wait() error {
	if err := w.g.Wait(); err != nil {
		return fmt.Errorf("write snapshot %s: %w", where(w.prefix), err)
	}
	return nil
}

// Close waits for the tables, then writes manifest.json from m, filling
// its FormatVersion and Tables (name, file, rows, bytes, sha256), and
// returns the manifest as written. Every table but sources must have been
// given.
func (w *Writer) Close(m schemas.Manifest) (schemas.Manifest, error) {
	if err := w.Wait(); err != nil {
		return schemas.Manifest{}, err
	}
	if w.err != nil {
		return schemas.Manifest{}, fmt.Errorf("write snapshot %s: %w", where(w.prefix), w.err)
	}
	var tables []schemas.Table
	for _, name := range []string{nodesSpec.name, edgesSpec.name, filesSpec.name, sourcesSpec.name, refsSpec.name} {
		t, ok := w.tables[name]
		switch {
		case ok:
			tables = append(tables, t)
		case name != sourcesSpec.name:
			return schemas.Manifest{}, fmt.Errorf("write snapshot %s: no %s table", where(w.prefix), name)
		}
	}
	m = normalize(m)
	m.FormatVersion = schemas.FormatVersion
	m.Tables = tables
	raw, err := EncodeManifest(m)
	if err != nil {
		return schemas.Manifest{}, fmt.Errorf("write snapshot %s: %w", where(w.prefix), err)
	}
	if _, err := w.st.Put(w.ctx, joinKey(w.prefix, schemas.ManifestFile), bytes.NewReader(raw), PutOptions{}); err != nil {
		return schemas.Manifest{}, fmt.Errorf("write snapshot %s: put manifest: %w", where(w.prefix), err)
	}
	return m, nil
}
