package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// failConditions are what --fail-on can name.
var failConditions = []string{"broken", "removed", "signature", "any"}

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:  "diff",
		Usage: "compare two snapshots, or one with the working tree: what changed, and what it breaks",
		UsageText: "snap diff [--store URL] [--repo NAME] [--json | --markdown] [--fail-on CONDITIONS] [--depth N] A B\n" +
			"snap diff --worktree [--store URL] [--repo NAME] [--json | --markdown] [--fail-on CONDITIONS] [--depth N] [A]",
		ArgsUsage: "A B",
		Description: "A and B are each a snapshot folder, a branch (its HEAD in the store) or a commit\n" +
			"(or a unique prefix of one) of the repository in the store: the local cache unless\n" +
			"--store names another. Symbols are matched by their stable ids: added, removed,\n" +
			"moved (same name, another file), body or signature changed. For every removed\n" +
			"symbol and every changed signature, the callers still present in B are listed:\n" +
			"what is likely to break. The impact of the changed symbols in B follows.\n\n" +
			"With --worktree, B is the working tree of the checkout around the current folder,\n" +
			"as it is on disk: uncommitted edits, new and deleted files included. The files that\n" +
			"differ from A are indexed again in memory, over A's rows, with the options A was\n" +
			"indexed with; nothing is written to the store. A defaults to the HEAD of this\n" +
			"checkout's branch in the store, and must be a snapshot of this repository. B's\n" +
			"commit in --json is the checkout's HEAD commit followed by +worktree.\n\n" +
			"--fail-on makes the exit code 1 when a condition holds: broken (a removed symbol\n" +
			"or a changed signature still has callers), removed (an exported symbol was\n" +
			"removed), signature (an exported signature changed), any (anything changed).\n\n" +
			"Examples:\n  snap diff main feature/x\n  snap diff --markdown --fail-on broken main HEAD-commit\n" +
			"  snap diff --json .snap/repo=x/branch=main/commit=a .snap/repo=x/branch=main/commit=b\n" +
			"  snap diff --worktree                     # this branch's snapshot → the files on disk\n" +
			"  snap diff --worktree --fail-on broken main\n\n" +
			"Flags go before A and B.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "store", Usage: "store `URL` holding the branches and commits named (default: .snap/ at the repository root)"},
			&cli.StringFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's)"},
			&cli.BoolFlag{Name: "worktree", Usage: "compare A (default: this branch's HEAD in the store) with the checkout's working tree, uncommitted changes included"},
			&cli.BoolFlag{Name: "json", Usage: "answer in JSON (schemas/cli.schema.json, $defs/diff)"},
			&cli.BoolFlag{Name: "markdown", Usage: "answer in Markdown, for a pull request comment or a job summary"},
			&cli.StringSliceFlag{Name: "fail-on", Usage: "exit 1 when one of these `CONDITIONS` holds: broken, removed, signature, any"},
			&cli.IntFlag{Name: "depth", Value: 2, Usage: "how far the impact of changed symbols goes"},
		},
		Action: func(c *cli.Context) error {
			// Arguments are taken as they come: a flag after them would
			// otherwise be looked up as a snapshot.
			for _, a := range c.Args().Slice() {
				if strings.HasPrefix(a, "-") {
					return usagef("diff: flag %s after the arguments: put flags first (snap diff [flags] ARGS)", a)
				}
			}
			min, max := 2, 2
			if c.Bool("worktree") {
				min, max = 0, 1
			}
			if err := exactArgs(c, min, max); err != nil {
				return err
			}
			if c.Bool("json") && c.Bool("markdown") {
				return usagef("diff: --json and --markdown exclude each other")
			}
			for _, f := range c.StringSlice("fail-on") {
				if !slices.Contains(failConditions, f) {
					return usagef("diff: --fail-on %q is not a condition (have %s)", f, strings.Join(failConditions, ", "))
				}
			}
			if d := c.Int("depth"); d < 1 || d > query.MaxImpactDepth {
				return usagef("diff: --depth must be 1 to %d", query.MaxImpactDepth)
			}
			opt := query.DiffOptions{ImpactDepth: c.Int("depth")}
			var d *schemas.Diff
			var labels [2]string
			var err error
			if c.Bool("worktree") {
				d, labels, err = worktreeDiff(c, opt)
			} else {
				d, labels, err = snapshotDiff(c, opt)
			}
			if err != nil {
				return err
			}
			w := c.App.Writer
			switch {
			case c.Bool("json"):
				if err := writeJSON(w, d); err != nil {
					return err
				}
			case c.Bool("markdown"):
				again := "snap diff --json " + labels[0] + " " + labels[1]
				if c.Bool("worktree") {
					again = strings.TrimSpace("snap diff --worktree --json " + c.Args().First())
				}
				io.WriteString(w, diffMarkdownAgain(d, labels, again))
			default:
				io.WriteString(w, diffText(d, labels))
			}
			if why := failed(d, c.StringSlice("fail-on")); why != "" {
				return fmt.Errorf("diff: %s", why)
			}
			return nil
		},
	}
}

