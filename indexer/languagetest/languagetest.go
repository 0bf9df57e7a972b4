// Package languagetest runs the indexer over fixture repositories and
// compares what it found with golden files: one table of checks for every
// language. Golden files are refreshed with `go test -update` and reviewed.
package languagetest

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Golden is the reviewable form of a graph: one line per node and per edge,
// sorted.
type Golden struct {
	Files []string `json:"files"`
	Nodes []string `json:"nodes"`
	Edges []string `json:"edges"`
}

// Render turns a graph into its golden form. Nodes read
// `kind qualified_name file:line [flags]`; edges read
// `src -kind-> dst (resolution) file:line` with dst `?target [reason]`
// when unresolved. Contains edges are left out: parents are in the nodes.
func Render(g *indexer.Graph) Golden {
	byID := make(map[uint64]schemas.Node, len(g.Nodes))
	for _, n := range g.Nodes {
		byID[n.ID] = n
	}
	var out Golden
	for _, f := range g.Files {
		s := fmt.Sprintf("%s %s %s", f.Path, f.Language, f.Status)
		if f.IsTest {
			s += " test"
		}
		if f.IsGenerated {
			s += " generated"
		}
		out.Files = append(out.Files, s)
	}
	for _, n := range g.Nodes {
		if n.Kind == schemas.KindFile {
			continue
		}
		s := fmt.Sprintf("%s %s %s:%d", n.Kind, n.QualifiedName, n.File, n.StartLine)
		var flags []string
		if p, ok := byID[n.ParentID]; ok && p.Kind != schemas.KindFile {
			flags = append(flags, "in="+p.QualifiedName)
		}
		if n.Visibility != "" {
			flags = append(flags, n.Visibility)
		}
		for _, f := range []struct {
			on   bool
			name string
		}{{n.Exported, "exported"}, {n.IsAsync, "async"}, {n.IsStatic, "static"}, {n.IsAbstract, "abstract"}, {n.IsTest, "test"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		for _, d := range n.Decorators {
			flags = append(flags, "@"+d)
		}
		if n.Signature != "" {
			flags = append(flags, "sig="+n.Signature)
		}
		if n.Doc != "" {
			flags = append(flags, "doc="+firstLine(n.Doc))
		}
		if len(flags) > 0 {
			s += " [" + strings.Join(flags, " ") + "]"
		}
		out.Nodes = append(out.Nodes, s)
	}
	for _, e := range g.Edges {
		if e.Kind == schemas.EdgeContains {
			continue
		}
		src := byID[e.Src].QualifiedName
		dst := "?" + e.Target
		if e.Dst != 0 {
			dst = byID[e.Dst].QualifiedName
		}
		s := fmt.Sprintf("%s -%s-> %s (%s", src, e.Kind, dst, e.Resolution)
		if e.Reason != "" {
			s += ": " + e.Reason
		}
		s += fmt.Sprintf(") %s:%d", e.File, e.Line)
		var facts []string
		if e.InLoop {
			facts = append(facts, "loop")
		}
		if e.InTry {
			facts = append(facts, "try")
		}
		if e.Conditional {
			facts = append(facts, "cond")
		}
		if len(facts) > 0 {
			s += " " + strings.Join(facts, ",")
		}
		out.Edges = append(out.Edges, s)
	}
	slices.Sort(out.Files)
	slices.Sort(out.Nodes)
	slices.Sort(out.Edges)
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// Run indexes dir with langs and compares the result with the golden file
// (refreshed with -update). It returns the graph for further assertions.
func Run(t *testing.T, dir, golden string, langs ...indexer.Language) *indexer.Graph {
	t.Helper()
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs, Workers: 2})
	if err != nil {
		t.Fatalf("index %s: %v", dir, err)
	}
	Invariants(t, g)
	got, err := json.MarshalIndent(Render(g), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return g
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if string(want) != string(got) {
		t.Errorf("graph of %s differs from %s (run with -update, then review the diff):\n%s", dir, golden, lineDiff(string(want), string(got)))
	}
	return g
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	inW, inG := make(map[string]int), make(map[string]int)
	for _, l := range w {
		inW[l]++
	}
	for _, l := range g {
		inG[l]++
	}
	var b strings.Builder
	for _, l := range w {
		if inG[l] == 0 {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range g {
		if inW[l] == 0 {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

// Fixture is the suite every language passes: "golden" runs Run over
// its fixture dir against dir+".golden.json", "corpus" runs Project over
// the tree named by $env (by hand; skipped when $env is unset).
func Fixture(t *testing.T, dir, env string, langs ...indexer.Language) {
	t.Run("golden", func(t *testing.T) { Run(t, dir, dir+".golden.json", langs...) })
	t.Run("corpus", func(t *testing.T) { Project(t, env, langs...) })
}
