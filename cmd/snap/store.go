package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
	"github.com/graphsnap/snap/snapshot/s3store"
)

// storeRef is an open store and how to name it in messages.
type storeRef struct {
	store snapshot.Store
	label string // the folder, or the URL without credentials
	root  string // the folder of a local store; "" for a remote one
}

func (s storeRef) local() bool { return s.root != "" }

// openStore opens the store named by url: a folder, a file:// URL or an
// s3:// URL (snapshot.Open). "" is the local cache, .snap/ under root.
func openStore(url, root string) (storeRef, error) {
	if url == "" {
		url = filepath.Join(root, ".snap")
	}
	path := snapshot.LocalPath(url)
	st, err := snapshot.Open(context.Background(), url)
	var ue *snapshot.URLError
	switch {
	case errors.As(err, &ue):
		return storeRef{}, usageError{err}
	case errors.Is(err, filestore.ErrLinkedRoot):
		target, _ := os.Readlink(path)
		return storeRef{}, usagef("store %s is a symbolic link (to %s); snap refuses to write through it: remove it, or pass --store with another folder", path, target)
	case err != nil:
		return storeRef{}, err
	}
	return storeRef{store: st, label: snapshot.Label(url), root: path}, nil
}

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
func remoteURL(ctx context.Context, c *cli.Context, root string) (string, error) {
	if v := c.String("store"); v != "" {
		return v, nil
	}
	if v := os.Getenv("SNAP_STORE"); v != "" {
		return v, nil
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "config", "--get", "snap.store")
	if out, err := cmd.Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		return strings.TrimSpace(string(out)), nil
	}
	return "", usagef("%s: no store named: pass --store URL, set SNAP_STORE, or `git config snap.store URL`", c.Command.Name)
}

// openRemote opens the shared store a command talks to.
func openRemote(ctx context.Context, c *cli.Context, root string) (storeRef, error) {
	url, err := remoteURL(ctx, c, root)
	if err != nil {
		return storeRef{}, err
	}
	return openStore(url, root)
}

// openPull opens the two stores a pull moves between: the shared one and
// the local one at root.
func openPull(ctx context.Context, c *cli.Context, root string) (remote, local storeRef, err error) {
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
func storeError(st storeRef, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, s3store.ErrNoBucket), errors.Is(err, s3store.ErrAccessDenied):
		return usageError{fmt.Errorf("store %s: %w", st.label, err)}
	}
	return fmt.Errorf("store %s: %w", st.label, err)
}

// gitAncestry answers ancestry questions from the repository at root:
// `git merge-base --is-ancestor` exits 0 for yes, 1 for no, and otherwise
// (an unknown commit) cannot tell.
func gitAncestry(root string) snapshot.AncestryFunc {
	return func(ctx context.Context, ancestor, descendant string) (bool, error) {
		cmd := exec.CommandContext(ctx, "git", "-C", root, "merge-base", "--is-ancestor", ancestor, descendant)
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return true, nil
		case errors.As(err, &ee) && ee.ExitCode() == 1:
			return false, nil
		}
		return false, fmt.Errorf("git cannot tell whether %s is an ancestor of %s: %w", ancestor, descendant, err)
	}
}
