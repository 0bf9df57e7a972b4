package main

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/graphsnap/snap/overlay"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// worktreeMark ends the commit of a diff's B side that is the working
// tree: the checkout's HEAD as it is on disk, uncommitted changes and
// untracked files included.
const worktreeMark = "+worktree"

// worktreeDiff compares a snapshot with the working tree of the checkout
// around the current folder: the snapshot the argument names (as diff's
// A), else the HEAD of this checkout's branch in the store. The files
// that differ from the snapshot are indexed again in memory over its
// rows (package overlay); nothing is written to any store.
func worktreeDiff(ctx context.Context, c *cli.Command, opt query.DiffOptions) (*schemas.Diff, [2]string, error) {
	labels := [2]string{c.Args().First(), "worktree"}
	id := detect(ctx, ".")
	if !id.Git {
		return nil, labels, usagef("diff: --worktree compares a snapshot with a git checkout's working tree, and %s is not inside one", id.Root)
	}
	var src source
	var err error
	if labels[0] != "" {
		src, err = refSource(ctx, c, "diff", labels[0])
	} else {
		src, err = findSnapshot(ctx, c)
	}
	if err != nil {
		return nil, labels, err
	}
	// The refs too: the overlay resolves the tree's references afresh,
	// the unchanged files' with the rows the snapshot kept for them.
	s, err := snapshot.Read(ctx, src.store, src.prefix, snapshot.ReadOptions{ManifestSHA256: src.manifestSHA256})
	if err != nil {
		return nil, labels, fmt.Errorf("load %s: %w", src.label, err)
	}
	m := s.Manifest
	if labels[0] == "" {
		labels[0] = m.Branch
	}
	if repo := cmp.Or(c.String("repo"), id.Repo); m.Repo != repo {
		return nil, labels, usagef("diff: %s is a snapshot of %s, and %s is a checkout of %s: --worktree compares a snapshot with its own repository's working tree",
			cmp.Or(c.Args().First(), src.label), m.Repo, id.Root, repo)
	}
	// The tree is indexed by this snap: its ids compare with the
	// snapshot's only when both were made the same way.
	if m.FeatureVersion != schemas.FeatureVersion {
		return nil, labels, usagef("diff: %s was made with feature version %d and this snap makes %d: their ids do not compare; index the branch again with this snap",
			src.label, m.FeatureVersion, schemas.FeatureVersion)
	}
	// Index the tree as the snapshot was indexed, or the two would differ
	// by what the options let in.
	opts, err := indexOptions(m.Indexer.Args)
	if err != nil {
		return nil, labels, fmt.Errorf("diff: cannot tell how %s was indexed (%q): %w", src.label, m.Indexer.Args, err)
	}
	refs := s.Refs
	s.Refs = nil
	base, err := query.Build(s)
	if err != nil {
		return nil, labels, fmt.Errorf("load %s: %w", src.label, err)
	}
	read := time.Now().UTC()
	tree, err := overlay.Worktree(ctx, overlay.Config{
		Dir: id.Root, Options: opts, IndexerVersion: version(),
		Refs: func(context.Context, *schemas.Manifest) ([]schemas.Ref, error) { return refs, nil },
	}, base)
	if err != nil {
		return nil, labels, fmt.Errorf("diff: index the working tree of %s: %w", id.Root, err)
	}
	d := query.Diff(base, tree, opt)
	d.To = schemas.DiffSide{Repo: m.Repo, Branch: id.Branch, Commit: worktreeCommit(ctx, id.Root), IndexedAt: read.Truncate(time.Second)}
	return d, labels, nil
}

// worktreeCommit names the working tree: its HEAD commit with
// worktreeMark, or the mark alone in a repository with no commit yet.
func worktreeCommit(ctx context.Context, root string) string {
	head, err := git(ctx, root, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil || head == "" {
		return worktreeMark[1:]
	}
	return head + worktreeMark
}
