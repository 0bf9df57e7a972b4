package languagetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Index writes files (slash path → source) into a temporary directory,
// indexes it with langs on one worker, checks the Invariants, and returns
// the graph.
func Index(t testing.TB, files map[string]string, langs ...indexer.Language) *indexer.Graph {
	t.Helper()
	dir := t.TempDir()
	WriteFiles(t, dir, files)
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	Invariants(t, g)
	return g
}

// WriteFiles writes files (slash path → content) under dir, with the
// folders they need.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Edges indexes files with langs (as Index does) and returns the golden
// lines of the graph's edges.
func Edges(t testing.TB, files map[string]string, langs ...indexer.Language) []string {
	t.Helper()
	return Render(Index(t, files, langs...)).Edges
}

// EdgesWith returns Edges with langs: a language's tests call it as
// their own index of a snippet.
func EdgesWith(langs ...indexer.Language) func(t testing.TB, files map[string]string) []string {
	return func(t testing.TB, files map[string]string) []string {
		t.Helper()
		return Edges(t, files, langs...)
	}
}

// Expect checks that some line of edges starts with each of want
// (`src -kind-> dst (resolution`) and that none starts with any of wrong.
func Expect(t testing.TB, edges []string, want []string, wrong ...string) {
	t.Helper()
	has := func(prefix string) bool {
		for _, e := range edges {
			if strings.HasPrefix(e, prefix) {
				return true
			}
		}
		return false
	}
	for _, w := range want {
		if !has(w) {
			t.Errorf("missing edge %q", w)
		}
	}
	for _, w := range wrong {
		if has(w) {
			t.Errorf("unexpected edge %q", w)
		}
	}
	if t.Failed() {
		t.Logf("edges:\n%s", strings.Join(edges, "\n"))
	}
}

// Extract extracts src as the file named file with an extractor of l
// reading tree, failing t on an error.
func Extract(t testing.TB, l indexer.Language, tree *indexer.Tree, file, src string) *indexer.Result {
	t.Helper()
	x, err := l.NewExtractor(tree)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	res, err := x.Extract(context.Background(), file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Nodes returns a check of res's nodes for a test: check(qname, kind, ok)
// fails t unless a node of that qualified name and kind is there and ok
// holds of it.
func Nodes(t testing.TB, res *indexer.Result) func(qname, kind string, ok func(n schemas.Node) bool) {
	byKey := make(map[string]schemas.Node)
	for _, n := range res.Nodes {
		byKey[n.Kind+" "+n.QualifiedName] = n
	}
	return func(qname, kind string, ok func(n schemas.Node) bool) {
		t.Helper()
		n, found := byKey[kind+" "+qname]
		switch {
		case !found:
			t.Errorf("no %s %s", kind, qname)
		case !ok(n):
			t.Errorf("%s %s: unexpected %+v", kind, qname, n)
		}
	}
}

// Regions checks the region of each call of res to a target of want:
// want maps the target to the facts its call must carry, comma-separated
// in the order loop, try, cond ("" for none). Every target must be
// called.
func Regions(t testing.TB, res *indexer.Result, want map[string]string) {
	t.Helper()
	found := make(map[string]bool)
	for _, r := range res.Refs {
		w, ok := want[r.Target]
		if r.Kind != schemas.EdgeCalls || !ok {
			continue
		}
		found[r.Target] = true
		var got []string
		for _, f := range []struct {
			on   bool
			name string
		}{{r.InLoop, "loop"}, {r.InTry, "try"}, {r.Conditional, "cond"}} {
			if f.on {
				got = append(got, f.name)
			}
		}
		if g := strings.Join(got, ","); g != w {
			t.Errorf("%s(): %q, want %q", r.Target, g, w)
		}
	}
	for target := range want {
		if !found[target] {
			t.Errorf("no call of %s", target)
		}
	}
}

// Call is a calls edge of a snippet as an overload test reads it.
type Call struct {
	Line      int
	Col       uint32
	Target    string // the callee as written
	Signature string // of the node the call resolved to, or "? " and why it did not
}

// Calls indexes files with langs (as Index does) and returns their calls,
// in the graph's order.
func Calls(t testing.TB, files map[string]string, langs ...indexer.Language) []Call {
	t.Helper()
	g := Index(t, files, langs...)
	sigs := make(map[uint64]string)
	for _, n := range g.Nodes {
		sigs[n.ID] = n.Signature
	}
	var out []Call
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls {
			continue
		}
		c := Call{Line: int(e.Line), Col: e.Col, Target: e.Target, Signature: sigs[e.Dst]}
		if e.Dst == 0 {
			c.Signature = "? " + e.Reason
		}
		out = append(out, c)
	}
	return out
}

// Exprs checks the Expr of res's refs: want maps "kind target" to the
// Expr of the ref of that kind and target (of the last such ref). It
// returns the Expr of every ref of res so keyed.
func Exprs(t testing.TB, res *indexer.Result, want map[string]string) map[string]string {
	t.Helper()
	got := make(map[string]string)
	for _, r := range res.Refs {
		got[r.Kind+" "+r.Target] = r.Expr
	}
	for ref, w := range want {
		if g, ok := got[ref]; !ok || g != w {
			t.Errorf("%s: Expr %q, want %q", ref, g, w)
		}
	}
	return got
}
