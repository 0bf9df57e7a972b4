package main

import (
	"flag"
	"fmt"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestDiff commits a change that removes a called function, re-signs a
// called method, moves one function, edits another and adds one, and
// holds `snap diff` to what that breaks.
func TestDiff(t *testing.T) {
	dir, commits := history(t, 1)
	storeGo := filepath.Join(dir, "store", "store.go")
	src, err := os.ReadFile(storeGo)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, "// Swap puts a into both")
	swap := s[i:]
	s = s[:i]
	s = strings.Replace(s, "// Total sums prices.\nfunc Total(items ...Item) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it.Price\n\t}\n\treturn sum\n}\n", "", 1)
	s = strings.Replace(s, "func (m *MemStore) Put(key string, it Item) error {", "func (m *MemStore) Put(key string, it Item, overwrite bool) error {", 1)
	s = strings.Replace(s, "func NewMemStore() *MemStore {\n", "func NewMemStore() *MemStore {\n\tFresh()\n", 1)
	s += "\n// Fresh is new.\nfunc Fresh() {}\n"
	os.WriteFile(storeGo, []byte(s), 0o644)
	os.WriteFile(filepath.Join(dir, "store", "swap.go"), []byte("package store\n\n"+swap), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "change")
	if code, _, stderr := run(t, dir, "index", "-q"); code != 0 {
		t.Fatal(stderr)
	}

	code, stdout, stderr := run(t, dir, "diff", "--json", commits[0][:10], "main")
	if code != 0 {
		t.Fatal(stderr)
	}
	d := jsonOf[schemas.Diff](t, "diff", stdout)
	got := map[string]string{}
	callers := map[string]int{}
	for _, sd := range d.Symbols {
		got[sd.QName] = sd.Change
		callers[sd.QName] = sd.CallersTotal
	}
	want := map[string]string{
		"example.com/shop/store.Total":           "removed",
		"example.com/shop/store.(*MemStore).Put": "signature",
		"example.com/shop/store.Swap":            "moved",
		"example.com/shop/store.NewMemStore":     "body",
		"example.com/shop/store.Fresh":           "added",
	}
	for q, c := range want {
		if got[q] != c {
			t.Errorf("%s: %q, want %q", q, got[q], c)
		}
	}
	if len(got) != len(want) {
		t.Errorf("symbols: %v", got)
	}
	if callers["example.com/shop/store.Total"] != 1 || callers["example.com/shop/store.(*MemStore).Put"] != 3 || d.Summary.Broken != 2 {
		t.Errorf("callers: %v, broken %d", callers, d.Summary.Broken)
	}
	if d.Summary.FilesAdded != 1 || d.Summary.FilesChanged != 1 || d.From.Commit != commits[0] {
		t.Errorf("summary %+v from %+v", d.Summary, d.From)
	}

	// The forms, held by golden files with the commits and times made fixed.
	norm := func(s string) string {
		s = strings.ReplaceAll(s, commits[0], "COMMIT_A")
		s = strings.ReplaceAll(s, commits[0][:12], "COMMIT_A")
		s = strings.ReplaceAll(s, commits[0][:10], "COMMIT_A")
		s = strings.ReplaceAll(s, d.To.Commit, "COMMIT_B")
		s = strings.ReplaceAll(s, d.To.Commit[:12], "COMMIT_B")
		return regexp.MustCompile(`"indexed_at": "[^"]*"`).ReplaceAllString(s, `"indexed_at": "TIME"`)
	}
	golden(t, "diff_shop.json", norm(stdout))
	for _, form := range []string{"text", "markdown"} {
		args := []string{"diff", commits[0][:10], "main"}
		if form == "markdown" {
			args = []string{"diff", "--markdown", commits[0][:10], "main"}
		}
		_, out, _ := run(t, dir, args...)
		golden(t, "diff_shop."+map[string]string{"text": "txt", "markdown": "md"}[form], norm(out))
	}

	// The text and Markdown forms, and the gates.
	code, stdout, _ = run(t, dir, "diff", commits[0][:10], "main")
	if code != 0 || !strings.Contains(stdout, "Likely to break (2)") || !strings.Contains(stdout, "server/server.go:38:9  example.com/shop/server.(*Server).Lookup") {
		t.Errorf("text: %s", stdout)
	}
	code, stdout, stderr = run(t, dir, "diff", "--markdown", "--fail-on", "broken", commits[0][:10], "main")
	if code != 1 || !strings.Contains(stdout, "**⚠️ 2 changed or removed symbols are still called**") || !strings.Contains(stdout, "```mermaid") ||
		!strings.Contains(stderr, "--fail-on broken: 2") {
		t.Errorf("markdown with a failing gate: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, _ = run(t, dir, "diff", "--fail-on", "any", "main", "main"); code != 0 || !strings.Contains(stdout, "symbols: +0 -0") {
		t.Errorf("a snapshot against itself: exit %d, %s", code, stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "main"}, "takes 2 argument"},
		{[]string{"diff", "main", "main", "--json"}, "put flags first"},
		{[]string{"diff", "nope", "main"}, "not a snapshot folder, nor a branch or commit"},
		{[]string{"diff", "--fail-on", "sometimes", "main", "main"}, `"sometimes" is not a condition`},
		{[]string{"diff", "--json", "--markdown", "main", "main"}, "exclude each other"},
	} {
		if code, _, stderr := run(t, dir, c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, %s", c.args, code, stderr)
		}
	}
}

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testdata is the golden files' folder, absolute: tests change directory.
var testdata, _ = filepath.Abs("testdata")

