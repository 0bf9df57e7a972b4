package main

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// gitRepo makes a repository in a temp dir with a commit per tree, each
// a map of path to content (an empty content deletes the file), and
// returns it and the commits.
func gitRepo(t *testing.T, trees ...map[string]string) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to build the test repository: install git")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	var commits []string
	for i, tree := range trees {
		for p, content := range tree {
			full := filepath.Join(dir, p)
			if content == "" {
				os.Remove(full)
				continue
			}
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run("add", "-A")
		run("commit", "-q", "-m", "change number "+string(rune('a'+i))+" to the parser\n\nA body line.\nSigned-off-by: T <t@example.com>")
		commits = append(commits, run("rev-parse", "HEAD"))
	}
	return dir, commits
}

const before = `package p

// Parse reads a config.
func Parse(s string) int {
	n := len(s)
	return n
}

func Other() int {
	x := 1
	return x
}

func Untouched() int {
	return 2
}
`

// after changes a line of Parse, inserts a line inside Other, and adds a
// function after Untouched.
const after = `package p

// Parse reads a config.
func Parse(s string) int {
	n := len(s) + 1
	return n
}

func Other() int {
	x := 1
	x++
	return x
}

func Untouched() int {
	return 2
}

func Added() int { return 3 }
`

func TestPrepareTruth(t *testing.T) {
	dir, commits := gitRepo(t,
		map[string]string{"p/p.go": before, "p/p_test.go": "package p\n\nfunc TestParse() {\n\t_ = 1\n}\n"},
		map[string]string{"p/p.go": after, "p/p_test.go": "package p\n\nfunc TestParse() {\n\t_ = 2\n}\n"},
	)
	c, err := prepare(context.Background(), dir, "", repo{Lang: "go"}, commits[1])
	if err != nil {
		t.Fatal(err)
	}
	if c == nil {
		t.Fatal("not a case")
	}
	var got []string
	for i := range c.s.Nodes {
		if n := &c.s.Nodes[i]; c.fns[n.ID] {
			got = append(got, n.Name)
		}
	}
	slices.Sort(got)
	if want := []string{"Other", "Parse"}; !slices.Equal(got, want) {
		t.Errorf("changed functions %v, want %v", got, want)
	}
	if files := slices.Sorted(maps.Keys(c.files)); !slices.Equal(files, []string{"p/p.go"}) {
		t.Errorf("changed files %v", files)
	}
	if want := "change number b to the parser\nA body line."; c.task != want {
		t.Errorf("task %q, want %q", c.task, want)
	}
	// The first commit has no parent; a commit that changes tests only
	// is no case.
	dir, commits = gitRepo(t,
		map[string]string{"p/p.go": before, "p/p_test.go": "package p\n"},
		map[string]string{"p/p_test.go": "package p\n\nfunc TestX() {}\n"},
	)
	for _, commit := range commits {
		if c, err := prepare(context.Background(), dir, "", repo{Lang: "go"}, commit); c != nil || err != nil {
			t.Errorf("%s: a case (%v)", commit, err)
		}
	}
}

func TestParseDiff(t *testing.T) {
	diff := `diff --git a/old.go b/new.go
similarity index 90%
rename from old.go
rename to new.go
--- a/old.go
+++ b/new.go
@@ -3,2 +3,2 @@ func A() {
-a
-b
+c
+d
@@ -9,0 +10 @@ func B() {
+e
diff --git a/added.go b/added.go
new file mode 100644
--- /dev/null
+++ b/added.go
@@ -0,0 +1 @@
+x
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1 +0,0 @@
-y
`
	got, err := parseDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := []fileChange{
		{Path: "old.go", Status: 'R', Deleted: []lineRange{{3, 4}}, Inserted: []uint32{9}},
		{Path: "added.go", Status: 'A', Inserted: []uint32{0}},
		{Path: "gone.go", Status: 'D', Deleted: []lineRange{{1, 1}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestTerms(t *testing.T) {
	got := terms("parseHTTPHeader_value x, (*Client).Do2 ÉtéBon")
	want := []string{"parse", "http", "header", "value", "client", "do2", "été", "bon"}
	if !slices.Equal(got, want) {
		t.Errorf("terms %q, want %q", got, want)
	}
}

func TestBM25(t *testing.T) {
	x := newBM25([][]string{
		{"retry", "client", "request"}, // 0: the rarest word
		{"client", "send", "body"},     // 1: the commonest word only
		{"redirect", "client"},         // 2: a rarer word, short
		{"redirect", "client", "send", "body", "header", "close", "write"}, // 3: a rarer word, long
		{"unrelated"}, // 4: nothing
	})
	got := x.rank(terms("retry the client on redirect"))
	// A word one document holds beats one two hold; a short document
	// beats a long one with the same words; one word of the task is
	// behind them all; no match, no rank.
	if want := []int{0, 2, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("rank %v, want %v", got, want)
	}
}

func TestAcc(t *testing.T) {
	files := []string{"a", "a", "b", "a", "c"}
	for _, tc := range []struct {
		k    int
		want bool
	}{{1, false}, {2, false}, {3, true}} {
		if got := accFile(files, map[string]bool{"c": true}, tc.k); got != tc.want {
			t.Errorf("accFile k=%d: %v", tc.k, got)
		}
	}
	ids := []uint64{5, 6, 7}
	if accFunc(ids, map[uint64]bool{7: true}, 2) || !accFunc(ids, map[uint64]bool{7: true}, 3) || !accFunc(ids, map[uint64]bool{7: true}, 10) {
		t.Error("accFunc")
	}
	if accFunc(nil, map[uint64]bool{7: true}, 10) || accFile(nil, map[string]bool{"a": true}, 1) {
		t.Error("an empty ranking scores")
	}
}
