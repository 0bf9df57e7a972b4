package main

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
)

// remoteFlag is --store for the commands that talk to a shared store.
func remoteFlag() cli.Flag {
	return &cli.StringFlag{Name: "store", Usage: "store `URL`: s3://BUCKET/PREFIX[?endpoint=URL], a folder or file://PATH " +
		"(default: $SNAP_STORE, else `git config snap.store`)"}
}

// remoteURL is the shared store a command talks to: --store, else
// $SNAP_STORE, else the snap.store setting of git's configuration.
func remoteURL(ctx context.Context, c *cli.Command, root string) (string, error) {
	if url := ci.StoreURL(ctx, c.String("store"), root, os.Getenv); url != "" {
		return url, nil
	}
	return "", usagef("%s: no store named: pass --store URL, set SNAP_STORE, or `git config snap.store URL`", c.Name)
}

// openRemote opens the shared store a command talks to.
func openRemote(ctx context.Context, c *cli.Command, root string) (ci.Store, error) {
	url, err := remoteURL(ctx, c, root)
	if err != nil {
		return ci.Store{}, err
	}
	return ci.OpenStore(ctx, url, root)
}

// openPull opens the two stores a pull moves between: the shared one and
// the local one at root.
func openPull(ctx context.Context, c *cli.Command, root string) (remote, local ci.Store, err error) {
	if remote, err = openRemote(ctx, c, root); err != nil {
		return ci.Store{}, ci.Store{}, err
	}
	if local, err = ci.OpenStore(ctx, "", root); err != nil {
		return ci.Store{}, ci.Store{}, err
	}
	return remote, local, nil
}
