package ci

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"

	"github.com/graphsnap/snap/schemas"
)

func TestDiffMarkdownCapped(t *testing.T) {
	d := &schemas.Diff{Summary: schemas.DiffSummary{SymbolsAdded: 5000}}
	for i := range 5000 {
		d.Symbols = append(d.Symbols, schemas.SymbolDelta{Change: "added", Kind: "function",
			QName: fmt.Sprintf("example.com/a/very/long/package/path/name.Function%04d", i), Location: fmt.Sprintf("a/b/c/file%04d.go:%d", i, i)})
	}
	md := DiffMarkdown(d, [2]string{"main", "feature"}, "snap diff --json main feature")
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
	md := DiffMarkdown(d, [2]string{"main", "feat|`x`"}, "snap diff --json main feat|`x`")
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

func TestVerifiedText(t *testing.T) {
	m := &schemas.Manifest{Repo: "example/shop", Branch: "main", Commit: "abc", FormatVersion: 3,
		Tables: []schemas.Table{{Name: "nodes", Rows: 12}, {Name: "edges", Rows: 30}}}
	var b strings.Builder
	VerifiedText(&b, m)
	if want := "ok: example/shop main abc, format 3, 2 tables, 42 rows\n"; b.String() != want {
		t.Errorf("VerifiedText = %q, want %q", b.String(), want)
	}
}
