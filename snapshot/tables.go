package snapshot

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sync/errgroup"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"

	"github.com/graphsnap/snap/schemas"
)

// Fixed writer settings: with them, the same rows always encode to the
// same bytes. Changing one changes the bytes a build writes, not what
// readers accept: say so in schemas/FORMAT.md. A build reuses only the
// snapshots it made itself (an incremental run's base), so the row
// groups it copies from them are what it would encode.
const (
	// createdBy goes into every file's footer instead of parquet-go's
	// default, which names the library's version and build.
	createdBy = "graphsnap/snap snapshot format "

	// pageBufferSize is the uncompressed size at which a page is cut:
	// zstd compresses a larger page better (the tables of GOROOT/src 3%
	// smaller than at 256 KiB, in as much time), but a source file is
	// read by inflating its page, so sources keep smaller ones.
	pageBufferSize        = 1 << 20
	sourcesPageBufferSize = 256 << 10

	// Where row groups end (tableSpec.groupEnd): after a row whose key
	// (an id, or the xxHash64 of a path) endsGroup says ends one, with
	// the table's mean, which is then how many keys a row group has on
	// average. Nodes: after an id; edges: after the last edge of a
	// source; files and sources: after a path; refs: after the last ref
	// of a file.
	nodesGroupMean   = 1 << 14
	edgesGroupMean   = 1 << 13
	filesGroupMean   = 1 << 12
	sourcesGroupMean = 1 << 8
	refsGroupMean    = 1 << 8
	sourcesGroupMax  = 1 << 12 // rows: a file's content can be large

	// digestsKey is the key of the footer's key-value metadata that lists
	// the digest of each row group (rowDigest), in hex, comma-separated.
	digestsKey = "graphsnap.row_group_sha256"
)

// rowsTimes is a sizeHint of n bytes a row.
func rowsTimes[T any](n int) func([]T) int {
	return func(rows []T) int { return len(rows) * n }
}

// sourcesSize is the sources table's sizeHint: a third of the files' bytes
// (zstd takes source code to a fifth or a quarter).
func sourcesSize(rows []schemas.Source) int {
	n := 0
	for i := range rows {
		n += len(rows[i].Path) + len(rows[i].Content)/3
	}
	return n
}

// endsGroup reports whether key ends a row group of mean keys: whether
// key × 0x9E3779B97F4A7C15 (mod 2^64) is below 2^64 / mean, a test that
// one key in mean passes, whatever the bits of the keys that vary.
func endsGroup(key, mean uint64) bool {
	return key*0x9e3779b97f4a7c15 < ^uint64(0)/mean
}

// tableSpec describes one table: its names, how its rows sort (as
// schemas/FORMAT.md states) and how many go in a row group.
type tableSpec[T any] struct {
	name, file   string
	rowGroupRows int64
	order        string            // the sort key, for error messages
	compare      func(a, b *T) int // by the sort key
	unique       bool              // rows with equal keys are refused
	describe     func(*T) string   // a row's key, for error messages
	noStats      []string          // free-text columns: no min/max statistics
	columns      []column[T]       // a reader for every leaf column, in any order
	// groupEnd says whether row i ends a row group (the last row does,
	// and so does one that would make it longer than rowGroupRows). It
	// looks at that row and the next alone, so a row group's end depends
	// on its own rows: rows that did not change since a base snapshot
	// fall in the base's row groups again, which a writer then copies
	// (see Base).
	groupEnd func(rows []T, i int) bool
	digest   rowDigest
	// pageBufferSize, when not 0, replaces the default (pageBufferSize).
	pageBufferSize int
	// sizeHint guesses the encoded table's size from its rows, a little
	// above what GOROOT/src and kubernetes give, so that the buffer it is
	// encoded into is made once rather than doubled from small (the copies
	// and the clearing of each new buffer took 1.4% of a full index).
	sizeHint func(rows []T) int
	// spare, when not 0, decodes a base's rows with room for a spare-th
	// more: an incremental index lays its nodes, refs and edges out over
	// its base's, in place, and an edit that adds a few must not make it
	// copy them all. The room is memory never touched unless taken.
	spare int64

	schemaOnce func() ([]format.SchemaElement, error)
	planOnce   func() (*columnsPlan[T], error)
}

