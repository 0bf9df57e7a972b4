package scala_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
)

// TestIncremental edits a project step by step and checks after each
// edit that an index reusing the previous one's rows is the same, node
// for node and edge for edge, as a full index: resolution reads packages,
// imports and parents across files.
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
	write("a/Base.scala", "package a\ntrait Base { def hello(): Int = 1 }\nobject Tools { def go(): Int = 1 }\n")
	write("b/Use.scala", "package b\nimport a._\nclass Use extends Base { def run(): Int = { hello(); Tools.go() } }\n")
	index := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: []indexer.Language{scala.New()}, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	baseOf := func(g *indexer.Graph) *indexer.Base {
		return &indexer.Base{Files: g.Files, Nodes: slices.Clone(g.Nodes), Refs: g.Refs, Grammars: map[string]string{scala.Name: scala.New().GrammarVersion()}}
	}
	prev := index(nil)
	for _, step := range []struct {
		name string
		edit func()
	}{
		{"nothing", func() {}},
		{"move a def up", func() {
			write("a/Base.scala", "package a\ntrait Root { def hello(): Int = 2 }\ntrait Base extends Root\nobject Tools { def go(): Int = 1 }\n")
		}},
		{"move the object to another package", func() {
			write("a/Base.scala", "package a\ntrait Base { def hello(): Int = 1 }\n")
			write("c/Tools.scala", "package c\nobject Tools { def go(): Int = 3 }\n")
		}},
		{"import it", func() {
			write("b/Use.scala", "package b\nimport a._\nimport c.Tools\nclass Use extends Base { def run(): Int = { hello(); Tools.go() } }\n")
		}},
	} {
		step.edit()
		full := index(nil)
		inc := index(baseOf(prev))
		if inc.Stats.FilesReused == 0 && step.name != "import it" {
			t.Errorf("%s: nothing reused", step.name)
		}
		a, b := languagetest.Render(full), languagetest.Render(inc)
		if !slices.Equal(a.Nodes, b.Nodes) || !slices.Equal(a.Edges, b.Edges) {
			t.Errorf("%s: incremental index differs:\nfull edges %v\ninc edges  %v", step.name, a.Edges, b.Edges)
		}
		if !slices.Equal(full.Edges, inc.Edges) {
			t.Errorf("%s: edges differ", step.name)
		}
		prev = inc
	}
}
