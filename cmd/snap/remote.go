package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"
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
			local, err := openExistingStore("", id.Root)
			if err != nil {
				return err
			}
			remote, err := openRemote(ctx, c, id.Root)
			if err != nil {
				return err
			}
			cfg := ci.PushConfig{
				Local: local.ci(), Remote: remote.ci(), Repo: id.Repo, Branch: id.Branch, Commit: c.String("commit"),
				Force: c.Bool("force"), AllowDirty: c.Bool("allow-dirty"), Fault: fault,
			}
			if id.Git {
				cfg.Git = id.Root
			}
			res, err := ci.Push(ctx, cfg)
			if err != nil {
				return err
			}
			out := transfer("push", remote, id, res.Commit, res.Copy, res.Head, res.Took)
			log.Debug("pushed", "store", remote.label, "commit", res.Commit)
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
			start := time.Now()
			res, mv, err := pull(ctx, remote, local, id.Repo, id.Branch, c.String("commit"))
			if err != nil {
				return err
			}
			return report(c, transfer("pull", remote, id, res.Manifest.Commit, res, mv, time.Since(start)))
		},
	}
}

// pull copies a snapshot of repo's branch from remote into local (ci.Pull).
func pull(ctx context.Context, remote, local storeRef, repo, branch, commit string) (snapshot.CopyResult, snapshot.HeadMove, error) {
	res, mv, err := ci.Pull(ctx, remote.ci(), local.ci(), repo, branch, commit)
	return res, mv, usage(err)
}

// pullHead copies the snapshot head names from remote into local and
// moves local's HEAD to it (ci.PullHead).
func pullHead(ctx context.Context, remote, local storeRef, repo, branch string, head schemas.Head) (snapshot.CopyResult, snapshot.HeadMove, error) {
	res, mv, err := ci.PullHead(ctx, remote.ci(), local.ci(), repo, branch, head)
	return res, mv, usage(err)
}

func transfer(op string, remote storeRef, id identity, commit string, res snapshot.CopyResult, mv snapshot.HeadMove, took time.Duration) schemas.Transfer {
	return schemas.Transfer{
		Op: op, Store: remote.label, Repo: id.Repo, Branch: id.Branch, Commit: commit,
		ManifestSHA256: res.ManifestSHA256, Tables: res.Tables, Bytes: res.Bytes, Present: res.Present,
		DurationMS: took.Milliseconds(),
		Head: schemas.Move{
			Moved: mv.Moved, From: mv.From.Commit, To: mv.To.Commit, Generation: mv.To.Generation, Reason: mv.Reason,
		},
	}
}

// report prints a push or pull.
func report(c *cli.Command, t schemas.Transfer) error {
	if c.Bool("json") {
		return writeJSON(c.Root().Writer, t)
	}
	w := c.Root().Writer
	dir := "to"
	if t.Op == "pull" {
		dir = "from"
	}
	if t.Present {
		fmt.Fprintf(w, "%s %s %s: %s already holds it\n", t.Repo, t.Branch, short(t.Commit), map[string]string{"push": "the store", "pull": "the cache"}[t.Op])
	} else {
		secs := max(float64(t.DurationMS)/1000, 0.001)
		fmt.Fprintf(w, "%sed %s %s %s %s %s: %d tables, %s in %.1fs (%s/s)\n", t.Op, t.Repo, t.Branch, short(t.Commit), dir, t.Store,
			t.Tables, bytesize(t.Bytes), secs, bytesize(int64(float64(t.Bytes)/secs)))
	}
	switch {
	case t.Head.Moved && t.Head.From == "":
		fmt.Fprintf(w, "HEAD created at %s (generation %d)\n", short(t.Head.To), t.Head.Generation)
	case t.Head.Moved:
		fmt.Fprintf(w, "HEAD moved %s → %s (generation %d)\n", short(t.Head.From), short(t.Head.To), t.Head.Generation)
	default:
		fmt.Fprintf(w, "HEAD stays at %s: %s\n", short(t.Head.To), t.Head.Reason)
	}
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
			st, err := openExistingStore(url, root)
			if err != nil {
				return err
			}
			list, err := snapshot.Catalog(ctx, st.store, c.String("repo"), c.String("branch"))
			if err != nil {
				return storeError(st, err)
			}
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, schemas.Listing{Store: st.label, Branches: list})
			}
			if len(list) == 0 {
				fmt.Fprintf(c.Root().ErrWriter, "no snapshots in %s\n", st.label)
				return nil
			}
			tw := tabwriter.NewWriter(c.Root().Writer, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "REPO\tBRANCH\tCOMMIT\tSTORED\tSIZE\t")
			for _, b := range list {
				for _, s := range b.Snapshots {
					mark := ""
					switch {
					case s.Head:
						mark = fmt.Sprintf("HEAD (generation %d)", b.Generation)
					case !s.Complete:
						mark = "incomplete"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.Repo, b.Branch, short(s.Commit),
						s.StoredAt.Local().Format("2006-01-02 15:04:05"), bytesize(s.Bytes), mark)
				}
			}
			return tw.Flush()
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
			res, err := snapshot.GC(ctx, st.store, snapshot.GCOptions{
				Repo: c.String("repo"), Branch: c.String("branch"),
				Keep: c.Int("keep"), Grace: c.Duration("grace"), DryRun: c.Bool("dry-run"),
			})
			res.Store = st.label
			if err != nil {
				return storeError(st, err)
			}
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, res)
			}
			verb := "deleted"
			if res.DryRun {
				verb = "would delete"
			}
			for _, d := range res.Deleted {
				fmt.Fprintf(c.Root().Writer, "%s %s %s %s (%s, %s)\n", verb, d.Repo, d.Branch, short(d.Commit), d.Reason, bytesize(d.Bytes))
			}
			fmt.Fprintf(c.Root().Writer, "%s %d snapshots (%s); %d kept\n", verb, len(res.Deleted), bytesize(res.Bytes), res.Kept)
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
			res := snapshot.Checkup(ctx, st.store)
			res.Store = st.label
			if c.Bool("json") {
				if err := writeJSON(c.Root().Writer, res); err != nil {
					return err
				}
			} else {
				for _, ch := range res.Checks {
					mark := "ok  "
					if !ch.OK {
						mark = "FAIL"
					}
					fmt.Fprintf(c.Root().Writer, "%s %-17s %s (%d ms)\n", mark, ch.Name, ch.Detail, ch.DurationMS)
				}
			}
			if !res.OK {
				return fmt.Errorf("doctor: %s failed a check", st.label)
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

// short abbreviates a commit for people (snapshot.ShortCommit).
func short(commit string) string { return snapshot.ShortCommit(commit) }

func bytesize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
