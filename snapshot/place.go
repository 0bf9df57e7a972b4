package snapshot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
)

// A snapshot's files are written once and never replaced: every table and
// manifest goes in with a create-only Put (If-None-Match), so a key that
// holds something keeps it. What a writer finds already there decides
// where its snapshot goes:
//
//   - nothing: its tables, then its manifest, go under the prefix asked
//     for;
//   - a manifest listing the very tables it made (same names, sizes and
//     SHA-256s; the manifests themselves always differ, by build time and
//     statistics): it writes nothing and publishes that stored snapshot,
//     once its tables are read back and found whole;
//   - anything else (a manifest of other tables, tables of another
//     writer, a snapshot that does not verify): its snapshot goes under
//     the commit's build key, "<commit>-build-<16 hex>" (BuildCommit),
//     which the tables' digests name, so that the same tables always meet
//     at the same key.
//
// Two writers racing for one key thus either made the same tables and
// share them, or one of them moves to its build key; neither ever
// changes a byte the other's manifest names.

// Published says where a snapshot was stored (Writer.Publish, Copy).
type Published struct {
	// Prefix is the snapshot's key prefix: the one asked for, or the
	// commit's build key (see BuildCommit) when that held another
	// snapshot.
	Prefix string
	// Manifest is the manifest stored under Prefix, and ManifestSHA256
	// the digest of its bytes, what HEAD.json names.
	Manifest       schemas.Manifest
	ManifestSHA256 string
	// Reused is true when the store held a snapshot of the same tables
	// under Prefix already: nothing was written, and Manifest is the
	// stored one.
	Reused bool
	// Tables and Bytes count what was stored, manifest included in Bytes.
	Tables int
	Bytes  int64
}

// buildMark separates a commit from the digest of a build's tables in a
// build key's commit token.
const buildMark = "-build-"

// BuildCommit returns the commit token of the key a snapshot of commit
// goes under when commit's own key holds another snapshot:
// "<commit>-build-<16 hex>", the hex the start of the SHA-256 of its
// tables' list (name, file, size and SHA-256 of each, by name). The same
// tables give the same token; a commit that is a build key's already
// loses its own build mark first.
func BuildCommit(commit string, tables []schemas.Table) string {
	if i := strings.Index(commit, buildMark); i > 0 {
		commit = commit[:i]
	}
	ts := slices.Clone(tables)
	slices.SortFunc(ts, func(a, b schemas.Table) int { return strings.Compare(a.Name, b.Name) })
	h := sha256.New()
	for _, t := range ts {
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\n", t.Name, t.File, t.Bytes, t.SHA256)
	}
	return commit + buildMark + hex.EncodeToString(h.Sum(nil))[:16]
}

// sameTables reports whether two manifests' table lists name the same
// bytes: the same tables, each with the same file, size and SHA-256.
func sameTables(a, b []schemas.Table) bool {
	if len(a) != len(b) {
		return false
	}
	for _, t := range a {
		i := slices.IndexFunc(b, func(u schemas.Table) bool { return u.Name == t.Name })
		if i < 0 || b[i].File != t.File || b[i].Bytes != t.Bytes || b[i].SHA256 != t.SHA256 || b[i].Rows != t.Rows {
			return false
		}
	}
	return true
}

// placed is one table on its way into a snapshot.
type placed struct {
	t    schemas.Table
	data []byte // its bytes, when held in memory
	at   string // the prefix under which the store holds its bytes; "" for none
	sure bool   // the bytes at `at` are t's: written or read back here
}

// placeOptions tune place and publish.
type placeOptions struct {
	workers        int                 // tables stored at once; 0 means 4
	afterTable     func(schemas.Table) // called after each table is stored
	beforeManifest func()              // called before each manifest Put
}

// createResult says what create found.
type createResult int

const (
	created createResult = iota // stored
	present                     // the key held the same bytes
	other                       // the key holds other bytes
)

// create stores data, t's bytes, at prefix unless the key holds something
// already, and says which. A Put whose outcome is unknown (ErrUnavailable)
// is looked at and retried.
func create(ctx context.Context, st Store, prefix string, t schemas.Table, data []byte) (createResult, error) {
	key := joinKey(prefix, t.File)
	for try := 1; ; try++ {
		_, err := st.Put(ctx, key, bytes.NewReader(data), PutOptions{IfNoneMatch: true})
		if err == nil {
			return created, nil
		}
		if !errors.Is(err, ErrPrecondition) && (!errors.Is(err, ErrUnavailable) || try == 3) {
			return 0, fmt.Errorf("put table %s: %w", t.Name, err)
		}
		same, herr := holds(ctx, st, prefix, t)
		switch {
		case herr == nil && same:
			return present, nil
		case herr == nil:
			return other, nil
		case errors.Is(herr, fs.ErrNotExist) && try < 3:
			continue // removed meanwhile, or the Put never landed
		case errors.Is(herr, fs.ErrNotExist):
			return 0, fmt.Errorf("put table %s: %w", t.Name, err)
		}
		return 0, herr
	}
}

// holds reports whether the object of table t under prefix has t's size
// and SHA-256, reading it through. A missing object gives an error
// wrapping fs.ErrNotExist.
func holds(ctx context.Context, st Store, prefix string, t schemas.Table) (bool, error) {
	rc, info, err := st.Get(ctx, joinKey(prefix, t.File))
	if err != nil {
		return false, fmt.Errorf("table %s: %w", t.Name, err)
	}
	defer rc.Close()
	if info.Size >= 0 && info.Size != t.Bytes {
		return false, nil
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(rc, t.Bytes+1))
	if err != nil {
		return false, fmt.Errorf("table %s: read: %w", t.Name, err)
	}
	return n == t.Bytes && hex.EncodeToString(h.Sum(nil)) == t.SHA256, nil
}

