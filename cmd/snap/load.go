package main

import (
	"context"
	"slices"
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
	src, err := ci.HeadSource(ctx, st.ci(), repo, branch)
	if err != nil {
		return source{}, usage(err)
	}
	return source{store: src.Store, prefix: src.Prefix, label: src.Label, manifestSHA256: src.ManifestSHA256}, nil
}

// chooseBranch picks the repository and branch to answer for
// (ci.ChooseBranch): --repo and --branch, else this checkout's.
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
	repo, branch, err := ci.ChooseBranch(ctx, st.ci(), repo, branch, repoFlag(c) == "", c.String("branch") != "")
	return repo, branch, usage(err)
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
