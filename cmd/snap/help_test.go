package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// snapApp returns snap's root command, as snap --help prints it.
func snapApp(t *testing.T) *cli.Command {
	t.Helper()
	var app *cli.Command
	print := cli.HelpPrinter
	cli.HelpPrinter = func(w io.Writer, templ string, data any) {
		if a, ok := data.(*cli.Command); ok && a.Name == "snap" {
			app = a
		}
		print(w, templ, data)
	}
	defer func() { cli.HelpPrinter = print }()
	if code, _, stderr := run(t, "", "--help"); code != 0 || app == nil {
		t.Fatalf("snap --help: exit %d: %s", code, stderr)
	}
	return app
}

// Every command's --help reads like a man page: a one-line summary, a
// synopsis, a description with examples.
func TestHelpEveryCommand(t *testing.T) {
	for _, c := range snapApp(t).VisibleCommands() {
		if c.Name == "help" {
			continue // urfave/cli's own
		}
		if c.Usage == "" {
			t.Errorf("%s: no Usage, the summary in snap --help", c.Name)
		}
		if !strings.HasPrefix(c.UsageText, "snap "+c.Name) {
			t.Errorf("%s: UsageText %q, want a synopsis starting with %q (the USAGE of snap %s --help)", c.Name, c.UsageText, "snap "+c.Name, c.Name)
		}
		var examples []string
		for _, line := range strings.Split(c.Description, "\n") {
			if line := strings.TrimSpace(line); strings.HasPrefix(line, "snap ") {
				examples = append(examples, line)
			}
		}
		if len(examples) == 0 {
			t.Errorf("%s: the description has no example (a line starting with \"snap \")", c.Name)
		}
		synopsis, _, _ := strings.Cut(c.UsageText, "\n")
		code, stdout, stderr := run(t, "", c.Name, "--help")
		if code != 0 || !strings.Contains(stdout, "USAGE:\n   "+synopsis) || len(examples) > 0 && !strings.Contains(stdout, examples[0]) {
			t.Errorf("snap %s --help: exit %d, stderr %q, stdout:\n%s", c.Name, code, stderr, stdout)
		}
	}
}
