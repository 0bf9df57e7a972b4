// Package snapshot writes and reads code-graph snapshots: the Parquet
// tables of schemas (nodes, edges, files, sources, refs) and manifest.json,
// stored under a key prefix of a Store.
//
// Write puts every table first and the manifest, which names each table's
// size and SHA-256, last; a Writer does the same for a caller that has its
// tables one by one (the indexer hands each over as soon as it is final). Read and Verify go the other way: manifest, then
// tables, checking size and SHA-256 before decoding a byte, then the
// Parquet structure and schema, row counts and sort order. A torn,
// truncated or tampered snapshot is refused with an error naming the table
// and what is wrong, never half-loaded.
//
// The same rows always encode to the same bytes (fixed writer settings, no
// timestamps in tables), so a snapshot of a tree is reproducible.
//
// Keys follow the hive layout of Prefix and HeadKey; HEAD.json, the
// pointer to a branch's newest snapshot, moves by compare-and-swap with
// WriteHead. The Store interface and its backends (filestore, memstore)
// live here and below; storetest holds their shared conformance suite.
package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
)

// Snapshot is one snapshot in memory: its manifest and the rows of every
// table, each in its table's sort order (see the row types in schemas).
// Sources is nil when the snapshot has no sources table, or when it was
// read into SourceFiles instead (ReadOptions.SourceFiles).
type Snapshot struct {
	Manifest    schemas.Manifest
	Nodes       []schemas.Node
	Edges       []schemas.Edge
	Files       []schemas.File
	Sources     []schemas.Source
	SourceFiles *SourceFiles
	Refs        []schemas.Ref
}

// ReadOptions leave out tables a reader does not need, and name the
// manifest expected.
type ReadOptions struct {
	SkipSources bool
	SkipRefs    bool
	SkipEdges   bool // an incremental index needs only nodes, files and refs
	// SourceFiles reads the sources table into Snapshot.SourceFiles,
	// which keeps it compressed, rather than into Snapshot.Sources. A
	// table written by another writer in a layout SourceFiles does not
	// read (a dictionary, an encoding other than PLAIN and
	// DELTA_LENGTH_BYTE_ARRAY) goes into
	// Sources as without it.
	SourceFiles bool
	// ManifestSHA256, when set, is the digest manifest.json must have:
	// HEAD.json's manifest_sha256.
	ManifestSHA256 string
	// Workers bounds how many tables and row groups decode at once; 0
	// means one per CPU. A server loading the next snapshot beside the
	// one it serves reads with 1, so that requests keep a core.
	Workers int
}

func (o ReadOptions) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// maxManifestSize bounds what ReadManifest reads: a manifest is a few KiB.
const maxManifestSize = 16 << 20

// Write stores s under prefix ("" for the store's root): the tables, then
// manifest.json. It fills the manifest's FormatVersion and Tables (name,
// file, rows, bytes, sha256) and returns the manifest as written. The
// sources table is written when s.Sources is not nil.
//
// Rows are written in the order given, which must be the table's sort
// order; Write refuses rows out of order (or, where keys are unique,
// repeated) before it writes anything.
func Write(ctx context.Context, st Store, prefix string, s *Snapshot) (schemas.Manifest, error) {
	if err := checkPrefix(prefix); err != nil {
		return schemas.Manifest{}, fmt.Errorf("write snapshot: %w", err)
	}
	if s == nil {
		return schemas.Manifest{}, errors.New("write snapshot: nil snapshot")
	}
	orderErrs := []error{
		orderError(nodesSpec, s.Nodes),
		orderError(edgesSpec, s.Edges),
		orderError(filesSpec, s.Files),
		orderError(sourcesSpec, s.Sources),
		orderError(refsSpec, s.Refs),
	}
	if err := errors.Join(orderErrs...); err != nil {
		return schemas.Manifest{}, fmt.Errorf("write snapshot %s: %w", where(prefix), err)
	}
	w, err := NewWriter(ctx, st, prefix)
	if err != nil {
		return schemas.Manifest{}, err
	}
	put(w, nodesSpec, s.Nodes, false, false, nil, nil)
	put(w, edgesSpec, s.Edges, false, false, nil, nil)
	put(w, filesSpec, s.Files, false, false, nil, nil)
	if s.Sources != nil {
		put(w, sourcesSpec, s.Sources, false, false, nil, nil)
	}
	put(w, refsSpec, s.Refs, false, false, nil, nil)
	return w.Close(s.Manifest)
}

