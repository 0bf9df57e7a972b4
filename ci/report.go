package ci

import (
	"cmp"
	"fmt"
	"github.com/graphsnap/snap/snapshot"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/graphsnap/snap/schemas"
)

// DiffText is the answer for a terminal: labels name the two sides.
func DiffText(d *schemas.Diff, labels [2]string) string {
	var b strings.Builder
	s := d.Summary
	fmt.Fprintf(&b, "%s (%s) → %s (%s)\n", labels[0], snapshot.ShortCommit(d.From.Commit), labels[1], snapshot.ShortCommit(d.To.Commit))
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
			fmt.Fprintf(&b, "  %-9s %-11s %s  %s\n", sd.Change, sd.Kind, sd.QName, cmp.Or(sd.Location, sd.OldLocation))
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

// DiffMarkdown is the answer for a pull request comment: the verdict
// first, details folded, a Mermaid graph of what breaks. Sections cut to
// keep it under GitHub's limit point to the command again, which prints
// all of it.
func DiffMarkdown(d *schemas.Diff, labels [2]string, again string) string {
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
			if !add(fmt.Sprintf("| %s | %s | %s | %s | %s |\n", sd.Change, sd.Kind, mdCode(sd.QName), mdText(cmp.Or(sd.Location, sd.OldLocation)), sig)) {
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

// indexSummary is the job summary of an indexed commit: what the
// snapshot holds and where it went.
func indexSummary(env Env, m schemas.Manifest, pushed, folder string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### snap: %s at %s\n\n", codeSpan(env.Branch, false), codeSpan(snapshot.ShortCommit(m.Commit), false))
	fmt.Fprintf(&b, "| files | parsed | symbols | edges | unresolved | parse errors |\n|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d |\n\n", m.Counts.Files, m.Build.FilesParsed, m.Counts.Nodes, m.Counts.Edges, m.Counts.Unresolved, m.Counts.ParseErrors)
	if pushed != "" {
		fmt.Fprintf(&b, "Pushed to %s.\n", codeSpan(pushed, false))
	} else {
		fmt.Fprintf(&b, "Not pushed: the snapshot is in %s on the runner.\n", codeSpan(folder, false))
	}
	return b.String()
}

// maxAnnotations bounds the annotations one run writes: GitHub shows ten
// errors of a step, and the summary holds the rest.
const maxAnnotations = 10

// annotate writes a GitHub workflow command for each broken caller of d,
// at its site (prefix is the indexed folder within the repository), up to
// max of them.
func annotate(w io.Writer, level, prefix string, d *schemas.Diff, max int) {
	n, total := 0, 0
	for _, sd := range d.Symbols {
		for _, c := range sd.Callers {
			total++
			if n >= max {
				continue
			}
			n++
			file, line, col := splitSite(c.Location)
			if prefix != "" && prefix != "." {
				file = filepath.ToSlash(filepath.Join(prefix, file))
			}
			msg := fmt.Sprintf("%s still uses %s, whose %s", c.QName, sd.QName, map[string]string{"removed": "definition was removed", "signature": "signature changed"}[sd.Change])
			if sd.Change == "signature" && sd.OldSignature != "" {
				msg += fmt.Sprintf(": %s → %s", sd.OldSignature, sd.Signature)
			}
			if c.Reason != "" {
				msg += " (" + c.Reason + ")"
			}
			fmt.Fprintf(w, "::%s file=%s,line=%s,col=%s,title=%s::%s\n", level, ghProperty(file), line, col,
				ghProperty("snap: "+sd.Change+" "+lastQName(sd.QName)), ghData(msg))
		}
	}
	if total > n {
		fmt.Fprintf(w, "::%s::%s\n", level, ghData(fmt.Sprintf("snap: %d more broken callers; the job summary lists them all", total-n)))
	}
}

// splitSite splits "file:line:col" (col optional).
func splitSite(loc string) (file, line, col string) {
	parts := strings.Split(loc, ":")
	switch {
	case len(parts) >= 3:
		return strings.Join(parts[:len(parts)-2], ":"), parts[len(parts)-2], parts[len(parts)-1]
	case len(parts) == 2:
		return parts[0], parts[1], "1"
	}
	return loc, "1", "1"
}

func lastQName(q string) string {
	if i := strings.LastIndexAny(q, "./:#\\"); i >= 0 && i < len(q)-1 {
		return q[i+1:]
	}
	return q
}

// ghData escapes the message of a workflow command.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a property value of a workflow command.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
