package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/overlay"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// noOverlayFlag turns off serve's working-tree overlay.
func noOverlayFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-overlay", Usage: "serve the snapshot as it is: do not watch the checkout " +
		"nor re-index, in memory, the files that differ from the snapshot"}
}

// serveOverlay is serve's working-tree overlay: when serve runs inside
// the checkout its snapshot was made from, the files that differ from the
// snapshot are indexed again in memory and served with it (package
// overlay), re-checked when the tree changes and when snap_sync is
// called. A nil *serveOverlay does nothing.
type serveOverlay struct {
	log    *slog.Logger
	holder *query.Holder
	dir    string // the checkout
	repo   string // the checkout's repository name, as snapshots file it
	label  string // the store or folder, for snap_status
	// refs reads the refs table of the snapshot a manifest describes.
	refs func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error)
	ov   atomic.Pointer[overlay.Overlay] // set by start
}

// newServeOverlay prepares the overlay of serve over h, which the
// follower f or the fixed snapshot src (one of them is nil) fills. It
// returns nil with --no-overlay.
func newServeOverlay(c *cli.Context, log *slog.Logger, h *query.Holder, f *follower, src *source) *serveOverlay {
	if c.Bool("no-overlay") {
		return nil
	}
	id := detect(c.Context, ".")
	s := &serveOverlay{log: log, holder: h, dir: id.Root, repo: id.Repo}
	switch {
	case f != nil:
		s.label = f.remote.label
		s.refs = func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error) {
			prefix, err := snapshot.Prefix(f.repo, f.branch, m.Commit)
			if err != nil {
				return nil, err
			}
			return readRefs(ctx, f.cache.store, prefix)
		}
	case src != nil:
		s.label = src.label
		s.refs = func(ctx context.Context, _ *schemas.Manifest) ([]schemas.Ref, error) {
			return readRefs(ctx, src.store, src.prefix)
		}
	default:
		return nil
	}
	return s
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
func (s *serveOverlay) start(ctx context.Context) {
	if s == nil {
		return
	}
	e := s.holder.Load()
	if e == nil {
		return
	}
	m := e.Manifest()
	if m.Repo != s.repo {
		s.log.Info("no working-tree overlay: the snapshot is of another repository than this checkout", "snapshot", m.Repo, "checkout", s.repo)
		return
	}
	opts, err := indexOptions(m.Indexer.Args)
	if err != nil {
		s.log.Warn("no working-tree overlay: cannot tell how the snapshot was indexed", "args", m.Indexer.Args, "err", err)
		return
	}
	ov := overlay.New(overlay.Config{Dir: s.dir, Holder: s.holder, Options: opts, Refs: s.refs, IndexerVersion: version(), Logger: s.log})
	s.ov.Store(ov)
	s.log.Info("working-tree overlay: watching the checkout", "dir", s.dir)
	go func() {
		if err := ov.Watch(ctx); err != nil {
			s.log.Warn("working-tree overlay: cannot watch the checkout; it is re-checked only by snap_sync, offered with --sync", "err", err)
		}
	}()
}

// indexOptions returns the indexer's options of `snap index ARGS` (or
// `snap ci`, which takes no indexing flags): what the overlay must index
// the checkout with to agree with the snapshot.
func indexOptions(args []string) (indexer.Options, error) {
	var opts indexer.Options
	var langs []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		next := func() string {
			if hasValue {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "exclude":
			opts.Exclude = append(opts.Exclude, strings.Split(next(), ",")...)
		case "languages":
			langs = append(langs, strings.Split(next(), ",")...)
		case "vendored":
			opts.Vendored = !hasValue || value == "true"
		case "generated":
			opts.SkipGenerated = hasValue && value != "true"
		case "no-generated":
			opts.SkipGenerated = !hasValue || value == "true"
		case "minified":
			opts.Minified = !hasValue || value == "true"
		case "derived":
			opts.Derived = !hasValue || value == "true"
		case "no-sources":
			opts.NoSources = !hasValue || value == "true"
		case "max-file-size":
			n, err := strconv.ParseInt(next(), 10, 64)
			if err != nil {
				return opts, fmt.Errorf("--max-file-size: %w", err)
			}
			opts.MaxFileSize = n
		case "max-file-time":
			d, err := time.ParseDuration(next())
			if err != nil {
				return opts, fmt.Errorf("--max-file-time: %w", err)
			}
			opts.MaxFileTime = cmp.Or(d, -1) // 0 on the command line is no limit
		case "store", "repo", "branch", "base", "workers":
			next()
		}
	}
	var err error
	opts.Languages, err = chooseLanguages(langs)
	return opts, err
}

// overlaySyncTimeout bounds the re-check snap_sync runs.
const overlaySyncTimeout = 10 * time.Minute

// syncer returns the Syncer snap_status and snap_sync use: inner (the
// follower when serve syncs with its store, else nil), and a re-check of
// the checkout after each sync.
func (s *serveOverlay) syncer(inner mcp.Syncer) mcp.Syncer {
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
	s     *serveOverlay
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
