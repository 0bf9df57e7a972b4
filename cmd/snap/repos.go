package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
)

// parseBytes reads a size: 512MB, 4GiB, 2g, or a number of bytes.
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"b", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("not a positive size")
	}
	return int64(f * float64(mult)), nil
}

// serveSnapshotFlags are snapshotFlags with --repo given as often as
// there are repositories to serve.
func serveSnapshotFlags() []cli.Flag {
	flags := snapshotFlags()
	for i, f := range flags {
		if slices.Contains(f.Names(), "repo") {
			flags[i] = &cli.StringSliceFlag{Name: "repo", Usage: "repository `NAME` in the store (default: this checkout's); " +
				"give it again to serve several joined, NAME:BRANCH to choose a branch"}
		}
	}
	return flags
}

// pullMany is `snap pull --all` and `snap pull NAME[:BRANCH]...`: the
// HEAD of each branch chosen, into the local cache.
func pullMany(ctx context.Context, c *cli.Command) error {
	switch {
	case c.Bool("all") && c.NArg() > 0:
		return usagef("pull: --all pulls every repository; drop it, or the names")
	case c.IsSet("repo") || c.IsSet("branch") || c.IsSet("commit"):
		return usagef("pull: --repo, --branch and --commit choose one snapshot; with several, name each as NAME[:BRANCH]")
	}
	remote, local, err := openPull(ctx, c, detect(ctx, ".").Root)
	if err != nil {
		return err
	}
	todo, err := ci.PickHeads(ctx, remote, c.Args().Slice())
	if err != nil {
		return err
	}
	failed := 0
	for _, h := range todo {
		t, err := ci.Pull(ctx, remote, local, h.Repo, h.Branch, "")
		if err != nil {
			failed++
			fmt.Fprintf(c.Root().ErrWriter, "snap: pull %s %s: %v\n", h.Repo, h.Branch, err)
			continue
		}
		if c.Bool("json") {
			err = json.NewEncoder(c.Root().Writer).Encode(t) // one line each
		} else {
			err = report(c, t)
		}
		if err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d pulls failed", failed, len(todo))
	}
	return nil
}
