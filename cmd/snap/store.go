package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/snapshot"
)

// storeRef is an open store and how to name it in messages.
type storeRef struct {
	store snapshot.Store
	label string // the folder, or the URL without credentials
	root  string // the folder of a local store; "" for a remote one
}

func (s storeRef) local() bool { return s.root != "" }

// openStore opens the store named by url: a folder, a file:// URL or an
// s3:// URL (ci.OpenStore). "" is the local cache, .snap/ under root.
func openStore(url, root string) (storeRef, error) {
	st, err := ci.OpenStore(context.Background(), url, root)
	if err != nil {
		return storeRef{}, usage(err)
	}
	return storeRef{store: st.Store, label: st.Label, root: st.Dir}, nil
}

// ci is the store as package ci names it.
func (s storeRef) ci() ci.Store { return ci.Store{Store: s.store, Label: s.label, Dir: s.root} }

// openExistingStore opens a store that must already exist: a local folder
// is not created.
func openExistingStore(url, root string) (storeRef, error) {
	if url == "" || !strings.Contains(url, "://") || strings.HasPrefix(url, "file://") {
		path := strings.TrimPrefix(url, "file://")
		if url == "" {
			path = filepath.Join(root, ".snap")
		}
		if _, err := os.Stat(path); err != nil {
			return storeRef{}, usagef("no store at %s: run `snap index` or `snap pull` first, or name one with --store", path)
		}
	}
	return openStore(url, root)
}

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
func openRemote(ctx context.Context, c *cli.Command, root string) (storeRef, error) {
	url, err := remoteURL(ctx, c, root)
	if err != nil {
		return storeRef{}, err
	}
	return openStore(url, root)
}

// openPull opens the two stores a pull moves between: the shared one and
// the local one at root.
func openPull(ctx context.Context, c *cli.Command, root string) (remote, local storeRef, err error) {
	if remote, err = openRemote(ctx, c, root); err != nil {
		return storeRef{}, storeRef{}, err
	}
	if local, err = openStore("", root); err != nil {
		return storeRef{}, storeRef{}, err
	}
	return remote, local, nil
}

// storeError says in one line what went wrong with a store, and whether
// it is the caller's to fix (a usage error, exit code 2).
func storeError(st storeRef, err error) error { return usage(st.ci().Err(err)) }

// usage makes an error package ci says is the caller's to fix
// (ci.ConfigError) a usage error, as the commands that branch on one
// see it.
func usage(err error) error {
	var ce ci.ConfigError
	if errors.As(err, &ce) {
		return usageError{err}
	}
	return err
}