func orderError[T any](spec *tableSpec[T], rows []T) error {
	if err := spec.checkOrder(rows); err != nil {
		return fmt.Errorf("table %s: %w", spec.name, err)
	}
	return nil
}

// encodeTable encodes a table (see encodeReusing) and checks it against
// the bounds every reader holds it to (checkBounds): a table a reader
// would refuse is never stored.
func encodeTable[T any](spec *tableSpec[T], rows []T, reuse groupReuse) (schemas.Table, []byte, RowGroups, error) {
	data, groups, err := encodeReusing(spec, rows, reuse)
	if err != nil {
		return schemas.Table{}, nil, groups, err
	}
	want, err := spec.schemaOnce()
	if err != nil {
		return schemas.Table{}, nil, groups, err
	}
	if err := checkBounds(data, want, int64(len(rows))); err != nil {
		return schemas.Table{}, nil, groups, fmt.Errorf("table %s: %w: a reader would refuse it", spec.name, err)
	}
	return schemas.Table{
		Name:   spec.name,
		File:   spec.file,
		Rows:   int64(len(rows)),
		Bytes:  int64(len(data)),
		SHA256: sha256Hex(data),
	}, data, groups, nil
}

// normalize gives nil lists and maps of m their empty value, so the JSON
// says [] and {} rather than null.
func normalize(m schemas.Manifest) schemas.Manifest {
	if m.Parents == nil {
		m.Parents = []string{}
	}
	if m.Grammars == nil {
		m.Grammars = map[string]string{}
	}
	if m.Indexer.Args == nil {
		m.Indexer.Args = []string{}
	}
	if m.Counts.Languages == nil {
		m.Counts.Languages = map[string]int{}
	}
	return m
}

// EncodeManifest returns manifest.json's bytes for m: indented JSON with a
// trailing newline. For the manifest Write returns, these are the bytes it
// stored, so their SHA-256 is what HEAD.json's manifest_sha256 names.
func EncodeManifest(m schemas.Manifest) ([]byte, error) {
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return append(raw, '\n'), nil
}

// ReadManifest reads and checks the manifest of the snapshot at prefix
// (see ParseManifest). It also returns the raw bytes, to compare with
// HEAD.json's manifest_sha256. A missing manifest gives an error wrapping
// fs.ErrNotExist.
func ReadManifest(ctx context.Context, st Store, prefix string) (schemas.Manifest, []byte, error) {
	if err := checkPrefix(prefix); err != nil {
		return schemas.Manifest{}, nil, fmt.Errorf("read manifest: %w", err)
	}
	key := joinKey(prefix, schemas.ManifestFile)
	raw, _, err := readSmall(ctx, st, key, maxManifestSize)
	if err != nil {
		return schemas.Manifest{}, nil, fmt.Errorf("read manifest: %w", err)
	}
	m, err := ParseManifest(raw)
	if err != nil {
		return schemas.Manifest{}, nil, fmt.Errorf("read manifest %s: %w", key, err)
	}
	return m, raw, nil
}

// readSmall reads a whole object of at most limit bytes.
func readSmall(ctx context.Context, st Store, key string, limit int64) ([]byte, Info, error) {
	rc, info, err := st.Get(ctx, key)
	if err != nil {
		return nil, Info{}, err
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, Info{}, fmt.Errorf("read %s: %w", key, err)
	}
	if int64(len(raw)) > limit {
		return nil, Info{}, fmt.Errorf("read %s: larger than %d bytes", key, limit)
	}
	return raw, info, nil
}

