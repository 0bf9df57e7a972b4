package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/schemas/schematest"
)

// gitRun runs git in dir with a fixed identity.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=snap", "GIT_AUTHOR_EMAIL=snap@example.com",
		"GIT_COMMITTER_NAME=snap", "GIT_COMMITTER_EMAIL=snap@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// history makes a repository of the Go fixture with n commits on main,
// each indexed into the local cache, and returns it with the commits.
func history(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := copyTree(t, "../../testdata/go/shop")
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "remote", "add", "origin", "https://github.com/example/shop.git")
	var commits []string
	for i := range n {
		os.WriteFile(filepath.Join(dir, "version.go"), []byte("package shop\n\nconst Version = "+string(rune('0'+i))+"\n"), 0o644)
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "commit", "-q", "-m", "commit")
		commits = append(commits, gitRun(t, dir, "rev-parse", "HEAD"))
		if code, _, stderr := run(t, dir, "index", "-q"); code != 0 {
			t.Fatalf("index: %s", stderr)
		}
	}
	return dir, commits
}

func jsonOf[T any](t *testing.T, def, out string) T {
	t.Helper()
	schematest.Validate(t, schemas.CLISchema, "#/$defs/"+def, []byte(out))
	var v T
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return v
}

func TestPushPullForwardOnly(t *testing.T) {
	dir, commits := history(t, 3)
	remote := filepath.Join(t.TempDir(), "remote")

	push := func(args ...string) (int, schemas.Transfer, string) {
		t.Helper()
		code, stdout, stderr := run(t, dir, append([]string{"push", "--store", remote, "--json"}, args...)...)
		if code != 0 {
			return code, schemas.Transfer{}, stderr
		}
		return code, jsonOf[schemas.Transfer](t, "transfer", stdout), stderr
	}
	// The local HEAD is the last commit indexed; push the middle one first.
	_, tr, _ := push("--commit", commits[1])
	if !tr.Head.Moved || tr.Head.To != commits[1] || tr.Head.Generation != 1 || tr.Tables != 5 || tr.Repo != "example/shop" {
		t.Fatalf("first push: %+v", tr)
	}
	_, tr, _ = push("--commit", commits[0])
	if tr.Head.Moved || tr.Head.Reason != "HEAD is newer" || tr.Head.To != commits[1] {
		t.Fatalf("push of an older commit moved HEAD: %+v", tr)
	}
	_, tr, _ = push()
	if !tr.Head.Moved || tr.Head.From != commits[1] || tr.Head.To != commits[2] || tr.Head.Generation != 2 {
		t.Fatalf("push of the newest: %+v", tr)
	}
	_, tr, _ = push()
	if !tr.Present || tr.Head.Moved || tr.Head.Reason != "already there" {
		t.Fatalf("second push of the same: %+v", tr)
	}

	// A diverged history is refused unless forced.
	gitRun(t, dir, "checkout", "-q", "--orphan", "other")
	gitRun(t, dir, "commit", "-q", "-m", "unrelated")
	orphan := gitRun(t, dir, "rev-parse", "HEAD")
	if code, _, stderr := run(t, dir, "index", "-q", "--branch", "main"); code != 0 {
		t.Fatal(stderr)
	}
	code, _, stderr := run(t, dir, "push", "--store", remote, "--branch", "main")
	if code != 1 || !strings.Contains(stderr, "does not descend") || !strings.Contains(stderr, "--force") && !strings.Contains(stderr, "not moved") {
		t.Fatalf("diverged push: exit %d, %s", code, stderr)
	}
	_, tr, _ = push("--branch", "main", "--force")
	if !tr.Head.Moved || tr.Head.To != orphan {
		t.Fatalf("forced push: %+v", tr)
	}

	// Without a store named, ls lists the local cache, whose HEAD follows
	// what was indexed last, backwards or not.
	t.Setenv("SNAP_STORE", "")
	code, stdout, stderr := run(t, dir, "ls", "--json")
	if ls := jsonOf[schemas.Listing](t, "listing", stdout); code != 0 || len(ls.Branches) != 1 || ls.Branches[0].Head != orphan ||
		len(ls.Branches[0].Snapshots) != 4 || !strings.HasSuffix(ls.Store, ".snap") {
		t.Fatalf("ls of the local cache: %s %s", stdout, stderr)
	}

	// Another clone pulls HEAD into its own cache and answers from it.
	clone := t.TempDir()
	gitRun(t, clone, "init", "-q", "-b", "main")
	gitRun(t, clone, "remote", "add", "origin", "git@github.com:example/shop.git")
	code, stdout, stderr = run(t, clone, "pull", "--store", "file://"+remote, "--json")
	if code != 0 {
		t.Fatalf("pull: %s", stderr)
	}
	pl := jsonOf[schemas.Transfer](t, "transfer", stdout)
	if pl.Commit != orphan || pl.Present || !pl.Head.Moved {
		t.Fatalf("pull: %+v", pl)
	}
	if code, _, stderr := run(t, clone, "verify", filepath.Join(clone, ".snap", "repo=example%2Fshop", "branch=main", "commit="+orphan)); code != 0 {
		t.Fatalf("pulled snapshot does not verify: %s", stderr)
	}
	if code, stdout, _ = run(t, clone, "pull", "--store", remote, "--json"); code != 0 || !jsonOf[schemas.Transfer](t, "transfer", stdout).Present {
		t.Fatalf("second pull copied again: %s", stdout)
	}
	if code, stdout, stderr = run(t, clone, "query", "status", "--json"); code != 0 || !strings.Contains(stdout, orphan) {
		t.Fatalf("query after pull: %d %s %s", code, stdout, stderr)
	}

	// ls lists the four snapshots of main, HEAD's marked.
	code, stdout, stderr = run(t, dir, "ls", "--store", remote, "--json")
	if code != 0 {
		t.Fatal(stderr)
	}
	ls := jsonOf[schemas.Listing](t, "listing", stdout)
	if len(ls.Branches) != 1 || len(ls.Branches[0].Snapshots) != 4 || ls.Branches[0].Head != orphan || !ls.Branches[0].Snapshots[0].Head {
		t.Fatalf("ls: %s", stdout)
	}
	if code, stdout, _ = run(t, dir, "ls", "--store", remote); code != 0 || !strings.Contains(stdout, "HEAD (generation 3)") {
		t.Fatalf("ls text: %s", stdout)
	}

	// gc keeps two, HEAD's among them.
	code, stdout, stderr = run(t, dir, "gc", "--store", remote, "--keep", "2", "--json")
	if code != 0 {
		t.Fatal(stderr)
	}
	gc := jsonOf[schemas.Collection](t, "collection", stdout)
	if len(gc.Deleted) != 2 || gc.Kept != 2 || gc.Deleted[0].Reason != "old" {
		t.Fatalf("gc: %s", stdout)
	}
	code, stdout, _ = run(t, dir, "ls", "--store", remote, "--json")
	if ls = jsonOf[schemas.Listing](t, "listing", stdout); code != 0 || len(ls.Branches[0].Snapshots) != 2 {
		t.Fatalf("ls after gc: %s", stdout)
	}

	code, stdout, stderr = run(t, dir, "doctor", "--store", remote, "--json")
	if ck := jsonOf[schemas.Checkup](t, "checkup", stdout); code != 0 || !ck.OK {
		t.Fatalf("doctor: %s %s", stdout, stderr)
	}
}

