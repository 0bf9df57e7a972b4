// Package export writes the tables of one snapshot into a folder, in
// forms notebooks and dataframes read: Arrow IPC files, the Parquet
// tables as they are (the folder is then a snapshot itself), or JSON
// Lines. The snapshot is verified first, and the folder appears whole or
// not at all: the files are written into a temporary folder beside it,
// synced, and the folder renamed into place last.
package export

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Formats are the forms Snapshot writes; a table's file is named after
// it with the format as extension (nodes.arrow, nodes.jsonl, …).
var Formats = []string{"arrow", "parquet", "jsonl"}

// batchRows is the number of rows converted at a time: small enough that
// a batch of the sources table (whole files) stays a few MiB.
const batchRows = 4096

// Options say what Snapshot writes, and where.
type Options struct {
	Format string // one of Formats
	// Out is the folder to write; "" is snap-<commit>-<format> in the
	// working folder. It must not exist or be empty, unless Force.
	Out   string
	Force bool // replace Out when it is a folder that is not empty
	// ManifestSHA256 is the digest HEAD names, when the snapshot was found
	// through HEAD: manifest.json is checked against it.
	ManifestSHA256 string
	Label          string // names the snapshot in errors
}

// Result says what Snapshot wrote.
type Result struct {
	Dir      string
	Format   string
	Manifest schemas.Manifest
	Tables   []schemas.Table // written, as the manifest lists them
	Skipped  []string        // tables this build cannot convert
}

// Text writes what was exported for people: the snapshot, the format
// and each table's rows, and the tables left out.
func (r Result) Text(w io.Writer) {
	var parts []string
	for _, t := range r.Tables {
		parts = append(parts, fmt.Sprintf("%s %d", t.Name, t.Rows))
	}
	m := r.Manifest
	fmt.Fprintf(w, "exported %s %s %s as %s: %s rows\n", m.Repo, m.Branch, snapshot.ShortCommit(m.Commit), r.Format, strings.Join(parts, ", "))
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "left out tables this build does not know (--format parquet copies them): %s\n", strings.Join(r.Skipped, ", "))
	}
}

// An OutError is an output folder Snapshot refuses to write: a file, a
// folder that is not empty (without Force), one that holds a git
// repository, a snapshot store or the working folder, or one inside a
// store. Export never writes into a store.
type OutError struct{ msg string }

func (e *OutError) Error() string { return e.msg }

func outErrorf(format string, args ...any) error {
	return &OutError{fmt.Sprintf(format, args...)}
}

// Snapshot verifies the snapshot at prefix in st and writes its tables in
// opts.Format into opts.Out: into a temporary folder beside it first,
// tables then (for parquet) manifest.json, each synced, and the folder
// renamed into place last.
func Snapshot(ctx context.Context, st snapshot.Store, prefix string, opts Options) (Result, error) {
	format := opts.Format
	if !slices.Contains(Formats, format) {
		return Result{}, fmt.Errorf("export: unknown format %q", format)
	}
	// Parquet copies the verified bytes; arrow and jsonl convert the rows
	// our reader decoded, checking as it went everything Verify checks.
	var m schemas.Manifest
	var raw []byte
	var snap *snapshot.Snapshot
	var err error
	if format == "parquet" {
		m, raw, err = verifiedManifest(ctx, st, prefix, opts.ManifestSHA256)
	} else {
		snap, err = snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{ManifestSHA256: opts.ManifestSHA256})
		if snap != nil {
			m = snap.Manifest
		}
	}
	if err != nil {
		return Result{}, fmt.Errorf("export %s: %w", opts.Label, err)
	}
	out := opts.Out
	if out == "" {
		out = "snap-" + snapshot.ShortCommit(m.Commit) + "-" + format
	}
	out = filepath.Clean(out)
	if err := checkOut(out, opts.Force); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".snap-export-*")
	if err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	defer os.RemoveAll(tmp) // nothing left to remove once renamed
	if err := os.Chmod(tmp, 0o755); err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	defer root.Close()

	res := Result{Dir: out, Format: format, Manifest: m}
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
				err = copyTable(gctx, st, prefix, root, t)
			} else {
				err = convertTable(gctx, root, m, t, rows, format)
			}
			if err != nil {
				return fmt.Errorf("export %s: table %s: %w", opts.Label, t.Name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Result{}, err
	}
	if format == "parquet" {
		// The manifest as it is, last: the folder is a snapshot itself.
		if err := writeFile(root, schemas.ManifestFile, func(w io.Writer) error {
			_, err := w.Write(raw)
			return err
		}); err != nil {
			return Result{}, fmt.Errorf("export: %w", err)
		}
	}
	if err := syncDir(tmp); err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	if err := publishDir(tmp, out); err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
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

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// verifiedManifest verifies the snapshot (every table's size, SHA-256,
// Parquet structure, schema, row count and order) and returns its
// manifest and manifest.json's bytes, checked against HEAD's digest when
// one is given.
func verifiedManifest(ctx context.Context, st snapshot.Store, prefix, headSHA256 string) (schemas.Manifest, []byte, error) {
	m, raw, err := snapshot.ReadManifest(ctx, st, prefix)
	if err != nil {
		return schemas.Manifest{}, nil, err
	}
	if headSHA256 != "" && sha256Hex(raw) != headSHA256 {
		return schemas.Manifest{}, nil, fmt.Errorf("manifest sha256 mismatch: HEAD says %s, manifest has %s", headSHA256, sha256Hex(raw))
	}
	vm, err := snapshot.Verify(ctx, st, prefix)
	if err != nil {
		return schemas.Manifest{}, nil, err
	}
	if !slices.Equal(vm.Tables, m.Tables) {
		return schemas.Manifest{}, nil, errors.New("the manifest changed while it was verified")
	}
	return m, raw, nil
}

// checkOut refuses an output folder that is a file, a folder that is not
// empty (unless force), a folder that holds a git repository or the
// working folder, or a place in a store or a store itself.
func checkOut(out string, force bool) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, el := range strings.Split(filepath.ToSlash(abs), "/") {
		if strings.HasPrefix(el, "repo=") || strings.HasPrefix(el, "branch=") || strings.HasPrefix(el, "commit=") {
			return outErrorf("export: --out %s is inside a snapshot store: choose a folder outside it", out)
		}
	}
	fi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if !fi.IsDir() {
		return outErrorf("export: --out %s is not a folder", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Name(), "repo="):
			return outErrorf("export: --out %s holds a snapshot store: choose another folder", out)
		case e.Name() == ".git":
			return outErrorf("export: --out %s holds a git repository: choose another folder", out)
		}
	}
	if len(entries) > 0 && !force {
		return outErrorf("export: --out %s is not empty: choose another folder, or replace it with --force", out)
	}
	if wd, err := os.Getwd(); err == nil && (wd == abs || strings.HasPrefix(wd, abs+string(filepath.Separator))) {
		return outErrorf("export: --out %s holds the working folder: choose another folder", out)
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
func copyTable(ctx context.Context, st snapshot.Store, prefix string, root *os.Root, t schemas.Table) error {
	key := t.File
	if prefix != "" {
		key = prefix + "/" + t.File
	}
	rc, _, err := st.Get(ctx, key)
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
