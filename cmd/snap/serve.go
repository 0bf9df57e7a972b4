package main

import (
	"log/slog"

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
			e, src, took, err := loadEngine(c.Context, c)
			if err != nil {
				return err
			}
			log.Info("serving", "snapshot", src.label, "nodes", e.NumNodes(), "edges", e.NumEdges(), "load", took.Round(1e6))
			h := &query.Holder{}
			h.Store(e)
			srv, err := mcp.NewServer(h, mcp.Options{Version: version(), Toolsets: c.StringSlice("toolsets"), Logger: log})
			if err != nil {
				return err
			}
			return mcp.ServeStdio(c.Context, srv, c.App.Reader, c.App.Writer)
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
