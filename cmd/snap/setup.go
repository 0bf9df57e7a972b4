package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/clientconfig"
)

func setupCommand() *cli.Command {
	return &cli.Command{
		Name:      "setup",
		Usage:     "add snap serve for this repository to an MCP client's configuration",
		UsageText: "snap setup [--print] [--force] [--name NAME] [--command PATH] claude|cursor|vscode|codex|claude-desktop",
		ArgsUsage: "CLIENT",
		Description: "Adds an MCP server that runs snap serve for the repository around the working\n" +
			"directory to the client's configuration file, keeping the rest of it as it was:\n" +
			"the other servers, the other keys, comments and trailing commas, the layout, the\n" +
			"file's mode. The new file replaces the old one atomically. A file that does not\n" +
			"parse is left alone, with an error that says where.\n\n" +
			"  claude          .mcp.json at the repository root (Claude Code's project scope)\n" +
			"  cursor          .cursor/mcp.json at the repository root\n" +
			"  vscode          .vscode/mcp.json at the repository root: \"servers\", type stdio,\n" +
			"                  cwd ${workspaceFolder}; comments and trailing commas are kept\n" +
			"  codex           $CODEX_HOME/config.toml (default ~/.codex/config.toml):\n" +
			"                  [mcp_servers.NAME] with cwd, the repository root\n" +
			"  claude-desktop  claude_desktop_config.json in Claude's folder of the user's\n" +
			"                  configuration (~/Library/Application Support/Claude on macOS,\n" +
			"                  %APPDATA%\\Claude on Windows, ~/.config/Claude on Linux); the\n" +
			"                  entry names the store (.snap/), repository and branch by\n" +
			"                  absolute path, as Claude Desktop starts servers elsewhere\n\n" +
			"The server runs this snap binary by its absolute path: on Ubuntu, snapd's snap\n" +
			"may come first on PATH, and editors started from a desktop do not see a shell's\n" +
			"PATH. --command names another, e.g. snap in a file the whole team shares.\n\n" +
			"An entry of that name that differs is left as it is, and setup says how it\n" +
			"differs; --force sets snap's keys in it (command, args, ...) and keeps the\n" +
			"others (env, ...). Setting up again changes nothing.\n\n" +
			"Examples:\n" +
			"  snap setup claude\n" +
			"  snap setup --print vscode\n" +
			"  snap setup --name snap-api codex\n" +
			"  snap setup --force --command /usr/local/bin/snap claude-desktop",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "print", Usage: "print the configuration file as it would be, and write nothing"},
			&cli.BoolFlag{Name: "force", Usage: "update an entry of that name that differs"},
			&cli.StringFlag{Name: "name", Value: "snap", Usage: "the server's `NAME` in the client"},
			&cli.StringFlag{Name: "command", Usage: "the snap the client runs, a `PATH` (default: this binary's absolute path)"},
		},
		ShellComplete: completeSetup,
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() == 0 {
				return usagef("setup: name a client: %s", clientconfig.Names())
			}
			if err := exactArgs(c, 1, 1); err != nil {
				return err
			}
			cl, ok := clientconfig.Lookup(c.Args().First())
			if !ok {
				return usagef("setup: unknown client %q (have %s)", c.Args().First(), clientconfig.Names())
			}
			name := c.String("name")
			if !clientconfig.ValidName(name) {
				return usagef("setup: --name %q: want letters, digits, '-' and '_', starting with a letter or digit", name)
			}
			command := c.String("command")
			if command == "" {
				exe, err := os.Executable()
				if err != nil {
					return fmt.Errorf("setup: find this snap binary: %w (name it with --command)", err)
				}
				command = exe
				if strings.Contains(exe, "go-build") {
					fmt.Fprintf(c.Root().ErrWriter, "snap: warning: %s is a temporary build (go run); install snap (go install ./cmd/snap) or name it with --command\n", exe)
				}
			} else if cl.Absolute && !filepath.IsAbs(command) {
				return usagef("setup: --command %q: %s starts servers without a shell's PATH; give an absolute path", command, cl.Title)
			}
			id := detect(ctx, ".")
			user := clientconfig.UserDirs{CodexHome: os.Getenv("CODEX_HOME")}
			user.Home, _ = os.UserHomeDir()     // "" when unknown: Setup says so
			user.Config, _ = os.UserConfigDir() // likewise
			opts := clientconfig.Options{Name: name, Force: c.Bool("force"), DryRun: c.Bool("print")}
			res, err := clientconfig.Setup(cl, clientconfig.Target{Root: id.Root, Repo: id.Repo, Branch: id.Branch, Command: command, User: user}, opts)
			if err != nil {
				return fmt.Errorf("setup: %w", err)
			}
			return res.Report(c.Root().Writer, c.Root().ErrWriter, cl, opts, id.Root)
		},
	}
}
