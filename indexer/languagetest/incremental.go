package languagetest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
)

// Step is one edit of an Incremental test: the files it writes, by
// slash-separated path.
type Step struct {
	Name  string
	Write map[string]string
	// NoReuse says the edit may leave no file's rows to reuse (it renames
	// a crate, or changes every file's imports).
	NoReuse bool
}

// Incremental writes the files start into an empty folder and indexes it
// with langs, then makes each step's edit in turn and checks that an
// index reusing the rows of the index before it is the same as a full
// index: file for file, node for node (ids, parents, ranges and
// decorators included) and edge for edge.
func Incremental(t *testing.T, langs []indexer.Language, start map[string]string, steps []Step) {
	t.Helper()
	root := t.TempDir()
	write := func(files map[string]string) {
		for p, content := range files {
			full := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	index := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: langs, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	grammars := map[string]string{}
	for _, l := range langs {
		grammars[l.Name()] = l.GrammarVersion()
	}
	write(start)
	prev := index(nil)
	for _, step := range steps {
		write(step.Write)
		full := index(nil)
		// The rows as a snapshot stores them: resolution has run on them.
		inc := index(&indexer.Base{Files: prev.Files, Nodes: slices.Clone(prev.Nodes), Refs: prev.Refs, Grammars: grammars})
		if inc.Stats.FilesReused == 0 && !step.NoReuse {
			t.Errorf("%s: nothing reused", step.Name)
		}
		a, b := Render(full), Render(inc)
		if !slices.Equal(a.Files, b.Files) || !slices.Equal(a.Nodes, b.Nodes) || !slices.Equal(a.Edges, b.Edges) {
			t.Errorf("%s: incremental index differs:\nfull nodes %v\ninc nodes  %v\nfull edges %v\ninc edges  %v", step.Name, a.Nodes, b.Nodes, a.Edges, b.Edges)
		}
		if !slices.Equal(full.Edges, inc.Edges) {
			t.Errorf("%s: edges differ", step.Name)
		}
		if len(full.Nodes) != len(inc.Nodes) {
			t.Fatalf("%s: %d nodes, %d incrementally", step.Name, len(full.Nodes), len(inc.Nodes))
		}
		for i, x := range full.Nodes {
			y := inc.Nodes[i]
			if x.ID != y.ID || x.ParentID != y.ParentID || x.QualifiedName != y.QualifiedName ||
				x.StartByte != y.StartByte || x.EndByte != y.EndByte || !slices.Equal(x.Decorators, y.Decorators) {
				t.Errorf("%s: node %s differs", step.Name, x.QualifiedName)
			}
		}
		prev = inc
	}
}