func TestPushRefusesDirty(t *testing.T) {
	dir, _ := history(t, 1)
	os.WriteFile(filepath.Join(dir, "version.go"), []byte("package shop\n\nconst Version = 9\n"), 0o644)
	if code, _, stderr := run(t, dir, "index", "-q"); code != 0 {
		t.Fatal(stderr)
	}
	remote := filepath.Join(t.TempDir(), "remote")
	code, _, stderr := run(t, dir, "push", "--store", remote)
	if code != 2 || !strings.Contains(stderr, "uncommitted changes") || !strings.Contains(stderr, "--allow-dirty") {
		t.Fatalf("dirty push: exit %d, %s", code, stderr)
	}
	if code, stdout, stderr := run(t, dir, "push", "--store", remote, "--allow-dirty", "--json"); code != 0 ||
		!strings.Contains(jsonOf[schemas.Transfer](t, "transfer", stdout).Commit, "-dirty-") {
		t.Fatalf("dirty push allowed: %s %s", stdout, stderr)
	}
}

func TestStoreUsageErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SNAP_STORE", "")
	t.Setenv("SNAP_TOKEN", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ls"}, "no store at"},
		{[]string{"gc"}, "no store named"},
		{[]string{"ls", "--store", "ftp://host/x"}, `scheme "ftp" is not supported`},
		{[]string{"ls", "--store", "s3://"}, "bucket"},
		{[]string{"ls", "--store", "s3://b/p?colour=red"}, "colour"},
		{[]string{"ls", "--store", "s3://AKIA:hunter2@b/p"}, "AWS_ACCESS_KEY_ID"},
		{[]string{"ls", "--branch", "main", "--store", dir}, "--branch needs --repo"},
		{[]string{"gc", "--keep", "0", "--store", dir}, "at least 1"},
		{[]string{"push", "--store", dir}, "no store at"},
		{[]string{"pull", "--store", dir}, "holds no snapshot"},
		{[]string{"serve", "--snapshot", dir, "--sync", "1m"}, "--sync needs a store"},
		{[]string{"serve", "--sync", "1ns"}, "too short"},
		{[]string{"serve", "--http", "0.0.0.0:0"}, "set a bearer token in SNAP_TOKEN"},
		{[]string{"serve", "--http", ":8080"}, "listens beyond this machine"},
		{[]string{"serve", "--http", "0.0.0.0:0", "--token", "short"}, "at least 16"},
		{[]string{"serve", "--http", "nonsense"}, "HOST:PORT"},
		{[]string{"doctor", "extra"}, "takes 0 argument"},
		{[]string{"ci"}, "is not a git checkout"},
		{[]string{"ci", "--fail-on", "never"}, `"never" is not a condition`},
	} {
		code, stdout, stderr := run(t, dir, c.args...)
		if code != 2 {
			t.Errorf("snap %v: exit %d, want 2 (stderr %q)", c.args, code, stderr)
		}
		if !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: stderr %q does not say %q", c.args, stderr, c.want)
		}
		if strings.Contains(stdout+stderr, "hunter2") {
			t.Errorf("snap %v: the secret appears in the output", c.args)
		}
	}
	// SNAP_STORE names the store when --store does not.
	t.Setenv("SNAP_STORE", dir)
	if code, _, stderr := run(t, dir, "ls"); code != 0 || !strings.Contains(stderr, "no snapshots in "+dir) {
		t.Errorf("ls with SNAP_STORE: exit %d, %s", code, stderr)
	}
}

