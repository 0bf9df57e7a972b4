package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/internal/buildinfo"
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

// version is the short version of this binary (buildinfo.Build.Short).
func version() string { return buildinfo.Read().Short() }

// versionLine is the version snap --version and snap version print.
func versionLine() string { return buildinfo.Read().Line() }
