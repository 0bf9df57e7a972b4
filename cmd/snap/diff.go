package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:  "diff",
		Usage: "compare two snapshots, or one with the working tree: what changed, and what it breaks",
		UsageText: "snap diff [--store URL] [--repo NAME] [--json | --markdown] [--fail-on CONDITIONS] [--depth N] A B\n" +
			"snap diff --worktree [--store URL] [--repo NAME] [--json | --markdown] [--fail-on CONDITIONS] [--depth N] [A]",
		ArgsUsage: "A B",
		Description: "A and B are each a snapshot folder, a branch (its HEAD in the store) or a commit\n" +
			"(or a unique prefix of one) of the repository in the store: the local cache unless\n" +
			"--store names another. Any other git revision (HEAD, HEAD~1, a tag) names the\n" +
			"snapshot of its commit, which must have been indexed. Symbols are matched by their stable ids: added, removed,\n" +
			"moved (same name, another file), body or signature changed. For every removed\n" +
			"symbol and every changed signature, the callers still present in B are listed:\n" +
			"what is likely to break. The impact of the changed symbols in B follows.\n\n" +
			"With --worktree, B is the working tree of the checkout around the current folder,\n" +
			"as it is on disk: uncommitted edits, new and deleted files included. The files that\n" +
			"differ from A are indexed again in memory, over A's rows, with the options A was\n" +
			"indexed with; nothing is written to the store. A defaults to the HEAD of this\n" +
			"checkout's branch in the store, and must be a snapshot of this repository. B's\n" +
			"commit in --json is the checkout's HEAD commit followed by +worktree.\n\n" +
			"--fail-on makes the exit code 1 when a condition holds: broken (a removed symbol\n" +
			"or a changed signature still has callers), removed (an exported symbol was\n" +
			"removed), signature (an exported signature changed), any (anything changed).\n\n" +
			"Examples:\n  snap diff main feature/x\n  snap diff --markdown --fail-on broken main HEAD\n" +
			"  snap diff --json .snap/repo=x/branch=main/commit=a .snap/repo=x/branch=main/commit=b\n" +
			"  snap diff --worktree                     # this branch's snapshot → the files on disk\n" +
			"  snap diff --worktree --fail-on broken main",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "store", Usage: "store `URL` holding the branches and commits named (default: .snap/ at the repository root)"},
			&cli.StringFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's)"},
			&cli.BoolFlag{Name: "worktree", Usage: "compare A (default: this branch's HEAD in the store) with the checkout's working tree, uncommitted changes included"},
			&cli.BoolFlag{Name: "json", Usage: "answer in JSON (schemas/cli.schema.json, $defs/diff)"},
			&cli.BoolFlag{Name: "markdown", Usage: "answer in Markdown, for a pull request comment or a job summary"},
			&cli.StringSliceFlag{Name: "fail-on", Usage: "exit 1 when one of these `CONDITIONS` holds: broken, removed, signature, any"},
			&cli.IntFlag{Name: "depth", Value: 2, Usage: "how far the impact of changed symbols goes"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			min, max := 2, 2
			if c.Bool("worktree") {
				min, max = 0, 1
			}
			if err := exactArgs(c, min, max); err != nil {
				return err
			}
			if c.Bool("json") && c.Bool("markdown") {
				return usagef("diff: --json and --markdown exclude each other")
			}
			for _, f := range c.StringSlice("fail-on") {
				if !slices.Contains(ci.FailConditions, f) {
					return usagef("diff: --fail-on %q is not a condition (have %s)", f, strings.Join(ci.FailConditions, ", "))
				}
			}
			if d := c.Int("depth"); d < 1 || d > query.MaxImpactDepth {
				return usagef("diff: --depth must be 1 to %d", query.MaxImpactDepth)
			}
			opt := query.DiffOptions{ImpactDepth: c.Int("depth")}
			var d *schemas.Diff
			var labels [2]string
			var err error
			if c.Bool("worktree") {
				d, labels, err = worktreeDiff(ctx, c, opt)
			} else {
				d, labels, err = snapshotDiff(ctx, c, opt)
			}
			if err != nil {
				return err
			}
			w := c.Root().Writer
			switch {
			case c.Bool("json"):
				if err := writeJSON(w, d); err != nil {
					return err
				}
			case c.Bool("markdown"):
				again := "snap diff --json " + labels[0] + " " + labels[1]
				if c.Bool("worktree") {
					again = strings.TrimSpace("snap diff --worktree --json " + c.Args().First())
				}
				io.WriteString(w, ci.DiffMarkdown(d, labels, again))
			default:
				io.WriteString(w, ci.DiffText(d, labels))
			}
			if why := ci.Failed(d, c.StringSlice("fail-on")); why != "" {
				return fmt.Errorf("diff: %s", why)
			}
			return nil
		},
	}
}

// snapshotDiff compares the two snapshots diff's arguments name.
func snapshotDiff(ctx context.Context, c *cli.Command, opt query.DiffOptions) (*schemas.Diff, [2]string, error) {
	labels := [2]string{c.Args().Get(0), c.Args().Get(1)}
	var srcs [2]ci.Source
	for i, arg := range labels {
		src, err := refSource(ctx, c, "diff", arg)
		if err != nil {
			return nil, labels, err
		}
		srcs[i] = src
	}
	d, err := ci.Diff(ctx, srcs[0], srcs[1], opt)
	return d, labels, err
}