// ParseManifest decodes manifest.json and checks what a reader relies on:
// a format version this build reads, and a well-formed table list naming
// every required table (nodes, edges, files, refs) once, with its file,
// row count, size and SHA-256. Unknown fields and tables are allowed: a
// format version grows by adding them.
func ParseManifest(raw []byte) (schemas.Manifest, error) {
	var m schemas.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return schemas.Manifest{}, fmt.Errorf("parse manifest: %w", clipErr(err))
	}
	if m.FormatVersion < schemas.MinFormatVersion || m.FormatVersion > schemas.FormatVersion {
		return schemas.Manifest{}, fmt.Errorf("unsupported snapshot format_version %d: this build reads versions %d to %d",
			m.FormatVersion, schemas.MinFormatVersion, schemas.FormatVersion)
	}
	seen := make(map[string]bool, len(m.Tables))
	files := make(map[string]bool, len(m.Tables))
	for _, t := range m.Tables {
		if err := checkTableEntry(t); err != nil {
			return schemas.Manifest{}, err
		}
		if seen[t.Name] {
			return schemas.Manifest{}, fmt.Errorf("manifest lists table %s twice", clip(t.Name))
		}
		if files[t.File] {
			return schemas.Manifest{}, fmt.Errorf("manifest lists file %s twice", clip(t.File))
		}
		seen[t.Name], files[t.File] = true, true
	}
	for _, name := range requiredTables {
		if !seen[name] {
			return schemas.Manifest{}, fmt.Errorf("missing table %s (%s): not in the manifest", name, knownFiles[name])
		}
	}
	return m, nil
}

func checkTableEntry(t schemas.Table) error {
	if t.Name == "" {
		return errors.New("manifest lists a table without a name")
	}
	// Names from the manifest are clipped in messages: it may be hostile.
	if want, ok := knownFiles[t.Name]; ok && t.File != want {
		return fmt.Errorf("manifest: table %s in file %s, want %q", t.Name, strconv.Quote(clipped(t.File)), want)
	}
	if err := ValidateKey(t.File); err != nil || strings.Contains(t.File, "/") {
		return fmt.Errorf("manifest: table %s: bad file name %s", clip(t.Name), strconv.Quote(clipped(t.File)))
	}
	if t.Rows < 0 || t.Bytes < 0 {
		return fmt.Errorf("manifest: table %s: negative rows (%d) or bytes (%d)", clip(t.Name), t.Rows, t.Bytes)
	}
	if len(t.SHA256) != 64 || strings.Trim(t.SHA256, "0123456789abcdef") != "" {
		return fmt.Errorf("manifest: table %s: sha256 %s is not 64 lowercase hex digits", clip(t.Name), strconv.Quote(clipped(t.SHA256)))
	}
	return nil
}

func findTable(m *schemas.Manifest, name string) (schemas.Table, bool) {
	for _, t := range m.Tables {
		if t.Name == name {
			return t, true
		}
	}
	return schemas.Table{}, false
}

// Read reads the snapshot at prefix, checking everything Verify does for
// the tables it loads (see the package comment). Tables opts skips are
// not fetched; an optional table the manifest does not list stays nil.
func Read(ctx context.Context, st Store, prefix string, opts ReadOptions) (*Snapshot, error) {
	m, raw, err := ReadManifest(ctx, st, prefix)
	if err != nil {
		return nil, err
	}
	if opts.ManifestSHA256 != "" {
		if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != opts.ManifestSHA256 {
			return nil, fmt.Errorf("read snapshot %s: manifest sha256 mismatch: HEAD says %s, manifest has %x", where(prefix), opts.ManifestSHA256, sum)
		}
	}
	s := &Snapshot{Manifest: m}
	w := opts.workers()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(w)
	// The sources go first: kept compressed (SourceFiles), they are
	// checked on one goroutine, the longest of the tables' jobs, which
	// last left one core idle at the end of the read (GOROOT/src: read
	// 382 → 339 ms, median of 6 alternations).
	if _, listed := findTable(&m, schemas.TableSources); listed && !opts.SkipSources {
		g.Go(func() (err error) {
			if opts.SourceFiles {
				s.SourceFiles, err = loadSourceFiles(gctx, st, prefix, &m)
				if !errors.Is(err, errNotLazy) {
					return err
				}
			}
			s.Sources, err = loadTable(gctx, st, prefix, &m, sourcesSpec, w)
			return err
		})
	}
	g.Go(func() (err error) { s.Nodes, err = loadTable(gctx, st, prefix, &m, nodesSpec, w); return err })
	if !opts.SkipEdges {
		g.Go(func() (err error) { s.Edges, err = loadTable(gctx, st, prefix, &m, edgesSpec, w); return err })
	}
	g.Go(func() (err error) { s.Files, err = loadTable(gctx, st, prefix, &m, filesSpec, w); return err })
	if !opts.SkipRefs {
		g.Go(func() (err error) { s.Refs, err = loadTable(gctx, st, prefix, &m, refsSpec, w); return err })
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("read snapshot %s: %w", where(prefix), err)
	}
	return s, nil
}

