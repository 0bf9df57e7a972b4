package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/indexer"
)

func ciCommand(log *slog.Logger) *cli.Command {
	return &cli.Command{
		Name:      "ci",
		Usage:     "index this commit in CI against the last snapshot, push it, and diff a pull request",
		UsageText: "snap ci [--store URL] [--out FOLDER] [--fail-on CONDITIONS] [--push-pr] [--comment-on-pr] [--languages LANGUAGES] [--exclude GLOB ...] [PATH]",
		ArgsUsage: "[PATH]",
		Description: "Reads the CI's environment (GitHub Actions, GitLab CI, else git), finds the base\n" +
			"snapshot (this branch's HEAD in the store, else the default branch's), pulls it\n" +
			"and indexes incrementally against it. On a push the snapshot is pushed and the\n" +
			"branch's HEAD moves (forward only). On a pull request the target branch's\n" +
			"snapshot is diffed against this one: Markdown to $GITHUB_STEP_SUMMARY, JSON to\n" +
			"--out/snap-diff.json, an error annotation on each broken caller; --fail-on turns\n" +
			"the diff into a gate. When the store has no snapshot of the target branch (or\n" +
			"there is no store), the pull request's merge base is indexed here, in a temporary\n" +
			"worktree, into --out and nothing is pushed: cache --out between runs and it is\n" +
			"indexed once. Outputs go to $GITHUB_OUTPUT (snapshot, commit, nodes, edges, files,\n" +
			"files-parsed, broken, diff-json). Without a store the snapshot stays in --out\n" +
			"for the workflow to upload as an artifact.\n\n" +
			"Examples:\n  snap ci --store s3://code-graphs/snap\n  snap ci --out snap-artifact --fail-on broken",
		Flags: []cli.Flag{
			remoteFlag(),
			&cli.StringFlag{Name: "out", Usage: "local store `FOLDER` for the snapshot and the diff (default: .snap/ at the repository root)"},
			&cli.StringSliceFlag{Name: "fail-on", Usage: "on a pull request, exit 1 when the diff shows one of these `CONDITIONS` (broken, removed, signature, any)"},
			&cli.BoolFlag{Name: "push-pr", Usage: "push pull request snapshots too (filed under the head branch)"},
			&cli.BoolFlag{Name: "comment-on-pr", Usage: "post the diff on the pull request (GitHub, with $GITHUB_TOKEN), updating snap's earlier comment"},
			&cli.StringSliceFlag{Name: "languages", Usage: "index only these `LANGUAGES`"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "leave out paths matching this `GLOB`; repeatable"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 1); err != nil {
				return err
			}
			for _, f := range c.StringSlice("fail-on") {
				if !slices.Contains(ci.FailConditions, f) {
					return usagef("ci: --fail-on %q is not a condition (have %s)", f, strings.Join(ci.FailConditions, ", "))
				}
			}
			if err := indexer.ValidateExclude(c.StringSlice("exclude")); err != nil {
				return usagef("--exclude: %v", err)
			}
			dir := cmp.Or(c.Args().First(), ".")
			return runCI(ctx, log, c, dir)
		},
	}
}

func runCI(ctx context.Context, log *slog.Logger, c *cli.Command, dir string) error {
	langs, err := chooseLanguages(c.StringSlice("languages"))
	if err != nil {
		return err
	}
	cfg := ci.RunConfig{
		Config: pipeline(ci.Config{
			Dir: dir, Store: c.String("store"), Progress: c.Root().ErrWriter,
			Options: indexer.Options{Languages: langs, Exclude: c.StringSlice("exclude")},
		}, log),
		Out: c.String("out"), FailOn: c.StringSlice("fail-on"),
		PushPR: c.Bool("push-pr"), CommentOnPR: c.Bool("comment-on-pr"),
		Getenv: os.Getenv, Annotate: c.Root().Writer,
	}
	res, err := ci.Run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.Root().Writer, res.Folder)
	if res.Failed != "" {
		return fmt.Errorf("ci: %s", res.Failed)
	}
	return nil
}
