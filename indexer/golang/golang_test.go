package golang_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/go/shop", "../../testdata/go/shop.golden.json", golang.New())
}

// TestResolveFiles: the edges ResolveFiles finds for some files are those
// ResolveParts finds whose File is one of them, for every file of a tree.
func TestResolveFiles(t *testing.T) {
	l := golang.New()
	g, err := indexer.Index(context.Background(), "../../testdata/go/shop", indexer.Options{Languages: []indexer.Language{l}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, parts := l.ResolveParts(slices.Clone(g.Nodes), g.Refs)
	all := slices.Concat(parts...)
	indexer.SortEdges(all)
	seen := 0
	for _, f := range g.Files {
		files := map[string]bool{f.Path: true}
		_, parts := l.ResolveFiles(slices.Clone(g.Nodes), g.Refs, files)
		got := indexer.SortEdges(parts...)
		want := indexer.SortEdges(slices.DeleteFunc(slices.Clone(all), func(e schemas.Edge) bool { return !files[e.File] }))
		if !slices.Equal(got, want) {
			t.Errorf("%s: ResolveFiles found %d edges, ResolveParts %d of the file's", f.Path, len(got), len(want))
		}
		seen += len(want)
	}
	if seen != len(all) || seen == 0 {
		t.Errorf("the files' edges add up to %d of %d", seen, len(all))
	}
}

// TestBuildVariants: a type declared once per platform, each with its
// methods beside it. Each method is its own file's type's, whichever of
// the declarations comes first by id, and the type's method set is the
// default build's: the variant built by default implements an interface
// of its methods, and no other does (windows' Fd returns a uintptr).
func TestBuildVariants(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":          "module example.com/v\n\ngo 1.22\n",
		"conn_linux.go":   "//go:build linux\n\npackage v\n\ntype Conn struct{ fd int }\n\nfunc (c *Conn) Close() error { return nil }\n\nfunc (c *Conn) Fd() int { return c.fd }\n",
		"conn_windows.go": "//go:build windows\n\npackage v\n\ntype Conn struct{ h uintptr }\n\nfunc (c *Conn) Close() error { return nil }\n\nfunc (c *Conn) Fd() uintptr { return c.h }\n",
		"conn_plan9.go":   "//go:build plan9\n\npackage v\n\ntype Conn struct{ p string }\n\nfunc (c *Conn) Close() error { return nil }\n\nfunc (c *Conn) Fd() string { return c.p }\n",
		"fd.go":           "package v\n\ntype FdCloser interface {\n\tClose() error\n\tFd() int\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: []indexer.Language{golang.New()}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uint64]schemas.Node{}
	conn := map[string]uint64{} // file → its Conn
	for _, n := range g.Nodes {
		byID[n.ID] = n
		if n.Name == "Conn" {
			conn[n.File] = n.ID
		}
	}
	methods := 0
	for _, n := range g.Nodes {
		if n.Kind != schemas.KindMethod || n.IsAbstract {
			continue
		}
		methods++
		if n.ParentID != conn[n.File] {
			t.Errorf("%s in %s: parent %s in %s, want the Conn of its file", n.Name, n.File, byID[n.ParentID].QualifiedName, byID[n.ParentID].File)
		}
	}
	if methods != 6 {
		t.Errorf("%d methods, want 6", methods)
	}
	var impl []string
	for _, e := range g.Edges {
		if e.Kind == schemas.EdgeImplements {
			impl = append(impl, byID[e.Src].File+" → "+byID[e.Dst].Name)
		}
	}
	if want := []string{"conn_linux.go → FdCloser"}; !slices.Equal(impl, want) {
		t.Errorf("implements %q, want %q", impl, want)
	}
}

// TestElements: values flow through slices, arrays and maps of a named
// type — a range's second variable, an index, a field, a result, a
// parameter — and nowhere else: a range over a function value, a named
// slice type, a lone range variable and a slice of slices stay unknown.
func TestElements(t *testing.T) {
	g := languagetest.Index(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"m.go": `package m

type Command struct{ subs []*Command; byName map[string]*Command }

func (c *Command) Name() string { return "" }
func (c *Command) Commands() []*Command { return c.subs }

type Commands []*Command

var all [4]*Command

func Walk(c *Command, list []*Command, deep [][]*Command, named Commands, seq func(func(int, *Command) bool)) {
	for _, sub := range c.Commands() {
		sub.Name()
	}
	for i := range list {
		list[i].Name()
	}
	c.byName["x"].Name()
	all[0].Name()
	for _, s := range c.subs {
		s.Name()
	}
	for _, d := range deep {
		d[0].Name()
	}
	for _, n := range named {
		n.Name()
	}
	for i, f := range seq {
		_, _ = i, f
	}
}
`}, golang.New())
	got := languagetest.Render(g).Edges
	languagetest.Expect(t, got, []string{
		"example.com/m.Walk -calls-> example.com/m.(*Command).Commands (receiver) m.go:13",
		"example.com/m.Walk -calls-> example.com/m.(*Command).Name (receiver) m.go:14 loop",
		"example.com/m.Walk -calls-> example.com/m.(*Command).Name (receiver) m.go:17 loop",
		"example.com/m.Walk -calls-> example.com/m.(*Command).Name (receiver) m.go:19",
		"example.com/m.Walk -calls-> example.com/m.(*Command).Name (receiver) m.go:20",
		"example.com/m.Walk -calls-> example.com/m.(*Command).Name (receiver) m.go:22 loop",
		"example.com/m.Walk -calls-> ?d[0].Name (unresolved: local d: range variable) m.go:25 loop",
		"example.com/m.Walk -calls-> ?n.Name (unresolved: range variable) m.go:28 loop",
	})
	for _, line := range []string{"m.go:25", "m.go:28"} {
		for _, e := range got {
			if strings.HasSuffix(e, line) && strings.Contains(e, "-calls-> example.com") {
				t.Errorf("a call linked through what stays unknown: %s", e)
			}
		}
	}
}