// snapshotDiff compares the two snapshots diff's arguments name.
func snapshotDiff(c *cli.Context, opt query.DiffOptions) (*schemas.Diff, [2]string, error) {
	ctx := c.Context
	labels := [2]string{c.Args().Get(0), c.Args().Get(1)}
	var srcs [2]source
	for i, arg := range labels {
		var err error
		if srcs[i], err = refSource(ctx, c, "diff", arg); err != nil {
			return nil, labels, err
		}
	}
	// The two load side by side: each is verified and built alone.
	var engines [2]*query.Engine
	g, gctx := errgroup.WithContext(ctx)
	for i := range srcs {
		g.Go(func() (err error) {
			engines[i], _, err = loadFrom(gctx, srcs[i], 0)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, labels, err
	}
	return query.Diff(engines[0], engines[1], opt), labels, nil
}

// failed says which --fail-on condition holds, if one does.
func failed(d *schemas.Diff, conds []string) string {
	for _, c := range conds {
		switch c {
		case "any":
			if len(d.Files) > 0 || len(d.Symbols) > 0 {
				return "--fail-on any: the snapshots differ"
			}
		case "broken":
			if d.Summary.Broken > 0 {
				return fmt.Sprintf("--fail-on broken: %d removed or re-signed symbols still have callers", d.Summary.Broken)
			}
		case "removed", "signature":
			n := 0
			for _, s := range d.Symbols {
				if s.Exported && s.Change == c {
					n++
				}
			}
			if n > 0 {
				return fmt.Sprintf("--fail-on %s: %d exported symbols %s", c, n, map[string]string{"removed": "removed", "signature": "changed their signature"}[c])
			}
		}
	}
	return ""
}

// diffText is the answer for a terminal.
func diffText(d *schemas.Diff, labels [2]string) string {
	var b strings.Builder
	s := d.Summary
	fmt.Fprintf(&b, "%s (%s) → %s (%s)\n", labels[0], short(d.From.Commit), labels[1], short(d.To.Commit))
	fmt.Fprintf(&b, "files: +%d -%d ~%d   symbols: +%d -%d moved %d, bodies %d, signatures %d   edges: +%d -%d\n",
		s.FilesAdded, s.FilesRemoved, s.FilesChanged, s.SymbolsAdded, s.SymbolsRemoved, s.SymbolsMoved,
		s.BodiesChanged, s.SignaturesChanged, s.EdgesAdded, s.EdgesRemoved)
	if s.Broken > 0 {
		fmt.Fprintf(&b, "\nLikely to break (%d):\n", s.Broken)
		for _, sd := range d.Symbols {
			if sd.CallersTotal == 0 {
				continue
			}
			fmt.Fprintf(&b, "  %s %s %s, called by %d:\n", sd.Change, sd.Kind, sd.QName, sd.CallersTotal)
			for _, c := range sd.Callers {
				fmt.Fprintf(&b, "      %s  %s", c.Location, c.QName)
				if c.Reason != "" {
					fmt.Fprintf(&b, "  (%s)", c.Reason)
				}
				b.WriteByte('\n')
			}
			if n := sd.CallersTotal - len(sd.Callers); n > 0 {
				fmt.Fprintf(&b, "      … and %d more\n", n)
			}
		}
	}
	if len(d.Symbols) > 0 {
		b.WriteString("\nSymbols:\n")
		for _, sd := range d.Symbols {
			fmt.Fprintf(&b, "  %-9s %-11s %s  %s\n", sd.Change, sd.Kind, sd.QName, cmpOr(sd.Location, sd.OldLocation))
		}
	}
	if len(d.Edges) > 0 {
		b.WriteString("\nEdges between symbols both have:\n")
		for _, e := range d.Edges {
			sign := "+"
			if e.Change == "removed" {
				sign = "-"
			}
			fmt.Fprintf(&b, "  %s %s -%s-> %s  %s\n", sign, e.From, e.Kind, e.To, e.Location)
		}
	}
	if len(d.Impact) > 0 {
		fmt.Fprintf(&b, "\nImpact in %s (%d):\n", labels[1], len(d.Impact))
		for _, a := range d.Impact {
			fmt.Fprintf(&b, "  %d  %s %s  %s  (via %s)\n", a.Depth, a.Kind, a.QName, a.Location, a.Via)
		}
	}
	return b.String()
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// mdCode writes s as a code span that is safe in a Markdown table cell,
// whatever s holds (see codeSpan).
func mdCode(s string) string { return codeSpan(s, true) }

// codeSpan writes s as a Markdown code span, whatever s holds: a fence of
// more backticks than any run in s, line breaks as spaces, at most 300
// bytes, and in a table cell pipes escaped (GitHub's tables split on them
// even in code). Empty s is nothing.
func codeSpan(s string, cell bool) string {
	if s == "" {
		return ""
	}
	s = clipText(strings.Join(strings.Fields(s), " "), 300)
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// mdText writes s as plain text that is safe in a Markdown table cell:
// what Markdown or HTML would read as markup is escaped.
func mdText(s string) string {
	s = clipText(strings.Join(strings.Fields(s), " "), 300)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '|', '\\', '`', '*', '_', '[', ']', '<', '>', '#', '~', '!':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mermaidText writes s as the text of a quoted Mermaid label.
func mermaidText(s string) string {
	s = clipText(strings.Join(strings.Fields(s), " "), 120)
	return strings.NewReplacer(`"`, "#quot;", "`", "#96;", "<", "#lt;", ">", "#gt;").Replace(s)
}

// clipText cuts s to at most n bytes, on a rune boundary, marking the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// markdownLimit keeps a comment under GitHub's 65,536 characters.
const markdownLimit = 60000

// diffMarkdown is the answer for a pull request comment: the verdict
// first, details folded, a Mermaid graph of what breaks.
func diffMarkdown(d *schemas.Diff, labels [2]string) string {
	return diffMarkdownAgain(d, labels, "snap diff --json "+labels[0]+" "+labels[1])
}

// diffMarkdownAgain is diffMarkdown whose cut sections point to the
// command again, which prints all of it.
func diffMarkdownAgain(d *schemas.Diff, labels [2]string, again string) string {
	var b strings.Builder
	s := d.Summary
	fmt.Fprintf(&b, "### snap diff: %s → %s\n\n", codeSpan(labels[0], false), codeSpan(labels[1], false))
	switch {
	case s.Broken > 0:
		fmt.Fprintf(&b, "**⚠️ %d changed or removed symbols are still called** — %d symbols reached in all.\n\n", s.Broken, s.Impacted)
	case len(d.Symbols) == 0:
		b.WriteString("**✅ No symbol changed.**\n\n")
	default:
		fmt.Fprintf(&b, "**✅ Nothing removed or re-signed is still called.** %d symbols changed, %d reached.\n\n", len(d.Symbols), s.Impacted)
	}
	fmt.Fprintf(&b, "| | added | removed | changed |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| files | %d | %d | %d |\n", s.FilesAdded, s.FilesRemoved, s.FilesChanged)
	fmt.Fprintf(&b, "| symbols | %d | %d | %d (%d signatures, %d moved) |\n", s.SymbolsAdded, s.SymbolsRemoved,
		s.BodiesChanged+s.SignaturesChanged+s.SymbolsMoved, s.SignaturesChanged, s.SymbolsMoved)
	fmt.Fprintf(&b, "| edges | %d | %d | |\n\n", s.EdgesAdded, s.EdgesRemoved)

	if s.Broken > 0 {
		// Callers → what they call that broke, up to 15 arrows. Node ids
		// are n0, n1, …; labels are quoted, with their quotes replaced.
		b.WriteString("```mermaid\ngraph LR\n")
		ids := map[string]string{}
		node := func(label string) string {
			id, ok := ids[label]
			if !ok {
				id = fmt.Sprintf("n%d", len(ids))
				ids[label] = id
				return fmt.Sprintf("%s[\"%s\"]", id, mermaidText(label))
			}
			return id
		}
		n := 0
		for _, sd := range d.Symbols {
			for _, c := range sd.Callers {
				if n < 15 {
					fmt.Fprintf(&b, "  %s --> %s\n", node(c.QName), node(sd.QName+" ("+sd.Change+")"))
					n++
				}
			}
		}
		b.WriteString("```\n\n")
		fmt.Fprintf(&b, "<details><summary>Still called (%d)</summary>\n\n| symbol | change | caller | at | why |\n|---|---|---|---|---|\n", s.Broken)
		for _, sd := range d.Symbols {
			for _, c := range sd.Callers {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", mdCode(sd.QName), sd.Change, mdCode(c.QName), mdText(c.Location), mdText(c.Reason))
			}
		}
		b.WriteString("\n</details>\n\n")
	}
	section := func(title string, n int, head string, rows func(add func(string) bool)) {
		if n == 0 {
			return
		}
		fmt.Fprintf(&b, "<details><summary>%s (%d)</summary>\n\n%s", title, n, head)
		shown := 0
		rows(func(row string) bool {
			if b.Len()+len(row) > markdownLimit-2000 {
				return false
			}
			b.WriteString(row)
			shown++
			return true
		})
		if shown < n {
			fmt.Fprintf(&b, "\n… %d more: run `%s` for all of it.\n", n-shown, again)
		}
		b.WriteString("\n</details>\n\n")
	}
	section("Symbols", len(d.Symbols), "| change | kind | symbol | where | signature |\n|---|---|---|---|---|\n", func(add func(string) bool) {
		for _, sd := range d.Symbols {
			sig := mdCode(sd.Signature)
			switch {
			case sd.Change == "removed":
				sig = mdCode(sd.OldSignature)
			case sd.OldSignature != "" && sd.OldSignature != sd.Signature:
				sig = mdCode(sd.OldSignature) + " → " + mdCode(sd.Signature)
			}
			if !add(fmt.Sprintf("| %s | %s | %s | %s | %s |\n", sd.Change, sd.Kind, mdCode(sd.QName), mdText(cmpOr(sd.Location, sd.OldLocation)), sig)) {
				return
			}
		}
	})
	section("Impact", len(d.Impact), "| depth | symbol | where | via |\n|---:|---|---|---|\n", func(add func(string) bool) {
		for _, a := range d.Impact {
			if !add(fmt.Sprintf("| %d | %s | %s | %s |\n", a.Depth, mdCode(a.QName), mdText(a.Location), mdCode(a.Via))) {
				return
			}
		}
	})
	section("Files", len(d.Files), "| file | change | +symbols | -symbols | ~symbols |\n|---|---|---:|---:|---:|\n", func(add func(string) bool) {
		for _, f := range d.Files {
			if !add(fmt.Sprintf("| %s | %s | %d | %d | %d |\n", mdText(f.Path), f.Change, f.SymbolsAdded, f.SymbolsRemoved, f.SymbolsChanged)) {
				return
			}
		}
	})
	return b.String()
}