// columnsPlan is how decodeRows reads a table: the column reader of every
// leaf, in the schema's order.
type columnsPlan[T any] struct {
	columns []column[T]
	leaves  []leaf
}

func newSpec[T any](s tableSpec[T]) *tableSpec[T] {
	s.digest = newRowDigest[T]()
	s.schemaOnce = sync.OnceValues(func() ([]format.SchemaElement, error) {
		data, err := encodeRows[T](&s, nil)
		if err != nil {
			return nil, err
		}
		md, err := readFooter(data)
		if err != nil {
			return nil, err
		}
		return md.Schema, nil
	})
	s.planOnce = sync.OnceValues(func() (*columnsPlan[T], error) {
		want, err := s.schemaOnce()
		if err != nil {
			return nil, err
		}
		cols, leaves, err := columnPlan(want, s.columns)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", s.name, err)
		}
		return &columnsPlan[T]{columns: cols, leaves: leaves}, nil
	})
	return &s
}

var (
	nodesSpec = newSpec(tableSpec[schemas.Node]{
		name: schemas.TableNodes, file: schemas.NodesFile, rowGroupRows: 1 << 17,
		sizeHint: rowsTimes[schemas.Node](100),
		// An incremental index lays its nodes out over its base's too,
		// with a file's own node and room for a package's more per file:
		// kubernetes has a file for every six nodes.
		spare:    4,
		groupEnd: func(rows []schemas.Node, i int) bool { return endsGroup(rows[i].ID, nodesGroupMean) },
		order:    "id",
		unique:   true,
		compare: func(a, b *schemas.Node) int {
			return cmp.Compare(a.ID, b.ID)
		},
		describe: func(n *schemas.Node) string { return fmt.Sprintf("id %d", n.ID) },
		noStats:  []string{"signature", "doc"},
		columns: []column[schemas.Node]{
			numberColumn("id", u64, func(r *schemas.Node) *uint64 { return &r.ID }),
			stringColumn("kind", func(r *schemas.Node) *string { return &r.Kind }),
			stringColumn("name", func(r *schemas.Node) *string { return &r.Name }),
			stringColumn("qualified_name", func(r *schemas.Node) *string { return &r.QualifiedName }),
			stringColumn("language", func(r *schemas.Node) *string { return &r.Language }),
			stringColumn("file", func(r *schemas.Node) *string { return &r.File }),
			numberColumn("start_line", u32, func(r *schemas.Node) *uint32 { return &r.StartLine }),
			numberColumn("start_col", u32, func(r *schemas.Node) *uint32 { return &r.StartCol }),
			numberColumn("end_line", u32, func(r *schemas.Node) *uint32 { return &r.EndLine }),
			numberColumn("end_col", u32, func(r *schemas.Node) *uint32 { return &r.EndCol }),
			numberColumn("start_byte", u32, func(r *schemas.Node) *uint32 { return &r.StartByte }),
			numberColumn("end_byte", u32, func(r *schemas.Node) *uint32 { return &r.EndByte }),
			numberColumn("parent_id", u64, func(r *schemas.Node) *uint64 { return &r.ParentID }),
			stringColumn("signature", func(r *schemas.Node) *string { return &r.Signature }),
			stringColumn("doc", func(r *schemas.Node) *string { return &r.Doc }),
			stringColumn("visibility", func(r *schemas.Node) *string { return &r.Visibility }),
			boolColumn("exported", func(r *schemas.Node) *bool { return &r.Exported }),
			boolColumn("is_async", func(r *schemas.Node) *bool { return &r.IsAsync }),
			boolColumn("is_static", func(r *schemas.Node) *bool { return &r.IsStatic }),
			boolColumn("is_abstract", func(r *schemas.Node) *bool { return &r.IsAbstract }),
			boolColumn("is_test", func(r *schemas.Node) *bool { return &r.IsTest }),
			stringListColumn("decorators.list.element", func(r *schemas.Node) *[]string { return &r.Decorators }),
			numberColumn("body_hash", u64, func(r *schemas.Node) *uint64 { return &r.BodyHash }),
		},
	})
	edgesSpec = newSpec(tableSpec[schemas.Edge]{
		name: schemas.TableEdges, file: schemas.EdgesFile, rowGroupRows: 1 << 17,
		sizeHint: rowsTimes[schemas.Edge](28), spare: 64,
		groupEnd: func(rows []schemas.Edge, i int) bool {
			return endsGroup(rows[i].Src, edgesGroupMean) && (i+1 == len(rows) || rows[i+1].Src != rows[i].Src)
		},
		order:   "src, kind, dst, line, col, target, file",
		compare: schemas.CompareEdges,
		describe: func(e *schemas.Edge) string {
			return fmt.Sprintf("src %d, kind %q, dst %d, line %d, col %d, target %q, file %q", e.Src, e.Kind, e.Dst, e.Line, e.Col, e.Target, e.File)
		},
		noStats: []string{"args"},
		columns: []column[schemas.Edge]{
			numberColumn("src", u64, func(r *schemas.Edge) *uint64 { return &r.Src }),
			numberColumn("dst", u64, func(r *schemas.Edge) *uint64 { return &r.Dst }),
			stringColumn("kind", func(r *schemas.Edge) *string { return &r.Kind }),
			stringColumn("file", func(r *schemas.Edge) *string { return &r.File }),
			numberColumn("line", u32, func(r *schemas.Edge) *uint32 { return &r.Line }),
			numberColumn("col", u32, func(r *schemas.Edge) *uint32 { return &r.Col }),
			stringColumn("target", func(r *schemas.Edge) *string { return &r.Target }),
			stringColumn("resolution", func(r *schemas.Edge) *string { return &r.Resolution }),
			numberColumn("confidence", f32, func(r *schemas.Edge) *float32 { return &r.Confidence }),
			stringColumn("reason", func(r *schemas.Edge) *string { return &r.Reason }),
			stringColumn("args", func(r *schemas.Edge) *string { return &r.Args }),
			boolColumn("in_loop", func(r *schemas.Edge) *bool { return &r.InLoop }),
			boolColumn("in_try", func(r *schemas.Edge) *bool { return &r.InTry }),
			boolColumn("conditional", func(r *schemas.Edge) *bool { return &r.Conditional }),
			numberColumn("src_row", i32, func(r *schemas.Edge) *int32 { return &r.SrcRow }),
			numberColumn("dst_row", i32, func(r *schemas.Edge) *int32 { return &r.DstRow }),
		},
	})
	filesSpec = newSpec(tableSpec[schemas.File]{
		name: schemas.TableFiles, file: schemas.FilesFile, rowGroupRows: 1 << 17,
		sizeHint: rowsTimes[schemas.File](80),
		groupEnd: func(rows []schemas.File, i int) bool {
			return endsGroup(xxhash.Sum64String(rows[i].Path), filesGroupMean)
		},
		order:    "path",
		unique:   true,
		compare:  func(a, b *schemas.File) int { return cmp.Compare(a.Path, b.Path) },
		describe: func(f *schemas.File) string { return fmt.Sprintf("path %q", f.Path) },
		noStats:  []string{"error"},
		columns: []column[schemas.File]{
			stringColumn("path", func(r *schemas.File) *string { return &r.Path }),
			stringColumn("language", func(r *schemas.File) *string { return &r.Language }),
			stringColumn("sha256", func(r *schemas.File) *string { return &r.SHA256 }),
			numberColumn("size", i64, func(r *schemas.File) *int64 { return &r.Size }),
			numberColumn("lines", u32, func(r *schemas.File) *uint32 { return &r.Lines }),
			stringColumn("status", func(r *schemas.File) *string { return &r.Status }),
			stringColumn("error", func(r *schemas.File) *string { return &r.Error }),
			boolColumn("is_test", func(r *schemas.File) *bool { return &r.IsTest }),
			boolColumn("is_generated", func(r *schemas.File) *bool { return &r.IsGenerated }),
		},
	})
	sourcesSpec = newSpec(tableSpec[schemas.Source]{
		name: schemas.TableSources, file: schemas.SourcesFile, rowGroupRows: sourcesGroupMax, pageBufferSize: sourcesPageBufferSize,
		sizeHint: sourcesSize,
		groupEnd: func(rows []schemas.Source, i int) bool {
			return endsGroup(xxhash.Sum64String(rows[i].Path), sourcesGroupMean)
		},
		order:    "path",
		unique:   true,
		compare:  func(a, b *schemas.Source) int { return cmp.Compare(a.Path, b.Path) },
		describe: func(s *schemas.Source) string { return fmt.Sprintf("path %q", s.Path) },
		noStats:  []string{"content"},
		columns: []column[schemas.Source]{
			stringColumn("path", func(r *schemas.Source) *string { return &r.Path }),
			bytesColumn("content", func(r *schemas.Source) *[]byte { return &r.Content }),
		},
	})
	refsSpec = newSpec(tableSpec[schemas.Ref]{
		name: schemas.TableRefs, file: schemas.RefsFile, rowGroupRows: 1 << 17,
		sizeHint: rowsTimes[schemas.Ref](20), spare: 64,
		groupEnd: func(rows []schemas.Ref, i int) bool {
			return (i+1 == len(rows) || rows[i+1].File != rows[i].File) && endsGroup(xxhash.Sum64String(rows[i].File), refsGroupMean)
		},
		order:   "file, line, col, kind, target, src, expr",
		compare: schemas.CompareRefs,
		describe: func(r *schemas.Ref) string {
			return fmt.Sprintf("file %q, line %d, col %d, kind %q, target %q, src %d, expr %q", r.File, r.Line, r.Col, r.Kind, r.Target, r.Src, r.Expr)
		},
		noStats: []string{"args"},
		columns: []column[schemas.Ref]{
			stringColumn("file", func(r *schemas.Ref) *string { return &r.File }),
			numberColumn("src", u64, func(r *schemas.Ref) *uint64 { return &r.Src }),
			stringColumn("kind", func(r *schemas.Ref) *string { return &r.Kind }),
			stringColumn("target", func(r *schemas.Ref) *string { return &r.Target }),
			stringColumn("expr", func(r *schemas.Ref) *string { return &r.Expr }),
			numberColumn("line", u32, func(r *schemas.Ref) *uint32 { return &r.Line }),
			numberColumn("col", u32, func(r *schemas.Ref) *uint32 { return &r.Col }),
			stringColumn("args", func(r *schemas.Ref) *string { return &r.Args }),
			boolColumn("in_loop", func(r *schemas.Ref) *bool { return &r.InLoop }),
			boolColumn("in_try", func(r *schemas.Ref) *bool { return &r.InTry }),
			boolColumn("conditional", func(r *schemas.Ref) *bool { return &r.Conditional }),
		},
	})
)

