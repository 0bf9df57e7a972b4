package main

import (
	"context"
	"slices"

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

// findSnapshot locates the snapshot the flags name: --snapshot, or the HEAD
// of this checkout's repository and branch in the store (see chooseBranch).
func findSnapshot(ctx context.Context, c *cli.Command) (ci.Source, error) {
	if dir := c.String("snapshot"); dir != "" {
		st, err := snapshot.OpenDir(dir)
		if err != nil {
			return ci.Source{}, usagef("--snapshot %s: %v", dir, err)
		}
		return ci.Source{Store: st, Label: dir}, nil
	}
	id := detect(ctx, ".")
	st, err := ci.OpenExistingStore(ctx, c.String("store"), id.Root)
	if err != nil {
		return ci.Source{}, err
	}
	repo, branch, anyRepo, pinned := branchChoice(c, id)
	if repo, branch, err = ci.ChooseBranch(ctx, st, repo, branch, anyRepo, pinned); err != nil {
		return ci.Source{}, err
	}
	return ci.HeadSource(ctx, st, repo, branch)
}

// branchChoice is what ci.ChooseBranch is asked for: --repo and
// --branch, else this checkout's; any repository when --repo is not
// given, and only the branch named when --branch is.
func branchChoice(c *cli.Command, id identity) (repo, branch string, anyRepo, pinned bool) {
	repo, branch = id.Repo, id.Branch
	if v := repoFlag(c); v != "" {
		repo = v
	}
	if v := c.String("branch"); v != "" {
		branch = v
	}
	if v := c.StringSlice("repo"); len(v) == 1 {
		if r, b := ci.SplitRepo(v[0]); b != "" {
			repo, branch = r, b // serve --repo NAME:BRANCH
		}
	}
	return repo, branch, repoFlag(c) == "", c.String("branch") != ""
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
	return ci.Load(ctx, src, 0)
}
