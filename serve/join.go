package serve

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/union"
)

// A server of several repositories follows each one's branch like a
// single server does, and serves them joined into one engine (package
// union): a follower brings a repository's new snapshot into the cache,
// and the join is made again, aside, and swapped in.

// joined keeps a Holder on the join of several repositories' newest
// snapshots. It is the server's Syncer.
type joined struct {
	holder    *query.Holder
	log       *slog.Logger
	store     string // the store's label
	followers []*follower
	skipped   []mcp.RepoSync // repositories left out, and why
	reset     chan struct{}

	run sync.Mutex // one sync, and one join, at a time

	mu       sync.Mutex // guards what follows
	parts    map[string]ci.Source
	changed  bool // parts changed since the last join
	interval time.Duration
	status   mcp.SyncStatus
}

// newJoin chooses the repositories and branches to serve: those of
// Config.Join, or every repository of the store (AllRepos) that fits the
// memory budget.
func (s *Server) newJoin(ctx context.Context) (*joined, error) {
	remote, cache := s.cfg.Remote, s.cfg.Cache
	heads, err := snapshot.Heads(ctx, remote.Store)
	if err != nil {
		if remote.Local() {
			return nil, fmt.Errorf("store %s: %w", remote.Label, err)
		}
		s.log.Warn("store unreachable; serving from the local cache until it answers", "store", remote.Label, "err", err)
		if heads, err = snapshot.Heads(ctx, cache.Store); err != nil {
			return nil, fmt.Errorf("store %s: %w", cache.Label, err)
		}
	}
	branches := make(map[string][]string)
	var names []string
	for _, h := range heads {
		if branches[h.Repo] == nil {
			names = append(names, h.Repo)
		}
		branches[h.Repo] = append(branches[h.Repo], h.Branch)
	}
	if len(names) == 0 {
		return nil, configErrorf("serve: no snapshot in %s: run `snap index` or `snap push` first", remote.Label)
	}
	specs := s.cfg.Join
	if s.cfg.AllRepos {
		specs = nil
		for _, n := range names {
			specs = append(specs, Repo{Name: n})
		}
	}
	j := &joined{holder: s.holder, log: s.log, store: remote.Label, parts: make(map[string]ci.Source),
		interval: s.cfg.Interval, reset: make(chan struct{}, 1)}
	j.status.Store = remote.Label
	if j.interval > 0 {
		j.status.Interval = j.interval.String()
	}
	seen := make(map[string]bool)
	for _, sp := range specs {
		if seen[sp.Name] {
			return nil, configErrorf("serve: --repo %s is given twice", sp.Name)
		}
		seen[sp.Name] = true
		have, ok := branches[sp.Name]
		if !ok {
			return nil, configErrorf("serve: no repository %s in %s; it holds: %s", sp.Name, remote.Label, strings.Join(names, ", "))
		}
		branch, err := pickBranch(sp, s.cfg.Branch, s.cfg.CheckoutBranch, have)
		if err != nil {
			return nil, err
		}
		f := s.newFollower(Repo{sp.Name, branch}, s.log.With("repo", sp.Name))
		f.interval, f.status.Interval = 0, "" // the join syncs its followers
		f.apply = j.take(sp.Name)
		j.followers = append(j.followers, f)
	}
	if err := j.budget(ctx, remote, s.cfg.Memory, s.cfg.AllRepos); err != nil {
		return nil, err
	}
	return j, nil
}

// pickBranch chooses the branch of a repository: the one named with it,
// else flag (Config.Branch), else the checkout's branch if the store has
// it, else the repository's only branch, else main or master.
func pickBranch(sp Repo, flag, checkout string, have []string) (string, error) {
	want := cmp.Or(sp.Branch, flag)
	switch {
	case want != "" && slices.Contains(have, want):
		return want, nil
	case want != "":
		return "", configErrorf("serve: no branch %s of %s in the store; it has: %s", want, sp.Name, strings.Join(have, ", "))
	case slices.Contains(have, checkout):
		return checkout, nil
	case len(have) == 1:
		return have[0], nil
	}
	for _, b := range []string{"main", "master"} {
		if slices.Contains(have, b) {
			return b, nil
		}
	}
	return "", configErrorf("serve: %s has several branches (%s): choose with --repo %s:BRANCH", sp.Name, strings.Join(have, ", "), sp.Name)
}

