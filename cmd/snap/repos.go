package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

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

// repoSpec is one repository asked for: NAME or NAME:BRANCH (a colon
// cannot be in a git branch name).
type repoSpec struct{ repo, branch string }

func parseRepoSpec(s string) repoSpec {
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		return repoSpec{s[:i], s[i+1:]}
	}
	return repoSpec{repo: s}
}

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
	parts    map[string]source
	changed  bool // parts changed since the last join
	interval time.Duration
	status   mcp.SyncStatus
}

// newJoined chooses the repositories and branches to serve: those named
// by --repo, or every repository of the store (--all-repos) that fits the
// memory budget.
func newJoined(ctx context.Context, c *cli.Context, log *slog.Logger, h *query.Holder) (*joined, error) {
	id := detect(ctx, ".")
	remote, err := openExistingStore(c.String("store"), id.Root)
	if err != nil {
		return nil, err
	}
	cache := remote
	if !remote.local() {
		if cache, err = openStore("", id.Root); err != nil {
			return nil, err
		}
	}
	heads, err := listHeads(ctx, remote.store)
	if err != nil {
		if remote.local() {
			return nil, storeError(remote, err)
		}
		log.Warn("store unreachable; serving from the local cache until it answers", "store", remote.label, "err", err)
		if heads, err = listHeads(ctx, cache.store); err != nil {
			return nil, storeError(cache, err)
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
		return nil, usagef("serve: no snapshot in %s: run `snap index` or `snap push` first", remote.label)
	}
	var specs []repoSpec
	if c.Bool("all-repos") {
		for _, n := range names {
			specs = append(specs, repoSpec{repo: n})
		}
	} else {
		for _, s := range c.StringSlice("repo") {
			specs = append(specs, parseRepoSpec(s))
		}
	}
	j := &joined{holder: h, log: log, store: remote.label, parts: make(map[string]source),
		interval: c.Duration("sync"), reset: make(chan struct{}, 1)}
	j.status.Store = remote.label
	if j.interval > 0 {
		j.status.Interval = j.interval.String()
	}
	seen := make(map[string]bool)
	for _, sp := range specs {
		if seen[sp.repo] {
			return nil, usagef("serve: --repo %s is given twice", sp.repo)
		}
		seen[sp.repo] = true
		have, ok := branches[sp.repo]
		if !ok {
			return nil, usagef("serve: no repository %s in %s; it holds: %s", sp.repo, remote.label, strings.Join(names, ", "))
		}
		branch, err := pickBranch(sp, c.String("branch"), id, have)
		if err != nil {
			return nil, err
		}
		f := &follower{remote: remote, cache: cache, repo: sp.repo, branch: branch, holder: h, log: log.With("repo", sp.repo),
			reset: make(chan struct{}, 1), apply: j.take(sp.repo)}
		f.status.Store = remote.label
		j.followers = append(j.followers, f)
	}
	if err := j.budget(ctx, remote, c); err != nil {
		return nil, err
	}
	return j, nil
}

// pickBranch chooses the branch of a repository: the one named with it,
// else --branch, else this checkout's branch if the store has it, else
// the repository's only branch, else main or master.
func pickBranch(sp repoSpec, flag string, id identity, have []string) (string, error) {
	want := cmpOr(sp.branch, flag)
	switch {
	case want != "" && slices.Contains(have, want):
		return want, nil
	case want != "":
		return "", usagef("serve: no branch %s of %s in the store; it has: %s", want, sp.repo, strings.Join(have, ", "))
	case slices.Contains(have, id.Branch):
		return id.Branch, nil
	case len(have) == 1:
		return have[0], nil
	}
	for _, b := range []string{"main", "master"} {
		if slices.Contains(have, b) {
			return b, nil
		}
	}
	return "", usagef("serve: %s has several branches (%s): choose with --repo %s:BRANCH", sp.repo, strings.Join(have, ", "), sp.repo)
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
// budget (--memory, or half of this machine's memory for --all-repos).
// A repository named with --repo is never left out: it was asked for.
func (j *joined) budget(ctx context.Context, st storeRef, c *cli.Context) error {
	limit := int64(0)
	if s := c.String("memory"); s != "" {
		n, err := parseBytes(s)
		if err != nil {
			return usagef("serve: --memory %s: %v (give a size like 4GiB or 800MB)", s, err)
		}
		limit = n
	} else if c.Bool("all-repos") {
		limit = physicalMemory() / 2
	}
	if limit <= 0 {
		return nil
	}
	var kept []*follower
	var used int64
	for _, f := range j.followers {
		head, _, err := snapshot.ReadHead(ctx, st.store, f.repo, f.branch)
		var need int64
		if err == nil {
			prefix, perr := snapshot.Prefix(f.repo, f.branch, head.Commit)
			if perr == nil {
				if m, _, merr := snapshot.ReadManifest(ctx, st.store, prefix); merr == nil {
					need = estimate(m)
				}
			}
		}
		if used+need > limit && c.Bool("all-repos") {
			reason := fmt.Sprintf("over the memory budget: needs about %s, %s of %s left", formatBytes(need), formatBytes(limit-used), formatBytes(limit))
			j.skipped = append(j.skipped, mcp.RepoSync{Repo: f.repo, Branch: f.branch, Skipped: reason})
			j.log.Warn("not serving", "repo", f.repo, "why", reason)
			continue
		}
		used += need
		kept = append(kept, f)
	}
	if len(kept) == 0 {
		return usagef("serve: no repository fits in the memory budget of %s: raise --memory", formatBytes(limit))
	}
	j.followers = kept
	return nil
}

// take returns the follower's apply for repo: it notes the snapshot the
// follower brought in, for the next join.
func (j *joined) take(repo string) func(context.Context, source) error {
	return func(_ context.Context, src source) error {
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
	srcs := make(map[string]source, len(j.parts))
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
		s, err := snapshot.Read(ctx, src.store, src.prefix, snapshot.ReadOptions{ManifestSHA256: src.manifestSHA256, Workers: workers})
		if err != nil {
			return fmt.Errorf("load %s: %w", src.label, err)
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

// parseBytes reads a size: 512MB, 4GiB, 2g, or a number of bytes.
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"b", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("not a positive size")
	}
	return int64(f * float64(mult)), nil
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

// serveSnapshotFlags are snapshotFlags with --repo given as often as
// there are repositories to serve.
func serveSnapshotFlags() []cli.Flag {
	flags := snapshotFlags()
	for i, f := range flags {
		if slices.Contains(f.Names(), "repo") {
			flags[i] = &cli.StringSliceFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's); " +
				"give it again to serve several joined, NAME:BRANCH to choose a branch"}
		}
	}
	return flags
}

// pullMany is `snap pull --all` and `snap pull NAME[:BRANCH]...`: the
// HEAD of each branch chosen, into the local cache.
func pullMany(c *cli.Context) error {
	ctx := c.Context
	for _, a := range c.Args().Slice() {
		if strings.HasPrefix(a, "-") {
			return usagef("pull: flag %s after the arguments: put flags first (snap pull [flags] NAME...)", a)
		}
	}
	switch {
	case c.Bool("all") && c.NArg() > 0:
		return usagef("pull: --all pulls every repository; drop it, or the names")
	case c.IsSet("repo") || c.IsSet("branch") || c.IsSet("commit"):
		return usagef("pull: --repo, --branch and --commit choose one snapshot; with several, name each as NAME[:BRANCH]")
	}
	id := detect(ctx, ".")
	remote, local, err := openPull(ctx, c, id.Root)
	if err != nil {
		return err
	}
	heads, err := listHeads(ctx, remote.store)
	if err != nil {
		return storeError(remote, err)
	}
	var todo []snapshot.Ref
	if c.Bool("all") {
		todo = heads
	} else {
		for _, a := range c.Args().Slice() {
			sp := parseRepoSpec(a)
			n := len(todo)
			for _, h := range heads {
				if h.Repo == sp.repo && (sp.branch == "" || h.Branch == sp.branch) {
					todo = append(todo, h)
				}
			}
			if len(todo) == n {
				return usagef("pull: %s holds no snapshot of %s (see `snap ls`)", remote.label, a)
			}
		}
	}
	if len(todo) == 0 {
		return usagef("pull: %s holds no snapshot: run `snap push` first", remote.label)
	}
	failed := 0
	for _, h := range todo {
		start := time.Now()
		res, mv, err := pull(ctx, remote, local, h.Repo, h.Branch, "")
		if err != nil {
			failed++
			fmt.Fprintf(c.App.ErrWriter, "snap: pull %s %s: %v\n", h.Repo, h.Branch, err)
			continue
		}
		t := transfer("pull", remote, identity{Repo: h.Repo, Branch: h.Branch}, res.Manifest.Commit, res, mv, time.Since(start))
		if c.Bool("json") {
			err = json.NewEncoder(c.App.Writer).Encode(t) // one line each
		} else {
			err = report(c, t)
		}
		if err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d pulls failed", failed, len(todo))
	}
	return nil
}
