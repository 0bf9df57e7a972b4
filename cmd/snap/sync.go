package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// follower keeps a Holder on the newest snapshot of one branch: it reads
// the store's HEAD, copies a new snapshot into the local cache (checking
// every digest), builds its engine aside and swaps it in. Requests in
// flight keep the engine they started with; none waits for a swap.
type follower struct {
	remote       storeRef // where HEAD is read
	cache        storeRef // where snapshots load from: remote itself when it is local
	repo, branch string
	holder       *query.Holder
	// apply, when set, takes a snapshot the follower brought into the
	// cache instead of loading it into holder: a server of several
	// repositories joins them (repos.go).
	apply func(ctx context.Context, src source) error
	log   *slog.Logger
	reset chan struct{} // told when the interval changes

	run sync.Mutex // one sync at a time

	mu       sync.Mutex // guards what follows
	interval time.Duration
	status   mcp.SyncStatus
	loaded   schemas.Head // what the holder's engine was loaded from
}

// maxBackoff bounds the wait between syncs after failures.
const maxBackoff = 5 * time.Minute

// sync brings in the store's HEAD when it differs from what is loaded.
func (f *follower) sync(ctx context.Context) error {
	head, _, err := snapshot.ReadHead(ctx, f.remote.store, f.repo, f.branch)
	if err != nil {
		return fmt.Errorf("read HEAD of %s %s: %w", f.repo, f.branch, err)
	}
	f.mu.Lock()
	f.status.Head = head.Commit
	same := f.loaded.Commit == head.Commit && f.loaded.ManifestSHA256 == head.ManifestSHA256
	f.mu.Unlock()
	if same {
		return nil
	}
	prefix, err := snapshot.Prefix(f.repo, f.branch, head.Commit)
	if err != nil {
		return err
	}
	if !f.remote.local() {
		start := time.Now()
		res, _, err := pullHead(ctx, f.remote, f.cache, f.repo, f.branch, head)
		if err != nil {
			return err
		}
		if !res.Present {
			f.log.Info("pulled", "commit", head.Commit, "bytes", res.Bytes, "took", time.Since(start).Round(time.Millisecond))
		}
	}
	src := source{store: f.cache.store, prefix: prefix, label: f.repo + " " + f.branch + " " + head.Commit, manifestSHA256: head.ManifestSHA256}
	if err := f.take(ctx, src, head.Commit); err != nil {
		return err
	}
	f.mu.Lock()
	first := f.loaded.Commit == ""
	f.loaded = head
	if !first {
		f.status.Swaps++
	}
	f.mu.Unlock()
	return nil
}

// take serves the snapshot of commit at src: through apply when set, else
// loaded and stored in the holder.
func (f *follower) take(ctx context.Context, src source, commit string) error {
	if f.apply != nil {
		return f.apply(ctx, src)
	}
	e, took, err := loadFrom(ctx, src, backgroundWorkers(f.holder))
	if err != nil {
		return err
	}
	if m := e.Manifest(); m.Commit != commit {
		return fmt.Errorf("snapshot at %s names commit %s", src.prefix, m.Commit)
	}
	f.holder.Store(e)
	f.log.Info("serving", "snapshot", src.label, "nodes", e.NumNodes(), "edges", e.NumEdges(), "load", took.Round(time.Millisecond))
	return nil
}

// syncTimeout bounds one sync: reading HEAD, copying and loading.
const syncTimeout = 10 * time.Minute

// SyncNow syncs now, or waits for the sync running, and reports. A sync
// runs to its end even when the request that asked for it is canceled, so
// a client that gives up does not leave "context canceled" as the error.
func (f *follower) SyncNow(ctx context.Context) mcp.SyncStatus {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), syncTimeout)
	defer cancel()
	f.run.Lock()
	err := f.sync(ctx)
	f.record(err)
	f.run.Unlock()
	return f.SyncStatus()
}

// record notes how a sync ended.
func (f *follower) record(err error) {
	now := time.Now().UTC()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.LastSync = &now
	if err != nil {
		f.status.LastError = err.Error()
		f.status.Failures++
		f.log.Warn("sync failed; serving the snapshot loaded before", "err", err, "failures", f.status.Failures)
		return
	}
	f.status.LastError, f.status.Failures = "", 0
	f.status.LastSuccess = &now
}

// SyncStatus reports the last sync.
func (f *follower) SyncStatus() mcp.SyncStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

// SetInterval changes how often the follower syncs; the wait under way
// starts again with the new interval.
func (f *follower) SetInterval(d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("the interval must be positive, got %v", d)
	}
	f.mu.Lock()
	f.interval = d
	f.status.Interval = d.String()
	f.mu.Unlock()
	select {
	case f.reset <- struct{}{}:
	default: // a reset is pending already
	}
	return nil
}

// loop syncs every interval until ctx is done, backing off after
// failures (interval, 2×, 4×, … up to maxBackoff) while the snapshot it
// has keeps answering.
func (f *follower) loop(ctx context.Context) {
	for {
		f.mu.Lock()
		wait := f.interval
		for i := 1; i < f.status.Failures && wait < maxBackoff; i++ {
			wait *= 2
		}
		wait = min(wait, max(maxBackoff, f.interval))
		next := time.Now().Add(wait).UTC()
		f.status.NextSync = &next
		f.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-f.reset:
			continue // a new interval: wait again, from now
		case <-time.After(wait):
		}
		f.SyncNow(ctx)
	}
}

// start loads the first snapshot. When the store cannot give one and the
// local cache holds one of the branch, that one is served, and the
// error is reported by snap_status until a sync succeeds.
func (f *follower) start(ctx context.Context) error {
	f.run.Lock()
	defer f.run.Unlock()
	err := f.sync(ctx)
	if err != nil && !f.remote.local() && ctx.Err() == nil {
		head, _, herr := snapshot.ReadHead(ctx, f.cache.store, f.repo, f.branch)
		if herr == nil {
			f.log.Warn("the store gives no snapshot; serving the cached one", "store", f.remote.label, "err", err, "commit", head.Commit)
			if prefix, perr := snapshot.Prefix(f.repo, f.branch, head.Commit); perr == nil {
				src := source{store: f.cache.store, prefix: prefix, label: "cached " + head.Commit, manifestSHA256: head.ManifestSHA256}
				// Said before the cached snapshot answers, so that no answer
				// from it comes without the reason.
				f.record(err)
				if lerr := f.take(ctx, src, head.Commit); lerr != nil {
					err = errors.Join(err, lerr)
					f.mu.Lock()
					f.status.LastError = err.Error()
					f.mu.Unlock()
					return err
				}
				f.mu.Lock()
				f.loaded = head
				f.mu.Unlock()
				return nil
			}
		}
	}
	f.record(err)
	return err
}
