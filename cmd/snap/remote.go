package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// The commands that move snapshots between the local cache (.snap/ at the
// repository root) and a shared store, and look after that store.

func branchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's)"},
		&cli.StringFlag{Name: "branch", Usage: "`BRANCH` in the store (default: this checkout's)"},
	}
}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "answer in JSON (schemas/cli.schema.json)"}

// target is the repository and branch a command works on.
func target(ctx context.Context, c *cli.Command) identity {
	id := detect(ctx, ".")
	if v := c.String("repo"); v != "" {
		id.Repo = v
	}
	if v := c.String("branch"); v != "" {
		id.Branch = v
	}
	return id
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func pushCommand(log *slog.Logger) *cli.Command {
	return &cli.Command{
		Name:      "push",
		Usage:     "copy a snapshot from the local cache to a shared store, then move the branch's HEAD there",
		UsageText: "snap push [--store URL] [--repo NAME] [--branch BRANCH] [--commit COMMIT] [--force] [--allow-dirty] [--json]",
		Description: "Copies the snapshot HEAD names in the local cache (.snap/ at the repository root),\n" +
			"or the one --commit names, to the store: every table checked against its SHA-256,\n" +
			"then the manifest, then HEAD.json by compare-and-swap. HEAD only moves forward:\n" +
			"to a commit that descends from the one it names (git decides in a checkout, the\n" +
			"parents recorded in the store's manifests otherwise). If the store's HEAD is\n" +
			"newer it stays; if the histories diverged, push fails unless --force.\n\n" +
			"Examples:\n  snap push --store 's3://code-graphs/snap?endpoint=http://127.0.0.1:9000'\n  SNAP_STORE=s3://code-graphs/snap snap push --json",
		Flags: append(branchFlags(), remoteFlag(), jsonFlag,
			&cli.StringFlag{Name: "commit", Usage: "push the local snapshot of this `COMMIT` (default: the local HEAD's)"},
			&cli.BoolFlag{Name: "force", Usage: "move HEAD even when the commit does not descend from HEAD's"},
			&cli.BoolFlag{Name: "allow-dirty", Usage: "push a snapshot of a work tree with uncommitted changes"},
		),
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			id := target(ctx, c)
			local, err := ci.OpenExistingStore(ctx, "", id.Root)
			if err != nil {
				return err
			}
			remote, err := openRemote(ctx, c, id.Root)
			if err != nil {
				return err
			}
			cfg := ci.PushConfig{
				Local: local, Remote: remote, Repo: id.Repo, Branch: id.Branch, Commit: c.String("commit"),
				Force: c.Bool("force"), AllowDirty: c.Bool("allow-dirty"), Fault: fault,
			}
			if id.Git {
				cfg.Git = id.Root
			}
			res, err := ci.Push(ctx, cfg)
			if err != nil {
				return err
			}
			out := ci.Transfer("push", remote.Label, id.Repo, id.Branch, res.Commit, res.Copy, res.Head, res.Took)
			log.Debug("pushed", "store", remote.Label, "commit", res.Commit)
			return report(c, out)
		},
	}
}

func pullCommand() *cli.Command {
	return &cli.Command{
		Name:  "pull",
		Usage: "copy the newest snapshot of this repository and branch from a shared store into the local cache",
		UsageText: "snap pull [--store URL] [--repo NAME] [--branch BRANCH] [--commit COMMIT] [--json]\n" +
			"snap pull [--store URL] [--json] (--all | NAME[:BRANCH]...)",
		Description: "Reads the branch's HEAD.json in the store, checks the manifest against the digest\n" +
			"HEAD names, copies every table checking its SHA-256, into the local cache (.snap/ at\n" +
			"the repository root), and points the local HEAD at it. A snapshot already in the\n" +
			"cache is not copied again.\n\n" +
			"With --all it pulls the HEAD of every repository and branch in the store; given\n" +
			"repository names (NAME, or NAME:BRANCH for one branch) it pulls each one's branches,\n" +
			"so that `snap serve --repo A --repo B` or `--all-repos` has them at hand. Each is\n" +
			"reported as it is copied (with --json, one transfer per line); one that fails does\n" +
			"not stop the others, and the command then exits 1.\n\n" +
			"Examples:\n  snap pull --store s3://code-graphs/snap\n  snap pull --repo graphsnap/snap --branch main --json\n" +
			"  snap pull --store s3://code-graphs/snap --all\n  snap pull acme/api acme/sdk:release",
		Flags: append(branchFlags(), remoteFlag(), jsonFlag,
			&cli.StringFlag{Name: "commit", Usage: "pull the snapshot of this `COMMIT` (default: the store's HEAD)"},
			&cli.BoolFlag{Name: "all", Usage: "pull the HEAD of every repository and branch in the store"},
		),
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Bool("all") || c.NArg() > 0 {
				return pullMany(ctx, c)
			}
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			id := target(ctx, c)
			remote, local, err := openPull(ctx, c, id.Root)
			if err != nil {
				return err
			}
			t, err := ci.Pull(ctx, remote, local, id.Repo, id.Branch, c.String("commit"))
			if err != nil {
				return err
			}
			return report(c, t)
		},
	}
}

// report prints a push or pull.
func report(c *cli.Command, t schemas.Transfer) error {
	if c.Bool("json") {
		return writeJSON(c.Root().Writer, t)
	}
	ci.TransferText(c.Root().Writer, t)
	return nil
}

