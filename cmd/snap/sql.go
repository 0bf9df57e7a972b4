package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/snapsql"
)

func sqlCommand() *cli.Command {
	return &cli.Command{
		Name:      "sql",
		Usage:     "run read-only SQL over a snapshot's tables",
		UsageText: "snap sql [--snapshot FOLDER | --store URL [--repo NAME] [--branch BRANCH] | --all [--store URL]] [--json | --csv] QUERY",
		ArgsUsage: "QUERY",
		Description: "Runs one SELECT over the tables of the newest local snapshot (or the one\n" +
			"--snapshot names) through an embedded DuckDB: nodes, edges, files, sources,\n" +
			"refs and manifest, with the macros symbol(name), callers(id), callees(id),\n" +
			"reach(id, depth) and reached_by(id, depth). --all loads every snapshot of\n" +
			"the store instead, as the views heads, manifests, all_nodes, all_edges,\n" +
			"all_files, nodes, edges and files, with the columns repo, branch and commit.\n" +
			"No query reads or writes a file, and none changes the tables. docs/sql.md\n" +
			"lists the columns.\n\n" +
			"Examples:\n" +
			"  snap sql \"SELECT kind, count(*) FROM nodes GROUP BY ALL ORDER BY 2 DESC\"\n" +
			"  snap sql --json \"SELECT * FROM callers((SELECT id FROM symbol('NewMemStore')))\"\n" +
			"  snap sql --all --csv \"SELECT repo, branch, count(*) FROM nodes GROUP BY ALL\"",
		Flags: append(snapshotFlags(),
			&cli.BoolFlag{Name: "all", Usage: "every snapshot of the store, with the columns repo, branch and commit"},
			&cli.BoolFlag{Name: "json", Usage: "answer in JSON: columns, rows (ids as strings), truncated"},
			&cli.BoolFlag{Name: "csv", Usage: "answer in CSV, with a header line"},
			&cli.IntFlag{Name: "max-rows", Value: snapsql.DefaultMaxRows, Usage: "answer at most `N` rows"},
			&cli.DurationFlag{Name: "timeout", Value: snapsql.DefaultTimeout, Usage: "stop a query running past `DURATION`"},
		),
		Action: runSQL,
	}
}

func runSQL(ctx context.Context, c *cli.Command) error {
	if c.NArg() != 1 {
		return usagef("sql: give one query (quoted), got %d arguments", c.NArg())
	}
	if c.Bool("json") && c.Bool("csv") {
		return usagef("sql: --json or --csv, not both")
	}
	if c.Bool("all") && (c.String("snapshot") != "" || c.String("repo") != "" || c.String("branch") != "") {
		return usagef("sql: --all reads every snapshot of the store; it takes no --snapshot, --repo or --branch")
	}
	if !snapsql.Available {
		return snapsql.ErrUnavailable
	}
	opts := snapsql.Options{MaxRows: c.Int("max-rows"), Timeout: c.Duration("timeout"), For: c.Args().First()}
	var db *snapsql.DB
	if c.Bool("all") {
		st, err := ci.OpenExistingStore(ctx, c.String("store"), detect(ctx, ".").Root)
		if err != nil {
			return err
		}
		if db, err = snapsql.OpenStore(ctx, st.Store, opts); err != nil {
			return fmt.Errorf("sql: %s: %w", st.Label, err)
		}
	} else {
		src, err := findSnapshot(ctx, c)
		if err != nil {
			return err
		}
		if db, err = snapsql.Open(ctx, src.Store, src.Prefix, opts); err != nil {
			return fmt.Errorf("sql: %s: %w", src.Label, err)
		}
	}
	defer db.Close()
	res, err := db.Query(ctx, c.Args().First())
	if errors.Is(err, snapsql.ErrRefused) {
		return usagef("sql: %v", err)
	} else if err != nil {
		return fmt.Errorf("sql: %w", err)
	}
	switch {
	case c.Bool("json"):
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(c.Root().Writer, "%s\n", b)
		return err
	case c.Bool("csv"):
		return res.WriteCSV(c.Root().Writer)
	}
	return res.WriteTable(c.Root().Writer)
}
