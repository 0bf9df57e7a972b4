package ci

import (
	"context"
	"fmt"
	"time"

	"github.com/graphsnap/snap/overlay"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// WorktreeMark ends the commit of a diff's B side that is the working
// tree: the checkout's HEAD as it is on disk, uncommitted changes and
// untracked files included.
const WorktreeMark = "+worktree"

// WorktreeDiff compares the snapshot src with the working tree of the
// checkout id, which must be of repo. The files that differ from the
// snapshot are indexed again in memory over its rows (package overlay),
// with the options the snapshot was indexed with; nothing is written to
// any store. version is the indexer version the tree is indexed as. It
// returns the diff and the snapshot's manifest. A snapshot of another
// repository or of another feature version is a ConfigError.
func WorktreeDiff(ctx context.Context, src Source, id Identity, repo, version string, opt query.DiffOptions) (*schemas.Diff, *schemas.Manifest, error) {
	// The refs too: the overlay resolves the tree's references afresh,
	// the unchanged files' with the rows the snapshot kept for them.
	s, err := snapshot.Read(ctx, src.Store, src.Prefix, snapshot.ReadOptions{ManifestSHA256: src.ManifestSHA256})
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", src.Label, err)
	}
	m := &s.Manifest
	if m.Repo != repo {
		return nil, m, configErrorf("%s is a snapshot of %s, and %s is a checkout of %s: --worktree compares a snapshot with its own repository's working tree",
			src.Label, m.Repo, id.Root, repo)
	}
	// The tree is indexed by this snap: its ids compare with the
	// snapshot's only when both were made the same way.
	if m.FeatureVersion != schemas.FeatureVersion {
		return nil, m, configErrorf("%s was made with feature version %d and this snap makes %d: their ids do not compare; index the branch again with this snap",
			src.Label, m.FeatureVersion, schemas.FeatureVersion)
	}
	// Index the tree as the snapshot was indexed, or the two would differ
	// by what the options let in.
	opts, err := IndexOptions(m.Indexer.Args)
	if err != nil {
		return nil, m, fmt.Errorf("cannot tell how %s was indexed (%q): %w", src.Label, m.Indexer.Args, err)
	}
	refs := s.Refs
	s.Refs = nil
	base, err := query.Build(s)
	if err != nil {
		return nil, m, fmt.Errorf("load %s: %w", src.Label, err)
	}
	read := time.Now().UTC()
	tree, err := overlay.Worktree(ctx, overlay.Config{
		Dir: id.Root, Options: opts, IndexerVersion: version,
		Refs: func(context.Context, *schemas.Manifest) ([]schemas.Ref, error) { return refs, nil },
	}, base)
	if err != nil {
		return nil, m, fmt.Errorf("index the working tree of %s: %w", id.Root, err)
	}
	d := query.Diff(base, tree, opt)
	d.To = schemas.DiffSide{Repo: m.Repo, Branch: id.Branch, Commit: worktreeCommit(ctx, id.Root), IndexedAt: read.Truncate(time.Second)}
	return d, m, nil
}

// worktreeCommit names the working tree: its HEAD commit with
// WorktreeMark, or the mark alone in a repository with no commit yet.
func worktreeCommit(ctx context.Context, root string) string {
	head, err := Git(ctx, root, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil || head == "" {
		return WorktreeMark[1:]
	}
	return head + WorktreeMark
}
