package ci

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Source is a snapshot in a store, and how to name it in messages.
type Source struct {
	Store  snapshot.Store
	Prefix string
	Label  string
	// ManifestSHA256 is the digest HEAD names, when the snapshot was
	// found through HEAD: the manifest read must have it.
	ManifestSHA256 string
}

// Load reads and verifies a snapshot and builds its engine, on up to
// workers goroutines at once (0: one per CPU). A server loading the next
// snapshot beside the engine it serves loads with 1, so that requests
// keep a core.
//
// A load with every core (workers 0) is one that nothing else waits
// beside: it runs with the garbage collector paused (pauseGC).
func Load(ctx context.Context, src Source, workers int) (*query.Engine, error) {
	if workers == 0 {
		defer pauseGC()()
	}
	s, err := snapshot.Read(ctx, src.Store, src.Prefix, snapshot.ReadOptions{SkipRefs: true, SourceFiles: true, ManifestSHA256: src.ManifestSHA256, Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", src.Label, err)
	}
	e, err := query.BuildWith(s, query.BuildOptions{Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", src.Label, err)
	}
	return e, nil
}

// gcPause counts the loads that paused the garbage collector.
var gcPause struct {
	sync.Mutex
	n       int
	percent int // the setting to restore
}

// pauseGC turns the garbage collector off until the returned function is
// called, for every caller at once: it resumes when the last one does. A
// load allocates little garbage (its tables, then its indexes, are what it
// keeps), but a collection running while it fills its large tables slows
// every pointer it writes: on GOROOT/src, reading the snapshot took 0.60 s
// with the collector and 0.37 s without, for 10% more memory at the peak.
// GOMEMLIMIT, when set, still bounds the heap meanwhile.
func pauseGC() (resume func()) {
	gcPause.Lock()
	defer gcPause.Unlock()
	if gcPause.n == 0 {
		gcPause.percent = debug.SetGCPercent(-1)
	}
	gcPause.n++
	return sync.OnceFunc(func() {
		gcPause.Lock()
		defer gcPause.Unlock()
		if gcPause.n--; gcPause.n == 0 {
			debug.SetGCPercent(gcPause.percent)
		}
	})
}

// Diff loads two snapshots side by side, each verified and built alone,
// and compares them (query.Diff). Snapshots made with different feature
// versions are not compared: a *ConfigError wraps the
// *query.IncomparableError that says so.
func Diff(ctx context.Context, from, to Source, opt query.DiffOptions) (*schemas.Diff, error) {
	var engines [2]*query.Engine
	g, gctx := errgroup.WithContext(ctx)
	for i, src := range [2]Source{from, to} {
		g.Go(func() (err error) {
			engines[i], err = Load(gctx, src, 0)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := query.Comparable(engines[0], engines[1]); err != nil {
		return nil, ConfigError{Err: err}
	}
	return query.Diff(engines[0], engines[1], opt), nil
}
