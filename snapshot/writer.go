package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
	// AfterTable, when set before the first table is given, is called
	// after each table is placed (stored, found stored already, or kept
	// for the commit's build key), from the goroutine that placed it.
	AfterTable func(schemas.Table)
	// BeforeManifest, when set, is called before manifest.json is
	// stored.
	BeforeManifest func()

	st     Store
	prefix string
	g      *errgroup.Group
	ctx    context.Context // the caller's, for the manifest
	gctx   context.Context // the tables', done at the first error

	mu     sync.Mutex
	tables map[string]placed
	groups map[string]RowGroups
	given  map[string]bool
	base   *Base // to copy row groups from
	err    error // a table given twice
	// stored is the manifest prefix held when the Writer was made; taken
	// says prefix holds another writer's files (that manifest, one that
	// does not read, or a table of other bytes): no more go there.
	stored *schemas.Manifest
	taken  bool
	// created and bytes count the tables stored.
	created int
	bytes   int64
}

// NewWriter returns a Writer of the snapshot at prefix ("" for the
// store's root). Its work stops when ctx is done.
func NewWriter(ctx context.Context, st Store, prefix string) (*Writer, error) {
	if err := checkPrefix(prefix); err != nil {
		return nil, fmt.Errorf("write snapshot: %w", err)
	}
	w := &Writer{st: st, prefix: prefix, ctx: ctx,
		tables: make(map[string]placed), groups: make(map[string]RowGroups), given: make(map[string]bool)}
	// A prefix that holds a snapshot is never written to again: its
	// tables that this one shares are used as they are, the others wait
	// in memory for the build key (see publish).
	stored, _, err := ReadManifest(ctx, st, prefix)
	switch {
	case err == nil:
		w.stored, w.taken = &stored, true
	case errors.Is(err, fs.ErrNotExist):
	case ctx.Err() != nil, errors.Is(err, ErrUnavailable):
		return nil, fmt.Errorf("write snapshot %s: %w", where(prefix), err)
	default:
		w.taken = true // a manifest that does not read: left as it is
	}
	w.g, w.gctx = errgroup.WithContext(ctx)
	w.g.SetLimit(runtime.GOMAXPROCS(0))
	return w, nil
}

// place stores a table the Writer encoded under its prefix, create-only,
// unless the prefix is taken: there a table the stored snapshot has is
// shared once read back whole, any other is kept in memory.
func (w *Writer) place(t schemas.Table, data []byte) (placed, error) {
	p, err := w.placeTable(t, data)
	if err == nil && w.AfterTable != nil {
		w.AfterTable(t)
	}
	return p, err
}

func (w *Writer) placeTable(t schemas.Table, data []byte) (placed, error) {
	w.mu.Lock()
	taken, stored := w.taken, w.stored
	w.mu.Unlock()
	if taken {
		if stored != nil {
			if s, ok := findTable(stored, t.Name); ok && sameTables([]schemas.Table{s}, []schemas.Table{t}) {
				ok, err := holds(w.gctx, w.st, w.prefix, t)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return placed{}, err
				}
				if ok {
					return placed{t: t, at: w.prefix, sure: true}, nil
				}
			}
		}
		return placed{t: t, data: data}, nil
	}
	r, err := create(w.gctx, w.st, w.prefix, t, data)
	if err != nil {
		return placed{}, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch r {
	case other:
		w.taken = true
		return placed{t: t, data: data}, nil
	case created:
		w.created++
		w.bytes += t.Bytes
	}
	return placed{t: t, at: w.prefix, sure: true}, nil
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
		t, data, groups, err := encodeTable(spec, rows, reuse)
		if err != nil {
			return err
		}
		p, err := w.place(t, data)
		if err != nil {
			return fmt.Errorf("put table %s: %w", spec.name, err)
		}
		w.mu.Lock()
		w.tables[spec.name], w.groups[spec.name] = p, groups
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

// Close is Publish that returns the manifest alone: the one stored,
// which names the snapshot's commit and its key (see Publish).
func (w *Writer) Close(m schemas.Manifest) (schemas.Manifest, error) {
	p, err := w.Publish(m)
	return p.Manifest, err
}

// Publish waits for the tables, then stores manifest.json from m, filling
// its FormatVersion and Tables (name, file, rows, bytes, sha256), and
// says where the snapshot went: under the Writer's prefix, or, when that
// holds another snapshot of the same commit, under the commit's build key
// (BuildCommit), the manifest's Commit then that key's. When the prefix
// (or the build key) holds a snapshot of the same tables already, nothing
// is written and that one is returned (Published.Reused), once its tables
// read back whole. Every table but sources must have been given.
func (w *Writer) Publish(m schemas.Manifest) (Published, error) {
	if err := w.Wait(); err != nil {
		return Published{}, err
	}
	if w.err != nil {
		return Published{}, fmt.Errorf("write snapshot %s: %w", where(w.prefix), w.err)
	}
	var tables []placed
	for _, name := range []string{nodesSpec.name, edgesSpec.name, filesSpec.name, sourcesSpec.name, refsSpec.name} {
		p, ok := w.tables[name]
		switch {
		case ok:
			tables = append(tables, p)
		case name != sourcesSpec.name:
			return Published{}, fmt.Errorf("write snapshot %s: no %s table", where(w.prefix), name)
		}
	}
	m = normalize(m)
	m.FormatVersion = schemas.FormatVersion
	m.FeatureVersion = schemas.FeatureVersion
	m.Tables = make([]schemas.Table, len(tables))
	for i, p := range tables {
		m.Tables[i] = p.t
	}
	p, err := publish(w.ctx, w.st, w.prefix, m, tables, placeOptions{afterTable: w.AfterTable, beforeManifest: w.BeforeManifest})
	if err != nil {
		return Published{}, err
	}
	p.Tables += w.created
	p.Bytes += w.bytes
	return p, nil
}
