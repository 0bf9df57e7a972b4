package snapshot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

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
	Manifest schemas.Manifest
	// ManifestSHA256 is the digest of manifest.json's bytes, what a
	// HEAD.json pointing at this snapshot names.
	ManifestSHA256 string
	Tables         int   // tables stored in dst
	Bytes          int64 // bytes stored in dst, manifest included
	// Present is true when dst already held this very manifest, so
	// nothing was copied.
	Present bool
}

// Copy copies the snapshot at prefix from src to dst under the same
// prefix: every table the manifest lists, then manifest.json last. Every
// table is fetched and checked against the manifest's size and SHA-256
// before any is stored, so a snapshot that fails its checks (a tampered
// or torn table) leaves nothing in dst; this holds the snapshot's tables
// in memory while they are stored. A reader of dst never finds a manifest
// whose tables are not all there; a Copy that dies while storing leaves
// tables without a manifest, which a rerun completes and gc removes.
//
// When dst already holds a manifest with the same bytes, Copy does
// nothing and says so (Present); it does not re-check dst's tables, which
// every reader verifies anyway.
func Copy(ctx context.Context, dst, src Store, prefix string, opts CopyOptions) (CopyResult, error) {
	if prefix == "" {
		return CopyResult{}, errors.New("copy snapshot: empty prefix")
	}
	m, raw, err := ReadManifest(ctx, src, prefix)
	if err != nil {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: %w", prefix, err)
	}
	sum := sha256.Sum256(raw)
	res := CopyResult{Manifest: m, ManifestSHA256: hex.EncodeToString(sum[:])}
	if opts.ManifestSHA256 != "" && opts.ManifestSHA256 != res.ManifestSHA256 {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: manifest sha256 mismatch: HEAD says %s, manifest has %s",
			prefix, opts.ManifestSHA256, res.ManifestSHA256)
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
	tables := make([][]byte, len(m.Tables))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, t := range m.Tables {
		g.Go(func() (err error) {
			tables[i], err = fetchTable(gctx, src, prefix, t)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: %w", prefix, err)
	}
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, t := range m.Tables {
		g.Go(func() error {
			if _, err := dst.Put(gctx, joinKey(prefix, t.File), bytes.NewReader(tables[i]), PutOptions{}); err != nil {
				return fmt.Errorf("put table %s: %w", t.Name, err)
			}
			if opts.AfterTable != nil {
				opts.AfterTable(t)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: %w", prefix, err)
	}
	if _, err := dst.Put(ctx, mkey, bytes.NewReader(raw), PutOptions{}); err != nil {
		return CopyResult{}, fmt.Errorf("copy snapshot %s: put manifest: %w", prefix, err)
	}
	res.Tables = len(m.Tables)
	res.Bytes = int64(len(raw))
	for _, data := range tables {
		res.Bytes += int64(len(data))
	}
	return res, nil
}
