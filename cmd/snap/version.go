package main

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v3"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print snap's version, the commit it was built from and the Go that built it",
		UsageText: "snap version",
		Description: "Prints one line, the same as snap --version: the module version (dev for a\n" +
			"build from a work tree), the commit the binary was built from with -dirty when\n" +
			"the work tree had uncommitted changes, the commit's time, and the Go version\n" +
			"and platform. The commit is known when the binary was built inside a git\n" +
			"checkout with VCS stamping on (go build's default; -buildvcs=false or\n" +
			"GOFLAGS=-buildvcs=false turns it off) and is left out otherwise.\n\n" +
			"Manifests record the short form (the version and the commit's first 12 digits)\n" +
			"as the indexer's version.\n\n" +
			"Examples:\n  snap version\n  snap --version",
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 0); err != nil {
				return err
			}
			cli.ShowVersion(c.Root())
			return nil
		},
	}
}

// build is what a binary knows of its own build.
type build struct {
	version  string // module version: a tag or a pseudo-version; "" for a work tree build
	revision string // the commit; "" when the build was not stamped
	time     string // the commit's time
	modified bool   // the work tree had uncommitted changes
}

func readBuild() build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return build{}
	}
	return parseBuild(bi)
}

func parseBuild(bi *debug.BuildInfo) build {
	b := build{version: bi.Main.Version}
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

// short is the version recorded in manifests and told to MCP clients:
// the module version ("dev" in a work tree) with the commit's first 12
// digits, and -dirty for a work tree with changes, unless the version (a
// pseudo-version) already carries them.
func (b build) short() string {
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

// line is what snap --version prints after "snap version ":
//
//	v0.4.0 (commit 3f9c2a1b7d4e5f60718293a4b5c6d7e8f9a0b1c2-dirty, 2026-01-02T15:04:05Z, go1.26.8 linux/amd64)
func (b build) line() string {
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

// version is the short version of this binary (see build.short).
func version() string { return readBuild().short() }

// versionLine is the version snap --version and snap version print.
func versionLine() string { return readBuild().line() }
