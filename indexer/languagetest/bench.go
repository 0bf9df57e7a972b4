package languagetest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/graphsnap/snap/indexer"
)

// Corpus is the files a language's benchmarks run over: those of the
// language under $env when it is set (a larger tree), else under root
// (the fixture).
type Corpus struct {
	Names []string
	Srcs  [][]byte
	Size  int
}

// LoadCorpus reads the files of l under $env, or root. It fails b when
// there are none.
func LoadCorpus(b *testing.B, l indexer.Language, root, env string) Corpus {
	b.Helper()
	if v := os.Getenv(env); v != "" {
		root = v
	}
	var c Corpus
	err := filepath.WalkDir(root, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.Contains(l.Extensions(), filepath.Ext(name)) {
			return err
		}
		src, err := os.ReadFile(name)
		if err != nil || len(src) > indexer.DefaultMaxFileSize {
			return err
		}
		c.Names, c.Srcs, c.Size = append(c.Names, name), append(c.Srcs, src), c.Size+len(src)
		return nil
	})
	if err != nil || len(c.Srcs) == 0 {
		b.Fatalf("no %s files under %s: %v", l.Name(), root, err)
	}
	indexer.UseCAllocator()
	return c
}

// BenchmarkExtract extracts every file of the corpus with l, reporting
// bytes per second.
func BenchmarkExtract(b *testing.B, l indexer.Language, c Corpus) {
	x, err := l.NewExtractor(&indexer.Tree{Paths: map[string]bool{}})
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	b.SetBytes(int64(c.Size))
	for b.Loop() {
		for i, src := range c.Srcs {
			if _, err := x.Extract(context.Background(), c.Names[i], src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExtractCursor is BenchmarkExtract with l's query on
// tree-sitter's query cursor even when it has a plan (see
// indexer.UseQueryCursor): the two side by side show what the plan saves.
func BenchmarkExtractCursor(b *testing.B, l indexer.Language, c Corpus) {
	indexer.UseQueryCursor(true)
	defer indexer.UseQueryCursor(false)
	BenchmarkExtract(b, l, c)
}

// BenchmarkParse is the bare parse of the same files with l's grammar,
// the yardstick of BenchmarkExtract.
func BenchmarkParse(b *testing.B, l indexer.Language, c Corpus) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(l.Grammar()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(c.Size))
	for b.Loop() {
		for _, src := range c.Srcs {
			p.Parse(src, nil).Close()
		}
	}
}
