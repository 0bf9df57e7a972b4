package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

// githubEnv sets the variables GitHub Actions gives a step, for an event
// with payload, and returns the files of $GITHUB_OUTPUT and
// $GITHUB_STEP_SUMMARY.
func githubEnv(t *testing.T, event, ref, sha string, payload map[string]any) (outputs, summary string) {
	t.Helper()
	dir := t.TempDir()
	raw, _ := json.Marshal(payload)
	eventPath := filepath.Join(dir, "event.json")
	os.WriteFile(eventPath, raw, 0o644)
	outputs, summary = filepath.Join(dir, "output"), filepath.Join(dir, "summary")
	for k, v := range map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "example/shop", "GITHUB_SHA": sha,
		"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": eventPath, "GITHUB_REF_NAME": ref,
		"GITHUB_OUTPUT": outputs, "GITHUB_STEP_SUMMARY": summary, "GITHUB_HEAD_REF": "", "GITHUB_BASE_REF": "",
		"CI": "true", "SNAP_STORE": "",
	} {
		t.Setenv(k, v)
	}
	return outputs, summary
}

func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(raw)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		out[k] = v
	}
	return out
}

// TestCI runs `snap ci` as GitHub Actions would, each run in a fresh
// output folder as a fresh runner has: a first push indexes everything, the
// next parses only what changed, and a pull request that removes a called
// function is diffed against its target and fails the gate.
func TestCI(t *testing.T) {
	dir, commits := history(t, 1)
	remote := filepath.Join(t.TempDir(), "remote")
	payload := map[string]any{"repository": map[string]any{"default_branch": "main"}}

	outputs, _ := githubEnv(t, "push", "main", commits[0], payload)
	code, _, stderr := run(t, dir, "ci", "--store", remote, "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("first push: %s", stderr)
	}
	first := readOutputs(t, outputs)
	if first["commit"] != commits[0] || first["files-parsed"] == "0" || first["nodes"] == "" {
		t.Fatalf("first run's outputs: %v", first)
	}

	os.WriteFile(filepath.Join(dir, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "more")
	c1 := gitRun(t, dir, "rev-parse", "HEAD")
	outputs, _ = githubEnv(t, "push", "main", c1, payload)
	if code, _, stderr = run(t, dir, "ci", "--store", remote, "--out", t.TempDir()); code != 0 {
		t.Fatalf("second push: %s", stderr)
	}
	second := readOutputs(t, outputs)
	if second["files-parsed"] != "1" || second["commit"] != c1 {
		t.Errorf("second run parsed %s files (want 1): %v", second["files-parsed"], second)
	}
	code, stdout, _ := run(t, dir, "ls", "--store", remote, "--json")
	if ls := jsonOf[schemas.Listing](t, "listing", stdout); code != 0 || len(ls.Branches) != 1 || ls.Branches[0].Head != c1 || ls.Branches[0].Generation != 2 {
		t.Fatalf("store after two pushes: %s", stdout)
	}

	// A pull request from feature into main that removes Total.
	gitRun(t, dir, "checkout", "-q", "-b", "feature")
	src, _ := os.ReadFile(filepath.Join(dir, "store", "store.go"))
	s := strings.Replace(string(src), "// Total sums prices.\nfunc Total(items ...Item) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it.Price\n\t}\n\treturn sum\n}\n", "", 1)
	os.WriteFile(filepath.Join(dir, "store", "store.go"), []byte(s), 0o644)
	gitRun(t, dir, "commit", "-q", "-am", "drop Total")
	c2 := gitRun(t, dir, "rev-parse", "HEAD")
	payload["number"] = 7
	outputs, summary := githubEnv(t, "pull_request", "7/merge", c2, payload)
	t.Setenv("GITHUB_HEAD_REF", "feature")
	t.Setenv("GITHUB_BASE_REF", "main")
	out := t.TempDir()
	code, stdout, stderr = run(t, dir, "ci", "--store", remote, "--out", out, "--fail-on", "broken")
	if code != 1 || !strings.Contains(stderr, "--fail-on broken: 1") {
		t.Fatalf("pull request with a broken caller: exit %d, %s", code, stderr)
	}
	if !strings.Contains(stdout, "::error file=store/more.go,line=3,col=") || !strings.Contains(stdout, "title=snap%3A removed Total::example.com/shop/store.More still uses example.com/shop/store.Total") {
		t.Errorf("no annotation on the broken caller:\n%s", stdout)
	}
	pr := readOutputs(t, outputs)
	if pr["files-parsed"] != "1" || pr["diff-json"] == "" || pr["broken"] != "1" {
		t.Errorf("pull request outputs: %v", pr)
	}
	raw, err := os.ReadFile(pr["diff-json"])
	if err != nil {
		t.Fatal(err)
	}
	d := jsonOf[schemas.Diff](t, "diff", string(raw))
	if d.Summary.Broken != 1 || d.From.Commit != c1 || d.To.Commit != c2 {
		t.Errorf("diff: %+v from %s to %s", d.Summary, d.From.Commit, d.To.Commit)
	}
	md, _ := os.ReadFile(summary)
	if !strings.Contains(string(md), "### snap diff: `main` → `feature`") || !strings.Contains(string(md), "example.com/shop/store.More") {
		t.Errorf("job summary: %s", md)
	}
	if code, stdout, _ = run(t, dir, "ls", "--store", remote, "--json"); code != 0 || len(jsonOf[schemas.Listing](t, "listing", stdout).Branches) != 1 {
		t.Errorf("a pull request was pushed: %s", stdout)
	}

	// Without a store the snapshot stays in --out, for an artifact, and
	// the job summary says what it holds.
	_, summary = githubEnv(t, "push", "main", c1, payload)
	out = t.TempDir()
	code, stdout, stderr = run(t, dir, "ci", "--out", out)
	if code != 0 || !strings.HasPrefix(strings.TrimSpace(stdout), out) {
		t.Errorf("ci without a store: exit %d, %s %s", code, stdout, stderr)
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "### snap: `main` at `"+c1[:12]+"`") || !strings.Contains(string(md), "Not pushed") {
		t.Errorf("push job summary: %s", md)
	}
}

// TestCIWithoutStore gates a pull request with no store at all: snap ci
// indexes the merge base in a worktree of its own and diffs against it,
// and a second run whose --out was kept (a cache) indexes it no more.
func TestCIWithoutStore(t *testing.T) {
	dir, _ := history(t, 1)
	os.WriteFile(filepath.Join(dir, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "more")
	base := gitRun(t, dir, "rev-parse", "HEAD")
	gitRun(t, dir, "checkout", "-q", "-b", "feature")
	src, _ := os.ReadFile(filepath.Join(dir, "store", "store.go"))
	s := strings.Replace(string(src), "func Total(items ...Item) int {", "func Total(first Item, items ...Item) int {", 1)
	os.WriteFile(filepath.Join(dir, "store", "store.go"), []byte(s), 0o644)
	os.WriteFile(filepath.Join(dir, "store", "late.go"), []byte("package store\n\nfunc Late() int { return 1 }\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "re-sign Total")
	head := gitRun(t, dir, "rev-parse", "HEAD")
	gitRun(t, dir, "checkout", "-q", "main") // the base branch moves on after the fork
	os.WriteFile(filepath.Join(dir, "store", "after.go"), []byte("package store\n\nfunc After() int { return 2 }\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "after the fork")
	gitRun(t, dir, "checkout", "-q", "feature")

	payload := map[string]any{"number": 7, "repository": map[string]any{"default_branch": "main"},
		"pull_request": map[string]any{"base": map[string]any{"sha": gitRun(t, dir, "rev-parse", "main")}}}
	out := t.TempDir()
	for i := range 2 {
		outputs, summary := githubEnv(t, "pull_request", "7/merge", head, payload)
		t.Setenv("GITHUB_HEAD_REF", "feature")
		t.Setenv("GITHUB_BASE_REF", "main")
		code, _, stderr := run(t, dir, "ci", "--out", out, "--fail-on", "broken")
		if code != 1 || !strings.Contains(stderr, "--fail-on broken: 1") {
			t.Fatalf("run %d: a pull request with no store is not gated: exit %d\n%s", i, code, stderr)
		}
		indexed := strings.Contains(stderr, "indexing the merge base")
		if i == 0 && !indexed || i == 1 && (indexed || !strings.Contains(stderr, "the merge base's snapshot is in the local store")) {
			t.Errorf("run %d: merge base indexed %v\n%s", i, indexed, stderr)
		}
		pr := readOutputs(t, outputs)
		raw, err := os.ReadFile(pr["diff-json"])
		if err != nil {
			t.Fatalf("run %d: no diff: %v %v", i, err, pr)
		}
		d := jsonOf[schemas.Diff](t, "diff", string(raw))
		// From the merge base: After, on main after the fork, is not in the
		// diff; Late, on the branch, is.
		if d.From.Commit != base || d.To.Commit != head || d.Summary.Broken != 1 || d.Summary.SymbolsAdded != 1 {
			t.Errorf("run %d: diff from %s to %s: %+v", i, d.From.Commit, d.To.Commit, d.Summary)
		}
		if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "### snap diff: `main` → `feature`") || !strings.Contains(string(md), "`func Total(items ...Item) int` → `func Total(first Item, items ...Item) int`") {
			t.Errorf("run %d: job summary: %s", i, md)
		}
	}
}

// githubAPI is a local stand-in for GitHub's REST API that keeps one
// pull request's comments and checks each request as GitHub would.
type githubAPI struct {
	t        *testing.T
	mu       sync.Mutex
	comments []map[string]any
	calls    []string
}

func (g *githubAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer test-token" || r.Header.Get("Accept") != "application/vnd.github+json" {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	var in struct{ Body string }
	if r.Method != "GET" {
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil || in.Body == "" {
			http.Error(w, `{"message":"Problems parsing JSON"}`, http.StatusBadRequest)
			return
		}
	}
	switch {
	case r.Method == "GET" && r.URL.Path == "/repos/example/shop/issues/7/comments":
		json.NewEncoder(w).Encode(g.comments)
	case r.Method == "POST" && r.URL.Path == "/repos/example/shop/issues/7/comments":
		c := map[string]any{"id": 100 + len(g.comments), "body": in.Body, "html_url": "https://github.test/c"}
		g.comments = append(g.comments, c)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(c)
	case r.Method == "PATCH" && strings.HasPrefix(r.URL.Path, "/repos/example/shop/issues/comments/"):
		for _, c := range g.comments {
			if fmt.Sprint(c["id"]) == strings.TrimPrefix(r.URL.Path, "/repos/example/shop/issues/comments/") {
				c["body"] = in.Body
				json.NewEncoder(w).Encode(c)
				return
			}
		}
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

func TestCIComment(t *testing.T) {
	dir, commits := history(t, 1)
	remote := filepath.Join(t.TempDir(), "remote")
	payload := map[string]any{"repository": map[string]any{"default_branch": "main"}, "number": 7}
	githubEnv(t, "push", "main", commits[0], payload)
	if code, _, stderr := run(t, dir, "ci", "--store", remote, "--out", t.TempDir()); code != 0 {
		t.Fatal(stderr)
	}
	gitRun(t, dir, "checkout", "-q", "-b", "feature")
	os.WriteFile(filepath.Join(dir, "store", "more.go"), []byte("package store\n\nfunc More() {}\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "more")
	head := gitRun(t, dir, "rev-parse", "HEAD")

	api := &githubAPI{t: t, comments: []map[string]any{{"id": 1, "body": "LGTM", "html_url": "x"}}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	for range 2 {
		githubEnv(t, "pull_request", "7/merge", head, payload)
		t.Setenv("GITHUB_HEAD_REF", "feature")
		t.Setenv("GITHUB_BASE_REF", "main")
		t.Setenv("GITHUB_API_URL", srv.URL)
		t.Setenv("GITHUB_TOKEN", "test-token")
		if code, _, stderr := run(t, dir, "ci", "--store", remote, "--out", t.TempDir(), "--comment-on-pr"); code != 0 || !strings.Contains(stderr, "commented") {
			t.Fatalf("ci --comment-on-pr: exit %d, %s", code, stderr)
		}
	}
	want := []string{
		"GET /repos/example/shop/issues/7/comments", "POST /repos/example/shop/issues/7/comments",
		"GET /repos/example/shop/issues/7/comments", "PATCH /repos/example/shop/issues/comments/101",
	}
	if fmt.Sprint(api.calls) != fmt.Sprint(want) {
		t.Errorf("requests:\n%v\nwant\n%v", api.calls, want)
	}
	if len(api.comments) != 2 || !strings.HasPrefix(api.comments[1]["body"].(string), "<!-- snap-diff -->\n### snap diff: `main` → `feature`") {
		t.Errorf("comments: %v", api.comments)
	}

	// A token GitHub refuses (a fork's) leaves the job green, without a comment.
	t.Setenv("GITHUB_TOKEN", "read-only")
	if code, _, stderr := run(t, dir, "ci", "--store", remote, "--out", t.TempDir(), "--comment-on-pr"); code != 0 || !strings.Contains(stderr, "401 Unauthorized") {
		t.Errorf("ci with a refused token: exit %d, %s", code, stderr)
	}
}

// TestCIS3 runs the push path of `snap ci` against the real S3-compatible
// server, and a fork's pull request without credentials.
func TestCIS3(t *testing.T) {
	srv := s3test.Start(t)
	dir, commits := history(t, 1)
	url := srv.URL("ci")
	payload := map[string]any{"repository": map[string]any{"default_branch": "main"}, "number": 3}
	setEnv(t, srv.Env())
	outputs, _ := githubEnv(t, "push", "main", commits[0], payload)
	if code, _, stderr := run(t, dir, "ci", "--store", url, "--out", t.TempDir()); code != 0 {
		t.Fatalf("push to S3: %s", stderr)
	}
	if o := readOutputs(t, outputs); o["commit"] != commits[0] {
		t.Fatalf("outputs: %v", o)
	}
	os.WriteFile(filepath.Join(dir, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "more")
	c1 := gitRun(t, dir, "rev-parse", "HEAD")
	outputs, _ = githubEnv(t, "push", "main", c1, payload)
	if code, _, stderr := run(t, dir, "ci", "--store", url, "--out", t.TempDir()); code != 0 {
		t.Fatalf("second push to S3: %s", stderr)
	}
	if o := readOutputs(t, outputs); o["files-parsed"] != "1" {
		t.Errorf("second push parsed %s files, want 1", o["files-parsed"])
	}
	code, stdout, _ := run(t, dir, "ls", "--store", url, "--json")
	if ls := jsonOf[schemas.Listing](t, "listing", stdout); code != 0 || ls.Branches[0].Head != c1 {
		t.Fatalf("HEAD after two pushes: %s", stdout)
	}

	// A pull request that removes Total, which More calls: the diff
	// against main's snapshot in the bucket names the broken caller.
	gitRun(t, dir, "checkout", "-q", "-b", "feature")
	src, _ := os.ReadFile(filepath.Join(dir, "store", "store.go"))
	s := strings.Replace(string(src), "// Total sums prices.\nfunc Total(items ...Item) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it.Price\n\t}\n\treturn sum\n}\n", "", 1)
	os.WriteFile(filepath.Join(dir, "store", "store.go"), []byte(s), 0o644)
	gitRun(t, dir, "commit", "-q", "-am", "drop Total")
	outputs, _ = githubEnv(t, "pull_request", "3/merge", gitRun(t, dir, "rev-parse", "HEAD"), payload)
	t.Setenv("GITHUB_HEAD_REF", "feature")
	t.Setenv("GITHUB_BASE_REF", "main")
	code, _, stderr := run(t, dir, "ci", "--store", url, "--out", t.TempDir(), "--fail-on", "broken")
	if code != 1 || !strings.Contains(stderr, "--fail-on broken: 1") {
		t.Fatalf("pull request against S3: exit %d, %s", code, stderr)
	}
	raw, err := os.ReadFile(readOutputs(t, outputs)["diff-json"])
	if err != nil {
		t.Fatal(err)
	}
	if d := jsonOf[schemas.Diff](t, "diff", string(raw)); d.Summary.Broken != 1 || !strings.Contains(string(raw), "example.com/shop/store.More") {
		t.Errorf("diff: %+v", d.Summary)
	}
	gitRun(t, dir, "checkout", "-q", "main")

	// A fork's pull request has no secrets: the store refuses it. The run
	// indexes everything, says why, and does not fail.
	gitRun(t, dir, "checkout", "-q", "-b", "fork")
	os.WriteFile(filepath.Join(dir, "store", "fork.go"), []byte("package store\n\nfunc Fork() {}\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "fork")
	githubEnv(t, "pull_request", "3/merge", gitRun(t, dir, "rev-parse", "HEAD"), payload)
	t.Setenv("GITHUB_HEAD_REF", "fork")
	t.Setenv("GITHUB_BASE_REF", "main")
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	code, stdout, stderr = run(t, dir, "ci", "--store", url, "--out", t.TempDir(), "--push-pr")
	if code != 0 || !strings.Contains(stderr, "no base from the store") || !strings.Contains(stderr, "not pushed") || strings.Contains(stderr, srv.SecretKey) {
		t.Errorf("fork pull request: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