// How fixed-size columns view page data.
var (
	i32 = (*encoding.Values).Int32
	u32 = (*encoding.Values).Uint32
	i64 = (*encoding.Values).Int64
	u64 = (*encoding.Values).Uint64
	f32 = (*encoding.Values).Float
)

// knownFiles maps the table names of this format version to their files.
var knownFiles = map[string]string{
	schemas.TableNodes:   schemas.NodesFile,
	schemas.TableEdges:   schemas.EdgesFile,
	schemas.TableFiles:   schemas.FilesFile,
	schemas.TableSources: schemas.SourcesFile,
	schemas.TableRefs:    schemas.RefsFile,
}

// requiredTables must be in every snapshot; sources is optional.
var requiredTables = []string{schemas.TableNodes, schemas.TableEdges, schemas.TableFiles, schemas.TableRefs}

// checkOrder reports the first row out of the table's sort order.
func (s *tableSpec[T]) checkOrder(rows []T) error {
	for i := 1; i < len(rows); i++ {
		c := s.compare(&rows[i-1], &rows[i])
		if c > 0 {
			return fmt.Errorf("rows not sorted by (%s): row %d (%s) sorts before row %d (%s)",
				s.order, i, s.describe(&rows[i]), i-1, s.describe(&rows[i-1]))
		}
		if c == 0 && s.unique {
			return fmt.Errorf("rows %d and %d have the same %s (%s)", i-1, i, s.order, s.describe(&rows[i]))
		}
	}
	return nil
}

