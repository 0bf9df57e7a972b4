package main

import (
	"cmp"
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// worktreeDiff compares a snapshot with the working tree of the checkout
// around the current folder (ci.WorktreeDiff): the snapshot the argument
// names (as diff's A), else the HEAD of this checkout's branch in the
// store.
func worktreeDiff(ctx context.Context, c *cli.Command, opt query.DiffOptions) (*schemas.Diff, [2]string, error) {
	labels := [2]string{c.Args().First(), "worktree"}
	id := detect(ctx, ".")
	if !id.Git {
		return nil, labels, usagef("diff: --worktree compares a snapshot with a git checkout's working tree, and %s is not inside one", id.Root)
	}
	var src ci.Source
	var err error
	if labels[0] != "" {
		src, err = refSource(ctx, c, "diff", labels[0])
	} else {
		src, err = findSnapshot(ctx, c)
	}
	if err != nil {
		return nil, labels, err
	}
	d, m, err := ci.WorktreeDiff(ctx, src, id, cmp.Or(c.String("repo"), id.Repo), version(), opt)
	if labels[0] == "" && m != nil {
		labels[0] = m.Branch
	}
	if err != nil {
		return nil, labels, fmt.Errorf("diff: %w", err)
	}
	return d, labels, nil
}
