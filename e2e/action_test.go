package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tool finds a test tool by $NAME_UPPER, $PATH or $(go env GOPATH)/bin,
// skipping the test when it is missing, unless $SNAP_REQUIRE_TOOLS is set
// (make test sets it and installs the tools).
func tool(t *testing.T, name, env, install string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(string(out[:len(out)-1]), "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	msg := name + " is not installed; install it with: " + install
	if os.Getenv("SNAP_REQUIRE_TOOLS") != "" {
		t.Fatal(msg + " (SNAP_REQUIRE_TOOLS is set, so this does not skip)")
	}
	t.Skip(msg)
	return ""
}

// TestActionLint holds action.yml, the repository's workflow (which uses
// the action as ./, so its inputs are checked) and the examples to
// actionlint.
func TestActionLint(t *testing.T) {
	bin := tool(t, "actionlint", "ACTIONLINT", "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	examples, _ := filepath.Glob("../action/examples/*.yml")
	for i, e := range examples {
		examples[i] = filepath.ToSlash(e[len("../"):]) // relative to the repository, where actionlint runs
	}
	cmd := exec.Command(bin, append([]string{"-no-color"}, examples...)...)
	cmd.Dir = ".."
	if len(examples) == 0 {
		t.Fatal("no examples under action/examples")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint on the examples: %v\n%s", err, out)
	}
	cmd = exec.Command(bin, "-no-color") // the repository's own workflows
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint: %v\n%s", err, out)
	}
}

// TestActionWithAct runs the action for real with act, on this machine's
// shell (-self-hosted): a push indexes and pushes, the next push parses
// only the changed file, and a pull request that removes a called function
// fails its gate. actions/checkout and actions/setup-go cannot be fetched
// here, so stubs stand in for them: the workspace is already checked out
// and Go is installed.
func TestActionWithAct(t *testing.T) {
	bin := tool(t, "act", "ACT", "go install github.com/nektos/act@v0.2.89")
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	stub := "name: stub\ndescription: stands in for an action nothing here can fetch\nruns:\n  using: composite\n  steps:\n    - run: \"true\"\n      shell: bash\n"
	for _, d := range []string{"checkout", "setup-go"} {
		os.MkdirAll(filepath.Join(work, d), 0o755)
		os.WriteFile(filepath.Join(work, d, "action.yml"), []byte(stub), 0o644)
	}
	remote := filepath.Join(work, "remote")
	repo := filepath.Join(work, "repo")
	if out, err := exec.Command("cp", "-R", filepath.Join(root, "testdata", "go", "shop"), repo).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	workflow := `name: snap
on: [push, pull_request]
jobs:
  snap:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: graphsnap/snap@v1
        id: snap
        with:
          store: ` + remote + `
          fail-on: broken
      - run: echo "snap-output files-parsed=${{ steps.snap.outputs.files }} commit=${{ steps.snap.outputs.commit }}"
`
	os.MkdirAll(filepath.Join(repo, ".github", "workflows"), 0o755)
	os.WriteFile(filepath.Join(repo, ".github", "workflows", "snap.yml"), []byte(workflow), 0o644)
	gitIn(t, repo, "init", "-q", "-b", "main")
	gitIn(t, repo, "remote", "add", "origin", "https://github.com/example/shop.git")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "init")

	act := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(bin, append(args, "-P", "ubuntu-latest=-self-hosted",
			"--local-repository", "actions/checkout@v4="+filepath.Join(work, "checkout"),
			"--local-repository", "actions/setup-go@v5="+filepath.Join(work, "setup-go"),
			"--local-repository", "graphsnap/snap@v1="+root)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "SNAP_STORE=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := act("push")
	if err != nil || !strings.Contains(out, "Job succeeded") {
		t.Fatalf("act push: %v\n%s", err, tail(out))
	}
	if _, err := os.Stat(filepath.Join(remote, "repo=example%2Fshop", "branch=main", "HEAD.json")); err != nil {
		t.Fatalf("the push did not reach the store: %v\n%s", err, tail(out))
	}

	os.WriteFile(filepath.Join(repo, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "more")
	out, err = act("push")
	if err != nil || !strings.Contains(out, "parsed=1 ") {
		t.Fatalf("second act push: %v\n%s", err, tail(out))
	}

	// A pull request from feature that removes Total, which More calls.
	gitIn(t, repo, "checkout", "-q", "-b", "feature")
	src, _ := os.ReadFile(filepath.Join(repo, "store", "store.go"))
	s := strings.Replace(string(src), "// Total sums prices.\nfunc Total(items ...Item) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it.Price\n\t}\n\treturn sum\n}\n", "", 1)
	os.WriteFile(filepath.Join(repo, "store", "store.go"), []byte(s), 0o644)
	gitIn(t, repo, "commit", "-q", "-am", "drop Total")
	event := filepath.Join(work, "pr.json")
	os.WriteFile(event, []byte(`{"number": 7, "pull_request": {"number": 7, "head": {"ref": "feature"}, "base": {"ref": "main"}},
		"repository": {"default_branch": "main"}}`), 0o644)
	out, err = act("pull_request", "-e", event)
	if err == nil || !strings.Contains(out, "--fail-on broken: 1") {
		t.Fatalf("act pull_request with a broken caller: %v\n%s", err, tail(out))
	}
}

// tail keeps the end of a long log.
func tail(s string) string {
	if len(s) > 6000 {
		return "…" + s[len(s)-6000:]
	}
	return s
}
