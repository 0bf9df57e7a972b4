package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/internal/profile"
	"github.com/graphsnap/snap/snapshot"
)

func indexCommand(log *slog.Logger) *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "index a repository into a snapshot in the store",
		UsageText: "snap index [--store URL] [--full | --base FOLDER] [--languages LANGUAGES] [--exclude GLOB ...] [--quiet] [PATH]",
		ArgsUsage: "[PATH]",
		Description: "Walks PATH (default .), parses every file of a supported language, resolves\n" +
			"calls, imports and inheritance, and writes a verified snapshot into the store\n" +
			"(default: .snap/ at the repository root), then moves the branch's HEAD to it.\n" +
			"The snapshot's folder is printed on stdout.\n\n" +
			"Unless --full, the files unchanged since the branch's HEAD keep its rows, and\n" +
			"those whose stat (size, times, inode) is as the last run here saw it are not\n" +
			"even read: a stat cache per tree in $SNAP_CACHE_DIR (default: snap/ in the\n" +
			"user's cache folder), trusted as git trusts its index.\n\n" +
			"Examples:\n  snap index\n  snap index --store /tmp/graphs $(go env GOROOT)/src",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "store", Usage: "store `URL`: a folder, file:// or s3:// URL (default: .snap/ at the repository root)"},
			&cli.IntFlag{Name: "workers", Usage: "parse workers (default: the number of CPUs)"},
			&cli.Int64Flag{Name: "max-file-size", Value: indexer.DefaultMaxFileSize, Usage: "skip files larger than this many `BYTES`"},
			&cli.DurationFlag{Name: "max-file-time", Value: indexer.DefaultMaxFileTime, Usage: "give up a file that takes longer than this `DURATION` to read and parse (0: no limit)"},
			&cli.BoolFlag{Name: "no-sources", Usage: "leave the sources table out of the snapshot"},
			&cli.StringFlag{Name: "repo", Usage: "file the snapshot under this repository `NAME` (default: from the origin remote)"},
			&cli.StringFlag{Name: "branch", Usage: "file the snapshot under this `BRANCH` (default: the checked-out branch)"},
			&cli.BoolFlag{Name: "parse-only", Usage: "only walk, read and parse (the floor for benchmarks); write nothing"},
			&cli.StringFlag{Name: "base", Usage: "reuse the rows of unchanged files from the snapshot in this `FOLDER` (default: the store's HEAD of the branch)"},
			&cli.BoolFlag{Name: "full", Usage: "parse every file, reusing nothing from an earlier snapshot"},
			&cli.StringSliceFlag{Name: "languages", Usage: "index only these `LANGUAGES` (go, python, …; comma-separated; default: all)"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "leave out paths matching this `GLOB` (doublestar: testdata, **/*_gen.go); repeatable"},
			&cli.BoolFlag{Name: "vendored", Usage: "index vendored folders (vendor/, node_modules/, third_party/) too"},
			&cli.BoolFlag{Name: "no-generated", Usage: "leave out generated files (\"Code generated … DO NOT EDIT\", @generated), indexed by default"},
			&cli.BoolFlag{Name: "generated", Hidden: true, Usage: "index generated files: the default now"},
			&cli.BoolFlag{Name: "minified", Usage: "index minified files (*.min.*, lines over 1,000 bytes) too"},
			&cli.BoolFlag{Name: "derived", Usage: "index build output (a tsconfig's outDir, a package's dist/ with source maps) too"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress output"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if err := exactArgs(c, 0, 1); err != nil {
				return err
			}
			dir := c.Args().First()
			if dir == "" {
				dir = "."
			}
			if fi, err := os.Stat(dir); err != nil {
				return usagef("cannot index %s: %v", dir, errors.Unwrap(err))
			} else if !fi.IsDir() {
				return usagef("cannot index %s: not a directory (give the repository's folder)", dir)
			}
			if c.Int("workers") < 0 || c.Int64("max-file-size") <= 0 {
				return usagef("--workers must be ≥ 0 and --max-file-size > 0")
			}
			if n := c.Int64("max-file-size"); n > snapshot.MaxValueSize {
				return usagef("--max-file-size %d is over %d (%d MiB): the snapshot would hold a file whose page a reader refuses", n, snapshot.MaxValueSize, snapshot.MaxValueSize>>20)
			}
			if err := indexer.ValidateExclude(c.StringSlice("exclude")); err != nil {
				return usagef("--exclude: %v", err)
			}
			if _, err := chooseLanguages(c.StringSlice("languages")); err != nil {
				return err
			}
			return runIndex(ctx, log, c, dir)
		},
	}
}

// startProfiles starts the profiles SNAP_CPUPROFILE, SNAP_TRACE and
// SNAP_MEMPROFILE name files for (profile.Start).
func startProfiles() (stop func(), err error) {
	return profile.Start(os.Getenv("SNAP_CPUPROFILE"), os.Getenv("SNAP_TRACE"), os.Getenv("SNAP_MEMPROFILE"))
}

func runIndex(ctx context.Context, log *slog.Logger, c *cli.Command, dir string) error {
	stop, err := startProfiles()
	if err != nil {
		return err
	}
	defer stop()
	langs, err := chooseLanguages(c.StringSlice("languages"))
	if err != nil {
		return err
	}
	cfg := ci.Config{
		Dir: dir, Store: c.String("store"), Repo: c.String("repo"), Branch: c.String("branch"),
		Base: c.String("base"), Full: c.Bool("full"),
		Options: indexer.Options{
			Languages:     langs,
			Exclude:       c.StringSlice("exclude"),
			Vendored:      c.Bool("vendored"),
			SkipGenerated: c.Bool("no-generated"),
			Derived:       c.Bool("derived"),
			Minified:      c.Bool("minified"),
			Workers:       c.Int("workers"),
			MaxFileSize:   c.Int64("max-file-size"),
			MaxFileTime:   cmp.Or(c.Duration("max-file-time"), -1), // 0 on the command line is no limit
			NoSources:     c.Bool("no-sources"),
			ParseOnly:     c.Bool("parse-only"),
		},
	}
	if !c.Bool("quiet") {
		cfg.Progress = c.Root().ErrWriter
	}
	res, err := ci.Index(ctx, pipeline(cfg, log))
	if err != nil || cfg.Options.ParseOnly {
		return err
	}
	fmt.Fprintln(c.Root().Writer, cmp.Or(res.Folder, res.Prefix))
	return nil
}

// pipeline fills in what every run of the pipeline takes from the
// process: the logger, the version and command line the manifest
// records, the stat cache's folder ($SNAP_CACHE_DIR, else snap/ in the
// user's cache folder), whether GOGC is set, whether progress goes to
// lines ($CI), and the fault points (SNAP_FAULT).
func pipeline(cfg ci.Config, log *slog.Logger) ci.Config {
	cfg.Log, cfg.Version, cfg.Args, cfg.Fault = log, version(), os.Args[1:], fault
	cfg.KeepGC = os.Getenv("GOGC") != ""
	cfg.ProgressLines = os.Getenv("CI") != ""
	cfg.StatCache = os.Getenv("SNAP_CACHE_DIR")
	if cfg.StatCache == "" {
		if user, err := os.UserCacheDir(); err == nil {
			cfg.StatCache = filepath.Join(user, "snap")
		}
	}
	return cfg
}

// chooseLanguages returns the languages --languages names; every one when
// it names none.
func chooseLanguages(names []string) ([]indexer.Language, error) {
	langs, err := ci.Languages(names)
	if err != nil {
		return nil, usagef("--languages: %v", err)
	}
	return langs, nil
}
