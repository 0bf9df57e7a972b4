// Package serve is what a running MCP server does besides answering: it
// loads the snapshot it serves into a query.Holder and keeps it current.
// It follows a branch of a store, swapping in newer snapshots as they
// are published (the follower); joins several repositories' snapshots
// into one engine (package union) and joins them again when one changes;
// serves the working tree of the checkout over its snapshot (package
// overlay); and gives the history tools the branch's other snapshots
// (the library).
//
// The caller opens the stores; serve decides when to pull and load a
// snapshot (ci.PullHead, ci.Load, unless Config says otherwise). Run
// serves the MCP tools over what Start keeps current.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// A Repo is a repository of a store and one of its branches.
type Repo struct{ Name, Branch string }

// A Checkout is the working tree served over its snapshot: the files
// that differ from the snapshot are indexed again in memory (package
// overlay) and served with it.
type Checkout struct {
	Dir  string // the checkout's root
	Repo string // its repository's name, as snapshots file it
	// Options returns the indexer's options of a snapshot indexed with
	// args (its manifest's Indexer.Args): the checkout is indexed with
	// them, to agree with the snapshot.
	Options        func(args []string) (indexer.Options, error)
	IndexerVersion string
}

// Config says what a Server serves. Exactly one of Snapshot, Follow and
// Join (or AllRepos) is set.
type Config struct {
	Logger *slog.Logger // to stderr: stdout may carry the protocol

	// Snapshot is one fixed snapshot.
	Snapshot *ci.Source
	// Follow is a branch of Remote, followed.
	Follow *Repo
	// Join are repositories of Remote, served joined; a Branch left ""
	// is picked (see Branch).
	Join []Repo
	// AllRepos joins every repository of Remote, as far as Memory allows.
	AllRepos bool

	// Remote is where HEADs are read; Cache is where snapshots are
	// copied to and loaded from, Remote itself when it is Local.
	Remote, Cache ci.Store
	// Branch is the branch of the joined repositories named without one;
	// "" picks CheckoutBranch when the store has it, else a repository's
	// only branch, else main or master.
	Branch, CheckoutBranch string
	// Memory bounds the estimated memory of a join: repositories past it
	// are left out, in name order, with AllRepos (a repository named in
	// Join never is). 0 with AllRepos is half of this machine's memory.
	Memory int64
	// Interval is how often the store's HEAD is polled; 0 never, and
	// snap_sync is then not offered.
	Interval time.Duration

	// Checkout, when set, is served over the snapshot when the snapshot
	// is of its repository. Not with Join.
	Checkout *Checkout

	// Load reads and verifies the snapshot at src and builds its engine,
	// on up to workers goroutines (0: one per CPU), and says how long it
	// took; nil is ci.Load.
	Load func(ctx context.Context, src ci.Source, workers int) (*query.Engine, time.Duration, error)
	// Pull copies the snapshot head names of repo's branch from Remote
	// into Cache, checking every digest, and moves Cache's HEAD to it;
	// nil is ci.PullHead.
	Pull func(ctx context.Context, repo, branch string, head schemas.Head) (snapshot.CopyResult, error)
}

// A ConfigError is a Config that cannot be served as it is: a repository
// or branch the store lacks, a memory budget no repository fits in. It
// is the caller's to fix.
type ConfigError struct{ msg string }

func (e *ConfigError) Error() string { return e.msg }

func configErrorf(format string, args ...any) error {
	return &ConfigError{fmt.Sprintf(format, args...)}
}

// A Server loads what its Config names into a Holder and keeps it
// current until Close.
type Server struct {
	holder  *query.Holder
	log     *slog.Logger
	cfg     Config
	syncer  mcp.Syncer
	repos   []string
	library mcp.Library
	loop    func(ctx context.Context) // syncs every Interval; nil without

	cancel context.CancelFunc
	done   sync.WaitGroup
	ready  chan struct{} // closed when the first load ends
	err    error         // how it ended, once ready is closed
}

