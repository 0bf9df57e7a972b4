package languages_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tables indexes root (with base, when not nil) and returns the digest of
// every table as a snapshot would store them, with the run's stats.
func tables(t *testing.T, root string, base *indexer.Base) (map[string]string, indexer.Stats, *indexer.Graph) {
	t.Helper()
	langs := languages.All()
	var baseRefs, was []schemas.Ref
	var wasNodes []schemas.Node
	if base != nil {
		baseRefs, was, wasNodes = base.Refs, slices.Clone(base.Refs), slices.Clone(base.Nodes)
	}
	opts := indexer.Options{Languages: langs, Workers: 2, Base: base}
	var wasEdges []schemas.Edge
	if base != nil {
		opts.BaseEdges = baseEdges[base]
		e, _ := opts.BaseEdges()
		wasEdges = slices.Clone(e)
	}
	g, err := indexer.Index(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Refs) > 0 && len(g.Refs) <= cap(baseRefs) && unsafe.SliceData(g.Refs) != unsafe.SliceData(baseRefs) {
		t.Fatalf("%d refs, room for %d in the base's: copied, not laid over the base's in place", len(g.Refs), cap(baseRefs))
	}
	// What RefsFromBase and EdgesFromBase vouch for, file by file and
	// source by source, is the base's rows.
	vouched := checkVouched(t, "refs", g.Refs, was, func(a, b schemas.Ref) bool { return a.File == b.File }, g.RefsFromBase)
	if base != nil && g.Stats.FilesParsed == 0 && vouched != len(g.Refs) {
		t.Fatalf("nothing parsed, and RefsFromBase vouches for %d of %d refs", vouched, len(g.Refs))
	}
	vouched = checkVouched(t, "edges", g.Edges, wasEdges, func(a, b schemas.Edge) bool { return a.Src == b.Src }, g.EdgesFromBase)
	if g.Stats.EdgesReused > 0 && vouched == 0 {
		t.Fatalf("EdgesFromBase vouches for no edge; %d were taken from the base", g.Stats.EdgesReused)
	}
	vouched = checkVouched(t, "nodes", g.Nodes, wasNodes, func(a, b schemas.Node) bool { return false }, g.NodesFromBase)
	if g.Stats.EdgesReused > 0 && vouched == 0 {
		t.Fatalf("NodesFromBase vouches for no node; %d edges were taken from the base", g.Stats.EdgesReused)
	}
	if base != nil && (base.Files != nil || base.Nodes != nil || base.Refs != nil || base.Grammars != nil) {
		t.Fatal("Index left its base's rows in place; it empties it once the files are gathered")
	}
	m, err := snapshot.Write(context.Background(), memstore.New(), "", &snapshot.Snapshot{
		Nodes: g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string)
	for _, tb := range m.Tables {
		out[tb.Name] = tb.SHA256
	}
	return out, g.Stats, g
}

// checkVouched asks fromBase about each run of rows that together says are
// one, checks that what it vouches for is was's rows, and returns how many
// rows it vouched for.
func checkVouched[T any](t *testing.T, table string, rows, was []T, together func(a, b T) bool, fromBase func(lo, hi int) (int, bool)) int {
	t.Helper()
	vouched := 0
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && together(rows[lo], rows[hi]) {
			hi++
		}
		if from, ok := fromBase(lo, hi); ok {
			if from+hi-lo > len(was) || !reflect.DeepEqual(rows[lo:hi], was[from:from+hi-lo]) {
				t.Fatalf("%s: rows [%d, %d) said to be the base's from row %d: they are not", table, lo, hi, from)
			}
			vouched += hi - lo
		}
		lo = hi
	}
	return vouched
}