// TestIndexIncremental: a second index reuses the rows of unchanged files
// from the branch's HEAD and writes the same tables as a full index.
func TestIndexIncremental(t *testing.T) {
	dir, _ := history(t, 2) // the second index already had a base
	os.WriteFile(filepath.Join(dir, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
	code, inc, stderr := run(t, dir, "index", "-q")
	// Each table of the fixture fits one row group, and a file was added.
	if code != 0 || !strings.Contains(stderr, "parsed=1 ") || !strings.Contains(stderr, "row_groups=5 row_groups_copied=0") {
		t.Fatalf("incremental index: exit %d, %s", code, stderr)
	}
	code, full, stderr := run(t, dir, "index", "-q", "--full", "--store", filepath.Join(t.TempDir(), "full"))
	if code != 0 || strings.Contains(stderr, "reused=1") {
		t.Fatalf("full index: %s", stderr)
	}
	read := func(folder string) schemas.Manifest {
		raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(folder), "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m schemas.Manifest
		json.Unmarshal(raw, &m)
		return m
	}
	mi, mf := read(inc), read(full)
	if mi.Base == "" || mi.Build.FilesReused == 0 || mi.Build.FilesParsed != 1 || mf.Base != "" || mf.Build.FilesReused != 0 {
		t.Fatalf("manifests: incremental base %q build %+v; full base %q build %+v", mi.Base, mi.Build, mf.Base, mf.Build)
	}
	if fmt.Sprint(mi.Tables) != fmt.Sprint(mf.Tables) {
		t.Errorf("tables differ:\nincremental %v\nfull        %v", mi.Tables, mf.Tables)
	}
	// Again without a change: every row group is copied from the base.
	code, again, stderr := run(t, dir, "index", "-q", "--store", filepath.Join(t.TempDir(), "again"), "--base", strings.TrimSpace(inc))
	if code != 0 || !strings.Contains(stderr, "parsed=0 ") || !strings.Contains(stderr, "row_groups=5 row_groups_copied=5") {
		t.Fatalf("index again: exit %d, %s", code, stderr)
	}
	if ma := read(again); fmt.Sprint(ma.Tables) != fmt.Sprint(mf.Tables) {
		t.Errorf("tables differ:\nagain %v\nfull  %v", ma.Tables, mf.Tables)
	}
	// A function's body changed, its declarations not: only that file's
	// references are resolved, the other edges are the base's, and the
	// tables are still a full index's.
	os.WriteFile(filepath.Join(dir, "store", "more.go"), []byte("package store\n\nfunc More() int {\n\treturn Total() + len(NewMemStore().items)\n}\n"), 0o644)
	code, body, stderr := run(t, dir, "index", "-q", "--store", filepath.Join(t.TempDir(), "body"), "--base", strings.TrimSpace(inc))
	if code != 0 || !strings.Contains(stderr, "parsed=1 ") || !regexp.MustCompile(`edges_reused=[1-9]`).MatchString(stderr) {
		t.Fatalf("index after a body changed: exit %d, want one file parsed and the other edges reused: %s", code, stderr)
	}
	code, fullBody, stderr := run(t, dir, "index", "-q", "--full", "--store", filepath.Join(t.TempDir(), "fullbody"))
	if code != 0 {
		t.Fatalf("full index: %s", stderr)
	}
	if mb, mfb := read(body), read(fullBody); fmt.Sprint(mb.Tables) != fmt.Sprint(mfb.Tables) || mb.Counts.Edges != mfb.Counts.Edges || mb.Counts.Unresolved != mfb.Counts.Unresolved {
		t.Errorf("after a body changed, tables differ:\nincremental %v %+v\nfull        %v %+v", mb.Tables, mb.Counts, mfb.Tables, mfb.Counts)
	}
	os.WriteFile(filepath.Join(dir, "store", "more.go"), []byte("package store\n\nfunc More() int { return Total() }\n"), 0o644)
	// The files written an hour ago: a run trusts the stat cache the run
	// before it left (see indexer.StatCache), and reads none of them.
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return err
	})
	if code, _, stderr := run(t, dir, "index", "-q", "--store", filepath.Join(t.TempDir(), "seen"), "--base", strings.TrimSpace(inc)); code != 0 || !strings.Contains(stderr, "unread=0 ") {
		t.Fatalf("index after the files aged: exit %d, want every file read: %s", code, stderr)
	}
	code, unread, stderr := run(t, dir, "index", "-q", "--store", filepath.Join(t.TempDir(), "unread"), "--base", strings.TrimSpace(inc))
	if code != 0 || !regexp.MustCompile(`files=(\d+) parsed=0 reused=\d+ unread=(\d+) `).MatchString(stderr) {
		t.Fatalf("index with the stat cache: exit %d, %s", code, stderr)
	}
	if m := regexp.MustCompile(`files=(\d+) parsed=0 reused=\d+ unread=(\d+) `).FindStringSubmatch(stderr); m[1] != m[2] {
		t.Errorf("index with the stat cache: %s files, %s unread", m[1], m[2])
	}
	if mu := read(unread); fmt.Sprint(mu.Tables) != fmt.Sprint(mf.Tables) {
		t.Errorf("tables differ:\nunread %v\nfull   %v", mu.Tables, mf.Tables)
	}
	if code, _, stderr := run(t, dir, "index", "-q", "--full", "--base", inc); code != 2 || !strings.Contains(stderr, "exclude each other") {
		t.Errorf("--full with --base: exit %d, %s", code, stderr)
	}
}

