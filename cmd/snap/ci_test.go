package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
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
	code, _, stderr = run(t, dir, "ci", "--store", remote, "--out", out, "--fail-on", "broken")
	if code != 1 || !strings.Contains(stderr, "--fail-on broken: 1") {
		t.Fatalf("pull request with a broken caller: exit %d, %s", code, stderr)
	}
	pr := readOutputs(t, outputs)
	if pr["files-parsed"] != "1" || pr["diff-json"] == "" {
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

	// Without a store the snapshot stays in --out, for an artifact.
	githubEnv(t, "push", "main", c1, payload)
	out = t.TempDir()
	code, stdout, stderr = run(t, dir, "ci", "--out", out)
	if code != 0 || !strings.HasPrefix(strings.TrimSpace(stdout), out) {
		t.Errorf("ci without a store: exit %d, %s %s", code, stdout, stderr)
	}
}
