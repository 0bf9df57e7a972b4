package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// moduleDir fetches a module through the Go module proxy (or finds it in
// the module cache) and returns its folder.
func moduleDir(t testing.TB, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", mod, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download %s: %s %v", mod, m.Error, err)
	}
	return m.Dir
}

// indexAs indexes dir into store as repository repo, branch master.
func indexAs(t testing.TB, store, repo, dir string) {
	t.Helper()
	if code, _, stderr := snapIn(t, t.TempDir(), nil, "index", "-q", "--store", store, "--repo", repo, "--branch", "master", dir); code != 0 {
		t.Fatalf("snap index %s: exit %d\n%s", repo, code, stderr)
	}
}

func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-R", src+"/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v %s", src, err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dst).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v %s", err, out)
	}
	return dst
}

// sites lists the callers of an answer as "qname @file:line:col".
func sites(list any) (out []string) {
	items, _ := list.([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		out = append(out, fmt.Sprint(m["qname"], " @", m["at"]))
	}
	return out
}

// TestServeSeveralRepositories serves golang.org/x/net and the module it
// imports, golang.org/x/text, both as the proxy gives them, and
// golang.org/x/sync, which changes while served: calls from one module into
// the other are found, every lookup can be narrowed to one repository, and
// a new snapshot of one repository is joined in.
func TestServeSeveralRepositories(t *testing.T) {
	store := t.TempDir()
	indexAs(t, store, "golang.org/x/net", moduleDir(t, "golang.org/x/net@v0.60.0"))
	indexAs(t, store, "golang.org/x/text", moduleDir(t, "golang.org/x/text@v0.42.0"))
	syncDir := copyTree(t, moduleDir(t, "golang.org/x/sync@v0.24.0"))
	indexAs(t, store, "golang.org/x/sync", syncDir)

	sess, stderr := serveStore(t, t.TempDir(), nil, "--store", store, "--all-repos", "--sync", "200ms")
	status, isErr := call(t, sess, "snap_status", nil)
	if isErr {
		t.Fatalf("snap_status: %v\n%s", status, stderr)
	}
	var repos []string
	for _, r := range status["repos"].([]any) {
		repos = append(repos, r.(map[string]any)["name"].(string))
	}
	if want := []string{"golang.org/x/net", "golang.org/x/sync", "golang.org/x/text"}; !slices.Equal(repos, want) {
		t.Fatalf("repos = %q, want %q", repos, want)
	}

	// x/net's html/charset calls x/text's htmlindex.Get.
	ans, isErr := call(t, sess, "snap_calls", map[string]any{"name": "golang.org/x/text/encoding/htmlindex.Get"})
	if isErr || !slices.ContainsFunc(sites(ans["callers"]), func(s string) bool {
		return strings.HasPrefix(s, "golang.org/x/net/html/charset.Lookup @golang.org/x/net/html/charset/charset.go:")
	}) {
		t.Errorf("callers of htmlindex.Get = %v, want x/net's charset.Lookup", ans)
	}
	// And the impact of a change to it reaches past Lookup, into x/net.
	ans, isErr = call(t, sess, "snap_impact", map[string]any{"name": "Get", "repo": "golang.org/x/text", "file": "encoding/htmlindex/htmlindex.go", "depth": 2})
	if isErr || !strings.Contains(mustJSON(ans), `"golang.org/x/net/html/charset.NewReaderLabel"`) {
		t.Errorf("impact of htmlindex.Get = %s, want x/net's NewReaderLabel at depth 2", mustJSON(ans))
	}
	// A plain name both modules declare: ambiguous across, one within.
	if ans, _ := call(t, sess, "snap_symbol", map[string]any{"name": "NewReader"}); errCode(ans) != "AMBIGUOUS_SYMBOL" {
		t.Errorf("NewReader everywhere: %s, want AMBIGUOUS_SYMBOL", mustJSON(ans))
	}
	ans, isErr = call(t, sess, "snap_search", map[string]any{"query": "NewReader", "repo": "golang.org/x/net", "limit": 100})
	if res := mustJSON(ans["results"]); isErr || strings.Contains(res, "golang.org/x/text/") || !strings.Contains(res, "golang.org/x/net/") {
		t.Errorf("search NewReader in x/net = %s", res)
	}
	ans, isErr = call(t, sess, "snap_symbols_overview", map[string]any{"file": "html/charset/charset.go", "repo": "golang.org/x/net", "limit": 1})
	if isErr || ans["file"] != "golang.org/x/net/html/charset/charset.go" {
		t.Errorf("symbols_overview relative to x/net = %s", mustJSON(ans))
	}
	if ans, _ := call(t, sess, "snap_search", map[string]any{"query": "Get", "repo": "golang.org/x/tools"}); errCode(ans) != "INVALID_ARGUMENT" ||
		!strings.Contains(mustJSON(ans), "golang.org/x/text") {
		t.Errorf("unknown repo: %s", mustJSON(ans))
	}

	// A new snapshot of x/sync is synced and joined; the others stay.
	if err := os.WriteFile(filepath.Join(syncDir, "fresh", "fresh.go"), nil, 0o644); err == nil {
		t.Fatal("fresh/ should not exist yet")
	}
	if err := os.MkdirAll(filepath.Join(syncDir, "fresh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(syncDir, "fresh", "fresh.go"), []byte("package fresh\n\nfunc FreshlyAdded() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	indexAs(t, store, "golang.org/x/sync", syncDir)
	deadline := time.Now().Add(time.Minute)
	for {
		ans, _ := call(t, sess, "snap_symbol", map[string]any{"name": "FreshlyAdded"})
		if errCode(ans) == "" {
			if !strings.Contains(mustJSON(ans), "golang.org/x/sync/fresh/fresh.go") {
				t.Errorf("FreshlyAdded = %s", mustJSON(ans))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new x/sync snapshot was not joined in a minute\n%s", stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	ans, _ = call(t, sess, "snap_calls", map[string]any{"name": "golang.org/x/text/encoding/htmlindex.Get"})
	if len(sites(ans["callers"])) == 0 {
		t.Errorf("after the join, callers of htmlindex.Get = %s", mustJSON(ans))
	}
	status, _ = call(t, sess, "snap_status", nil)
	if s := syncState(t, status); s["swaps"] != float64(1) {
		t.Errorf("swaps = %v, want 1", s["swaps"])
	}
}

// TestServeSeveralRepositoriesUsage: what cannot be served is said at
// once, with exit code 2.
func TestServeSeveralRepositoriesUsage(t *testing.T) {
	store := t.TempDir()
	indexAs(t, store, "golang.org/x/sync", moduleDir(t, "golang.org/x/sync@v0.24.0"))
	shop, err := filepath.Abs(filepath.Join("..", "testdata", "go", "shop"))
	if err != nil {
		t.Fatal(err)
	}
	indexAs(t, store, "example.com/other", shop)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--repo", "golang.org/x/sync", "--repo", "golang.org/x/nope"}, "no repository golang.org/x/nope"},
		{[]string{"--repo", "golang.org/x/sync", "--repo", "example.com/other:release"}, "no branch release of example.com/other"},
		{[]string{"--repo", "golang.org/x/sync", "--repo", "golang.org/x/sync"}, "given twice"},
		{[]string{"--all-repos", "--memory", "1KiB"}, "no repository fits"},
		{[]string{"--all-repos", "--memory", "lots"}, "--memory lots"},
		{[]string{"--all-repos", "--repo", "golang.org/x/sync"}, "drop --repo"},
		{[]string{"--memory", "1GiB"}, "--memory bounds several repositories"},
		{[]string{"--all-repos", "--snapshot", store}, "--snapshot names one snapshot"},
	} {
		code, _, stderr := snapIn(t, t.TempDir(), nil, append([]string{"serve", "--store", store}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("serve %q: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