// errTaken says a prefix holds another snapshot than the one to publish.
var errTaken = errors.New("holds another snapshot")

// publish stores the snapshot of manifest m, whose tables are placed as
// tables says (every table m lists, in its order), under prefix, or under
// its commit's build key when prefix holds another snapshot (see the
// comment at the top of this file). It returns what it stored.
func publish(ctx context.Context, st Store, prefix string, m schemas.Manifest, tables []placed, opts placeOptions) (Published, error) {
	p, err := settle(ctx, st, prefix, m, tables, opts)
	if !errors.Is(err, errTaken) {
		return p, err
	}
	ref, rest, perr := ParseKey(prefix)
	if perr != nil || ref.Commit == "" || rest != "" {
		return Published{}, fmt.Errorf("write snapshot %s: %w", where(prefix), err)
	}
	commit := BuildCommit(ref.Commit, m.Tables)
	bp, perr := Prefix(ref.Repo, ref.Branch, commit)
	if perr != nil {
		return Published{}, fmt.Errorf("write snapshot %s: %w (and no build key: %v)", prefix, err, perr)
	}
	m.Commit = commit
	p, berr := settle(ctx, st, bp, m, tables, opts)
	if errors.Is(berr, errTaken) {
		return Published{}, fmt.Errorf("write snapshot: %w; %w", err, berr)
	}
	return p, berr
}

// settle publishes the snapshot under prefix: it reuses a stored snapshot
// of the same tables, or stores the tables not yet there and then the
// manifest, create-only. It fails with errTaken when prefix holds another
// snapshot, or a table of other bytes.
func settle(ctx context.Context, st Store, prefix string, m schemas.Manifest, tables []placed, opts placeOptions) (Published, error) {
	taken := func(format string, args ...any) (Published, error) {
		return Published{}, fmt.Errorf("%s %w: "+format, append([]any{where(prefix), errTaken}, args...)...)
	}
	raw, err := EncodeManifest(m)
	if err != nil {
		return Published{}, err
	}
	var res Published
	unknown := false // a manifest Put of ours failed of unknown fate
	for try := 0; try < 3; try++ {
		stored, storedRaw, err := ReadManifest(ctx, st, prefix)
		switch {
		case err == nil:
			if !sameTables(stored.Tables, m.Tables) {
				return taken("a manifest of other tables")
			}
			// Every table it names is read back, but those this writer
			// stored or read there itself.
			for _, p := range tables {
				if p.at == prefix && p.sure {
					continue
				}
				if ok, err := holds(ctx, st, prefix, p.t); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return Published{}, fmt.Errorf("check %s: %w", prefix, err)
				} else if !ok {
					return taken("its table %s does not verify", p.t.Name)
				}
			}
			res.Prefix, res.Manifest, res.ManifestSHA256 = prefix, stored, sha256Hex(storedRaw)
			res.Reused = !unknown || !bytes.Equal(storedRaw, raw)
			return res, nil
		case errors.Is(err, fs.ErrNotExist):
		case ctx.Err() != nil:
			return Published{}, ctx.Err()
		case errors.Is(err, ErrUnavailable):
			return Published{}, fmt.Errorf("write snapshot %s: %w", prefix, err)
		default:
			return taken("a manifest that does not read (%v)", err)
		}
		if err := placeAll(ctx, st, prefix, tables, opts, &res); err != nil {
			return Published{}, err
		}
		if opts.beforeManifest != nil {
			opts.beforeManifest()
		}
		_, err = st.Put(ctx, joinKey(prefix, schemas.ManifestFile), bytes.NewReader(raw), PutOptions{IfNoneMatch: true})
		switch {
		case err == nil:
			res.Prefix, res.Manifest, res.ManifestSHA256 = prefix, m, sha256Hex(raw)
			res.Bytes += int64(len(raw))
			return res, nil
		case errors.Is(err, ErrPrecondition):
			continue // another writer's manifest: look at it
		case errors.Is(err, ErrUnavailable):
			unknown = true // ours, stored or not: look
			continue
		}
		return Published{}, fmt.Errorf("write snapshot %s: put manifest: %w", prefix, err)
	}
	return Published{}, fmt.Errorf("write snapshot %s: the manifest could not be stored or read back in 3 tries", prefix)
}

// placeAll stores under prefix every table not yet there, opts.workers at
// once, counting them in res; errTaken when a key holds other bytes.
func placeAll(ctx context.Context, st Store, prefix string, tables []placed, opts placeOptions, res *Published) error {
	workers := opts.workers
	if workers <= 0 {
		workers = 4
	}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i := range tables {
		p := &tables[i]
		if p.at == prefix && p.sure {
			continue
		}
		g.Go(func() error {
			data := p.data
			if data == nil {
				if p.at == "" {
					return fmt.Errorf("write snapshot %s: table %s is nowhere", prefix, p.t.Name)
				}
				var err error
				if data, err = fetchTable(gctx, st, p.at, p.t); err != nil {
					return err
				}
			}
			r, err := create(gctx, st, prefix, p.t, data)
			switch {
			case err != nil:
				return err
			case r == other:
				return fmt.Errorf("%s %w: its table %s is another's", where(prefix), errTaken, p.t.Name)
			case r == created:
				mu.Lock()
				res.Tables++
				res.Bytes += p.t.Bytes
				mu.Unlock()
			}
			p.at, p.sure = prefix, true
			if opts.afterTable != nil {
				opts.afterTable(p.t)
			}
			return nil
		})
	}
	return g.Wait()
}

// sha256Hex is the hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
