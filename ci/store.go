package ci

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
	"github.com/graphsnap/snap/snapshot/s3store"
)

// ConfigError is an error the caller's configuration caused rather than
// the run: a store URL that names no store, a base that is no snapshot,
// a bucket that does not exist or refuses the credentials. A command line
// reports it as a usage error.
type ConfigError struct{ Err error }

func (e ConfigError) Error() string { return e.Err.Error() }
func (e ConfigError) Unwrap() error { return e.Err }

func configErrorf(format string, args ...any) error {
	return ConfigError{fmt.Errorf(format, args...)}
}

// Store is an open store and how to name it.
type Store struct {
	snapshot.Store
	Label string // the folder, or the URL without credentials (snapshot.Label)
	Dir   string // the folder of a local store; "" for a remote one
}

// Local says whether the store is a folder on this machine: a cache
// whose HEAD follows whatever was indexed last.
func (s Store) Local() bool { return s.Dir != "" }

// OpenStore opens the store url names (snapshot.Open): a folder, a
// file:// URL or an s3:// URL. "" is the local cache, .snap/ under root.
func OpenStore(ctx context.Context, url, root string) (Store, error) {
	if url == "" {
		url = filepath.Join(root, ".snap")
	}
	path := snapshot.LocalPath(url)
	st, err := snapshot.Open(ctx, url)
	var ue *snapshot.URLError
	switch {
	case errors.As(err, &ue):
		return Store{}, ConfigError{err}
	case errors.Is(err, filestore.ErrLinkedRoot):
		target, _ := os.Readlink(path)
		return Store{}, configErrorf("store %s is a symbolic link (to %s); snap refuses to write through it: remove it, or pass --store with another folder", path, target)
	case err != nil:
		return Store{}, err
	}
	return Store{Store: st, Label: snapshot.Label(url), Dir: path}, nil
}

// OpenExistingStore opens the store url names, as OpenStore does, when
// it already exists: a local folder is not created, and its absence is a
// ConfigError.
func OpenExistingStore(ctx context.Context, url, root string) (Store, error) {
	if url == "" || !strings.Contains(url, "://") || strings.HasPrefix(url, "file://") {
		path := strings.TrimPrefix(url, "file://")
		if url == "" {
			path = filepath.Join(root, ".snap")
		}
		if _, err := os.Stat(path); err != nil {
			return Store{}, configErrorf("no store at %s: run `snap index` or `snap pull` first, or name one with --store", path)
		}
	}
	return OpenStore(ctx, url, root)
}

// Err says in one line what went wrong with the store: a ConfigError
// when it is the caller's to fix (no such bucket, credentials refused).
func (s Store) Err(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, s3store.ErrNoBucket), errors.Is(err, s3store.ErrAccessDenied):
		return ConfigError{fmt.Errorf("store %s: %w", s.Label, err)}
	}
	return fmt.Errorf("store %s: %w", s.Label, err)
}

// StoreURL is the shared store of the checkout at root: flag when it is
// not "", else $SNAP_STORE (through getenv), else the snap.store setting
// of git's configuration; "" when none names one.
func StoreURL(ctx context.Context, flag, root string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	if v := getenv("SNAP_STORE"); v != "" {
		return v
	}
	v, _ := Git(ctx, root, "config", "--get", "snap.store")
	return v
}

// Pull copies a snapshot of repo's branch from remote into local (HEAD's
// when commit is "") and points local's HEAD at it. It returns the
// record of the pull (Transfer).
func Pull(ctx context.Context, remote, local Store, repo, branch, commit string) (schemas.Transfer, error) {
	start := time.Now()
	res, mv, err := pull(ctx, remote, local, repo, branch, commit)
	if err != nil {
		return schemas.Transfer{}, err
	}
	return Transfer("pull", remote.Label, repo, branch, res.Manifest.Commit, res, mv, time.Since(start)), nil
}

func pull(ctx context.Context, remote, local Store, repo, branch, commit string) (snapshot.CopyResult, snapshot.HeadMove, error) {
	if commit != "" {
		res, mv, err := PullHead(ctx, remote, local, repo, branch, schemas.Head{Commit: commit})
		if errors.Is(err, fs.ErrNotExist) {
			return res, mv, configErrorf("pull: %s holds no snapshot of %s %s at %s", remote.Label, repo, branch, commit)
		}
		return res, mv, err
	}
	head, _, err := snapshot.ReadHead(ctx, remote, repo, branch)
	if errors.Is(err, fs.ErrNotExist) {
		return snapshot.CopyResult{}, snapshot.HeadMove{}, configErrorf("pull: %s holds no snapshot of %s %s (see `snap ls`)", remote.Label, repo, branch)
	} else if err != nil {
		return snapshot.CopyResult{}, snapshot.HeadMove{}, remote.Err(err)
	}
	return PullHead(ctx, remote, local, repo, branch, head)
}

