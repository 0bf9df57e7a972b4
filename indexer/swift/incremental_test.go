package swift_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

// TestIncremental edits a package step by step and checks after each
// edit that an index reusing the previous one's rows is the same, node
// for node and edge for edge, as a full index: resolution attaches
// extension members and conformances across files and modules.
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
	write("Sources/Core/A.swift", "public struct T { public init() {} }\npublic protocol P { func m() }\n")
	write("Sources/Core/B.swift", "extension T: P { public func m() {} }\n")
	write("Sources/App/main.swift", "import Core\nlet t = T()\nt.m()\n")
	index := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: []indexer.Language{swift.New()}, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	baseOf := func(g *indexer.Graph) *indexer.Base {
		return &indexer.Base{Files: g.Files, Nodes: slices.Clone(g.Nodes), Refs: g.Refs, Grammars: map[string]string{swift.Name: swift.New().GrammarVersion()}}
	}
	prev := index(nil)
	for _, step := range []struct {
		name string
		edit func()
	}{
		{"nothing", func() {}},
		{"move the extension", func() {
			write("Sources/Core/B.swift", "public func f() {}\n")
			write("Sources/Core/C.swift", "extension T: P { public func m() {} }\n")
		}},
		{"rename the type", func() {
			write("Sources/Core/A.swift", "public struct U { public init() {} }\npublic protocol P { func m() }\n")
		}},
	} {
		step.edit()
		full := index(nil)
		inc := index(baseOf(prev))
		if inc.Stats.FilesReused == 0 {
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
