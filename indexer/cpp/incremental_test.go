package cpp_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestIncremental edits a tree step by step and checks after each edit
// that an index reusing the previous one's rows is the same, node for
// node and edge for edge, as a full index: calls resolve through the
// includes of other files, and a header changes language when C++
// sources come to outnumber C ones.
func TestIncremental(t *testing.T) {
	root := t.TempDir()
	write := func(p, content string) {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/a.h", "int f(int x);\n")
	write("lib/a.c", "#include \"a.h\"\nint f(int x) { return x; }\n")
	write("lib/b.c", "#include \"a.h\"\nint g(void) { return f(1); }\n")
	langs := []indexer.Language{c.New(), cpp.New()}
	index := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: langs, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	baseOf := func(g *indexer.Graph) *indexer.Base {
		return &indexer.Base{Files: g.Files, Nodes: slices.Clone(g.Nodes), Refs: g.Refs,
			Grammars: map[string]string{c.Name: langs[0].GrammarVersion(), cpp.Name: langs[1].GrammarVersion()}}
	}
	prev := index(nil)
	for _, step := range []struct {
		name string
		edit func()
	}{
		{"nothing", func() {}},
		{"undeclare f", func() { write("lib/a.h", "int h(void);\n") }},
		{"declare it again", func() { write("lib/a.h", "int f(int x);\n") }},
		{"C++ takes the header", func() {
			write("lib/m.cpp", "#include \"a.h\"\nint m() { return f(2); }\n")
			write("lib/n.cpp", "#include \"a.h\"\nint n() { return f(3); }\n")
			write("lib/o.cpp", "int o() { return 0; }\n")
		}},
		{"define f twice", func() { write("lib/o.cpp", "int f(int x) { return 0; }\n") }},
	} {
		step.edit()
		full := index(nil)
		inc := index(baseOf(prev))
		if inc.Stats.FilesReused == 0 {
			t.Errorf("%s: nothing reused", step.name)
		}
		a, b := languagetest.Render(full), languagetest.Render(inc)
		if !slices.Equal(a.Files, b.Files) || !slices.Equal(a.Nodes, b.Nodes) || !slices.Equal(a.Edges, b.Edges) {
			t.Errorf("%s: incremental index differs:\nfull %v\ninc  %v\nfull %v\ninc  %v", step.name, a.Nodes, b.Nodes, a.Edges, b.Edges)
		}
		if !slices.Equal(full.Edges, inc.Edges) {
			t.Errorf("%s: edges differ", step.name)
		}
		prev = inc
	}
}
