package serve

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/overlay"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// checkout is the server's working-tree overlay: when the server runs
// inside the checkout its snapshot was made from, the files that differ
// from the snapshot are indexed again in memory and served with it
// (package overlay), re-checked when the tree changes and when snap_sync
// is called. A nil *checkout does nothing.
type checkout struct {
	cfg    Checkout
	log    *slog.Logger
	holder *query.Holder
	label  string // the store or folder, for snap_status
	// refs reads the refs table of the snapshot a manifest describes.
	refs func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error)
	ov   atomic.Pointer[overlay.Overlay] // set by start
}

// newCheckout prepares the overlay of the server's Checkout, nil when it
// has none. label names the snapshot's store or folder; refs reads a
// snapshot's refs table.
func (s *Server) newCheckout(label string, refs func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error)) *checkout {
	if s.cfg.Checkout == nil {
		return nil
	}
	return &checkout{cfg: *s.cfg.Checkout, log: s.log, holder: s.holder, label: label, refs: refs}
}

// readRefs reads and verifies the refs table of the snapshot at prefix
// (with its nodes and files: snapshot.Read reads those always).
func readRefs(ctx context.Context, st snapshot.Store, prefix string) ([]schemas.Ref, error) {
	s, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SkipSources: true, SkipEdges: true})
	if err != nil {
		return nil, err
	}
	return s.Refs, nil
}

// start begins the overlay once the first snapshot is served: a first
// check, then watching the tree until ctx is done. It does nothing when
// the snapshot is of another repository than the checkout.
func (s *checkout) start(ctx context.Context, running *sync.WaitGroup) {
	if s == nil {
		return
	}
	e := s.holder.Load()
	if e == nil {
		return
	}
	m := e.Manifest()
	if m.Repo != s.cfg.Repo {
		s.log.Info("no working-tree overlay: the snapshot is of another repository than this checkout", "snapshot", m.Repo, "checkout", s.cfg.Repo)
		return
	}
	opts, err := s.cfg.Options(m.Indexer.Args)
	if err != nil {
		s.log.Warn("no working-tree overlay: cannot tell how the snapshot was indexed", "args", m.Indexer.Args, "err", err)
		return
	}
	ov := overlay.New(overlay.Config{Dir: s.cfg.Dir, Holder: s.holder, Options: opts, Refs: s.refs, IndexerVersion: s.cfg.IndexerVersion, Logger: s.log})
	s.ov.Store(ov)
	s.log.Info("working-tree overlay: watching the checkout", "dir", s.cfg.Dir)
	running.Add(1)
	go func() {
		defer running.Done()
		if err := ov.Watch(ctx); err != nil {
			s.log.Warn("working-tree overlay: cannot watch the checkout; it is re-checked only by snap_sync, offered with --sync", "err", err)
		}
	}()
}

// overlaySyncTimeout bounds the re-check snap_sync runs.
const overlaySyncTimeout = 10 * time.Minute

// syncer returns the Syncer snap_status and snap_sync use: inner (what
// syncs with the store, or nil), and a re-check of the checkout after
// each sync.
func (s *checkout) syncer(inner mcp.Syncer) mcp.Syncer {
	if s == nil {
		return inner
	}
	o := &overlaySyncer{inner: inner, s: s}
	if is, ok := inner.(mcp.IntervalSetter); ok {
		return intervalSyncer{o, is} // snap_config still sets the interval
	}
	return o
}

// intervalSyncer is an overlaySyncer over a Syncer whose interval can change.
type intervalSyncer struct {
	*overlaySyncer
	mcp.IntervalSetter
}

// overlaySyncer is a Syncer that also re-checks the working tree and
// reports on it (mcp.Checkout).
type overlaySyncer struct {
	inner mcp.Syncer // nil: serve does not sync with its store
	s     *checkout
}

func (o *overlaySyncer) SyncStatus() mcp.SyncStatus {
	if o.inner != nil {
		return o.inner.SyncStatus()
	}
	return mcp.SyncStatus{Store: o.s.label}
}

// SyncNow syncs with the store (when serve does), then re-checks the
// checkout against whatever is served, to its end even if ctx is
// canceled.
func (o *overlaySyncer) SyncNow(ctx context.Context) mcp.SyncStatus {
	st := o.SyncStatus()
	if o.inner != nil {
		st = o.inner.SyncNow(ctx)
	}
	if ov := o.s.ov.Load(); ov != nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), overlaySyncTimeout)
		defer cancel()
		ov.Check(ctx)
	}
	return st
}

// CheckoutStatus reports the last check of the checkout.
func (o *overlaySyncer) CheckoutStatus() mcp.CheckoutStatus {
	ov := o.s.ov.Load()
	if ov == nil {
		return mcp.CheckoutStatus{CommitsBehind: -1, CommitsAhead: -1}
	}
	st := ov.Status()
	out := mcp.CheckoutStatus{Head: st.Head, CommitsBehind: st.CommitsBehind, CommitsAhead: st.CommitsAhead,
		FilesDiffering: st.Differing, LastError: st.LastError, Watching: st.Watching}
	if !st.LastCheck.IsZero() {
		out.LastCheck = &st.LastCheck
	}
	return out
}
