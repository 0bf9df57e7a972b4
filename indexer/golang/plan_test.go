package golang_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestPlanMatchesCursor extracts a sample of GOROOT's Go files (one in
// six, with and without syntax errors: GOROOT has a few on purpose, in
// testdata) both by plan and on the query cursor: the results must be the
// same, field for field.
func TestPlanMatchesCursor(t *testing.T) {
	src := filepath.Join(gorootDir(t), "src")
	var names []string
	var srcs [][]byte
	i := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		if i++; i%6 != 0 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) > indexer.DefaultMaxFileSize {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		names, srcs = append(names, filepath.ToSlash(rel)), append(srcs, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 500 {
		t.Fatalf("only %d Go files under %s", len(names), src)
	}
	languagetest.ComparePlan(t, golang.New(), &indexer.Tree{Root: src, Paths: map[string]bool{}}, names, srcs)
}

// The extraction benchmarks run over the shop fixture, or over the tree
// in $GO_CORPUS (for example "$(go env GOROOT)/src"):
//
//	GO_CORPUS=$(go env GOROOT)/src go test -run '^$' -bench 'Extract|Parse' ./indexer/golang
func corpus(b *testing.B) languagetest.Corpus {
	return languagetest.LoadCorpus(b, golang.New(), "../../testdata/go/shop", "GO_CORPUS")
}

func BenchmarkExtract(b *testing.B) { languagetest.BenchmarkExtract(b, golang.New(), corpus(b)) }
func BenchmarkExtractCursor(b *testing.B) {
	languagetest.BenchmarkExtractCursor(b, golang.New(), corpus(b))
}
func BenchmarkParse(b *testing.B) { languagetest.BenchmarkParse(b, golang.New(), corpus(b)) }