// Engine memory, estimated from a manifest's counts: what a loaded
// GOROOT/src and kubernetes take per row, rounded up, plus the sources.
const (
	bytesPerNode = 700
	bytesPerEdge = 250
)

// estimate is the memory a snapshot is expected to take once joined.
func estimate(m schemas.Manifest) int64 {
	var src int64
	for _, t := range m.Tables {
		if t.Name == "sources" {
			src = m.Build.SourceBytes
		}
	}
	return int64(m.Counts.Nodes)*bytesPerNode + int64(m.Counts.Edges)*bytesPerEdge + src
}

// budget leaves out, in name order, the repositories past the memory
// budget (limit, or half of this machine's memory for all). A repository
// named in Config.Join is never left out: it was asked for.
func (j *joined) budget(ctx context.Context, st ci.Store, limit int64, all bool) error {
	if limit == 0 && all {
		limit = physicalMemory() / 2
	}
	if limit <= 0 {
		return nil
	}
	var kept []*follower
	var used int64
	for _, f := range j.followers {
		head, _, err := snapshot.ReadHead(ctx, st.Store, f.repo, f.branch)
		var need int64
		if err == nil {
			prefix, perr := snapshot.Prefix(f.repo, f.branch, head.Commit)
			if perr == nil {
				if m, _, merr := snapshot.ReadManifest(ctx, st.Store, prefix); merr == nil {
					need = estimate(m)
				}
			}
		}
		if used+need > limit && all {
			reason := fmt.Sprintf("over the memory budget: needs about %s, %s of %s left", formatBytes(need), formatBytes(limit-used), formatBytes(limit))
			j.skipped = append(j.skipped, mcp.RepoSync{Repo: f.repo, Branch: f.branch, Skipped: reason})
			j.log.Warn("not serving", "repo", f.repo, "why", reason)
			continue
		}
		used += need
		kept = append(kept, f)
	}
	if len(kept) == 0 {
		return configErrorf("serve: no repository fits in the memory budget of %s: raise --memory", formatBytes(limit))
	}
	j.followers = kept
	return nil
}

// take returns the follower's apply for repo: it notes the snapshot the
// follower brought in, for the next join.
func (j *joined) take(repo string) func(context.Context, ci.Source) error {
	return func(_ context.Context, src ci.Source) error {
		j.mu.Lock()
		defer j.mu.Unlock()
		j.parts[repo] = src
		j.changed = true
		return nil
	}
}

// start brings in every repository's snapshot and serves their join. A
// repository that cannot be had is reported by snap_status and left out
// until a sync brings it; when none can, start fails.
func (j *joined) start(ctx context.Context) error {
	j.run.Lock()
	defer j.run.Unlock()
	var errs []error
	for _, f := range j.followers {
		if err := f.start(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.repo, err))
		}
	}
	if len(errs) == len(j.followers) {
		return errors.Join(errs...)
	}
	err := j.join(ctx)
	j.record(err)
	return err
}