// encodeRows writes rows as one Parquet file with the fixed settings.
func encodeRows[T any](s *tableSpec[T], rows []T) ([]byte, error) {
	data, _, err := encodeReusing(s, rows, groupReuse{})
	return data, err
}

// RowGroups counts the row groups of a table a Writer wrote, and those
// of them it copied from a base (see Writer.CopyFrom).
type RowGroups struct{ All, Copied int }

// groupReuse is how encodeReusing reuses a base's row groups. byDigest,
// when set, returns the base's row group whose rows have a digest, if
// any. prepare, when set, is asked first about each row group, rows[lo:hi]
// of the table: it returns the base's row group that holds the same rows,
// and its digest; or else nil, having made the rows whole to be digested
// and encoded (see Writer.SourcesUnread).
type groupReuse struct {
	byDigest func(digest [32]byte) parquet.RowGroup
	prepare  func(lo, hi int) (parquet.RowGroup, [32]byte, error)
	// known, when set, is asked about every row group before any is
	// digested: it returns the base's row group known to hold the same
	// rows, and its digest, which then need no digest of their own.
	known func(lo, hi int) (parquet.RowGroup, [32]byte, bool)
	apart bool // the row groups byDigest lacks are encoded on every core first
	// size is the base's table in bytes, 0 without one: the new table,
	// mostly the same rows, takes about as much. sizeHint cannot tell
	// for sources whose content a run did not read (SourcesUnread).
	size int
}