// golden compares got with the file under testdata/ (rewritten with
// -update, then reviewed).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdata, name)
	if *updateGolden {
		os.MkdirAll(testdata, 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update, then review the diff):\n%s", path, got)
	}
}

func TestDiffMarkdownCapped(t *testing.T) {
	d := &schemas.Diff{Summary: schemas.DiffSummary{SymbolsAdded: 5000}}
	for i := range 5000 {
		d.Symbols = append(d.Symbols, schemas.SymbolDelta{Change: "added", Kind: "function",
			QName: fmt.Sprintf("example.com/a/very/long/package/path/name.Function%04d", i), Location: fmt.Sprintf("a/b/c/file%04d.go:%d", i, i)})
	}
	md := diffMarkdown(d, [2]string{"main", "feature"})
	if len(md) > markdownLimit || !strings.Contains(md, "more: run `snap diff --json main feature` for all of it") {
		t.Errorf("a 5000-symbol diff renders %d bytes (limit %d): %.300s…", len(md), markdownLimit, md[len(md)-300:])
	}
}

// TestDiffMarkdownAnyName renders a diff whose names hold what Markdown
// reads as markup (pipes, backticks, HTML, emphasis) through a GFM
// renderer: every table row keeps its cells, every name comes out whole
// inside its code span, and the signatures show old → new.
func TestDiffMarkdownAnyName(t *testing.T) {
	names := []string{"a|b.F", "m.`tick`", "x.``two``", "<script>alert(1)</script>", "*bold*_u_", "p.Q | `r` |", "` lead"}
	d := &schemas.Diff{Summary: schemas.DiffSummary{Broken: len(names), SignaturesChanged: len(names)}}
	for i, n := range names {
		d.Symbols = append(d.Symbols, schemas.SymbolDelta{Change: "signature", Kind: "function", QName: n,
			Location: fmt.Sprintf("dir|%d/f`.go:%d", i, i), OldLocation: "old.go:1",
			OldSignature: "func F(a | b, c int)", Signature: "func F(`a` int)",
			Callers: []schemas.CallSite{{QName: "caller|" + n, Location: "c.go:1:2", Reason: "no overload takes 2 arguments <|>"}}, CallersTotal: 1})
	}
	md := diffMarkdown(d, [2]string{"main", "feat|`x`"})
	var buf strings.Builder
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	var text func(*html.Node) string
	text = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(text(c))
		}
		return b.String()
	}
	var codes []string
	var walk func(*html.Node, int)
	walk = func(n *html.Node, width int) {
		switch {
		case n.Type == html.ElementNode && n.Data == "script":
			t.Errorf("a name became a script element")
		case n.Type == html.ElementNode && n.Data == "code":
			codes = append(codes, text(n))
		case n.Type == html.ElementNode && n.Data == "table":
			width = -1
		case n.Type == html.ElementNode && n.Data == "tr":
			cells := 0
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
					cells++
				}
			}
			if width < 0 {
				width = cells
			} else if cells != width {
				t.Errorf("a row of %d cells in a table of %d: %q", cells, width, text(n))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, width)
			if n.Type == html.ElementNode && n.Data == "tbody" && width < 0 {
				continue
			}
		}
	}
	walk(doc, 0)
	for _, n := range append(names, "caller|a|b.F", "func F(a | b, c int)", "func F(`a` int)", "feat|`x`") {
		if !slices.Contains(codes, n) {
			t.Errorf("%q is not whole in any code span (have %q)", n, codes)
		}
	}
	if !strings.Contains(buf.String(), "no overload takes 2 arguments &lt;|&gt;") {
		t.Errorf("the head's reason is not shown as text:\n%s", md)
	}
}
