package query_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
)

// indexed indexes a Go module made of files (path → content) and builds
// an engine on it.
func indexed(t *testing.T, files map[string]string) *query.Engine {
	t.Helper()
	return indexedWith(t, files, golang.New())
}

// indexedWith indexes files (path → content) in languages and builds an
// engine on them.
func indexedWith(t *testing.T, files map[string]string, langs ...indexer.Language) *query.Engine {
	t.Helper()
	dir := t.TempDir()
	for p, src := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	e, err := query.Build(&snapshot.Snapshot{Nodes: g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var storeFiles = map[string]string{
	"go.mod": "module example.com/store\n\ngo 1.22\n",
	"cache.go": `package store

// Cache keeps entries.
type Cache struct {
	entries map[string]string
	order   []string
	config  string
}

// Evict drops the oldest entries.
func (c *Cache) Evict(n int) {
	for n > 0 && len(c.order) > 0 {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
		n--
	}
}

// LoadConfig reads the cache's settings from a file.
func LoadConfig(path string) (string, error) {
	return path, nil
}

func sweep(c *Cache) {
	// Stale tickets expire after their deadline: drop them.
	for _, k := range c.order {
		if strings.HasPrefix(k, "stale-ticket") {
			delete(c.entries, k)
		}
	}
}

func Add(a, b int) int { return a + b }
`,
	"cache_test.go": `package store

import "testing"

func TestEvictDropsOldestEntries(t *testing.T) {
	c := &Cache{entries: map[string]string{}}
	c.Evict(1)
}
`,
}

// ctxNames returns the qualified names of syms.
func ctxNames(e *query.Engine, syms []query.ContextSymbol) []string {
	var out []string
	for _, s := range syms {
		out = append(out, e.NodeQName(s.Node))
	}
	return out
}

func TestContextTestsApart(t *testing.T) {
	e := indexed(t, storeFiles)
	res := e.Context("evict the oldest entries", query.ContextOptions{})
	got, tests := ctxNames(e, res.Symbols), ctxNames(e, res.Tests)
	if len(got) == 0 || !strings.HasSuffix(got[0], "Evict") {
		t.Errorf("symbols %v, want Evict first", got)
	}
	for _, s := range res.Symbols {
		if strings.HasSuffix(e.NodeFile(s.Node), "_test.go") {
			t.Errorf("a test among the symbols: %s", e.NodeQName(s.Node))
		}
	}
	if !slices.ContainsFunc(tests, func(q string) bool { return strings.HasSuffix(q, "TestEvictDropsOldestEntries") }) {
		t.Errorf("tests %v, want TestEvictDropsOldestEntries", tests)
	}
	for _, s := range res.Tests {
		if s.Code != "" {
			t.Errorf("test %s with code", e.NodeQName(s.Node))
		}
	}
	// A file filter keeps what it names, tests or not.
	res = e.Context("evict the oldest entries", query.ContextOptions{File: "cache_test.go"})
	if got := ctxNames(e, res.Symbols); len(got) == 0 || !strings.HasSuffix(got[0], "TestEvictDropsOldestEntries") || len(res.Tests) != 0 {
		t.Errorf("file cache_test.go: symbols %v, tests %v", got, ctxNames(e, res.Tests))
	}
}

func TestContextBodies(t *testing.T) {
	e := indexed(t, storeFiles)
	// Words only the body of sweep holds.
	res := e.Context("expire stale tickets after the deadline", query.ContextOptions{})
	if got := ctxNames(e, res.Symbols); len(got) == 0 || !strings.HasSuffix(got[0], "sweep") {
		t.Errorf("symbols %v, want sweep first", got)
	}
}

func TestContextFunctionsFirst(t *testing.T) {
	e := indexed(t, storeFiles)
	// The field config matches the one word whole; the function that
	// loads it comes first all the same.
	res := e.Context("config", query.ContextOptions{})
	got := ctxNames(e, res.Symbols)
	if len(got) < 2 || !strings.HasSuffix(got[0], "LoadConfig") || !slices.ContainsFunc(got, func(q string) bool { return strings.HasSuffix(q, "config") }) {
		t.Errorf("symbols %v, want LoadConfig first and the field config among them", got)
	}
}

func TestContextTaskWordsThatNameCode(t *testing.T) {
	e := indexed(t, storeFiles)
	// "add" names a function here; "fix" and "the" name nothing.
	res := e.Context("fix the add of two numbers", query.ContextOptions{})
	if !slices.Contains(res.Terms, "add") || slices.Contains(res.Terms, "fix") || slices.Contains(res.Terms, "the") {
		t.Errorf("terms %v, want add and neither fix nor the", res.Terms)
	}
	if got := ctxNames(e, res.Symbols); len(got) == 0 || !strings.HasSuffix(got[0], "Add") {
		t.Errorf("symbols %v, want Add first", got)
	}
	// Where a symbol is named add (app.db.Session.add), the word is kept;
	// where none is named implement, that is a verb.
	if res := build(t).Context("implement add to the session", query.ContextOptions{}); !slices.Contains(res.Terms, "add") || slices.Contains(res.Terms, "implement") {
		t.Errorf("fixture: terms %v, want add and not implement", res.Terms)
	}
}

func TestSearchWords(t *testing.T) {
	e := indexed(t, storeFiles)
	names := func(rows []int32) []string {
		var out []string
		for _, r := range rows {
			out = append(out, e.NodeName(r))
		}
		return out
	}
	got := names(e.SearchWords("where do stale tickets expire", query.SearchOptions{}))
	if len(got) == 0 || got[0] != "sweep" {
		t.Errorf("got %v, want sweep first", got)
	}
	got = names(e.SearchWords("evict the oldest entries", query.SearchOptions{}))
	if i, j := slices.Index(got, "Evict"), slices.Index(got, "TestEvictDropsOldestEntries"); i != 0 || j != len(got)-1 {
		t.Errorf("got %v, want Evict first and the test last", got)
	}
	got = names(e.SearchWords("evict the oldest entries", query.SearchOptions{Kinds: []string{"field"}, Limit: 2}))
	if len(got) == 0 || len(got) > 2 {
		t.Errorf("fields: got %v", got)
	}
	for _, r := range e.SearchWords("evict the oldest entries", query.SearchOptions{Kinds: []string{"field"}}) {
		if k := e.NodeKind(r); k != "field" {
			t.Errorf("kind %s kept", k)
		}
	}
}