// encodeReusing is encodeRows that asks reuse for each row group: a row
// group it returns, one whose rows are the same, is copied as stored
// instead of encoded. It counts the row groups, and those copied.
func encodeReusing[T any](s *tableSpec[T], rows []T, reuse groupReuse) (_ []byte, groups RowGroups, err error) {
	opts := s.writerOptions()
	var buf bytes.Buffer
	switch {
	case reuse.size > 0:
		buf.Grow(reuse.size + reuse.size/16)
	case s.sizeHint != nil:
		buf.Grow(s.sizeHint(rows))
	}
	w := parquet.NewGenericWriter[T](&buf, opts...)
	// A base's row group is read by parquet-go, which panics on some
	// malformed input: make that an error.
	defer recoverDecode(&err)
	// The row groups, then the digests of those known says nothing of, on
	// every core (a digest hashes every byte of its rows, and no group's
	// waits for another's), unless prepare must see each group first.
	var ends []int // of each row group, in rows
	for lo := 0; lo < len(rows); {
		n := 1
		for lo+n < len(rows) && n < int(s.rowGroupRows) && !s.groupEnd(rows[lo:], n-1) {
			n++
		}
		lo += n
		ends = append(ends, lo)
	}
	sums := make([][32]byte, len(ends))
	var known []parquet.RowGroup // by group, when known
	todo := make([]int, 0, len(ends))
	for g := range ends {
		if reuse.known != nil {
			if rg, sum, ok := reuse.known(groupStart(ends, g), ends[g]); ok {
				if known == nil {
					known = make([]parquet.RowGroup, len(ends))
				}
				known[g], sums[g] = rg, sum
				continue
			}
		}
		todo = append(todo, g)
	}
	if reuse.prepare == nil {
		digestGroups(s, rows, ends, todo, sums)
	}
	// With a base and apart, the row groups it lacks are encoded first,
	// on every core, each into a file of its own, and copied in order with
	// the base's: the edges table ends an incremental run, with nothing
	// else left to run beside it (a statement inserted in a function of
	// GOROOT/src: a core idle for 0.55 s while its row groups encoded one
	// after another). The bytes are those of the groups encoded in order.
	// Other tables encode while the indexer resolves, which keeps the
	// cores busy; a full run encodes in order, as files of their own would
	// only add to its peak memory.
	var own []parquet.RowGroup // by group: encoded apart, else nil
	if reuse.apart && reuse.byDigest != nil && reuse.prepare == nil {
		var lack []int
		for _, g := range todo {
			if reuse.byDigest(sums[g]) == nil {
				lack = append(lack, g)
			}
		}
		if len(lack) > 1 {
			if own, err = encodeApart(s, rows, ends, lack); err != nil {
				return nil, groups, fmt.Errorf("encode %s: %w", s.name, err)
			}
		}
	}
	h, scratch := newDigestHash(), []byte(nil)
	digests := make([]string, len(ends))
	var size T
	for g, hi := range ends {
		lo := groupStart(ends, g)
		var rg parquet.RowGroup
		if known != nil {
			rg = known[g]
		}
		if rg == nil && reuse.prepare != nil {
			var perr error
			if rg, sums[g], perr = reuse.prepare(lo, hi); perr != nil {
				return nil, groups, fmt.Errorf("encode %s: %w", s.name, perr)
			}
			if rg == nil {
				sums[g], scratch = s.digest.sum(h, unsafe.Pointer(unsafe.SliceData(rows[lo:])), hi-lo, unsafe.Sizeof(size), scratch)
			}
		}
		if rg == nil && reuse.byDigest != nil {
			rg = reuse.byDigest(sums[g])
		}
		digests[g] = hex.EncodeToString(sums[g][:])
		var err error
		switch {
		case rg != nil:
			_, err = w.WriteRowGroup(rg)
			groups.Copied++
		case own != nil && own[g] != nil:
			_, err = w.WriteRowGroup(own[g])
		default:
			if err = writeRows(s, w, rows[lo:hi]); err == nil {
				err = w.Flush()
			}
		}
		if err != nil {
			return nil, groups, fmt.Errorf("encode %s: %w", s.name, err)
		}
		groups.All++
	}
	if len(digests) > 0 {
		w.SetKeyValueMetadata(digestsKey, strings.Join(digests, ","))
	}
	if err := w.Close(); err != nil {
		return nil, groups, fmt.Errorf("encode %s: %w", s.name, err)
	}
	return buf.Bytes(), groups, nil
}

