package e2e

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	// The Action's README shows push-and-pr.yml whole: what it shows is
	// what actionlint checked.
	readme, _ := os.ReadFile("../action/README.md")
	example, _ := os.ReadFile("../action/examples/push-and-pr.yml")
	if len(example) == 0 || !strings.Contains(string(readme), "```yaml\n"+string(example)+"```\n") {
		t.Error("action/README.md does not show action/examples/push-and-pr.yml as it is")
	}
	cmd = exec.Command(bin, "-no-color") // the repository's own workflows
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint: %v\n%s", err, out)
	}
}

// actRun is a repository made from the Go fixture, and the act that runs
// its workflow on this machine's shell (-self-hosted), with the action as
// graphsnap/snap@v1 from this checkout. Actions that cannot be fetched
// here are stubs: the workspace is already checked out, Go is installed,
// and the cache and artifact services are not there (a cache always
// misses, an artifact is left in the workspace).
type actRun struct {
	t          *testing.T
	bin, repo  string
	work, root string
	env        []string
}

func newActRun(t *testing.T, workflow string) *actRun {
	t.Helper()
	bin := tool(t, "act", "ACT", "go install github.com/nektos/act@v0.2.89")
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	a := &actRun{t: t, bin: bin, work: t.TempDir(), root: root}
	stub := "name: stub\ndescription: stands in for an action nothing here can fetch\nruns:\n  using: composite\n  steps:\n    - run: \"true\"\n      shell: bash\n"
	for _, d := range actStubs {
		os.MkdirAll(filepath.Join(a.work, d), 0o755)
		os.WriteFile(filepath.Join(a.work, d, "action.yml"), []byte(stub), 0o644)
	}
	a.repo = filepath.Join(a.work, "repo")
	if out, err := exec.Command("cp", "-R", filepath.Join(root, "testdata", "go", "shop"), a.repo).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	os.MkdirAll(filepath.Join(a.repo, ".github", "workflows"), 0o755)
	os.WriteFile(filepath.Join(a.repo, ".github", "workflows", "snap.yml"), []byte(workflow), 0o644)
	gitIn(t, a.repo, "init", "-q", "-b", "main")
	gitIn(t, a.repo, "remote", "add", "origin", "https://github.com/example/shop.git")
	gitIn(t, a.repo, "add", "-A")
	gitIn(t, a.repo, "commit", "-q", "-m", "init")
	return a
}

// actStubs are the actions the workflows here use that act cannot fetch.
var actStubs = map[string]string{
	"actions/checkout@v4": "checkout", "actions/setup-go@v5": "setup-go", "actions/cache@v4": "cache",
	"actions/upload-artifact@v4": "upload-artifact", "mlugg/setup-zig@v2": "setup-zig",
}

// run runs act with args in dir and returns its output, line by line
// with the time each line came.
func (a *actRun) run(dir string, args ...string) (string, []timedLine, error) {
	a.t.Helper()
	for ref, d := range actStubs {
		args = append(args, "--local-repository", ref+"="+filepath.Join(a.work, d))
	}
	args = append(args, "-P", "ubuntu-latest=-self-hosted", "-P", "ubuntu-24.04=-self-hosted",
		"--local-repository", "graphsnap/snap@v1="+a.root)
	cmd := exec.Command(a.bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SNAP_STORE="), a.env...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	var lines []timedLine
	var all strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines = append(lines, timedLine{time.Now(), sc.Text()})
			all.WriteString(sc.Text() + "\n")
		}
	}()
	err := cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	pw.Close()
	<-done
	return all.String(), lines, err
}

type timedLine struct {
	at   time.Time
	text string
}

