package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/export"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a snapshot's tables for notebooks: Arrow IPC, Parquet or JSON Lines",
		UsageText: "snap export --format arrow|parquet|jsonl [--out FOLDER] [--force] [--store URL] [--repo NAME] [--branch BRANCH] [SNAPSHOT]",
		ArgsUsage: "[SNAPSHOT]",
		Description: "Writes every table of one snapshot into a folder, one file per table:\n" +
			"  arrow    Arrow IPC files (nodes.arrow, …), uncompressed, so a reader can map them;\n" +
			"           the columns and types are those of schemas/FORMAT.md, none nullable, and\n" +
			"           the schema's metadata names the repo, branch, commit and table\n" +
			"  parquet  the tables as they are, with manifest.json: the folder is a snapshot\n" +
			"           that `snap verify` accepts\n" +
			"  jsonl    one JSON object per row (nodes.jsonl, …), columns in table order; ids are\n" +
			"           exact JSON integers up to 2^64-1 (a reader that parses numbers as doubles,\n" +
			"           such as JavaScript or jq, loses precision above 2^53: prefer arrow there);\n" +
			"           binary columns (sources.content) are base64\n\n" +
			"SNAPSHOT is a snapshot folder, a branch (its HEAD) or a commit (or a unique prefix\n" +
			"of one) of the repository in the store; without it, the HEAD of this checkout's\n" +
			"branch. The snapshot is verified first (checksums, schema, row order); the files are\n" +
			"written into a temporary folder beside --out and renamed into place when all are\n" +
			"written. --out must not exist or be empty, unless --force replaces it. The folder\n" +
			"is printed on stdout.\n\n" +
			"Examples:\n  snap export --format arrow --out graph\n" +
			"  snap export --format jsonl --out /tmp/main main\n" +
			"  snap export --format parquet --store s3://bucket/graphs --repo acme/shop 3f2a9c1",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "`FORMAT` of the files: arrow, parquet or jsonl (required)"},
			&cli.StringFlag{Name: "out", Usage: "`FOLDER` to write (default: snap-<commit>-<format> in the working folder)"},
			&cli.BoolFlag{Name: "force", Usage: "replace --out when it is a folder that is not empty"},
			&cli.StringFlag{Name: "store", Usage: "store `URL` holding the snapshot (default: .snap/ at the repository root)"},
			&cli.StringFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's)"},
			&cli.StringFlag{Name: "branch", Usage: "`BRANCH` whose HEAD to export when no SNAPSHOT is given (default: this checkout's)"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 1); err != nil {
				return err
			}
			format := c.String("format")
			if format == "" {
				return usagef("export: --format is required: arrow, parquet or jsonl")
			}
			if !slices.Contains(export.Formats, format) {
				return usagef("export: --format %q is not a format (have arrow, parquet, jsonl)", format)
			}
			if c.NArg() == 1 && c.String("branch") != "" {
				return usagef("export: --branch and SNAPSHOT exclude each other (SNAPSHOT may name a branch)")
			}
			var src ci.Source
			var err error
			if c.NArg() == 1 {
				src, err = refSource(ctx, c, "export", c.Args().First())
			} else {
				src, err = findSnapshot(ctx, c)
			}
			if err != nil {
				return err
			}
			res, err := export.Snapshot(ctx, src.Store, src.Prefix, export.Options{Format: format, Out: c.String("out"),
				Force: c.Bool("force"), ManifestSHA256: src.ManifestSHA256, Label: src.Label})
			var oe *export.OutError
			if errors.As(err, &oe) {
				return usageError{err}
			} else if err != nil {
				return err
			}
			res.Text(c.Root().ErrWriter)
			fmt.Fprintln(c.Root().Writer, res.Dir)
			return nil
		},
	}
}

// refSource finds the snapshot an argument names: a snapshot folder, or
// what ci.Ref finds in the store (a branch, a commit, any git revision).
// verb starts its messages.
func refSource(ctx context.Context, c *cli.Command, verb, arg string) (ci.Source, error) {
	if fi, err := os.Stat(filepath.Join(arg, schemas.ManifestFile)); err == nil && !fi.IsDir() {
		st, err := snapshot.OpenDir(arg)
		if err != nil {
			return ci.Source{}, usagef("%s: %s: %v", verb, arg, err)
		}
		return ci.Source{Store: st, Label: arg}, nil
	}
	id := detect(ctx, ".")
	st, err := ci.OpenExistingStore(ctx, c.String("store"), id.Root)
	if err != nil {
		return ci.Source{}, err
	}
	src, err := ci.Ref(ctx, st, cmp.Or(c.String("repo"), id.Repo), id.Root, arg)
	if err != nil {
		return ci.Source{}, fmt.Errorf("%s: %w", verb, err)
	}
	return src, nil
}
