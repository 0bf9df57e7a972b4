package languagetest

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// ComparePlan extracts each of srcs (named by names) with two extractors
// of l, one running its query by plan and one on tree-sitter's query
// cursor (see indexer.UseQueryCursor), and fails t where their results
// differ. Both extractors read tree.
func ComparePlan(t testing.TB, l indexer.Language, tree *indexer.Tree, names []string, srcs [][]byte) {
	t.Helper()
	planned, err := l.NewExtractor(tree)
	if err != nil {
		t.Fatal(err)
	}
	defer planned.Close()
	indexer.UseQueryCursor(true)
	cursor, err := l.NewExtractor(tree)
	indexer.UseQueryCursor(false)
	if err != nil {
		t.Fatal(err)
	}
	defer cursor.Close()
	for i, src := range srcs {
		a, errA := planned.Extract(context.Background(), names[i], src)
		b, errB := cursor.Extract(context.Background(), names[i], src)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("%s: by plan: %v; on the cursor: %v", names[i], errA, errB)
		}
		if errA != nil {
			continue
		}
		// The indexer sorts every file's rows, so their order is not the
		// extractor's to keep (some emit refs in map order).
		for _, r := range []*indexer.Result{a, b} {
			slices.SortStableFunc(r.Nodes, func(x, y schemas.Node) int { return cmp.Compare(x.ID, y.ID) })
			indexer.SortRefs(r.Refs)
		}
		if diff := firstDiff(a, b); diff != "" {
			t.Fatalf("%s: by plan and on the cursor: %s", names[i], diff)
		}
	}
}

// firstDiff describes the first difference between two results, or
// returns "" when they are equal.
func firstDiff(a, b *indexer.Result) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	for i := range min(len(a.Nodes), len(b.Nodes)) {
		if !reflect.DeepEqual(a.Nodes[i], b.Nodes[i]) {
			return fmt.Sprintf("node %d: %+v against %+v", i, a.Nodes[i], b.Nodes[i])
		}
	}
	for i := range min(len(a.Refs), len(b.Refs)) {
		if !reflect.DeepEqual(a.Refs[i], b.Refs[i]) {
			return fmt.Sprintf("ref %d: %+v against %+v", i, a.Refs[i], b.Refs[i])
		}
	}
	return fmt.Sprintf("%d nodes, %d refs, parse error %q against %d nodes, %d refs, parse error %q",
		len(a.Nodes), len(a.Refs), a.ParseError, len(b.Nodes), len(b.Refs), b.ParseError)
}

// GrammarSamples returns the sources that come with the grammar module
// (by its module path, as `go list -m` knows it from go.mod): every file
// under it with one of exts, and the code of each case of its
// test/corpus/*.txt (tree-sitter's test format: a title between rules of
// =, the code, a rule of -, the expected tree). They are small and odd on
// purpose, which is what a comparison of two matchers wants.
func GrammarSamples(t testing.TB, module string, exts ...string) (names []string, srcs [][]byte) {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Fatalf("locate %s: %v (go list -m: %q)", module, err, out)
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case slices.Contains(exts, filepath.Ext(p)):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			names, srcs = append(names, rel), append(srcs, data)
		case strings.HasPrefix(filepath.ToSlash(rel), "test/corpus/") && strings.HasSuffix(p, ".txt"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for i, code := range corpusCases(data) {
				names, srcs = append(names, fmt.Sprintf("%s#%d", rel, i)), append(srcs, code)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, srcs
}

// corpusCases returns the code of each case of a tree-sitter corpus file.
func corpusCases(data []byte) [][]byte {
	var out [][]byte
	lines := bytes.SplitAfter(data, []byte("\n"))
	rule := func(l []byte, c byte) bool {
		l = bytes.TrimRight(l, "\r\n")
		return len(l) >= 3 && len(bytes.Trim(l, string(c))) == 0
	}
	for i := 0; i < len(lines); i++ {
		if !rule(lines[i], '=') {
			continue
		}
		// The title, then the closing rule of =.
		j := i + 1
		for j < len(lines) && !rule(lines[j], '=') {
			j++
		}
		var code []byte
		k := j + 1
		for ; k < len(lines) && !rule(lines[k], '-'); k++ {
			code = append(code, lines[k]...)
		}
		out = append(out, code)
		i = k
	}
	return out
}

// CheckPlan fails t unless planned (the language's query runs by plan:
// the caller asks its indexer.Query), then compares extraction by plan and
// on the query cursor (ComparePlan) over the samples of the grammar module
// (GrammarSamples) and the files matching globs.
func CheckPlan(t *testing.T, planned bool, l indexer.Language, module string, exts []string, globs ...string) {
	t.Helper()
	if !planned {
		t.Fatalf("the %s query runs on the query cursor, not by plan", l.Name())
	}
	names, srcs := GrammarSamples(t, module, exts...)
	more, moreSrcs := readGlobs(t, globs...)
	names, srcs = append(names, more...), append(srcs, moreSrcs...)
	if len(names) < 50 {
		t.Fatalf("only %d %s samples", len(names), l.Name())
	}
	ComparePlan(t, l, &indexer.Tree{Root: "/", Paths: map[string]bool{}}, names, srcs)
}

// Seed adds the files matching globs to f's seed corpus.
func Seed(f *testing.F, globs ...string) {
	f.Helper()
	_, srcs := readGlobs(f, globs...)
	for _, src := range srcs {
		f.Add(src)
	}
}

// readGlobs reads the files matching globs, failing t when a glob matches
// none.
func readGlobs(t testing.TB, globs ...string) (names []string, srcs [][]byte) {
	t.Helper()
	for _, g := range globs {
		paths, err := filepath.Glob(g)
		if err != nil || len(paths) == 0 {
			t.Fatalf("no files match %s (%v)", g, err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			names, srcs = append(names, p), append(srcs, data)
		}
	}
	return names, srcs
}
