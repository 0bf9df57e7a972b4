package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/clientconfig"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

// configureCompletion makes urfave/cli's completion command snap's own:
// listed, and documented as the other commands are. The scripts it
// prints ask snap for the words to offer (snap ARGS
// --generate-shell-completion), so they follow the binary.
func configureCompletion(c *cli.Command) {
	c.Hidden = false
	c.Usage = "print a shell completion script for bash, zsh, fish or PowerShell"
	c.UsageText = "snap completion bash|zsh|fish|pwsh"
	c.Description = "Prints a script that completes snap's commands, their flags, the clients of\n" +
		"snap setup, and the tools of snap query with each tool's arguments. The script\n" +
		"asks this snap binary what to offer, so it follows upgrades.\n\n" +
		"On Ubuntu, snapd's completion for its own snap command is replaced in the\n" +
		"shells that load this script.\n\n" +
		"Examples:\n" +
		"  snap completion bash > ~/.local/share/bash-completion/completions/snap\n" +
		"  echo 'source <(snap completion bash)' >> ~/.bashrc\n" +
		"  snap completion zsh > \"${fpath[1]}/_snap\"    # then start a new zsh\n" +
		"  snap completion fish > ~/.config/fish/completions/snap.fish"
	c.Action = func(ctx context.Context, c *cli.Command) error {
		var shells []string
		for _, s := range c.Commands {
			if !s.Hidden && s.Name != "help" {
				shells = append(shells, s.Name)
			}
		}
		if c.NArg() == 0 {
			return usagef("completion: name a shell: %s", strings.Join(shells, ", "))
		}
		return usagef("completion: unknown shell %q (have %s)", c.Args().First(), strings.Join(shells, ", "))
	}
}

// completeSetup offers setup's clients, then its flags.
func completeSetup(ctx context.Context, c *cli.Command) {
	if c.NArg() > 0 || completingFlag(c) {
		cli.DefaultCompleteWithFlags(ctx, c)
		return
	}
	for _, name := range strings.Split(clientconfig.Names(), ", ") {
		fmt.Fprintln(c.Root().Writer, name)
	}
}

// completeQuery offers the tools, then the chosen tool's arguments.
func completeQuery(ctx context.Context, c *cli.Command) {
	reg, err := mcp.NewRegistry(&query.Holder{})
	if err != nil {
		return
	}
	w := c.Root().Writer
	var tool string
	for _, a := range c.Args().Slice() {
		if !strings.HasPrefix(a, "-") && hasTool(reg, a) {
			tool = "snap_" + strings.TrimPrefix(a, "snap_")
		}
	}
	if tool == "" && !completingFlag(c) {
		for _, t := range reg.Tools() {
			fmt.Fprintf(w, "%s:%s\n", strings.TrimPrefix(t.Name, "snap_"), oneLine(t.Description))
		}
		return
	}
	for _, f := range c.Flags {
		fmt.Fprintln(w, "--"+f.Names()[0])
	}
	if t, ok := reg.Tool(tool); ok {
		for _, a := range argNames(t) {
			fmt.Fprintln(w, a)
		}
	}
}

// oneLine is the first line of s.
func oneLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// completingFlag says whether the word being completed is a flag.
func completingFlag(c *cli.Command) bool {
	args := c.Args().Slice()
	return len(args) > 0 && strings.HasPrefix(args[len(args)-1], "-")
}

func hasTool(reg *mcp.Registry, name string) bool {
	_, ok := reg.Tool("snap_" + strings.TrimPrefix(name, "snap_"))
	return ok
}