// loadTable fetches, checks and decodes one table the manifest lists,
// decoding up to workers row groups at once.
func loadTable[T any](ctx context.Context, st Store, prefix string, m *schemas.Manifest, spec *tableSpec[T], workers int) ([]T, error) {
	rows, _, err := loadTableData(ctx, st, prefix, m, spec, workers, false)
	return rows, err
}

// verifyTable is loadTable that also checks the digests of row groups the
// table's footer lists against their rows: a digest that lied would make
// an incremental index that took the snapshot as its base copy the wrong
// rows.
func verifyTable[T any](ctx context.Context, st Store, prefix string, m *schemas.Manifest, spec *tableSpec[T], workers int) error {
	rows, data, err := loadTableData(ctx, st, prefix, m, spec, workers, false)
	if err != nil {
		return err
	}
	if err := checkDigests(spec, data, rows); err != nil {
		return fmt.Errorf("table %s: %w", spec.name, err)
	}
	return nil
}

// loadTableData is loadTable that also returns the table's bytes.
func loadTableData[T any](ctx context.Context, st Store, prefix string, m *schemas.Manifest, spec *tableSpec[T], workers int, room bool) ([]T, []byte, error) {
	t, data, err := fetchListed(ctx, st, prefix, m, spec.name, spec.file)
	if err != nil {
		return nil, nil, err
	}
	rows, err := decodeChecked(spec, data, t.Rows, workers, room)
	return rows, data, err
}

// decodeChecked decodes a table of the rows its manifest lists (see
// decodeRowsRoom) and checks their number and order.
func decodeChecked[T any](spec *tableSpec[T], data []byte, want int64, workers int, room bool) ([]T, error) {
	rows, err := decodeRowsRoom(spec, data, want, workers, room)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.name, err)
	}
	if int64(len(rows)) != want {
		return nil, fmt.Errorf("table %s: %d rows, manifest says %d", spec.name, len(rows), want)
	}
	if err := spec.checkOrder(rows); err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.name, err)
	}
	return rows, nil
}

