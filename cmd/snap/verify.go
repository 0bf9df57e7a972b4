package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/snapshot"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check a snapshot's checksums and schema",
		UsageText: "snap verify [--json] SNAPSHOT",
		ArgsUsage: "SNAPSHOT",
		Description: "SNAPSHOT is a snapshot's folder (the one holding manifest.json), as\n" +
			"`snap index` prints it. Every table's size and SHA-256 are checked against\n" +
			"the manifest, every table's columns against the format version, its rows'\n" +
			"order, and the digest its footer lists for each row group against the\n" +
			"group's rows (an incremental index copies row groups by those digests).\n\n" +
			"Example:\n  snap verify $(snap index -q)",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the verified manifest as JSON"}},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 1, 1); err != nil {
				return err
			}
			dir := c.Args().First()
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return usagef("verify %s: not a snapshot folder (give the folder holding manifest.json)", dir)
			}
			m, err := snapshot.VerifyDir(ctx, dir)
			if err != nil {
				return fmt.Errorf("verify %s: %w", dir, err)
			}
			if c.Bool("json") {
				enc := json.NewEncoder(c.Root().Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(m)
			}
			ci.VerifiedText(c.Root().Writer, &m)
			return nil
		},
	}
}
