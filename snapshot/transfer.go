package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/parquet-go/parquet-go/format"
	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
)

// CopyOptions tune Copy.
type CopyOptions struct {
	// ManifestSHA256, when set, is the digest the source manifest must
	// have: HEAD.json's manifest_sha256, so a manifest swapped under a
	// HEAD is refused.
	ManifestSHA256 string
	// Workers bounds the tables in flight at once; 0 means 4.
	Workers int
	// AfterTable, when set, is called after each table is stored in dst,
	// from the goroutine that stored it.
	AfterTable func(t schemas.Table)
}

// CopyResult says what Copy did.
type CopyResult struct {
	// Prefix is where dst holds the snapshot: the prefix copied, or the
	// commit's build key there when dst held another snapshot of the
	// commit under it (see Writer.Publish).
	Prefix   string
	Manifest schemas.Manifest // as dst holds it
	// ManifestSHA256 is the digest of manifest.json's bytes in dst, what
	// a HEAD.json pointing at this snapshot names.
	ManifestSHA256 string
	Tables         int   // tables stored in dst
	Bytes          int64 // bytes stored in dst, manifest included
	// Present is true when dst already held this very manifest, or one
	// of the same tables, so nothing was copied.
	Present bool
}

// Copy copies the snapshot at prefix from src to dst: every table the
// manifest lists, then manifest.json last, each create-only, as a Writer
// publishes (see Writer.Publish): under the same prefix, or under the
// commit's build key when dst holds another snapshot of the commit
// there. Every table is fetched and checked against the manifest's size
// and SHA-256, and against the bounds every reader holds it to, before
// any is stored, so a snapshot that fails its checks (a tampered or torn
// table) leaves nothing in dst; this holds the snapshot's tables in
// memory while they are stored. A reader of dst never finds a manifest
// whose tables are not all there; a Copy that dies while storing leaves
// tables without a manifest, which a rerun completes and gc removes.
//
// When dst already holds a manifest with the same bytes, Copy does
// nothing and says so (Present); it does not re-check dst's tables, which
// every reader verifies anyway. A manifest of the same tables but other
// bytes is used once dst's tables read back whole.
func Copy(ctx context.Context, dst, src Store, prefix string, opts CopyOptions) (CopyResult, error) {
	if prefix == "" {
		return CopyResult{}, errors.New("copy snapshot: empty prefix")
	}
	m, raw, err := ReadManifest(ctx, src, prefix)
	if err != nil {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: %w", prefix, err)
	}
	sum := sha256Hex(raw)
	res := CopyResult{Prefix: prefix, Manifest: m, ManifestSHA256: sum}
	if opts.ManifestSHA256 != "" && opts.ManifestSHA256 != sum {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: manifest sha256 mismatch: HEAD says %s, manifest has %s",
			prefix, opts.ManifestSHA256, sum)
	}
	mkey := joinKey(prefix, schemas.ManifestFile)
	if have, _, err := readSmall(ctx, dst, mkey, maxManifestSize); err == nil && bytes.Equal(have, raw) {
		res.Present = true
		return res, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: %w", prefix, err)
	}

	workers := opts.Workers
	if workers <= 0 {
		workers = 4
	}
	// Fetch and check every table first: nothing of a snapshot that fails
	// its checks reaches dst.
	tables := make([]placed, len(m.Tables))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, t := range m.Tables {
		g.Go(func() error {
			data, err := fetchTable(gctx, src, prefix, t)
			if err == nil {
				err = checkKnown(t, data)
			}
			tables[i] = placed{t: t, data: data}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: %w", prefix, err)
	}
	p, err := publish(ctx, dst, prefix, m, tables, placeOptions{workers: workers, afterTable: opts.AfterTable})
	if err != nil {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: %w", prefix, err)
	}
	return CopyResult{Prefix: p.Prefix, Manifest: p.Manifest, ManifestSHA256: p.ManifestSHA256,
		Tables: p.Tables, Bytes: p.Bytes, Present: p.Reused}, nil
}

// checkKnown checks a table of a name this build knows against the bounds
// every reader holds it to (checkBounds); others pass.
func checkKnown(t schemas.Table, data []byte) error {
	var schema func() ([]format.SchemaElement, error)
	switch t.Name {
	case schemas.TableNodes:
		schema = nodesSpec.schemaOnce
	case schemas.TableEdges:
		schema = edgesSpec.schemaOnce
	case schemas.TableFiles:
		schema = filesSpec.schemaOnce
	case schemas.TableSources:
		schema = sourcesSpec.schemaOnce
	case schemas.TableRefs:
		schema = refsSpec.schemaOnce
	default:
		return nil
	}
	want, err := schema()
	if err != nil {
		return err
	}
	if err := checkBounds(data, want, t.Rows); err != nil {
		return fmt.Errorf("table %s: %w", t.Name, err)
	}
	return nil
}
