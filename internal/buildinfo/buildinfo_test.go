package buildinfo

import (
	"runtime"
	"runtime/debug"
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
		b := Parse(&debug.BuildInfo{Main: debug.Module{Path: "github.com/graphsnap/snap", Version: c.version}, Settings: c.settings})
		if got := b.Short(); got != c.short {
			t.Errorf("%s: short %q, want %q", c.name, got, c.short)
		}
		if got := b.Line(); got != c.line {
			t.Errorf("%s: line %q, want %q", c.name, got, c.line)
		}
	}
}
