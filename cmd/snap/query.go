package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/serve"
)

func queryCommand() *cli.Command {
	return &cli.Command{
		Name:  "query",
		Usage: "call an MCP tool from the shell",
		UsageText: "snap query TOOL [--ARG VALUE ...] [--snapshot FOLDER | --store URL [--repo NAME] [--branch BRANCH]] [--json]\n" +
			"snap query --list",
		ArgsUsage: "TOOL [--ARG VALUE ...]",
		Description: "Calls one tool of the MCP catalog on the newest local snapshot (or the one\n" +
			"--snapshot names), through the same code path as `snap serve`. TOOL may omit\n" +
			"the snap_ prefix. Tool arguments are given as --name value; their types come\n" +
			"from the tool's input schema. On a terminal the answer is printed as text: a\n" +
			"symbol a line (kind qname  file:line), other values as key: value lines.\n" +
			"Elsewhere it is indented JSON; --json prints it as JSON on one line.\n" +
			"`snap query --list` lists the tools and their arguments.\n\n" +
			"Options: --snapshot FOLDER, --store URL, --repo NAME, --branch BRANCH, --json, --list\n\n" +
			"Examples:\n" +
			"  snap query status\n" +
			"  snap query calls --name Serve --file net/http/server.go\n" +
			"  snap query impact --id 1234567890 --depth 2 --json",
		SkipFlagParsing: true,
		Flags:           snapshotFlags(),
		ShellComplete:   completeQuery,
		Action: func(ctx context.Context, c *cli.Command) error {
			return runQuery(ctx, c)
		},
	}
}

// queryOpts are the options of `snap query` that are not tool arguments.
var queryOpts = map[string]bool{"snapshot": true, "store": true, "repo": true, "branch": true}

func runQuery(ctx context.Context, c *cli.Command) error {
	args := c.Args().Slice()
	var tool string
	toolArgs := make(map[string][]string)
	opts := make(map[string]string)
	compact, list := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			if tool != "" {
				return usagef("query: unexpected argument %q (tool arguments are --name value)", a)
			}
			tool = a
			continue
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		switch name {
		case "json":
			compact = true
			continue
		case "list":
			list = true
			continue
		case "help", "h":
			// cli.ShowCommandHelp looks for query among query's subcommands.
			cli.HelpPrinter(c.Root().Writer, cli.CommandHelpTemplate, c)
			return nil
		}
		if !hasVal && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			i++
			val, hasVal = args[i], true
		}
		if queryOpts[name] {
			if !hasVal {
				return usagef("query: --%s needs a value", name)
			}
			opts[name] = val
			continue
		}
		toolArgs[name] = append(toolArgs[name], val) // a bare --flag is "" (true for booleans)
	}
	reg, err := mcp.NewRegistry(&query.Holder{})
	if err != nil {
		return err
	}
	if list {
		for _, t := range reg.Tools() {
			fmt.Fprintf(c.Root().Writer, "%-24s %s\n", t.Name, strings.Join(argNames(t), " "))
		}
		return nil
	}
	if tool == "" {
		return usagef("query: name a tool (snap query --list shows them)")
	}
	if !strings.HasPrefix(tool, "snap_") {
		tool = "snap_" + tool
	}
	t, ok := reg.Tool(tool)
	if !ok {
		return usagef("query: unknown tool %q (snap query --list shows them)", tool)
	}
	raw, terr := t.ParseArgs(toolArgs)
	if terr != nil {
		return usagef("query: %s", terr.Message)
	}
	for name, val := range opts {
		if err := c.Set(name, val); err != nil {
			return usagef("query: --%s: %v", name, err)
		}
	}
	h := &query.Holder{}
	var lib mcp.Library
	switch {
	case t.Offline:
	case t.Toolset == mcp.ToolsetHistory && c.String("snapshot") == "":
		// The history tools read the branch's other snapshots: follow
		// the branch as snap serve does, without syncing.
		log := slog.New(slog.NewTextHandler(c.Root().ErrWriter, &slog.HandlerOptions{Level: slog.LevelWarn}))
		cfg, err := serveConfig(ctx, c, log, 0, false)
		if err != nil {
			return err
		}
		sv, err := serve.Once(ctx, h, cfg)
		if err != nil {
			return err
		}
		defer sv.Close()
		lib = sv.Options(mcp.Options{}).Library
	default:
		e, err := loadEngine(ctx, c)
		if err != nil {
			return err
		}
		h.Store(e)
	}
	reg, err = mcp.NewRegistry(h)
	if err != nil {
		return err
	}
	if lib != nil {
		reg.WithLibrary(lib)
	}
	reg.WithMemories(memoriesDir(ctx))
	out, isError := reg.CallJSON(ctx, tool, raw)
	w := c.Root().Writer
	switch {
	case compact:
		fmt.Fprintf(w, "%s\n", out)
	case isTerminal(w):
		io.WriteString(w, mcp.Text(out))
	default:
		var buf bytes.Buffer
		if json.Indent(&buf, out, "", "  ") == nil {
			out = buf.Bytes()
		}
		fmt.Fprintf(w, "%s\n", out)
	}
	if isError {
		return fmt.Errorf("%s answered with an error", tool)
	}
	return nil
}

// argNames lists the arguments a tool takes, from its input schema.
func argNames(t *mcp.Tool) []string {
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	json.Unmarshal(t.InputSchema, &schema)
	var names []string
	for name := range schema.Properties {
		names = append(names, "--"+name)
	}
	slices.Sort(names)
	return names
}

// isTerminal says whether w is a terminal, where a person reads.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
