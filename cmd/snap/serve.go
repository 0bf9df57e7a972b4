package main

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/serve"
	"github.com/graphsnap/snap/snapshot/s3store"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "answer MCP tools over stdio from the newest snapshot, swapping in newer ones",
		UsageText: "snap serve [--store URL [--repo NAME] [--branch BRANCH] | --snapshot FOLDER] [--toolsets TOOLSETS] [--sync INTERVAL] [--http ADDR [--token TOKEN]] [--no-overlay]\n" +
			"snap serve [--store URL] (--repo NAME[:BRANCH] --repo NAME[:BRANCH]... | --all-repos [--memory SIZE]) [--toolsets TOOLSETS] [--sync INTERVAL] [--http ADDR [--token TOKEN]]\n" +
			"  [--read-only[=false]] [--max-request-bytes SIZE] [--call-timeout DURATION] [--max-connections N]",
		Description: "Loads the snapshot of this checkout's repository and branch, verifies it, and\n" +
			"serves the MCP tool catalog over stdin and stdout. Logs go to stderr; stdout\n" +
			"carries only the protocol.\n\n" +
			"The snapshot comes from --store: the local cache (.snap/ at the repository root)\n" +
			"by default. A shared store (s3://) is pulled into the local cache first; when it\n" +
			"cannot be reached, the cached snapshot of the branch is served. With --sync,\n" +
			"the store's HEAD is polled every INTERVAL and a newer snapshot is copied,\n" +
			"verified, loaded aside and swapped in without stopping a request; the snap_sync\n" +
			"tool (offered with --sync only) syncs at once, and snap_status reports the last\n" +
			"sync and its error.\n\n" +
			"Run inside the snapshot's repository, it also serves the working tree: files that\n" +
			"differ from the snapshot (edited, added, deleted, uncommitted included) are\n" +
			"re-indexed in memory, never written to a store, and served with the snapshot as one\n" +
			"engine, re-checked when a file is saved (and on snap_sync); snap_status says how far\n" +
			"the checkout is from the snapshot. --no-overlay turns this off.\n\n" +
			"Given --repo more than once, or --all-repos, it serves several repositories of the\n" +
			"store as one code graph: every path begins with its repository's name, search\n" +
			"spans them all, every tool that looks a name or path up takes a repo argument, and\n" +
			"callers, impact and implementations cross from one repository into another where\n" +
			"the language makes the link provable (Go import paths against go.mod modules, Java\n" +
			"and Kotlin packages). Each repository is synced, and the join made again when one\n" +
			"changes. --all-repos leaves out, by name order, what passes the memory budget\n" +
			"(--memory, default half of this machine's memory); snap_status says which.\n\n" +
			"With --http ADDR it serves MCP's streamable HTTP at /mcp instead, on a loopback\n" +
			"address unless given a bearer token (--token, or SNAP_TOKEN) that every request\n" +
			"must then carry. Requests from web pages not served by this machine are refused.\n" +
			"Over HTTP the server is read-only unless --read-only=false: the tools that write\n" +
			"(memories, snap_config) are not offered.\n\n" +
			"A client chooses among the toolsets --toolsets offers (snap_config), for\n" +
			"its own session only, never past them. Every request is bounded: a message's\n" +
			"size (--max-request-bytes), a call's time (--call-timeout), an argument's length,\n" +
			"a list's items, a memory's size; over HTTP, the connections open at once\n" +
			"(--max-connections) and how long one may idle. A request past a bound gets an\n" +
			"error with the code LIMIT_EXCEEDED, naming the bound.\n\n" +
			"Examples:\n  snap serve\n  snap serve --store s3://code-graphs/snap --sync 2m\n" +
			"  snap serve --snapshot .snap/repo=x/branch=main/commit=abc --toolsets symbols,callgraph\n" +
			"  snap serve --store s3://code-graphs/snap --repo acme/api --repo acme/sdk:release --sync 5m\n" +
			"  snap serve --all-repos --memory 8GiB\n" +
			"  SNAP_TOKEN=$(openssl rand -hex 32) snap serve --http 0.0.0.0:8080",
		Flags: append(serveSnapshotFlags(),
			&cli.BoolFlag{Name: "all-repos", Usage: "serve every repository of the store, joined, as far as the memory budget allows"},
			&cli.StringFlag{Name: "memory", Usage: "with several repositories, leave out those past `SIZE` of estimated memory (e.g. 8GiB; default for --all-repos: half of this machine's)"},
			&cli.StringSliceFlag{Name: "toolsets", Usage: "offer these `TOOLSETS`: " + strings.Join(mcp.Toolsets, ", ") + ", or all (default: " + strings.Join(mcp.DefaultToolsets, ", ") + ")"},
			&cli.DurationFlag{Name: "sync", Usage: "poll the store's HEAD every `INTERVAL` (e.g. 2m) and swap in newer snapshots"},
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP at `ADDR` (127.0.0.1:8080; port 0 picks one) instead of stdio, endpoint /mcp"},
			&cli.StringFlag{Name: "token", Usage: "with --http, answer only requests carrying `TOKEN` as Authorization: Bearer TOKEN " +
				"(default: $SNAP_TOKEN; the environment keeps it out of ps); required to listen beyond loopback"},
			noOverlayFlag(),
			&cli.BoolFlag{Name: "read-only", Usage: "offer no tool that writes (memories, snap_config) (default: true with --http, false over stdio)"},
			&cli.StringFlag{Name: "max-request-bytes", Usage: "refuse a message (a line on stdin, an HTTP body) longer than `SIZE` (e.g. 1MiB)", Value: "512KiB"},
			&cli.DurationFlag{Name: "call-timeout", Usage: "give up a tool call that waits longer than `DURATION`", Value: mcp.DefaultCallTimeout},
			&cli.IntFlag{Name: "max-connections", Usage: "with --http, accept at most `N` connections at once", Value: mcp.DefaultMaxConnections},
		),
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			stop, err := startProfiles()
			if err != nil {
				return err
			}
			defer stop()
			// The two lines logged for each request are written out a
			// little later, off the path of the answers (see laterWriter);
			// every other line, and every warning, at once.
			log, requestLog, flush := serve.LaterLogs(c.Root().ErrWriter, serveLogDelay)
			defer flush()
			toolsets := mcp.DefaultToolsets
			if c.IsSet("toolsets") {
				var err error
				if toolsets, err = serve.Toolsets(c.StringSlice("toolsets")); err != nil {
					return usageError{err}
				}
			}
			interval := c.Duration("sync")
			if interval < 0 || c.IsSet("sync") && interval < 100*time.Millisecond {
				return usagef("serve: --sync %s is too short (at least 100ms; 1m or more for a shared store)", interval)
			}
			if c.String("snapshot") != "" && interval > 0 {
				return usagef("serve: --sync needs a store; --snapshot names one fixed snapshot")
			}
			several := c.Bool("all-repos") || len(c.StringSlice("repo")) > 1
			if several && c.String("snapshot") != "" {
				return usagef("serve: --snapshot names one snapshot; several repositories (--repo twice, --all-repos) come from a store")
			}
			if c.Bool("all-repos") && c.IsSet("repo") {
				return usagef("serve: --all-repos serves every repository; drop --repo, or name each one with --repo")
			}
			if c.IsSet("memory") && !several {
				return usagef("serve: --memory bounds several repositories: give --repo more than once, or --all-repos")
			}
			token := cmp.Or(c.String("token"), os.Getenv("SNAP_TOKEN"))
			ep := serve.Endpoint{Stdin: c.Root().Reader, Stdout: c.Root().Writer}
			if addr := c.String("http"); addr != "" {
				if err := serve.CheckListen(addr, token); err != nil {
					return usageError{err}
				}
				ln, err := net.Listen("tcp", addr)
				if err != nil {
					return usagef("serve: --http %s: %v", addr, err)
				}
				defer ln.Close()
				ep.Listener = ln
			}
			bounds, err := serveBounds(c)
			if err != nil {
				return err
			}
			ep.HTTP = mcp.HTTPOptions{Logger: log, Token: token, MaxConnections: bounds.maxConns}
			cfg, err := serveConfig(ctx, c, log, interval, several)
			if err != nil {
				return err
			}
			opts := mcp.Options{Version: version(), Toolsets: toolsets, Logger: requestLog, LoadWait: time.Minute, Memories: memoriesDir(ctx),
				ReadOnly: bounds.readOnly, MaxRequestBytes: bounds.maxRequest, CallTimeout: bounds.callTimeout}
			if c.IsSet("toolsets") {
				opts.MaxToolsets = toolsets // the most a client may choose
			}
			// A load that fails stops the server: that is the error, as
			// it is. What the store cannot serve as named (a repository
			// it lacks, no bucket, credentials refused) is a usage error.
			err = serve.Run(ctx, cfg, opts, ep)
			var le *serve.LoadError
			var ce *serve.ConfigError
			if !errors.As(err, &le) && (errors.As(err, &ce) || errors.Is(err, s3store.ErrNoBucket) || errors.Is(err, s3store.ErrAccessDenied)) {
				return usageError{err}
			}
			return err
		},
	}
}