func baseOf(g *indexer.Graph) *indexer.Base {
	grammars := make(map[string]string)
	for _, l := range languages.All() {
		grammars[l.Name()] = l.GrammarVersion()
	}
	// The refs with room for more, as snapshot.ReadBase decodes them: the
	// run lays its own over them in place, moving the base's up and down.
	refs := slices.Grow(g.Refs[:len(g.Refs):len(g.Refs)], len(g.Refs)/4)
	// The nodes too, every other pair of bases (the run lays its nodes
	// over the base's when they have the room, else copies them), so that
	// each way meets each way of the edges below.
	nodes := slices.Clip(slices.Clone(g.Nodes))
	if len(baseEdges)/2%2 == 0 {
		nodes = slices.Grow(nodes, len(nodes)/4+len(g.Files))
	}
	b := &indexer.Base{Files: g.Files, Nodes: nodes, Refs: refs, Grammars: grammars}
	// Its edges, for a run that resolves only the files it parsed: once
	// with room to merge in place, once without.
	edges := slices.Clip(slices.Clone(g.Edges))
	if len(baseEdges)%2 == 0 {
		edges = slices.Grow(edges, 64)
	}
	baseEdges[b] = func() ([]schemas.Edge, error) { return edges, nil }
	return b
}

// baseEdges are the edges of each base baseOf made (Options.BaseEdges).
var baseEdges = map[*indexer.Base]func() ([]schemas.Edge, error){}

