package typescript_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/typescript/shop", "../../testdata/typescript/shop.golden.json", typescript.All()...)
}

// index indexes files (path → source) and returns the golden lines of its
// edges.
func index(t *testing.T, files map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: typescript.All(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return languagetest.Render(g).Edges
}

// expect checks that an edge starts with each of want (`src -kind-> dst
// (resolution`) and that none starts with any of wrong.
func expect(t *testing.T, edges []string, want []string, wrong ...string) {
	t.Helper()
	has := func(prefix string) bool {
		for _, e := range edges {
			if strings.HasPrefix(e, prefix) {
				return true
			}
		}
		return false
	}
	for _, w := range want {
		if !has(w) {
			t.Errorf("missing edge %q", w)
		}
	}
	for _, w := range wrong {
		if has(w) {
			t.Errorf("unexpected edge %q", w)
		}
	}
	if t.Failed() {
		t.Logf("edges:\n%s", strings.Join(edges, "\n"))
	}
}
