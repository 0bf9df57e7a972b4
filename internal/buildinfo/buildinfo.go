// Package buildinfo says which snap a binary is: its module version, the
// commit it was built from and the Go that built it, as the toolchain
// stamped them. Manifests record Short; snap --version prints Line.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Build is what a binary knows of its own build.
type Build struct {
	version  string // module version: a tag or a pseudo-version; "" for a work tree build
	revision string // the commit; "" when the build was not stamped
	time     string // the commit's time
	modified bool   // the work tree had uncommitted changes
}

// Read is this binary's Build.
func Read() Build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Build{}
	}
	return Parse(bi)
}

// Parse reads a Build from the build information the Go toolchain
// stamped.
func Parse(bi *debug.BuildInfo) Build {
	b := Build{version: bi.Main.Version}
	if b.version == "(devel)" {
		b.version = ""
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.revision = s.Value
		case "vcs.time":
			b.time = s.Value
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	return b
}

// Short is the version recorded in manifests and told to MCP clients:
// the module version ("dev" in a work tree) with the commit's first 12
// digits, and -dirty for a work tree with changes, unless the version (a
// pseudo-version) already carries them.
func (b Build) Short() string {
	v := b.version
	if v == "" {
		v = "dev"
	}
	if b.revision == "" {
		return v
	}
	rev := b.revision[:min(12, len(b.revision))]
	if strings.Contains(v, rev) {
		return v // a pseudo-version: v0.0.0-20260102150405-3f9c2a1b7d4e[+dirty]
	}
	v = strings.TrimSuffix(v, "+dirty") + "+" + rev
	if b.modified {
		v += "-dirty"
	}
	return v
}

// Line is what snap --version prints after "snap version ":
//
//	v0.4.0 (commit 3f9c2a1b7d4e5f60718293a4b5c6d7e8f9a0b1c2-dirty, 2026-01-02T15:04:05Z, go1.26.8 linux/amd64)
func (b Build) Line() string {
	v := b.version
	if v == "" {
		v = "dev"
	}
	var in []string
	switch {
	case b.revision != "":
		c := "commit " + b.revision
		if b.modified {
			c += "-dirty"
		}
		in = append(in, c)
		if b.time != "" {
			in = append(in, b.time)
		}
	case b.version == "":
		in = append(in, "commit unknown: built without VCS stamping")
	}
	in = append(in, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	return v + " (" + strings.Join(in, ", ") + ")"
}