// TestIncrementalIsIdentical edits a tree step by step and checks, after
// each edit, that an index reusing the previous snapshot writes the same
// bytes in every table as a full index, parsing only what changed.
func TestIncrementalIsIdentical(t *testing.T) {
	root := t.TempDir()
	copyDir(t, "../../testdata/go/shop", filepath.Join(root, "goshop"))
	copyDir(t, "../../testdata/python/app", filepath.Join(root, "pyapp"))
	write := func(p, content string) {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) string {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	// The steps that leave every declaration as it was resolve only the
	// files they touch, and take every other edge from the base.
	edit := func(p, old, new string) func() {
		return func() {
			s := read(p)
			if !strings.Contains(s, old) {
				t.Fatalf("%s holds no %q", p, old)
			}
			write(p, strings.Replace(s, old, new, 1))
		}
	}
	steps := []struct {
		name   string
		edit   func()
		parsed int // files parsed by the incremental run; -1: not checked
		alone  bool
	}{
		{"nothing", func() {}, 0, true},
		{"a statement inserted in a function", edit("goshop/store/store.go", "\tsum := 0\n", "\tsum := 0\n\t_ = NewMemStore()\n"), 1, true},
		{"a call added to a method of a type above it", edit("goshop/store/store.go", "\tm.items[key] = it\n", "\tm.items[key] = it\n\t_ = m.Len()\n"), 1, true},
		{"a doc comment changed, lines moved", edit("goshop/store/store.go", "// Item is one thing for sale.\n", "// Item is one thing\n// for sale.\n"), 1, true},
		{"a comment at the end", func() { write("goshop/store/store.go", read("goshop/store/store.go")+"// the end\n") }, 1, true},
		{"two files' bodies", func() {
			edit("goshop/store/store.go", "\t_ = NewMemStore()\n", "")()
			edit("goshop/server/server.go", "func (s *Server) Fill(keys []string) {\n", "func (s *Server) Fill(keys []string) {\n\ts.Lookup(\"\")\n")()
		}, 2, true},
		{"a field added", edit("goshop/store/store.go", "\tPrice int\n", "\tPrice int\n\tSKU   string\n"), 1, false},
		{"an import added", edit("goshop/store/store.go", "import \"errors\"\n", "import (\n\t\"errors\"\n\t_ \"fmt\"\n)\n"), 1, false},
		{"a call through a result", func() {
			write("goshop/store/use.go", "package store\n\nfunc use() { NewMemStore().Get(\"\") }\n")
		}, 1, false},
		// use.go's call then resolves to the interface's method.
		{"a result's type changed", edit("goshop/store/store.go", "func NewMemStore() *MemStore {", "func NewMemStore() Store {"), 1, false},
		{"add a file", func() {
			write("goshop/store/extra.go", "package store\n\n// Extra calls Total.\nfunc Extra() int { return Total() }\n")
		}, 1, false},
		{"modify a file", func() {
			write("goshop/store/extra.go", "package store\n\n// Extra calls NewMemStore.\nfunc Extra() int { return NewMemStore().Len() }\n")
		}, 1, true},
		{"change a signature others call", func() {
			s := read("goshop/store/store.go")
			write("goshop/store/store.go", s+"\nfunc Renamed() {}\n")
		}, 1, false},
		{"move a method's type away", func() {
			write("goshop/store/extra.go", "package store\n\ntype Moved struct{}\n")
			write("goshop/store/moved.go", "package store\n\nfunc (Moved) M() {}\n")
		}, 2, false},
		{"and back", func() {
			write("goshop/store/extra.go", "package store\n\ntype Moved struct{}\n\nfunc (Moved) M() {}\n")
			os.Remove(filepath.Join(root, "goshop/store/moved.go"))
		}, 1, false},
		{"declare a method's type again elsewhere", func() {
			// nn.go's declaration has the smaller id, so it is the type's
			// first: the method in unchanged extra.go stops being a child
			// of extra.go's declaration, and its reused row must follow.
			write("goshop/store/nn.go", "package store\n\ntype Moved struct{ x int }\n")
		}, 1, false},
		{"rename a file", func() {
			os.Rename(filepath.Join(root, "goshop/store/extra.go"), filepath.Join(root, "goshop/store/renamed.go"))
		}, 1, false},
		{"delete a file", func() {
			os.Remove(filepath.Join(root, "goshop/store/renamed.go"))
		}, 0, false},
		{"change go.mod", func() {
			write("goshop/go.mod", "module example.com/renamed\n\ngo 1.22\n")
		}, -1, false},
		{"add an __init__.py", func() {
			write("pyapp/scripts/__init__.py", "")
		}, -1, false},
		{"edit python", func() {
			s := read("pyapp/scripts/__init__.py")
			write("pyapp/scripts/__init__.py", s+"\ndef helper():\n    return 1\n")
		}, -1, false},
	}
	_, _, prev := tables(t, root, nil)
	for _, st := range steps {
		st.edit()
		full, _, g := tables(t, root, nil)
		inc, stats, ig := tables(t, root, baseOf(prev))
		if from, ok := ig.EdgesFromBase(0, len(ig.Edges)); st.name == "a comment at the end" && (!ok || from != 0) {
			t.Errorf("%s: the edges are the base's, row for row, and EdgesFromBase does not say so", st.name)
		}
		for name, sum := range full {
			if inc[name] != sum {
				t.Errorf("%s: table %s differs between the full and the incremental index", st.name, name)
			}
		}
		if len(inc) != len(full) {
			t.Errorf("%s: %d tables incremental, %d full", st.name, len(inc), len(full))
		}
		if st.parsed >= 0 && stats.FilesParsed != st.parsed {
			t.Errorf("%s: %d files parsed, want %d (%d reused)", st.name, stats.FilesParsed, st.parsed, stats.FilesReused)
		}
		if st.parsed == 0 && stats.FilesReused == 0 {
			t.Errorf("%s: nothing reused", st.name)
		}
		if alone := stats.EdgesReused > 0; alone != st.alone {
			t.Errorf("%s: %d edges taken from the base; want the parsed files' references resolved alone: %v", st.name, stats.EdgesReused, st.alone)
		}
		prev = g
	}
}

// TestIncrementalGrammarChange reparses a language whose grammar version
// differs from the base's.
func TestIncrementalGrammarChange(t *testing.T) {
	root := t.TempDir()
	copyDir(t, "../../testdata/go/shop", root)
	_, _, g := tables(t, root, nil)
	b := baseOf(g)
	b.Grammars = map[string]string{"go": "v0.0.0"}
	_, stats, _ := tables(t, root, b)
	if stats.FilesReused != 0 || stats.FilesParsed == 0 {
		t.Fatalf("a base of another grammar was reused: %+v", stats)
	}
}

// TestIncrementalBaseEdgesFail: when the base's edges cannot be read, a
// run resolves everything instead, and its tables are a full index's.
func TestIncrementalBaseEdgesFail(t *testing.T) {
	root := t.TempDir()
	copyDir(t, "../../testdata/go/shop", root)
	_, _, g := tables(t, root, nil)
	b := baseOf(g)
	baseEdges[b] = func() ([]schemas.Edge, error) { return nil, errors.New("no edges") }
	p := filepath.Join(root, "store/store.go")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, "// the end\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	full, _, _ := tables(t, root, nil)
	inc, stats, _ := tables(t, root, b)
	if fmt.Sprint(inc) != fmt.Sprint(full) || stats.EdgesReused != 0 || stats.FilesParsed != 1 {
		t.Fatalf("incremental %v (%+v), full %v", inc, stats, full)
	}
}
