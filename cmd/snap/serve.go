package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

func serveCommand(log *slog.Logger) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "answer MCP tools over stdio from the newest local snapshot",
		Description: "Loads the snapshot of this checkout's repository and branch from the store\n" +
			"(default .snap/ at the repository root), or the one --snapshot names, verifies\n" +
			"it, and serves the MCP tool catalog over stdin and stdout. Logs go to stderr;\n" +
			"stdout carries only the protocol.\n\n" +
			"Examples:\n  snap serve\n  snap serve --snapshot .snap/repo=x/branch=main/commit=abc --toolsets symbols,callgraph",
		Flags: append(snapshotFlags(),
			&cli.StringSliceFlag{Name: "toolsets", Usage: "offer only these `TOOLSETS` (index, symbols, callgraph, traversal, files)"},
		),
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			for _, ts := range c.StringSlice("toolsets") {
				if !contains(mcp.Toolsets, ts) {
					return usagef("serve: unknown toolset %q (have index, symbols, callgraph, traversal, files)", ts)
				}
			}
			// Find the snapshot first, so that a wrong flag fails at once;
			// then answer the protocol while it loads. Tool calls wait for
			// the engine (up to a minute) instead of failing.
			src, err := findSnapshot(c.Context, c)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithCancelCause(c.Context)
			defer cancel(nil)
			h := &query.Holder{}
			go func() {
				e, took, err := loadFrom(ctx, src)
				if err != nil {
					log.Error("load snapshot", "snapshot", src.label, "err", err)
					cancel(err)
					return
				}
				h.Store(e)
				log.Info("serving", "snapshot", src.label, "nodes", e.NumNodes(), "edges", e.NumEdges(), "load", took.Round(time.Millisecond))
			}()
			srv, err := mcp.NewServer(h, mcp.Options{Version: version(), Toolsets: c.StringSlice("toolsets"), Logger: log, LoadWait: time.Minute})
			if err != nil {
				return err
			}
			err = mcp.ServeStdio(ctx, srv, c.App.Reader, c.App.Writer)
			if cause := context.Cause(ctx); cause != nil && cause != context.Canceled {
				return cause
			}
			return err
		},
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
