package languagetest

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
)

// The helpers below serve the checks of a language against a judge: a
// compiler or an analyzer run over a tree, whose answers the graph of
// the same tree is compared with.

// LookTool returns the path of the program name, or ends the test as
// NeedTool does when it is missing; need says what needs it and how to
// install it.
func LookTool(t testing.TB, name, need string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		NeedTool(t, name+" not found: "+need)
	}
	return p
}

// Roots returns the trees a check runs over: the fixture, then the
// folders listed in $env (colon-separated).
func Roots(fixture, env string) []string {
	roots := []string{fixture}
	if extra := os.Getenv(env); extra != "" {
		roots = append(roots, filepath.SplitList(extra)...)
	}
	return roots
}

// IsFixture reports whether root is a fixture of the repository, whose
// figures a check holds to its floors.
func IsFixture(root string) bool { return strings.HasPrefix(root, "../../testdata/") }

// AbsTree returns root as an absolute path with no symbolic link, as a
// judge names the files it read.
func AbsTree(t testing.TB, root string) string {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// RunJudge runs cmd, a judge's script, and returns what it printed. It
// fails t when the script fails, with what it printed on standard error.
func RunJudge(t testing.TB, cmd *exec.Cmd) (stdout, stderr *bytes.Buffer) {
	t.Helper()
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr)
	}
	return stdout, stderr
}

// JSONLines decodes each line of out as a T, failing t (in the name of
// script) on one that does not decode.
func JSONLines[T any](t testing.TB, script string, out *bytes.Buffer) []T {
	t.Helper()
	var all []T
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s printed %q: %v", script, sc.Text(), err)
		}
		all = append(all, v)
	}
	return all
}

// IndexTree indexes the tree at dir with langs, without the sources, as
// a check against a judge reads it.
func IndexTree(t testing.TB, dir string, langs ...indexer.Language) *indexer.Graph {
	t.Helper()
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs, Workers: 2, NoSources: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Score is how the edges at calls compare with a judge's answers.
type Score struct {
	Truth      int // the calls the judge answered, recall's whole
	Found      int // of them, those an edge agrees with
	Edges      int // the edges at calls the judge answered, precision's whole
	Agree      int // of them, those that agree with the judge
	Unverified int // the edges at calls the judge did not answer
}

// Precision is the share of the edges that agree with the judge.
func (s Score) Precision() float64 { return float64(s.Agree) / float64(max(1, s.Edges)) }

// Recall is the share of the judge's calls found.
func (s Score) Recall() float64 { return float64(s.Found) / float64(max(1, s.Truth)) }

// Floor is the least precision and recall a check holds its fixture to.
type Floor struct{ Precision, Recall float64 }

// CheckRoots runs check over Roots(fixture, env), each in a subtest named
// by its folder (a folder called src by its parent's name: click/src is
// click), and fails the fixture's when its Score falls below floor.
func CheckRoots(t *testing.T, fixture, env string, floor Floor, check func(t *testing.T, root string) Score) {
	t.Helper()
	for _, root := range Roots(fixture, env) {
		name := filepath.Base(root)
		if name == "src" {
			name = filepath.Base(filepath.Dir(root))
		}
		t.Run(name, func(t *testing.T) {
			s := check(t, root)
			if root == fixture && (s.Precision() < floor.Precision || s.Recall() < floor.Recall) {
				t.Errorf("precision %.4f, recall %.4f: below the floor of %.4f, %.4f", s.Precision(), s.Recall(), floor.Precision, floor.Recall)
			}
		})
	}
}

// LogMissed logs how many of the judge's calls were missed for each
// reason, the most common first, at most most reasons.
func LogMissed(t testing.TB, reasons map[string]int, most int) {
	t.Helper()
	keys := slices.SortedFunc(maps.Keys(reasons), func(a, b string) int { return cmp.Or(reasons[b]-reasons[a], strings.Compare(a, b)) })
	for i, r := range keys {
		if i == most {
			t.Logf("missed … and %d more reasons", len(keys)-most)
			break
		}
		t.Logf("missed %5d  %s", reasons[r], r)
	}
}
