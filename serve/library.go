package serve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// library gives the history tools the followed branch's snapshots: it
// lists them in the store (the local cache when the store cannot be
// reached), and loads one by copying it into the cache first. It keeps
// the engines of the two snapshots opened last, besides the one served.
type library struct {
	f *follower

	mu        sync.Mutex
	recent    []*query.Engine             // most recently opened first
	manifests map[string]schemas.Manifest // by commit: a snapshot never changes
}

// keepOpened is how many opened engines a library keeps.
const keepOpened = 2

// Snapshots lists the branch's complete snapshots, newest first, with
// their manifests.
func (l *library) Snapshots(ctx context.Context) ([]mcp.StoredSnapshot, error) {
	st := l.f.remote
	listing, err := snapshot.Catalog(ctx, st.Store, l.f.repo, l.f.branch)
	if err != nil && !st.Local() {
		// The cache still says what was pulled.
		st = l.f.cache
		listing, err = snapshot.Catalog(ctx, st.Store, l.f.repo, l.f.branch)
	}
	if err != nil {
		return nil, libraryErr(err)
	}
	var out []mcp.StoredSnapshot
	for _, b := range listing {
		for _, s := range b.Snapshots {
			if !s.Complete {
				continue
			}
			m, ok, err := l.manifest(ctx, st, s.Commit)
			if err != nil {
				return nil, libraryErr(err)
			}
			if !ok {
				continue // collected since it was listed
			}
			out = append(out, mcp.StoredSnapshot{Manifest: m, Head: s.Head, Bytes: s.Bytes, StoredAt: s.StoredAt})
		}
	}
	return out, nil
}

// manifest reads the manifest of commit's snapshot in st once; ok is
// false when it is not there.
func (l *library) manifest(ctx context.Context, st ci.Store, commit string) (schemas.Manifest, bool, error) {
	l.mu.Lock()
	m, ok := l.manifests[commit]
	l.mu.Unlock()
	if ok {
		return m, true, nil
	}
	prefix, err := snapshot.Prefix(l.f.repo, l.f.branch, commit)
	if err != nil {
		return m, false, err
	}
	m, _, err = snapshot.ReadManifest(ctx, st.Store, prefix)
	if errors.Is(err, fs.ErrNotExist) {
		return m, false, nil
	}
	if err != nil {
		return m, false, err
	}
	l.mu.Lock()
	if l.manifests == nil {
		l.manifests = make(map[string]schemas.Manifest)
	}
	l.manifests[commit] = m
	l.mu.Unlock()
	return m, true, nil
}

// Open loads the snapshot of commit: from the cache, after copying it
// there from the store (digests checked) when the cache lacks it.
func (l *library) Open(ctx context.Context, commit string) (*query.Engine, error) {
	l.mu.Lock()
	for i, e := range l.recent {
		if e.Commit() == commit {
			l.recent = append(append([]*query.Engine{e}, l.recent[:i]...), l.recent[i+1:]...)
			l.mu.Unlock()
			return e, nil
		}
	}
	l.mu.Unlock()
	if e := l.f.holder.Load(); e != nil && e.Commit() == commit {
		return e, nil
	}
	prefix, err := snapshot.Prefix(l.f.repo, l.f.branch, commit)
	if err != nil {
		return nil, err
	}
	if !l.f.remote.Local() {
		res, err := snapshot.Copy(ctx, l.f.cache.Store, l.f.remote.Store, prefix, snapshot.CopyOptions{})
		if err == nil {
			prefix = res.Prefix // the commit's build key when the cache held another snapshot of it
		} else if _, _, cerr := snapshot.ReadManifest(ctx, l.f.cache.Store, prefix); cerr != nil {
			return nil, libraryErr(err)
		} // else the cache has it already: the store's trouble does not matter
	}
	e, _, err := l.f.load(ctx, ci.Source{Store: l.f.cache.Store, Prefix: prefix, Label: l.f.repo + " " + l.f.branch + " " + commit}, 0)
	if err != nil {
		return nil, libraryErr(err)
	}
	l.mu.Lock()
	l.recent = append([]*query.Engine{e}, l.recent[:min(len(l.recent), keepOpened-1)]...)
	l.mu.Unlock()
	return e, nil
}

// libraryErr tells the history tools what kind of failure err is.
func libraryErr(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %v", mcp.ErrSnapshotNotFound, err)
	case errors.Is(err, snapshot.ErrUnavailable):
		return fmt.Errorf("%w: %v", mcp.ErrStoreUnavailable, err)
	}
	return err
}