// clientBounds are the limits serve holds clients to.
type clientBounds struct {
	readOnly    bool
	maxRequest  int
	callTimeout time.Duration
	maxConns    int
}

// serveBounds reads the flags that bound what a client may ask.
func serveBounds(c *cli.Command) (clientBounds, error) {
	b := clientBounds{readOnly: c.String("http") != "", callTimeout: c.Duration("call-timeout"), maxConns: c.Int("max-connections")}
	if c.IsSet("read-only") {
		b.readOnly = c.Bool("read-only")
	}
	n, err := parseBytes(c.String("max-request-bytes"))
	if err != nil || n < 1<<10 || n > 1<<30 {
		return b, usagef("serve: --max-request-bytes %s: want a size from 1KiB to 1GiB, such as 512KiB or 4MiB", c.String("max-request-bytes"))
	}
	b.maxRequest = int(n)
	if b.callTimeout < time.Second {
		return b, usagef("serve: --call-timeout %s is too short (at least 1s)", b.callTimeout)
	}
	if b.maxConns < 1 {
		return b, usagef("serve: --max-connections %d: want at least 1", b.maxConns)
	}
	return b, nil
}

// serveLogDelay is how late snap serve may write out the lines it logs
// for each request.
const serveLogDelay = 100 * time.Millisecond

