package languages

import (
	"context"
	"errors"
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

// FuzzWalk holds the plans' walk to tree-sitter's cursor on arbitrary
// bytes, parsed by every grammar: error recovery makes the trees no corpus
// has (ERROR and MISSING nodes, extras anywhere).
func FuzzWalk(f *testing.F) {
	f.Add([]byte("package a\nfunc f() { g(1, x.y) }\n"))
	f.Add([]byte("fn f<T: A + B>(x: &mut T) -> impl Fn() { let (a, b) = x.m(); }"))
	f.Add([]byte("class A extends B { m() { return <div>{a?.b}</div> } }"))
	f.Add([]byte("\x00\xff{{{(((("))
	f.Add([]byte("def f(x):\n\tif x:\n  return 1\n"))
	langs := All()
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, l := range langs {
			_, err := indexer.CheckWalk(unsafe.Pointer(l.Grammar().Inner), src)
			if err != nil && !errors.Is(err, indexer.ErrParseBudget) { // no tree to walk
				t.Fatalf("%s: %v", l.Name(), err)
			}
		}
	})
}

// endlessSwift is input on which the Swift grammar's error recovery runs
// without end (FuzzWalk found it).
const endlessSwift = "cv\x10 }\aA extends B { m() { return <div>et{a</dilass }"

// TestParseBudget indexes a tree holding a file whose parse never ends
// by itself: the index finishes, with that file a parse error saying so
// and the other files indexed.
func TestParseBudget(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"Endless.swift": endlessSwift,
		"Fine.swift":    "func fine() -> Int { return 1 }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: All(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, f := range g.Files {
		status[f.Path] = f.Status + ": " + f.Error
	}
	if got := status["Endless.swift"]; !strings.HasPrefix(got, "parse_error: ") || !strings.Contains(got, indexer.ErrParseBudget.Error()) {
		t.Errorf("Endless.swift: %q, want a parse error saying %q", got, indexer.ErrParseBudget)
	}
	if got := status["Fine.swift"]; got != "ok: " {
		t.Errorf("Fine.swift: %q, want ok", got)
	}
	found := false
	for _, n := range g.Nodes {
		found = found || n.Name == "fine" && n.File == "Fine.swift"
	}
	if !found {
		t.Error("Fine.swift's function fine is not a node")
	}
}

// TestWideLookahead parses shell with code points past U+FFFF where
// tree-sitter-bash's scanner asks isdigit about them (after "{"), which
// read past glibc's table and crashed the process (see snap_ctype_wide).
func TestWideLookahead(t *testing.T) {
	bash := unsafe.Pointer(bashLanguage(t).Grammar().Inner)
	for _, src := range []string{"echo U{\U0006d8f9}\n", "a=( {\U0010ffff.. )\n", "echo {😀,x}\n", "x U{\U0006d8f9"} {
		if _, err := indexer.CheckWalk(bash, []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

func bashLanguage(t *testing.T) indexer.Language {
	for _, l := range All() {
		if l.Name() == "bash" {
			return l
		}
	}
	t.Fatal("no bash among the languages")
	return nil
}