func lsCommand() *cli.Command {
	return &cli.Command{
		Name:      "ls",
		Usage:     "list the repositories, branches and snapshots in a store",
		UsageText: "snap ls [--store URL] [--repo NAME [--branch BRANCH]] [--json]",
		ArgsUsage: " ",
		Description: "Lists every branch with its HEAD and its snapshots, newest first, with sizes.\n" +
			"Incomplete snapshots (tables without a manifest: an upload that died) are marked.\n\n" +
			"Without a store named (--store, $SNAP_STORE, git config snap.store) it lists the\n" +
			"local cache, .snap/ at the repository root.\n\n" +
			"Examples:\n  snap ls --store s3://code-graphs/snap\n  snap ls --repo graphsnap/snap --json",
		Flags: []cli.Flag{remoteFlag(), jsonFlag,
			&cli.StringFlag{Name: "repo", Usage: "only this repository `NAME`"},
			&cli.StringFlag{Name: "branch", Usage: "only this `BRANCH` (with --repo)"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			if c.String("branch") != "" && c.String("repo") == "" {
				return usagef("ls: --branch needs --repo")
			}
			root := detect(ctx, ".").Root
			url, err := remoteURL(ctx, c, root)
			if err != nil {
				url = "" // no shared store named: list the local cache
			}
			st, err := ci.OpenExistingStore(ctx, url, root)
			if err != nil {
				return err
			}
			list, err := snapshot.Catalog(ctx, st, c.String("repo"), c.String("branch"))
			if err != nil {
				return st.Err(err)
			}
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, schemas.Listing{Store: st.Label, Branches: list})
			}
			if len(list) == 0 {
				fmt.Fprintf(c.Root().ErrWriter, "no snapshots in %s\n", st.Label)
				return nil
			}
			return ci.ListingText(c.Root().Writer, list)
		},
	}
}

func gcCommand() *cli.Command {
	return &cli.Command{
		Name:      "gc",
		Usage:     "delete old snapshots from a store; HEAD's always stays",
		UsageText: "snap gc [--store URL] [--keep N] [--grace DURATION] [--dry-run] [--repo NAME [--branch BRANCH]] [--json]",
		ArgsUsage: " ",
		Description: "Keeps the newest --keep snapshots of each branch and HEAD's, and deletes the rest:\n" +
			"each snapshot's manifest first, so no reader ever sees a manifest without its\n" +
			"tables. Incomplete snapshots (uploads that died) older than --grace go too.\n\n" +
			"Examples:\n  snap gc --store s3://code-graphs/snap --keep 20\n  snap gc --keep 5 --dry-run",
		Flags: []cli.Flag{remoteFlag(), jsonFlag,
			&cli.IntFlag{Name: "keep", Value: 20, Usage: "snapshots to keep per branch, newest first (HEAD's stays in any case)"},
			&cli.DurationFlag{Name: "grace", Value: time.Hour, Usage: "spare incomplete snapshots younger than this `DURATION`"},
			&cli.BoolFlag{Name: "dry-run", Usage: "say what would go, delete nothing"},
			&cli.StringFlag{Name: "repo", Usage: "only this repository `NAME`"},
			&cli.StringFlag{Name: "branch", Usage: "only this `BRANCH` (with --repo)"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			if c.Int("keep") < 1 {
				return usagef("gc: --keep must be at least 1")
			}
			if c.String("branch") != "" && c.String("repo") == "" {
				return usagef("gc: --branch needs --repo")
			}
			st, err := openRemote(ctx, c, detect(ctx, ".").Root)
			if err != nil {
				return err
			}
			res, err := snapshot.GC(ctx, st, snapshot.GCOptions{
				Repo: c.String("repo"), Branch: c.String("branch"),
				Keep: c.Int("keep"), Grace: c.Duration("grace"), DryRun: c.Bool("dry-run"),
			})
			res.Store = st.Label
			if err != nil {
				return st.Err(err)
			}
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, res)
			}
			ci.GCText(c.Root().Writer, res)
			return nil
		},
	}
}

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check that a store is reachable, takes our credentials and honours conditional writes",
		UsageText: "snap doctor [--store URL] [--json]",
		ArgsUsage: " ",
		Description: "Lists, writes, reads back and deletes a probe under _snap-doctor/, and checks that\n" +
			"the store refuses a create-if-absent over an existing object (If-None-Match: *) and\n" +
			"a swap with a stale ETag (If-Match): HEAD's compare-and-swap depends on both.\n" +
			"Exits 1 when a check fails.\n\n" +
			"Examples:\n  snap doctor --store 's3://code-graphs/snap?endpoint=http://127.0.0.1:9000'",
		Flags: []cli.Flag{remoteFlag(), jsonFlag},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			st, err := openRemote(ctx, c, detect(ctx, ".").Root)
			if err != nil {
				return err
			}
			res := snapshot.Checkup(ctx, st)
			res.Store = st.Label
			if c.Bool("json") {
				if err := writeJSON(c.Root().Writer, res); err != nil {
					return err
				}
			} else {
				ci.CheckupText(c.Root().Writer, res)
			}
			if !res.OK {
				return fmt.Errorf("doctor: %s failed a check", st.Label)
			}
			return nil
		},
	}
}

// fault is a fault-injection point for the tests that kill a push at each
// step: when SNAP_FAULT names this point, snap says so on stderr and
// waits to be killed.
func fault(point string) {
	if v := os.Getenv("SNAP_FAULT"); v == "" || v != point {
		return
	}
	fmt.Fprintf(os.Stderr, "snap: fault point %s reached\n", point)
	time.Sleep(time.Hour)
}