// TestActionWithAct runs the action for real with act: a push indexes and
// pushes, the next push parses only the changed file, and a pull request
// that removes a called function fails its gate and annotates the caller.
func TestActionWithAct(t *testing.T) {
	remote := filepath.Join(t.TempDir(), "remote")
	a := newActRun(t, `name: snap
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
          store: `+remote+`
          fail-on: broken
      - run: echo "snap-output files-parsed=${{ steps.snap.outputs.files-parsed }} commit=${{ steps.snap.outputs.commit }} broken=${{ steps.snap.outputs.broken }}"
`)
	repo := a.repo
	out, _, err := a.run(repo, "push")
	if err != nil || !strings.Contains(out, "Job succeeded") {
		t.Fatalf("act push: %v\n%s", err, tail(out))
	}
	if _, err := os.Stat(filepath.Join(remote, "repo=example%2Fshop", "branch=main", "HEAD.json")); err != nil {
		t.Fatalf("the push did not reach the store: %v\n%s", err, tail(out))
	}

	os.WriteFile(filepath.Join(repo, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "more")
	out, _, err = a.run(repo, "push")
	if err != nil || !strings.Contains(out, "parsed=1 ") || !strings.Contains(out, "snap-output files-parsed=1 ") {
		t.Fatalf("second act push: %v\n%s", err, tail(out))
	}

	// A pull request from feature that removes Total, which More calls.
	prDropTotal(t, a)
}

// prDropTotal opens a pull request from feature that removes Total, which
// More calls, and checks the gate fails, naming More where it calls.
func prDropTotal(t *testing.T, a *actRun) {
	t.Helper()
	repo := a.repo
	if _, err := os.Stat(filepath.Join(repo, "store", "more.go")); err != nil {
		os.WriteFile(filepath.Join(repo, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
		gitIn(t, repo, "add", "-A")
		gitIn(t, repo, "commit", "-q", "-m", "more")
	}
	gitIn(t, repo, "checkout", "-q", "-b", "feature")
	src, _ := os.ReadFile(filepath.Join(repo, "store", "store.go"))
	s := strings.Replace(string(src), "// Total sums prices.\nfunc Total(items ...Item) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it.Price\n\t}\n\treturn sum\n}\n", "", 1)
	os.WriteFile(filepath.Join(repo, "store", "store.go"), []byte(s), 0o644)
	gitIn(t, repo, "commit", "-q", "-am", "drop Total")
	event := filepath.Join(a.work, "pr.json")
	os.WriteFile(event, []byte(`{"number": 7, "pull_request": {"number": 7, "head": {"ref": "feature"}, "base": {"ref": "main", "sha": "`+
		gitIn(t, repo, "rev-parse", "main")+`"}}, "repository": {"default_branch": "main"}}`), 0o644)
	out, _, err := a.run(repo, "pull_request", "-e", event)
	if err == nil || !strings.Contains(out, "--fail-on broken: 1") {
		t.Fatalf("act pull_request with a broken caller: %v\n%s", err, tail(out))
	}
	if !strings.Contains(out, "file=store/more.go,line=3") || !strings.Contains(out, "store.More still uses example.com/shop/store.Total") {
		t.Errorf("no annotation on the broken caller:\n%s", tail(out))
	}
}

// TestActionWithoutStore runs the action with its default inputs, as a
// repository with no bucket would: a push keeps the snapshot on the
// runner with a job summary, and a pull request is still gated, against
// its merge base indexed on the runner.
func TestActionWithoutStore(t *testing.T) {
	a := newActRun(t, `name: snap
on: [push, pull_request]
jobs:
  snap:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: graphsnap/snap@v1
        with:
          fail-on: broken
`)
	out, _, err := a.run(a.repo, "push")
	if err != nil || !strings.Contains(out, "Job succeeded") || !strings.Contains(out, "no store named") {
		t.Fatalf("act push without a store: %v\n%s", err, tail(out))
	}
	prDropTotal(t, a)
}

// TestReleaseDryRun runs the release workflow's Linux build for
// linux/amd64 under act, as workflow_dispatch does it (a dry run: nothing
// published), checks that the same script makes the same binary here and
// that SHA256SUMS holds it, then serves them as a release and runs the
// action at that version: it downloads and checks the binary instead of
// building snap. The time from act's start to the first line snap logs is
// reported.
func TestReleaseDryRun(t *testing.T) {
	a := newActRun(t, "name: none\non: push\njobs:\n  none:\n    runs-on: ubuntu-latest\n    steps:\n      - run: \"true\"\n")
	// The release runs in a copy of this checkout, as a clone would be.
	src := filepath.Join(a.work, "snap")
	os.MkdirAll(src, 0o755)
	copyTree := exec.Command("bash", "-c", `git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$1" -xf -`, "bash", src)
	copyTree.Dir = a.root
	if out, err := copyTree.CombinedOutput(); err != nil {
		t.Fatalf("copy the checkout: %v %s", err, out)
	}
	gitIn(t, src, "init", "-q", "-b", "main")
	gitIn(t, src, "add", "-A")
	gitIn(t, src, "commit", "-q", "-m", "release")
	out, _, err := a.run(src, "workflow_dispatch", "-W", ".github/workflows/release.yml", "-j", "linux", "--input", "targets=linux/amd64")
	if err != nil || !strings.Contains(out, "Job succeeded") {
		t.Fatalf("act workflow_dispatch release: %v\n%s", err, tail(out))
	}
	// act's workspace is gone with the job; its log has the checksum. The
	// same script run here must make the same binary (-trimpath: the
	// release is reproducible), which is then served as a release.
	var released string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[len(f)-1] == "snap-linux-amd64" && len(f[len(f)-2]) == 64 {
			released = f[len(f)-2]
		}
	}
	if released == "" {
		t.Fatalf("the release job printed no checksum of snap-linux-amd64:\n%s", tail(out))
	}
	dist := filepath.Join(a.work, "dist")
	build := exec.Command("./scripts/release.sh", dist, "linux/amd64")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release.sh: %v\n%s", err, out)
	}
	sums, _ := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if !strings.Contains(string(sums), released+"  snap-linux-amd64") {
		t.Errorf("the release job built %s; the same script here built:\n%s", released, sums)
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = dist
	if out, err := check.CombinedOutput(); err != nil || !strings.Contains(string(out), "snap-linux-amd64: OK") {
		t.Fatalf("the release's SHA256SUMS: %v\n%s", err, out)
	}
	if out, err := exec.Command(filepath.Join(dist, "snap-linux-amd64"), "version").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "snap ") {
		t.Fatalf("the released binary: %v %s", err, out)
	}

	// Serve dist as release v9.9.9 and run the action at that version.
	srv := httptest.NewServer(http.StripPrefix("/download/v9.9.9/", http.FileServer(http.Dir(dist))))
	defer srv.Close()
	a.env = append(a.env, "SNAP_RELEASE_URL="+srv.URL)
	os.WriteFile(filepath.Join(a.repo, ".github", "workflows", "snap.yml"), []byte(`name: snap
on: push
jobs:
  snap:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: graphsnap/snap@v1
        with:
          version: v9.9.9
`), 0o644)
	gitIn(t, a.repo, "commit", "-q", "-am", "released snap")
	out, lines, err := a.run(a.repo, "push")
	if err != nil || !strings.Contains(out, "snap: v9.9.9 (snap-linux-amd64, sha256 ") || strings.Contains(out, "building with") {
		t.Fatalf("the action at a released version: %v\n%s", err, tail(out))
	}
	first, indexing := time.Time{}, time.Time{}
	for _, l := range lines {
		if first.IsZero() {
			first = l.at
		}
		if strings.Contains(l.text, "msg=ci ") {
			indexing = l.at
			break
		}
	}
	if indexing.IsZero() {
		t.Fatalf("snap never logged its start:\n%s", tail(out))
	}
	t.Logf("with a released binary, act's start to snap's first line: %v", indexing.Sub(first).Round(10*time.Millisecond))
}

// tail keeps the end of a long log.
func tail(s string) string {
	if len(s) > 6000 {
		return "…" + s[len(s)-6000:]
	}
	return s
}
