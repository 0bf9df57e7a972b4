package rust_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/rust"
)

// TestIncremental edits a crate step by step and checks after each edit
// that an index reusing the previous one's rows is the same, node for node
// (parents included) and edge for edge, as a full index: resolution moves
// impl items under their types and file modules under their declaring
// modules, and must do it again from reused rows.
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
	write("Cargo.toml", "[package]\nname = \"inc\"\n")
	write("src/lib.rs", "pub mod a;\npub mod b;\n")
	write("src/a.rs", "pub struct T;\nimpl T { pub fn m(&self) {} }\n")
	write("src/b.rs", "use crate::a::T;\nimpl T { pub fn n(&self) { self.m(); } }\npub fn f(t: T) { t.n(); }\n")

	index := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: []indexer.Language{rust.New()}, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	baseOf := func(g *indexer.Graph) *indexer.Base {
		// The rows as a snapshot stores them: resolution has run on them.
		return &indexer.Base{Files: g.Files, Nodes: slices.Clone(g.Nodes), Refs: g.Refs, Grammars: map[string]string{rust.Name: rust.New().GrammarVersion()}}
	}
	prev := index(nil)
	for _, step := range []struct {
		name string
		edit func()
	}{
		{"nothing", func() {}},
		{"move the type into the impl's file", func() {
			write("src/a.rs", "pub fn g() {}\n")
			write("src/b.rs", "pub struct T;\nimpl T { pub fn n(&self) { self.m(); } }\nimpl T { pub fn m(&self) {} }\n")
		}},
		{"and away again", func() {
			write("src/a.rs", "pub struct T;\n")
		}},
		{"undeclare a module", func() { write("src/lib.rs", "pub mod b;\n") }},
		{"declare it again", func() { write("src/lib.rs", "pub mod a;\npub mod b;\n") }},
		{"rename the crate", func() { write("Cargo.toml", "[package]\nname = \"renamed\"\n") }},
	} {
		step.edit()
		full := index(nil)
		inc := index(baseOf(prev))
		if step.name != "rename the crate" && inc.Stats.FilesReused == 0 {
			t.Errorf("%s: nothing reused", step.name)
		}
		a, b := languagetest.Render(full), languagetest.Render(inc)
		if !slices.Equal(a.Nodes, b.Nodes) || !slices.Equal(a.Edges, b.Edges) {
			t.Errorf("%s: incremental index differs:\nfull nodes %v\ninc nodes  %v\nfull edges %v\ninc edges  %v", step.name, a.Nodes, b.Nodes, a.Edges, b.Edges)
		}
		if len(full.Nodes) != len(inc.Nodes) {
			t.Fatalf("%s: %d nodes, %d incrementally", step.name, len(full.Nodes), len(inc.Nodes))
		}
		for i := range full.Nodes {
			if !nodeEqual(full, inc, i) {
				t.Errorf("%s: node %s differs", step.name, full.Nodes[i].QualifiedName)
			}
		}
		if !slices.Equal(full.Edges, inc.Edges) {
			t.Errorf("%s: edges differ", step.name)
		}
		prev = inc
	}
}

func nodeEqual(a, b *indexer.Graph, i int) bool {
	x, y := a.Nodes[i], b.Nodes[i]
	return x.ID == y.ID && x.ParentID == y.ParentID && x.QualifiedName == y.QualifiedName &&
		x.StartByte == y.StartByte && x.EndByte == y.EndByte && slices.Equal(x.Decorators, y.Decorators)
}
