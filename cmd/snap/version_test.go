package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionOfBuild(t *testing.T) {
	const rev = "3f9c2a1b7d4e5f60718293a4b5c6d7e8f9a0b1c2"
	platform := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-01-02T15:04:05Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	for _, c := range []struct {
		name        string
		version     string
		settings    []debug.BuildSetting
		short, line string
	}{
		{"work tree, clean", "(devel)", vcs("false"),
			"dev+3f9c2a1b7d4e", "dev (commit " + rev + ", 2026-01-02T15:04:05Z, " + platform + ")"},
		{"work tree, dirty", "(devel)", vcs("true"),
			"dev+3f9c2a1b7d4e-dirty", "dev (commit " + rev + "-dirty, 2026-01-02T15:04:05Z, " + platform + ")"},
		{"pseudo-version, dirty", "v0.0.0-20260102150405-3f9c2a1b7d4e+dirty", vcs("true"),
			"v0.0.0-20260102150405-3f9c2a1b7d4e+dirty",
			"v0.0.0-20260102150405-3f9c2a1b7d4e+dirty (commit " + rev + "-dirty, 2026-01-02T15:04:05Z, " + platform + ")"},
		{"tag, clean", "v0.4.0", vcs("false"),
			"v0.4.0+3f9c2a1b7d4e", "v0.4.0 (commit " + rev + ", 2026-01-02T15:04:05Z, " + platform + ")"},
		{"tag, dirty", "v0.4.0+dirty", vcs("true"),
			"v0.4.0+3f9c2a1b7d4e-dirty", "v0.4.0+dirty (commit " + rev + "-dirty, 2026-01-02T15:04:05Z, " + platform + ")"},
		{"module download", "v0.4.0", nil,
			"v0.4.0", "v0.4.0 (" + platform + ")"},
		{"no VCS stamping", "(devel)", nil,
			"dev", "dev (commit unknown: built without VCS stamping, " + platform + ")"},
	} {
		b := parseBuild(&debug.BuildInfo{Main: debug.Module{Path: "github.com/graphsnap/snap", Version: c.version}, Settings: c.settings})
		if got := b.short(); got != c.short {
			t.Errorf("%s: short %q, want %q", c.name, got, c.short)
		}
		if got := b.line(); got != c.line {
			t.Errorf("%s: line %q, want %q", c.name, got, c.line)
		}
	}
}

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
	if !strings.Contains(string(out), commit+",") || !strings.Contains(string(out), runtime.Version()) {
		t.Errorf("snap --version printed %q; want %q and %s", out, commit, runtime.Version())
	}
}