// PullHead copies the snapshot head names (checking its manifest digest when
// head has one) from remote into local and moves local's HEAD to it.
func PullHead(ctx context.Context, remote, local Store, repo, branch string, head schemas.Head) (snapshot.CopyResult, snapshot.HeadMove, error) {
	prefix, err := snapshot.Prefix(repo, branch, head.Commit)
	if err != nil {
		return snapshot.CopyResult{}, snapshot.HeadMove{}, configErrorf("pull: %v", err)
	}
	res, err := snapshot.Copy(ctx, local, remote, prefix, snapshot.CopyOptions{ManifestSHA256: head.ManifestSHA256})
	if err != nil {
		return res, snapshot.HeadMove{}, remote.Err(err)
	}
	mv, err := snapshot.MoveHead(ctx, local, repo, branch, res.Manifest, res.ManifestSHA256, snapshot.HeadOptions{Force: true})
	return res, mv, err
}

// SplitRepo reads a repository asked for as NAME or NAME:BRANCH (a
// colon cannot be in a git branch name); branch is "" without one.
func SplitRepo(s string) (repo, branch string) {
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// PickHeads returns the branches of st with a HEAD that names pick:
// each NAME every branch of that repository, each NAME:BRANCH that one
// (SplitRepo); every branch when names is empty. A name that picks
// none, or a store with no HEAD at all, is a ConfigError.
func PickHeads(ctx context.Context, st Store, names []string) ([]snapshot.Ref, error) {
	heads, err := snapshot.Heads(ctx, st)
	if err != nil {
		return nil, st.Err(err)
	}
	todo := heads
	if len(names) > 0 {
		todo = nil
	}
	for _, name := range names {
		repo, branch := SplitRepo(name)
		n := len(todo)
		for _, h := range heads {
			if h.Repo == repo && (branch == "" || h.Branch == branch) {
				todo = append(todo, h)
			}
		}
		if len(todo) == n {
			return nil, configErrorf("pull: %s holds no snapshot of %s (see `snap ls`)", st.Label, name)
		}
	}
	if len(todo) == 0 {
		return nil, configErrorf("pull: %s holds no snapshot: run `snap push` first", st.Label)
	}
	return todo, nil
}

// fetchHead makes the HEAD snapshot of repo's branch available in local
// (pulled from remote when there is one) and returns its prefix; "" when
// there is none.
func fetchHead(ctx context.Context, log *slog.Logger, remote *Store, local Store, repo, branch string) (string, error) {
	if remote != nil {
		head, _, err := snapshot.ReadHead(ctx, remote, repo, branch)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		} else if err != nil {
			return "", remote.Err(err)
		}
		res, _, err := PullHead(ctx, *remote, local, repo, branch, head)
		if err != nil {
			return "", err
		}
		log.Info("pulled", "branch", branch, "commit", head.Commit, "bytes", res.Bytes, "present", res.Present)
		return res.Prefix, nil // the commit's build key when the cache held another snapshot of it
	}
	head, _, err := snapshot.ReadHead(ctx, local, repo, branch)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	return snapshot.Prefix(repo, branch, head.Commit)
}

// push copies the snapshot at prefix of local to remote and moves the
// branch's HEAD there forward (git at root decides what is forward).
func push(ctx context.Context, log *slog.Logger, local, remote Store, id Identity, prefix string) error {
	cp, err := snapshot.Copy(ctx, remote, local, prefix, snapshot.CopyOptions{})
	if err != nil {
		return remote.Err(err)
	}
	mv, err := snapshot.MoveHead(ctx, remote, id.Repo, id.Branch, cp.Manifest, cp.ManifestSHA256,
		snapshot.HeadOptions{Ancestry: Ancestry(id.Root)})
	if err != nil {
		return remote.Err(err)
	}
	log.Info("pushed", "store", remote.Label, "bytes", cp.Bytes, "head_moved", mv.Moved, "reason", mv.Reason, "generation", mv.To.Generation)
	return nil
}