// serveConfig says what serve serves, from the flags: the snapshot
// --snapshot names; or the repositories --repo names, or --all-repos, in
// the store, joined; or else the branch of the store chosen as for every
// command (branchChoice), followed (serve.Config.ChooseFollow).
func serveConfig(ctx context.Context, c *cli.Command, log *slog.Logger, interval time.Duration, several bool) (serve.Config, error) {
	id := detect(ctx, ".")
	cfg := serve.Config{Logger: log, Interval: interval}
	if !c.Bool("no-overlay") && !several {
		cfg.Checkout = &serve.Checkout{Dir: id.Root, Repo: id.Repo, Options: ci.IndexOptions, IndexerVersion: version()}
	}
	if c.String("snapshot") != "" {
		src, err := findSnapshot(ctx, c)
		cfg.Snapshot = &src
		return cfg, err
	}
	var err error
	if cfg.Remote, err = ci.OpenExistingStore(ctx, c.String("store"), id.Root); err != nil {
		return cfg, err
	}
	cfg.Cache = cfg.Remote
	if !cfg.Remote.Local() {
		if cfg.Cache, err = ci.OpenStore(ctx, "", id.Root); err != nil {
			return cfg, err
		}
	}
	if !several {
		repo, branch, anyRepo, pinned := branchChoice(c, id)
		return cfg, cfg.ChooseFollow(ctx, repo, branch, anyRepo, pinned)
	}
	for _, r := range c.StringSlice("repo") {
		name, branch := ci.SplitRepo(r)
		cfg.Join = append(cfg.Join, serve.Repo{Name: name, Branch: branch})
	}
	cfg.AllRepos, cfg.Branch, cfg.CheckoutBranch = c.Bool("all-repos"), c.String("branch"), id.Branch
	if s := c.String("memory"); s != "" {
		if cfg.Memory, err = parseBytes(s); err != nil {
			return cfg, usagef("serve: --memory %s: %v (give a size like 4GiB or 800MB)", s, err)
		}
	}
	return cfg, nil
}

// noOverlayFlag turns off serve's working-tree overlay.
func noOverlayFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-overlay", Usage: "serve the snapshot as it is: do not watch the checkout " +
		"nor re-index, in memory, the files that differ from the snapshot"}
}
