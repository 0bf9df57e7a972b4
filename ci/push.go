package ci

import (
	"context"
	"errors"
	"io/fs"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// PushConfig is what Push copies, and where.
type PushConfig struct {
	Local, Remote Store
	Repo, Branch  string
	// Commit is the commit whose snapshot is pushed; "" is the local
	// HEAD's.
	Commit string
	// Force moves HEAD even when the commit does not descend from HEAD's.
	Force bool
	// AllowDirty pushes a snapshot of a work tree with uncommitted changes.
	AllowDirty bool
	// Git is the checkout whose git decides what descends from what; ""
	// leaves it to the parents the store's manifests record.
	Git string
	// Fault, when set, is called at each step, for the tests that stop a
	// push there.
	Fault func(point string)
}

// PushResult is what Push did.
type PushResult struct {
	Commit string
	Copy   snapshot.CopyResult
	Head   snapshot.HeadMove
	Took   time.Duration // copying and moving HEAD
}

// Push copies a snapshot from the local store to the remote one, every
// table checked against its SHA-256, then its manifest, then moves the
// branch's HEAD there by compare-and-swap, only forward unless
// cfg.Force.
func Push(ctx context.Context, cfg PushConfig) (PushResult, error) {
	fault := cfg.Fault
	if fault == nil {
		fault = func(string) {}
	}
	local, remote := cfg.Local, cfg.Remote
	commit, manifestSum := cfg.Commit, ""
	if commit == "" {
		head, _, err := snapshot.ReadHead(ctx, local, cfg.Repo, cfg.Branch)
		if errors.Is(err, fs.ErrNotExist) {
			return PushResult{}, configErrorf("push: no snapshot of %s %s in %s: run `snap index` first", cfg.Repo, cfg.Branch, local.Label)
		} else if err != nil {
			return PushResult{}, err
		}
		commit, manifestSum = head.Commit, head.ManifestSHA256
	}
	prefix, err := snapshot.Prefix(cfg.Repo, cfg.Branch, commit)
	if err != nil {
		return PushResult{}, configErrorf("push: %v", err)
	}
	m, _, err := snapshot.ReadManifest(ctx, local, prefix)
	if errors.Is(err, fs.ErrNotExist) {
		return PushResult{}, configErrorf("push: no snapshot of %s %s at %s in %s", cfg.Repo, cfg.Branch, commit, local.Label)
	} else if err != nil {
		return PushResult{}, err
	}
	if m.Dirty && !cfg.AllowDirty {
		return PushResult{}, configErrorf("push: the snapshot of %s was indexed from a work tree with uncommitted changes; commit them and index again, or pass --allow-dirty", commit)
	}

	start := time.Now()
	var stored atomic.Int32
	res, err := snapshot.Copy(ctx, remote, local, prefix, snapshot.CopyOptions{
		ManifestSHA256: manifestSum,
		AfterTable: func(schemas.Table) {
			fault("after-tables=" + strconv.Itoa(int(stored.Add(1))))
		},
	})
	if err != nil {
		return PushResult{}, remote.Err(err)
	}
	fault("after-manifest")
	opts := snapshot.HeadOptions{Force: cfg.Force, BeforeWrite: func() { fault("before-head") }}
	if cfg.Git != "" {
		opts.Ancestry = Ancestry(cfg.Git)
	}
	mv, err := snapshot.MoveHead(ctx, remote, cfg.Repo, cfg.Branch, res.Manifest, res.ManifestSHA256, opts)
	if err != nil {
		return PushResult{}, remote.Err(err)
	}
	return PushResult{Commit: commit, Copy: res, Head: mv, Took: time.Since(start)}, nil
}
