package bash_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/bash"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestIncremental edits scripts step by step and checks after each edit
// that an index reusing the previous one's rows is the same as a full
// index: calls resolve through the files a script sources, which other
// files' edits change.
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
	write("main.sh", "source lib/a.sh\nf\ng\n")
	write("lib/a.sh", "source ./b.sh\nf() { g; }\n")
	write("lib/b.sh", "g() { :; }\n")
	index := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: []indexer.Language{bash.New()}, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	prev := index(nil)
	for _, step := range []struct {
		name string
		edit func()
	}{
		{"nothing", func() {}},
		{"move g", func() { write("lib/b.sh", "\n"); write("lib/c.sh", "g() { :; }\n") }},
		{"source it", func() { write("lib/a.sh", "source ./c.sh\nf() { g; }\n") }},
		{"define g twice", func() {
			write("lib/b.sh", "g() { :; }\n")
			write("lib/a.sh", "source ./b.sh\nsource ./c.sh\nf() { g; }\n")
		}},
	} {
		step.edit()
		full := index(nil)
		base := &indexer.Base{Files: prev.Files, Nodes: slices.Clone(prev.Nodes), Refs: prev.Refs, Grammars: map[string]string{bash.Name: bash.New().GrammarVersion()}}
		inc := index(base)
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
