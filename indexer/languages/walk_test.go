package languages

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// grammarModules names the module of each language's grammar, whose test
// corpus holds its odd cases (Swift's grammar is vendored: its fixtures
// stand in).
var grammarModules = map[string]string{
	"bash":       "github.com/tree-sitter/tree-sitter-bash",
	"c":          "github.com/tree-sitter/tree-sitter-c",
	"cpp":        "github.com/tree-sitter/tree-sitter-cpp",
	"csharp":     "github.com/tree-sitter/tree-sitter-c-sharp",
	"go":         "github.com/tree-sitter/tree-sitter-go",
	"java":       "github.com/tree-sitter/tree-sitter-java",
	"javascript": "github.com/tree-sitter/tree-sitter-javascript",
	"kotlin":     "github.com/tree-sitter-grammars/tree-sitter-kotlin",
	"lua":        "github.com/tree-sitter-grammars/tree-sitter-lua",
	"php":        "github.com/tree-sitter/tree-sitter-php",
	"python":     "github.com/tree-sitter/tree-sitter-python",
	"ruby":       "github.com/tree-sitter/tree-sitter-ruby",
	"rust":       "github.com/tree-sitter/tree-sitter-rust",
	"scala":      "github.com/tree-sitter/tree-sitter-scala",
	"typescript": "github.com/tree-sitter/tree-sitter-typescript",
	"tsx":        "github.com/tree-sitter/tree-sitter-typescript",
}

// TestWalkMatchesCursor holds the plans' walk over tree-sitter's subtrees
// to tree-sitter's own cursor, node by node, for every grammar: over its
// corpus (aliases, hidden rules, extras, errors) and the fixtures.
func TestWalkMatchesCursor(t *testing.T) {
	for _, l := range All() {
		t.Run(l.Name(), func(t *testing.T) {
			var names []string
			var srcs [][]byte
			if m, ok := grammarModules[l.Name()]; ok {
				names, srcs = languagetest.GrammarSamples(t, m)
			} else if l.Name() != "swift" {
				t.Fatalf("no grammar module listed for %s", l.Name())
			}
			root := filepath.Join("..", "..", "testdata", l.Name())
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				names, srcs = append(names, p), append(srcs, data)
				return err
			})
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if l.Name() == "go" { // and large files: Go's own parser
				out, err := exec.Command("go", "env", "GOROOT").Output()
				if err != nil {
					t.Fatalf("go env GOROOT: %v", err)
				}
				paths, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "src", "go", "*", "*.go"))
				if len(paths) < 50 {
					t.Fatalf("only %d files in GOROOT/src/go", len(paths))
				}
				for _, p := range paths {
					data, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					names, srcs = append(names, p), append(srcs, data)
				}
			}
			if len(srcs) < 5 {
				t.Fatalf("only %d samples", len(srcs))
			}
			lang := unsafe.Pointer(l.Grammar().Inner)
			total := 0
			for i, src := range srcs {
				n, err := indexer.CheckWalk(lang, src)
				if err != nil {
					t.Fatalf("%s: %v", names[i], err)
				}
				total += n
			}
			t.Logf("%d samples, %d nodes", len(srcs), total)
		})
	}
}