// loadSourceFiles fetches and checks the sources table into SourceFiles;
// errNotLazy when its layout needs decoding whole.
func loadSourceFiles(ctx context.Context, st Store, prefix string, m *schemas.Manifest) (*SourceFiles, error) {
	t, ok := findTable(m, schemas.TableSources)
	if !ok {
		return nil, fmt.Errorf("missing table %s (%s): not in the manifest", schemas.TableSources, schemas.SourcesFile)
	}
	data, rc, err := openTable(ctx, st, prefix, t)
	keep := false
	defer func() {
		if rc != nil && !keep {
			rc.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	sf, err := openSourceFiles(data, t.Rows)
	if errors.Is(err, errNotLazy) {
		return nil, err
	} else if err != nil {
		return nil, fmt.Errorf("table %s: %w", schemas.TableSources, err)
	}
	if int64(sf.Len()) != t.Rows {
		return nil, fmt.Errorf("table %s: %d rows, manifest says %d", schemas.TableSources, sf.Len(), t.Rows)
	}
	// A file stays open, and its pages on disk, read back when asked for.
	if f, ok := rc.(io.ReaderAt); ok {
		sf.readBack(f, rc)
		keep = true
	}
	return sf, nil
}

// fetchListed fetches the table the manifest lists under name (see
// fetchTable).
func fetchListed(ctx context.Context, st Store, prefix string, m *schemas.Manifest, name, file string) (schemas.Table, []byte, error) {
	t, ok := findTable(m, name)
	if !ok {
		return t, nil, fmt.Errorf("missing table %s (%s): not in the manifest", name, file)
	}
	data, err := fetchTable(ctx, st, prefix, t)
	return t, data, err
}

// fetchTable reads a table file whole, after checking its size and before
// returning it its SHA-256, against the manifest.
func fetchTable(ctx context.Context, st Store, prefix string, t schemas.Table) ([]byte, error) {
	data, rc, err := openTable(ctx, st, prefix, t)
	if rc != nil {
		rc.Close()
	}
	return data, err
}

// openTable is fetchTable that leaves the object open: the caller closes
// rc, which is nil only with an error.
func openTable(ctx context.Context, st Store, prefix string, t schemas.Table) (_ []byte, rc io.ReadCloser, _ error) {
	rc, info, err := st.Get(ctx, joinKey(prefix, t.File))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("missing table %s (%s): %w", t.Name, t.File, err)
	} else if err != nil {
		return nil, nil, fmt.Errorf("table %s: %w", t.Name, err)
	}
	sizeErr := func(n int64) error {
		return fmt.Errorf("table %s: size mismatch: manifest says %d bytes, file has %d", t.Name, t.Bytes, n)
	}
	if info.Size >= 0 && info.Size != t.Bytes {
		return nil, rc, sizeErr(info.Size)
	}
	// The store's size is what the object holds; the manifest's is only a
	// claim, so never allocate by it alone.
	var data []byte
	if info.Size == t.Bytes {
		data = make([]byte, t.Bytes)
		if _, err := io.ReadFull(rc, data); err != nil {
			return nil, rc, fmt.Errorf("table %s: read: %w", t.Name, err)
		}
	} else if data, err = io.ReadAll(io.LimitReader(rc, t.Bytes+1)); err != nil {
		return nil, rc, fmt.Errorf("table %s: read: %w", t.Name, err)
	}
	if int64(len(data)) != t.Bytes {
		return nil, rc, sizeErr(int64(len(data)))
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != t.SHA256 {
		return nil, rc, fmt.Errorf("table %s: sha256 mismatch: manifest says %s, file has %x", t.Name, t.SHA256, sum)
	}
	return data, rc, nil
}

// Verify checks the snapshot at prefix without keeping it: the manifest,
// then every table it lists (size, SHA-256, Parquet structure, schema, row
// count and sort order; for tables this build does not know, size and
// SHA-256). It reports every problem it finds, joined, and returns the
// manifest when it could read one.
func Verify(ctx context.Context, st Store, prefix string) (schemas.Manifest, error) {
	m, _, err := ReadManifest(ctx, st, prefix)
	if err != nil {
		return schemas.Manifest{}, err
	}
	errs := make([]error, len(m.Tables))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, t := range m.Tables {
		g.Go(func() error {
			var err error
			switch t.Name {
			case schemas.TableNodes:
				err = verifyTable(gctx, st, prefix, &m, nodesSpec, runtime.GOMAXPROCS(0))
			case schemas.TableEdges:
				err = verifyTable(gctx, st, prefix, &m, edgesSpec, runtime.GOMAXPROCS(0))
			case schemas.TableFiles:
				err = verifyTable(gctx, st, prefix, &m, filesSpec, runtime.GOMAXPROCS(0))
			case schemas.TableSources:
				err = verifyTable(gctx, st, prefix, &m, sourcesSpec, runtime.GOMAXPROCS(0))
			case schemas.TableRefs:
				err = verifyTable(gctx, st, prefix, &m, refsSpec, runtime.GOMAXPROCS(0))
			default:
				_, err = fetchTable(gctx, st, prefix, t)
			}
			errs[i] = err
			return nil // go on: report every table
		})
	}
	g.Wait()
	if err := errors.Join(errs...); err != nil {
		return m, fmt.Errorf("verify snapshot %s: %w", where(prefix), err)
	}
	return m, nil
}

// checkPrefix accepts "" or a valid key.
func checkPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	return ValidateKey(strings.TrimSuffix(prefix, "/"))
}

// where names a snapshot prefix in messages.
func where(prefix string) string {
	if prefix == "" {
		return "."
	}
	return prefix
}
