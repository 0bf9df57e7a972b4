package main

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
)

// snapshotFlags choose the snapshot that serve and query answer from.
func snapshotFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "snapshot", Usage: "answer from the snapshot in this `FOLDER`"},
		&cli.StringFlag{Name: "store", Usage: "store `URL` (default: .snap/ at the repository root)"},
		&cli.StringFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's)"},
		&cli.StringFlag{Name: "branch", Usage: "`BRANCH` in the store (default: this checkout's)"},
	}
}

// source is where a snapshot was loaded from.
type source struct {
	store  snapshot.Store
	prefix string
	label  string
	// manifestSHA256 is the digest HEAD names, when the snapshot was
	// found through HEAD.
	manifestSHA256 string
}

// ci is the source as package ci names it.
func (s source) ci() ci.Source {
	return ci.Source{Store: s.store, Prefix: s.prefix, Label: s.label, ManifestSHA256: s.manifestSHA256}
}

// findSnapshot locates the snapshot the flags name: --snapshot, or the HEAD
// of this checkout's repository and branch in the store (see chooseBranch).
func findSnapshot(ctx context.Context, c *cli.Command) (source, error) {
	if dir := c.String("snapshot"); dir != "" {
		st, err := snapshot.OpenDir(dir)
		if err != nil {
			return source{}, usagef("--snapshot %s: %v", dir, err)
		}
		return source{store: st, label: dir}, nil
	}
	id := detect(ctx, ".")
	st, err := openExistingStore(c.String("store"), id.Root)
	if err != nil {
		return source{}, err
	}
	repo, branch, err := chooseBranch(ctx, c, st, id)
	if err != nil {
		return source{}, err
	}
	head, _, err := snapshot.ReadHead(ctx, st.store, repo, branch)
	if err != nil {
		return source{}, storeError(st, err)
	}
	prefix, err := snapshot.Prefix(repo, branch, head.Commit)
	if err != nil {
		return source{}, err
	}
	return source{store: st.store, prefix: prefix, label: repo + " " + branch + " " + head.Commit, manifestSHA256: head.ManifestSHA256}, nil
}

// chooseBranch picks the repository and branch to answer for: --repo and
// --branch, else this checkout's. When the store has no HEAD for them
// but holds that repository under one branch only (or one repository
// only, and --repo was not given), that one is chosen.
func chooseBranch(ctx context.Context, c *cli.Command, st storeRef, id identity) (string, string, error) {
	repo, branch := id.Repo, id.Branch
	if v := repoFlag(c); v != "" {
		repo = v
	}
	if v := c.String("branch"); v != "" {
		branch = v
	}
	if v := c.StringSlice("repo"); len(v) == 1 {
		if sp := parseRepoSpec(v[0]); sp.branch != "" {
			repo, branch = sp.repo, sp.branch // serve --repo NAME:BRANCH
		}
	}
	_, _, err := snapshot.ReadHead(ctx, st.store, repo, branch)
	if err == nil {
		return repo, branch, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", "", storeError(st, err)
	}
	heads, err := listHeads(ctx, st.store)
	if err != nil {
		return "", "", storeError(st, err)
	}
	var pick []snapshot.Ref
	for _, h := range heads {
		if h.Repo == repo || repoFlag(c) == "" && len(heads) == 1 {
			pick = append(pick, h)
		}
	}
	if len(pick) == 1 && c.String("branch") == "" {
		return pick[0].Repo, pick[0].Branch, nil
	}
	var names []string
	for _, h := range heads {
		names = append(names, h.Repo+" "+h.Branch)
	}
	if len(names) == 0 {
		return "", "", usagef("no snapshot in %s: run `snap index` or `snap pull` first", st.label)
	}
	return "", "", usagef("no snapshot of %s %s in %s; it holds: %s (choose with --repo and --branch)",
		repo, branch, st.label, strings.Join(names, ", "))
}

// repoFlag is --repo: given once, or the first of serve's repositories.
func repoFlag(c *cli.Command) string {
	for _, f := range c.Flags {
		if _, ok := f.(*cli.StringSliceFlag); ok && slices.Contains(f.Names(), "repo") {
			if v := c.StringSlice("repo"); len(v) > 0 {
				return v[0]
			}
			return ""
		}
	}
	return c.String("repo")
}

// listHeads lists the repositories and branches that have a HEAD.
func listHeads(ctx context.Context, st snapshot.Store) ([]snapshot.Ref, error) {
	return snapshot.Heads(ctx, st)
}

// loadEngine reads and verifies the chosen snapshot and builds its engine.
func loadEngine(ctx context.Context, c *cli.Command) (*query.Engine, error) {
	src, err := findSnapshot(ctx, c)
	if err != nil {
		return nil, err
	}
	e, _, err := loadFrom(ctx, src, 0)
	return e, err
}

// loadFrom reads and verifies a snapshot and builds its engine, on up to
// workers goroutines at once (0: one per CPU; see ci.Load).
func loadFrom(ctx context.Context, src source, workers int) (*query.Engine, time.Duration, error) {
	start := time.Now()
	e, err := ci.Load(ctx, src.ci(), workers)
	if err != nil {
		return nil, 0, err
	}
	return e, time.Since(start), nil
}