// join reads every repository's snapshot, joins them and swaps the
// result in; the engine before it answers meanwhile.
func (j *joined) join(ctx context.Context) error {
	j.mu.Lock()
	if !j.changed {
		j.mu.Unlock()
		return nil
	}
	j.changed = false
	srcs := make(map[string]ci.Source, len(j.parts))
	for k, v := range j.parts {
		srcs[k] = v
	}
	j.mu.Unlock()
	start := time.Now()
	workers := backgroundWorkers(j.holder)
	var parts []union.Part
	for _, f := range j.followers {
		src, ok := srcs[f.repo]
		if !ok {
			continue
		}
		s, err := snapshot.Read(ctx, src.Store, src.Prefix, snapshot.ReadOptions{ManifestSHA256: src.ManifestSHA256, Workers: workers})
		if err != nil {
			return fmt.Errorf("load %s: %w", src.Label, err)
		}
		parts = append(parts, union.Part{Repo: f.repo, Branch: f.branch, Snapshot: s})
	}
	s, repos, st, err := union.Merge(parts, languages.All())
	if err != nil {
		return err
	}
	e, err := query.BuildWith(s, query.BuildOptions{Repos: repos, Workers: workers})
	if err != nil {
		return err
	}
	first := j.holder.Load() == nil
	j.holder.Store(e)
	j.mu.Lock()
	if !first {
		j.status.Swaps++
	}
	j.mu.Unlock()
	j.log.Info("serving", "repos", len(repos), "nodes", e.NumNodes(), "edges", e.NumEdges(), "across", st.Cross,
		"load", time.Since(start).Round(time.Millisecond))
	return nil
}

// SyncNow syncs every repository and, when any brought a new snapshot,
// joins them again.
func (j *joined) SyncNow(ctx context.Context) mcp.SyncStatus {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), syncTimeout)
	defer cancel()
	j.run.Lock()
	var errs []error
	for _, f := range j.followers {
		if st := f.SyncNow(ctx); st.LastError != "" {
			errs = append(errs, fmt.Errorf("%s: %s", f.repo, st.LastError))
		}
	}
	if err := j.join(ctx); err != nil {
		errs = append(errs, err)
	}
	j.record(errors.Join(errs...))
	j.run.Unlock()
	return j.SyncStatus()
}

func (j *joined) record(err error) {
	now := time.Now().UTC()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.status.LastSync = &now
	if err != nil {
		j.status.LastError = err.Error()
		j.status.Failures++
		j.log.Warn("sync failed; serving the repositories loaded before", "err", err, "failures", j.status.Failures)
		return
	}
	j.status.LastError, j.status.Failures = "", 0
	j.status.LastSuccess = &now
}

// SyncStatus reports the last sync, with each repository's.
func (j *joined) SyncStatus() mcp.SyncStatus {
	j.mu.Lock()
	st := j.status
	j.mu.Unlock()
	st.Repos = nil
	for _, f := range j.followers {
		fs := f.SyncStatus()
		f.mu.Lock()
		head := f.loaded.Commit
		f.mu.Unlock()
		st.Repos = append(st.Repos, mcp.RepoSync{Repo: f.repo, Branch: f.branch, Head: head, LastError: fs.LastError})
	}
	st.Repos = append(st.Repos, j.skipped...)
	return st
}

// SetInterval changes how often the repositories are synced.
func (j *joined) SetInterval(d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("the interval must be positive, got %v", d)
	}
	j.mu.Lock()
	j.interval = d
	j.status.Interval = d.String()
	j.mu.Unlock()
	select {
	case j.reset <- struct{}{}:
	default:
	}
	return nil
}

// loop syncs every interval until ctx is done, backing off after
// failures as a single server does.
func (j *joined) loop(ctx context.Context) {
	for {
		j.mu.Lock()
		wait := j.interval
		for i := 1; i < j.status.Failures && wait < maxBackoff; i++ {
			wait *= 2
		}
		wait = min(wait, max(maxBackoff, j.interval))
		next := time.Now().Add(wait).UTC()
		j.status.NextSync = &next
		j.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-j.reset:
			continue
		case <-time.After(wait):
		}
		j.SyncNow(ctx)
	}
}

// names lists the repositories served, for the tools' repo argument.
func (j *joined) names() []string {
	out := make([]string, len(j.followers))
	for i, f := range j.followers {
		out[i] = f.repo
	}
	slices.Sort(out)
	return out
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// physicalMemory is this machine's memory in bytes, 0 when unknown.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}
