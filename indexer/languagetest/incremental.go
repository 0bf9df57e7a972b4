package languagetest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
)

// Incremental reads an archive of steps, writes its first files into an
// empty folder and indexes it with langs, then makes each step's edit in
// turn and checks that an index reusing the rows of the index before it
// is the same as a full index: file for file, node for node (ids,
// parents, ranges and decorators included) and edge for edge.
//
// The archive is a list of files, each a line "-- path --" then its
// lines. A line "-- step: name --" begins a step: the files after it are
// its edit. "-- step (no reuse): name --" begins a step whose edit may
// leave no file's rows to reuse (it renames a crate, or changes every
// file's imports).
func Incremental(t *testing.T, archive string, langs ...indexer.Language) {
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
	start, steps := readSteps(t, archive)
	write(start)
	prev := index(nil)
	for _, step := range steps {
		write(step.files)
		full := index(nil)
		// The rows as a snapshot stores them: resolution has run on them.
		inc := index(&indexer.Base{Files: prev.Files, Nodes: slices.Clone(prev.Nodes), Refs: prev.Refs, Grammars: grammars})
		if inc.Stats.FilesReused == 0 && !step.noReuse {
			t.Errorf("%s: nothing reused", step.name)
		}
		a, b := Render(full), Render(inc)
		if !slices.Equal(a.Files, b.Files) || !slices.Equal(a.Nodes, b.Nodes) || !slices.Equal(a.Edges, b.Edges) {
			t.Errorf("%s: incremental index differs:\nfull nodes %v\ninc nodes  %v\nfull edges %v\ninc edges  %v", step.name, a.Nodes, b.Nodes, a.Edges, b.Edges)
		}
		if !slices.Equal(full.Edges, inc.Edges) {
			t.Errorf("%s: edges differ", step.name)
		}
		if len(full.Nodes) != len(inc.Nodes) {
			t.Fatalf("%s: %d nodes, %d incrementally", step.name, len(full.Nodes), len(inc.Nodes))
		}
		for i, x := range full.Nodes {
			y := inc.Nodes[i]
			if x.ID != y.ID || x.ParentID != y.ParentID || x.QualifiedName != y.QualifiedName ||
				x.StartByte != y.StartByte || x.EndByte != y.EndByte || !slices.Equal(x.Decorators, y.Decorators) {
				t.Errorf("%s: node %s differs", step.name, x.QualifiedName)
			}
		}
		prev = inc
	}
}

// step is one edit of an Incremental test.
type step struct {
	name    string
	files   map[string]string // by slash-separated path
	noReuse bool
}

// readSteps reads the archive of an Incremental test.
func readSteps(t *testing.T, archive string) (start map[string]string, steps []step) {
	t.Helper()
	b, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	start = map[string]string{}
	files, file := start, ""
	for _, line := range strings.SplitAfter(string(b), "\n") {
		name, opens := strings.CutPrefix(line, "-- ")
		name, closes := strings.CutSuffix(name, " --\n")
		if !opens || !closes {
			if file == "" && line != "" {
				t.Fatalf("%s: %q outside a file", archive, line)
			}
			if file != "" {
				files[file] += line
			}
			continue
		}
		if s, ok := strings.CutPrefix(name, "step: "); ok {
			steps = append(steps, step{name: s, files: map[string]string{}})
		} else if s, ok := strings.CutPrefix(name, "step (no reuse): "); ok {
			steps = append(steps, step{name: s, files: map[string]string{}, noReuse: true})
		} else {
			file, files[name] = name, ""
			continue
		}
		files, file = steps[len(steps)-1].files, ""
	}
	if len(start) == 0 || len(steps) == 0 {
		t.Fatalf("%s: no files or no steps", archive)
	}
	return start, steps
}
