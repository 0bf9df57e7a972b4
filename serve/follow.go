package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/graphsnap/snap/ci"
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
	remote       ci.Store // where HEAD is read
	cache        ci.Store // where snapshots load from: remote itself when it is local
	repo, branch string
	holder       *query.Holder
	load         func(ctx context.Context, src ci.Source, workers int) (*query.Engine, time.Duration, error)
	pull         func(ctx context.Context, repo, branch string, head schemas.Head) (snapshot.CopyResult, error)
	// apply, when set, takes a snapshot the follower brought into the
	// cache instead of loading it into holder: a server of several
	// repositories joins them (join.go).
	apply func(ctx context.Context, src ci.Source) error
	log   *slog.Logger
	reset chan struct{} // told when the interval changes

	run sync.Mutex // one sync at a time

	mu       sync.Mutex // guards what follows
	interval time.Duration
	status   mcp.SyncStatus
	loaded   schemas.Head // what the holder's engine was loaded from
}

// newFollower returns a follower of repo's branch in the server's
// stores, logging to log.
func (s *Server) newFollower(r Repo, log *slog.Logger) *follower {
	f := &follower{remote: s.cfg.Remote, cache: s.cfg.Cache, repo: r.Name, branch: r.Branch, holder: s.holder,
		load: s.cfg.Load, pull: s.cfg.Pull, interval: s.cfg.Interval, log: log, reset: make(chan struct{}, 1)}
	f.status.Store = f.remote.Label
	if f.interval > 0 {
		f.status.Interval = f.interval.String()
	}
	return f
}

// maxBackoff bounds the wait between syncs after failures.
const maxBackoff = 5 * time.Minute

// sync brings in the store's HEAD when it differs from what is loaded.
func (f *follower) sync(ctx context.Context) error {
	head, _, err := snapshot.ReadHead(ctx, f.remote.Store, f.repo, f.branch)
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
	if !f.remote.Local() {
		start := time.Now()
		res, err := f.pull(ctx, f.repo, f.branch, head)
		if err != nil {
			return err
		}
		if !res.Present {
			f.log.Info("pulled", "commit", head.Commit, "bytes", res.Bytes, "took", time.Since(start).Round(time.Millisecond))
		}
	}
	src := ci.Source{Store: f.cache.Store, Prefix: prefix, Label: f.repo + " " + f.branch + " " + head.Commit, ManifestSHA256: head.ManifestSHA256}
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
func (f *follower) take(ctx context.Context, src ci.Source, commit string) error {
	if f.apply != nil {
		return f.apply(ctx, src)
	}
	e, took, err := f.load(ctx, src, backgroundWorkers(f.holder))
	if err != nil {
		return err
	}
	if m := e.Manifest(); m.Commit != commit {
		return fmt.Errorf("snapshot at %s names commit %s", src.Prefix, m.Commit)
	}
	f.holder.Store(e)
	f.log.Info("serving", "snapshot", src.Label, "nodes", e.NumNodes(), "edges", e.NumEdges(), "load", took.Round(time.Millisecond))
	return nil
}

// backgroundWorkers is how many goroutines load a snapshot into h: one
// per CPU for the first engine, which no request can do without, and one
// for a later engine, loaded beside the engine that answers meanwhile.
func backgroundWorkers(h *query.Holder) int {
	if h.Load() == nil {
		return 0
	}
	return 1
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
	if err != nil && !f.remote.Local() && ctx.Err() == nil {
		head, _, herr := snapshot.ReadHead(ctx, f.cache.Store, f.repo, f.branch)
		if herr == nil {
			f.log.Warn("the store gives no snapshot; serving the cached one", "store", f.remote.Label, "err", err, "commit", head.Commit)
			if prefix, perr := snapshot.Prefix(f.repo, f.branch, head.Commit); perr == nil {
				src := ci.Source{Store: f.cache.Store, Prefix: prefix, Label: "cached " + head.Commit, ManifestSHA256: head.ManifestSHA256}
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

// ChooseFollow sets cfg.Follow to the branch of cfg.Remote that
// ci.ChooseBranch picks for repo and branch (anyRepo and pinned as
// there). When Remote is not local and cannot be reached, the branch is
// picked from cfg.Cache instead, and served from it until Remote
// answers; a warning says so.
func (cfg *Config) ChooseFollow(ctx context.Context, repo, branch string, anyRepo, pinned bool) error {
	r, b, err := ci.ChooseBranch(ctx, cfg.Remote, repo, branch, anyRepo, pinned)
	var ce ci.ConfigError
	if err != nil && !cfg.Remote.Local() && !errors.As(err, &ce) {
		cr, cb, cerr := ci.ChooseBranch(ctx, cfg.Cache, repo, branch, anyRepo, pinned)
		if cerr != nil {
			return fmt.Errorf("%w (and %s holds no snapshot to serve meanwhile)", err, cfg.Cache.Label)
		}
		if cfg.Logger != nil {
			cfg.Logger.Warn("store unreachable; serving from the local cache until it answers", "store", cfg.Remote.Label, "err", err)
		}
		r, b, err = cr, cb, nil
	}
	cfg.Follow = &Repo{Name: r, Branch: b}
	return err
}