// Start checks what cfg names, so that a wrong configuration fails at
// once, and loads it into h in the background: tool calls wait for the
// first engine (mcp.Options.LoadWait). It then syncs every cfg.Interval
// and watches the checkout until ctx is done or Close is called. Ready
// says how the first load ended.
func Start(ctx context.Context, h *query.Holder, cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Load == nil {
		cfg.Load = load
	}
	if cfg.Pull == nil {
		cfg.Pull = func(ctx context.Context, repo, branch string, head schemas.Head) (snapshot.CopyResult, error) {
			res, _, err := ci.PullHead(ctx, cfg.Remote, cfg.Cache, repo, branch, head)
			return res, err
		}
	}
	s := &Server{holder: h, log: cfg.Logger, cfg: cfg, ready: make(chan struct{})}
	var run func(ctx context.Context) error
	var ov *checkout // nil: no overlay
	switch {
	case cfg.Snapshot != nil:
		src := *cfg.Snapshot
		ov = s.newCheckout(src.Label, func(ctx context.Context, _ *schemas.Manifest) ([]schemas.Ref, error) {
			return readRefs(ctx, src.Store, src.Prefix)
		})
		run = func(ctx context.Context) error {
			e, took, err := cfg.Load(ctx, src, 0)
			if err != nil {
				s.log.Error("load snapshot", "snapshot", src.Label, "err", err)
				return err
			}
			h.Store(e)
			s.log.Info("serving", "snapshot", src.Label, "nodes", e.NumNodes(), "edges", e.NumEdges(), "load", took.Round(time.Millisecond))
			return nil
		}
	case cfg.Follow != nil:
		f := s.newFollower(*cfg.Follow, s.log)
		ov = s.newCheckout(cfg.Remote.Label, func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error) {
			prefix, err := snapshot.Prefix(f.repo, f.branch, m.Commit)
			if err != nil {
				return nil, err
			}
			return readRefs(ctx, f.cache.Store, prefix)
		})
		run = func(ctx context.Context) error {
			if err := f.start(ctx); err != nil {
				s.log.Error("load snapshot", "err", err)
				return err
			}
			return nil
		}
		if cfg.Interval > 0 {
			s.syncer = f
			s.loop = f.loop
		}
		s.library = &library{f: f}
	case len(cfg.Join) > 0 || cfg.AllRepos:
		// The working tree is one repository's; a join of several
		// serves their snapshots only.
		j, err := s.newJoin(ctx)
		if err != nil {
			return nil, err
		}
		run = func(ctx context.Context) error {
			if err := j.start(ctx); err != nil {
				s.log.Error("load snapshots", "err", err)
				return err
			}
			return nil
		}
		if cfg.Interval > 0 {
			s.loop = j.loop
		}
		s.syncer, s.repos = j, j.names()
	default:
		return nil, errors.New("serve: nothing to serve: set Snapshot, Follow or Join")
	}
	s.syncer = ov.syncer(s.syncer) // snap_sync re-checks the checkout too

	ctx, s.cancel = context.WithCancel(ctx)
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		s.err = run(ctx)
		if s.err == nil {
			ov.start(ctx, &s.done)
		}
		close(s.ready)
		if s.err == nil && s.loop != nil {
			s.loop(ctx)
		}
	}()
	return s, nil
}

// Once loads what cfg names into h once: no sync, and no checkout over
// it, whatever cfg says. It returns when h holds the engine, with the
// server, whose Options give the tools what it serves (the library of
// the followed branch); Close it when done.
func Once(ctx context.Context, h *query.Holder, cfg Config) (*Server, error) {
	cfg.Interval, cfg.Checkout = 0, nil
	s, err := Start(ctx, h, cfg)
	if err != nil {
		return nil, err
	}
	if err := s.Ready(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// load is ci.Load, timed.
func load(ctx context.Context, src ci.Source, workers int) (*query.Engine, time.Duration, error) {
	start := time.Now()
	e, err := ci.Load(ctx, src, workers)
	if err != nil {
		return nil, 0, err
	}
	return e, time.Since(start), nil
}

// Options returns opts with what the server gives the MCP tools: the
// Syncer snap_status and snap_sync use, the repositories of a join, and
// the library of the followed branch. snap_sync is offered only when the
// server syncs every Interval.
func (s *Server) Options(opts mcp.Options) mcp.Options {
	opts.Sync, opts.Repos, opts.Library = s.syncer, s.repos, s.library
	opts.NoSyncTool = s.cfg.Interval == 0 // snap_status still reports on the checkout
	return opts
}

// Ready waits until the first snapshot is served, with the checkout over
// it, or its load failed, and returns the error it failed with; ctx's
// when ctx is done first.
func (s *Server) Ready(ctx context.Context) error {
	select {
	case <-s.ready:
		return s.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops syncing and watching the checkout, and waits for the work
// under way to stop. The engine served stays in the Holder.
func (s *Server) Close() error {
	s.cancel()
	s.done.Wait()
	return nil
}