func TestIndexNarrowed(t *testing.T) {
	dir := copyTree(t, "../../testdata/go/shop")
	os.MkdirAll(filepath.Join(dir, "vendor", "dep"), 0o755)
	os.WriteFile(filepath.Join(dir, "vendor", "dep", "dep.go"), []byte("package dep\n\nfunc D() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tool.py"), []byte("def tool():\n    pass\n"), 0o644)
	code, stdout, stderr := run(t, dir, "index", "-q", "--languages", "py", "--exclude", "store/**")
	if code != 0 {
		t.Fatal(stderr)
	}
	raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(stdout), "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m schemas.Manifest
	json.Unmarshal(raw, &m)
	if m.Counts.Languages["python"] != 1 || m.Counts.Languages["go"] != 0 || len(m.Grammars) != 1 {
		t.Errorf("--languages py: %+v, grammars %v", m.Counts.Languages, m.Grammars)
	}
	code, stdout, _ = run(t, dir, "query", "snap_status", "--json")
	if code != 0 || strings.Contains(stdout, "store/store.go") {
		t.Errorf("status: %s", stdout)
	}
	code, _, stderr = run(t, dir, "index", "-q", "--full")
	if code != 0 {
		t.Fatal(stderr)
	}
	code, out, _ := run(t, dir, "query", "snap_symbol", "--name", "D", "--json")
	if code == 0 || !strings.Contains(out, "error") {
		t.Errorf("a vendored symbol was indexed: %s", out)
	}
}