// parquet-go writes the rows of one Write in chunks of rowsPerWrite (its
// maxRowsPerWrite), and cuts a page only between chunks, once the page
// holds its buffer's size. A chunk of large values thus made one page of
// them all: 64 source files of 1 MiB of compressible text, a page a reader
// refuses (pageLimits: 64 MiB, and 64 bytes a byte of the file). writeRows
// hands it rows in chunks of its own, cut at maxWriteBytes of strings and
// byte slices too: a page then holds at most its buffer and maxWriteBytes,
// or its buffer and one value, which MaxValueSize bounds. The chunks of
// tables that never reach it are parquet-go's, and so are their bytes:
// any real one (no 64 files running of GOROOT/src's sources hold more
// than 7.6 MiB).
const (
	rowsPerWrite  = 64
	maxWriteBytes = 16 << 20
)

// MaxValueSize is the largest value (a file's content in sources, a
// node's doc) a table holds whose page every reader reads back: a page
// holds a value whole, and a reader refuses one of more than 64 MiB in a
// file whose bytes compress it well. snap index refuses a --max-file-size
// above it.
const MaxValueSize = 32 << 20

// writeRows writes rows to w in chunks of at most rowsPerWrite rows and,
// unless one row alone is more, maxWriteBytes of variable-length values.
func writeRows[T any](s *tableSpec[T], w *parquet.GenericWriter[T], rows []T) error {
	var row T
	size := unsafe.Sizeof(row)
	base := unsafe.Pointer(unsafe.SliceData(rows))
	for lo := 0; lo < len(rows); {
		hi, n := lo, 0
		for hi < len(rows) && hi-lo < rowsPerWrite {
			k := s.digest.valueBytes(unsafe.Add(base, uintptr(hi)*size))
			if hi > lo && n+k > maxWriteBytes {
				break
			}
			n += k
			hi++
		}
		if _, err := w.Write(rows[lo:hi]); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// writerOptions are the settings every table is written with.
func (s *tableSpec[T]) writerOptions() []parquet.WriterOption {
	opts := []parquet.WriterOption{
		&parquet.WriterConfig{CreatedBy: createdBy + strconv.Itoa(schemas.FormatVersion)},
		parquet.PageBufferSize(cmp.Or(s.pageBufferSize, pageBufferSize)),
		parquet.MaxRowsPerRowGroup(s.rowGroupRows),
		parquet.DataPageVersion(2),
		parquet.DataPageStatistics(true),
	}
	// Min/max of source text or docs help no query and can be as large as
	// the values: keep them out of page headers and the footer.
	for _, col := range s.noStats {
		opts = append(opts, parquet.SkipPageStatistics(col), parquet.SkipPageBounds(col))
	}
	return opts
}

// encodeApart encodes each row group of rows listed in groups (ends are
// where every group ends) into a Parquet file of its own, on every core,
// and returns them by group, nil for those not listed.
func encodeApart[T any](s *tableSpec[T], rows []T, ends, groups []int) ([]parquet.RowGroup, error) {
	out := make([]parquet.RowGroup, len(ends))
	errs := make([]error, len(ends))
	eachOnEveryCore(len(groups), func() func(i int) {
		return func(i int) {
			g := groups[i]
			out[g], errs[g] = encodeGroup(s, rows[groupStart(ends, g):ends[g]])
		}
	})
	return out, errors.Join(errs...)
}

// encodeGroup encodes rows as a Parquet file of one row group, and
// returns that row group.
func encodeGroup[T any](s *tableSpec[T], rows []T) (rg parquet.RowGroup, err error) {
	defer recoverDecode(&err)
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, s.writerOptions()...)
	if err := writeRows(s, w, rows); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len())) // as a base is: copied as stored
	if err != nil {
		return nil, err
	}
	if groups := f.RowGroups(); len(groups) == 1 {
		return groups[0], nil
	}
	return nil, fmt.Errorf("%d rows encoded apart make %d row groups", len(rows), len(f.RowGroups()))
}

