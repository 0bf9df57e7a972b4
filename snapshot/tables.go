package snapshot

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/graphsnap/snap/schemas"
)

// Fixed writer settings: with them, the same rows always encode to the
// same bytes. Changing any of them changes every snapshot's bytes, so do
// it only with a format version bump.
const (
	// createdBy goes into every file's footer instead of parquet-go's
	// default, which names the library's version and build.
	createdBy = "graphsnap/snap snapshot format "

	// pageBufferSize is the uncompressed size at which a page is cut.
	pageBufferSize = 256 << 10
)

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

	schemaOnce func() ([]format.SchemaElement, error)
}

func newSpec[T any](s tableSpec[T]) *tableSpec[T] {
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
	return &s
}

var (
	nodesSpec = newSpec(tableSpec[schemas.Node]{
		name: schemas.TableNodes, file: schemas.NodesFile, rowGroupRows: 1 << 17,
		order:  "id",
		unique: true,
		compare: func(a, b *schemas.Node) int {
			return cmp.Compare(a.ID, b.ID)
		},
		describe: func(n *schemas.Node) string { return fmt.Sprintf("id %d", n.ID) },
		noStats:  []string{"signature", "doc"},
	})
	edgesSpec = newSpec(tableSpec[schemas.Edge]{
		name: schemas.TableEdges, file: schemas.EdgesFile, rowGroupRows: 1 << 17,
		order: "src, kind, dst, line, col, target, file",
		compare: func(a, b *schemas.Edge) int {
			return cmp.Or(
				cmp.Compare(a.Src, b.Src),
				cmp.Compare(a.Kind, b.Kind),
				cmp.Compare(a.Dst, b.Dst),
				cmp.Compare(a.Line, b.Line),
				cmp.Compare(a.Col, b.Col),
				cmp.Compare(a.Target, b.Target),
				cmp.Compare(a.File, b.File),
			)
		},
		describe: func(e *schemas.Edge) string {
			return fmt.Sprintf("src %d, kind %q, dst %d, line %d, col %d, target %q, file %q", e.Src, e.Kind, e.Dst, e.Line, e.Col, e.Target, e.File)
		},
		noStats: []string{"args"},
	})
	filesSpec = newSpec(tableSpec[schemas.File]{
		name: schemas.TableFiles, file: schemas.FilesFile, rowGroupRows: 1 << 17,
		order:    "path",
		unique:   true,
		compare:  func(a, b *schemas.File) int { return cmp.Compare(a.Path, b.Path) },
		describe: func(f *schemas.File) string { return fmt.Sprintf("path %q", f.Path) },
		noStats:  []string{"error"},
	})
	sourcesSpec = newSpec(tableSpec[schemas.Source]{
		name: schemas.TableSources, file: schemas.SourcesFile, rowGroupRows: 1 << 10,
		order:    "path",
		unique:   true,
		compare:  func(a, b *schemas.Source) int { return cmp.Compare(a.Path, b.Path) },
		describe: func(s *schemas.Source) string { return fmt.Sprintf("path %q", s.Path) },
		noStats:  []string{"content"},
	})
	refsSpec = newSpec(tableSpec[schemas.Ref]{
		name: schemas.TableRefs, file: schemas.RefsFile, rowGroupRows: 1 << 17,
		order: "file, line, col, kind, target, src, expr",
		compare: func(a, b *schemas.Ref) int {
			return cmp.Or(
				cmp.Compare(a.File, b.File),
				cmp.Compare(a.Line, b.Line),
				cmp.Compare(a.Col, b.Col),
				cmp.Compare(a.Kind, b.Kind),
				cmp.Compare(a.Target, b.Target),
				cmp.Compare(a.Src, b.Src),
				cmp.Compare(a.Expr, b.Expr),
			)
		},
		describe: func(r *schemas.Ref) string {
			return fmt.Sprintf("file %q, line %d, col %d, kind %q, target %q, src %d, expr %q", r.File, r.Line, r.Col, r.Kind, r.Target, r.Src, r.Expr)
		},
		noStats: []string{"args"},
	})
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
	opts := []parquet.WriterOption{
		&parquet.WriterConfig{CreatedBy: createdBy + strconv.Itoa(schemas.FormatVersion)},
		parquet.PageBufferSize(pageBufferSize),
		parquet.MaxRowsPerRowGroup(s.rowGroupRows),
		parquet.DataPageVersion(2),
		parquet.DataPageStatistics(true),
	}
	// Min/max of source text or docs help no query and can be as large as
	// the values: keep them out of page headers and the footer.
	for _, col := range s.noStats {
		opts = append(opts, parquet.SkipPageStatistics(col), parquet.SkipPageBounds(col))
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		return nil, fmt.Errorf("encode %s: %w", s.name, err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("encode %s: %w", s.name, err)
	}
	return buf.Bytes(), nil
}

// decodeRows checks data (see checkParquet) and decodes its rows. It
// refuses files declaring more than maxRows rows, and never allocates by
// what the file declares beyond what checkParquet bounds.
func decodeRows[T any](s *tableSpec[T], data []byte, maxRows int64) (rows []T, err error) {
	want, err := s.schemaOnce()
	if err != nil {
		return nil, err
	}
	md, err := checkParquet(data, want, maxRows)
	if err != nil {
		return nil, err
	}
	// parquet-go is a third-party decoder fed bytes that may come from
	// anywhere: turn a panic in it into an error naming the table.
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
