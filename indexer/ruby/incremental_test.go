package ruby_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

// TestIncremental edits a tree step by step and checks after each edit
// that an index reusing the previous one's rows is the same, edge for
// edge, as a full index: resolution links classes, mixins and requires
// across files, and must do it again from reused rows.
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
	write("lib/a.rb", "module M\n  def m; end\nend\nclass A\n  def self.make; new; end\n  def run; end\nend\n")
	write("lib/b.rb", "require 'a'\nclass B < A\n  include M\n  def go\n    m\n    run\n    A.make\n  end\nend\n")
	index := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: []indexer.Language{ruby.New()}, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	baseOf := func(g *indexer.Graph) *indexer.Base {
		return &indexer.Base{Files: g.Files, Nodes: slices.Clone(g.Nodes), Refs: g.Refs, Grammars: map[string]string{ruby.Name: ruby.New().GrammarVersion()}}
	}
	prev := index(nil)
	for _, step := range []struct {
		name string
		edit func()
	}{
		{"nothing", func() {}},
		{"move run into the module", func() {
			write("lib/a.rb", "module M\n  def m; end\n  def run; end\nend\nclass A\n  def self.make; new; end\nend\n")
		}},
		{"drop the module", func() { write("lib/a.rb", "class A\n  def self.make; new; end\nend\n") }},
		{"reopen B elsewhere", func() { write("lib/c.rb", "class B\n  def m; end\nend\n") }},
	} {
		step.edit()
		full := index(nil)
		inc := index(baseOf(prev))
		if inc.Stats.FilesReused == 0 {
			t.Errorf("%s: nothing reused", step.name)
		}
		a, b := languagetest.Render(full), languagetest.Render(inc)
		if !slices.Equal(a.Nodes, b.Nodes) || !slices.Equal(a.Edges, b.Edges) || !slices.Equal(full.Edges, inc.Edges) {
			t.Errorf("%s: incremental index differs:\nfull %v\ninc  %v", step.name, a.Edges, b.Edges)
		}
		prev = inc
	}
}