// digestGroups sets sums[g] to the digest of row group g of rows, which
// ends before ends[g], for each g of groups, on every core.
func digestGroups[T any](s *tableSpec[T], rows []T, ends, groups []int, sums [][32]byte) {
	eachOnEveryCore(len(groups), func() func(i int) {
		h, scratch := newDigestHash(), []byte(nil)
		var size T
		return func(i int) {
			g := groups[i]
			lo := groupStart(ends, g)
			sums[g], scratch = s.digest.sum(h, unsafe.Pointer(unsafe.SliceData(rows[lo:])), ends[g]-lo, unsafe.Sizeof(size), scratch)
		}
	})
}

// eachOnEveryCore calls, on up to every core, a function of worker's for each
// i in [0, n), each once: worker is called once per goroutine, for what
// that goroutine keeps between calls. The i go to whichever goroutine is
// free, as the calls may take very different times.
func eachOnEveryCore(n int, worker func() func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			do := worker()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				do(i)
			}
		})
	}
	wg.Wait()
}

// groupStart returns the first row of row group g, whose rows end at
// ends[g].
func groupStart(ends []int, g int) int {
	if g == 0 {
		return 0
	}
	return ends[g-1]
}

// decodeRows checks data (see checkParquet) and decodes its rows, column
// by column (see column). It refuses files declaring more than maxRows
// rows, and never allocates by what the file declares beyond what
// checkParquet bounds.
//
// Row groups are checked as they are decoded: each one's pages, inflated
// to be checked, make a file of that row group alone (groupFile), which
// parquet-go then reads without inflating anything again. A row group
// that would inflate past a page's limit is read from data instead, after
// its check.
func decodeRows[T any](s *tableSpec[T], data []byte, maxRows int64, workers int) (rows []T, err error) {
	return decodeRowsRoom(s, data, maxRows, workers, false)
}

