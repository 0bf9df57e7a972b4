package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestQueryHistoryGolden holds the answers of the history tools over a
// real history of the Go fixture, through `snap query` and the local
// cache: the second commit adds a function and changes a signature, the
// third removes a function its file's neighbours call. Commit hashes are
// replaced by their order; times, sizes and versions are blanked.
func TestQueryHistoryGolden(t *testing.T) {
	dir := copyTree(t, "../../testdata/go/shop")
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "remote", "add", "origin", "https://github.com/example/shop.git")
	file := filepath.Join(dir, "store", "store.go")
	edits := []func(string) string{
		func(s string) string { return s },
		func(s string) string {
			s = strings.Replace(s, "func Total(items ...Item) int {", "func Total(discount int, items ...Item) int {", 1)
			return s + "\n// Discount lowers an item's price.\nfunc Discount(it Item, pct int) Item {\n\tit.Price -= it.Price * pct / 100\n\treturn it\n}\n"
		},
		func(s string) string {
			i := strings.Index(s, "// Swap puts")
			j := strings.Index(s, "// Discount lowers")
			return s[:i] + s[j:]
		},
	}
	var commits []string
	for i, edit := range edits {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(edit(string(src))), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", i+1))
		commits = append(commits, gitRun(t, dir, "rev-parse", "HEAD"))
		if code, _, stderr := run(t, dir, "index", "-q"); code != 0 {
			t.Fatalf("index: %s", stderr)
		}
	}
	blank := regexp.MustCompile(`"(indexed_at|bytes|build_ms|snap_version|indexer_version)": ("[^"]*"|[0-9]+)`)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"snapshots", []string{"snapshots"}},
		{"diff_first_last", []string{"diff", "--from", commits[0][:8]}},
		{"diff_middle", []string{"diff", "--from", commits[0][:8], "--to", commits[1][:8]}},
		{"history_total", []string{"history", "--name", "store.Total"}},
		{"history_swap", []string{"history", "--name", "Swap"}},
		{"history_nodes", []string{"history", "--metric", "nodes"}},
	} {
		code, stdout, stderr := run(t, dir, append([]string{"query"}, c.args...)...)
		if code != 0 {
			t.Errorf("query %v: exit %d\n%s%s", c.args, code, stdout, stderr)
			continue
		}
		got := blank.ReplaceAllString(stdout, `"$1": "…"`)
		for i, commit := range commits {
			got = strings.ReplaceAll(got, commit, fmt.Sprintf("COMMIT%d", i+1))
		}
		golden(t, "history_"+c.name+".json", got)
	}
}
