package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	code, flag, stderr := run(t, "", "--version")
	if code != 0 {
		t.Fatalf("snap --version: exit %d: %s", code, stderr)
	}
	code, cmd, stderr := run(t, "", "version")
	if code != 0 {
		t.Fatalf("snap version: exit %d: %s", code, stderr)
	}
	want := "snap version " + versionLine() + "\n"
	if flag != want || cmd != want {
		t.Errorf("snap --version printed %q and snap version %q, want %q", flag, cmd, want)
	}
	if !strings.Contains(want, runtime.Version()) {
		t.Errorf("%q does not name the Go version %s", want, runtime.Version())
	}
	if code, _, stderr := run(t, "", "version", "extra"); code != 2 || !strings.Contains(stderr, "takes 0 argument") {
		t.Errorf("snap version extra: exit %d, stderr %q; want 2", code, stderr)
	}
}

// A binary built in this checkout names its commit, and -dirty when the
// work tree has changes, as git sees them.
func TestVersionStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds snap; not with -short")
	}
	gitCmd := func(args ...string) string {
		out, err := exec.Command("git", args...).Output()
		if err != nil {
			if os.Getenv("SNAP_REQUIRE_TOOLS") != "" {
				t.Fatalf("git %s: %v (SNAP_REQUIRE_TOOLS is set: make test runs in a checkout)", strings.Join(args, " "), err)
			}
			t.Skipf("not in a git checkout (git %s: %v)", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	head := gitCmd("rev-parse", "HEAD")
	bin := filepath.Join(t.TempDir(), "snap")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
	}
	// As late as possible: other work may change the tree meanwhile.
	dirty := gitCmd("status", "--porcelain") != ""
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	commit := "commit " + head
	if dirty {
		commit += "-dirty"
	}
	// In a linked work tree (git worktree) .git is a file, and the go
	// command stamps only a checkout whose .git is a folder: the binary
	// then says it was built without stamping.
	if top := gitCmd("rev-parse", "--show-toplevel"); !isDir(filepath.Join(top, ".git")) {
		commit = "commit unknown: built without VCS stamping"
	}
	if !strings.Contains(string(out), commit+",") || !strings.Contains(string(out), runtime.Version()) {
		t.Errorf("snap --version printed %q; want %q and %s", out, commit, runtime.Version())
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