// decodeRowsRoom is decodeRows, with room for the table's spare rows when
// room is set (an incremental index's base, see tableSpec.spare).
func decodeRowsRoom[T any](s *tableSpec[T], data []byte, maxRows int64, workers int, room bool) (rows []T, err error) {
	want, err := s.schemaOnce()
	if err != nil {
		return nil, err
	}
	plan, err := s.planOnce()
	if err != nil {
		return nil, err
	}
	cf, err := checkFile(data, want, maxRows)
	if err != nil {
		return nil, err
	}
	md := cf.md
	// parquet-go is a third-party decoder fed bytes that may come from
	// anywhere: turn a panic in it (or in a column reader) into an error.
	defer func() {
		if p := recover(); p != nil {
			rows, err = nil, panicError(p)
		}
	}()
	whole := sync.OnceValues(func() (*parquet.File, error) {
		f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)),
			parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
		if err != nil {
			return nil, fmt.Errorf("open parquet: %w", err)
		}
		if groups := f.RowGroups(); len(groups) != len(md.RowGroups) {
			return nil, fmt.Errorf("decode: %d row groups, footer says %d", len(groups), len(md.RowGroups))
		}
		return f, nil
	})
	decodeGroup := func(g int, rows []T) (err error) {
		defer recoverDecode(&err)
		c := cf.checker()
		defer c.close()
		out := groupFiles.Get().(*groupFile)
		defer groupFiles.Put(out)
		rg := &md.RowGroups[g]
		out.reset(rg, int(c.maxBytes/2))
		var group parquet.RowGroup
		switch err := cf.checkGroup(c, g, out); {
		case errors.Is(err, errGroupTooLarge):
			if err := cf.checkGroup(c, g, nil); err != nil {
				return err
			}
			f, err := whole()
			if err != nil {
				return err
			}
			group = f.RowGroups()[g]
		case err != nil:
			return err
		default:
			if err := out.finish(md, rg); err != nil {
				return fmt.Errorf("row group %d: %w", g, err)
			}
			f, err := parquet.OpenFile(bytes.NewReader(out.buf), int64(len(out.buf)),
				parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
			if err != nil {
				return fmt.Errorf("open parquet: row group %d: %w", g, err)
			}
			if groups := f.RowGroups(); len(groups) != 1 {
				return fmt.Errorf("decode: row group %d reads as %d", g, len(groups))
			}
			group = f.RowGroups()[0]
		}
		if n, chunks := group.NumRows(), group.ColumnChunks(); n != int64(len(rows)) || len(chunks) != len(plan.columns) {
			return fmt.Errorf("decode: row group %d: %d rows, %d columns", g, n, len(chunks))
		}
		for i, c := range group.ColumnChunks() {
			col := plan.columns[i]
			if err := col.read(rows, c.Pages(), plan.leaves[i].maxDef); err != nil {
				return fmt.Errorf("decode: row group %d, column %s: %w", g, col.path, err)
			}
		}
		return nil
	}

	// Each row group holds the values of its rows (checkFile), but a
	// small file can still declare many rows: allocate them all at once
	// and decode row groups in parallel when there are no more rows than
	// bytes, as in any real table, else grow the rows as groups decode.
	if md.NumRows > int64(len(data)) {
		for g, rg := range md.RowGroups {
			base := len(rows)
			rows = slices.Grow(rows, int(rg.NumRows))[:base+int(rg.NumRows)]
			if err := decodeGroup(g, rows[base:]); err != nil {
				return nil, err
			}
		}
		return rows, nil
	}
	size := md.NumRows
	if room && s.spare > 0 {
		size += md.NumRows / s.spare
	}
	rows = make([]T, md.NumRows, size)
	errs := make([]error, len(md.RowGroups))
	var eg errgroup.Group
	eg.SetLimit(max(workers, 1))
	base := int64(0)
	for g, rg := range md.RowGroups {
		part := rows[base : base+rg.NumRows]
		eg.Go(func() error { errs[g] = decodeGroup(g, part); return nil })
		base += rg.NumRows
	}
	eg.Wait()
	// The first row group's error, whichever finished first.
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// groupFiles hold the buffers of groupFile, which decoders copy out of.
var groupFiles = sync.Pool{New: func() any { return new(groupFile) }}

// recoverDecode, deferred, turns a panic while decoding into *err.
func recoverDecode(err *error) {
	if p := recover(); p != nil {
		*err = panicError(p)
	}
}

func panicError(p any) error {
	return fmt.Errorf("decode: parquet reader failed: %v", p)
}
