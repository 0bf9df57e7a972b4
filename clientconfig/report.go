package clientconfig

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Report says what Setup did for cl with opts, as snap setup says it: on
// out, or, when opts.DryRun, the file as it would be on out and what
// Setup would do on info. After a change it passes on cl's Note, and
// says when the repository at root has no snapshot yet for the server to
// serve. An entry left alone because it differs is an error that says
// how it differs and how to update it.
func (r Result) Report(out, info io.Writer, cl Client, opts Options, root string) error {
	if r.State == Differs {
		var lines []string
		for _, d := range r.Diffs {
			lines = append(lines, d.String())
		}
		return fmt.Errorf("setup: %s already has an MCP server %q, not as snap would set it up:\n  %s\n"+
			"run setup again with --force to update it (its other keys stay), or choose another --name",
			r.Path, opts.Name, strings.Join(lines, "\n  "))
	}
	if !opts.DryRun {
		info = out
	} else if _, err := out.Write(r.Content); err != nil {
		return err
	}
	switch r.State {
	case Same:
		fmt.Fprintf(info, "%s: MCP server %q is already set up: %s\n", r.Path, opts.Name, r.Serve)
		return nil
	case Added:
		fmt.Fprintf(info, "%s: added MCP server %q: %s\n", r.Path, opts.Name, r.Serve)
	case Updated:
		var was []string
		for _, d := range r.Diffs {
			was = append(was, d.Was())
		}
		fmt.Fprintf(info, "%s: updated MCP server %q: %s (%s)\n", r.Path, opts.Name, r.Serve, strings.Join(was, "; "))
	}
	if opts.DryRun {
		fmt.Fprintf(info, "(printed; %s was not written)\n", r.Path)
		return nil
	}
	fmt.Fprintln(info, cl.Note)
	if fi, err := os.Stat(filepath.Join(root, ".snap")); err != nil || !fi.IsDir() {
		fmt.Fprintf(info, "There is no snapshot in %s yet: run snap index (or snap pull) there before %s starts the server.\n",
			filepath.Join(root, ".snap"), cl.Title)
	}
	return nil
}
