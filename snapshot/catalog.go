package snapshot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/graphsnap/snap/schemas"
)

// Catalog lists what a store holds, branch by branch: HEAD and every
// snapshot with its size. Keys that are not snapshot keys are ignored.
// repo and branch, when not empty, narrow the listing.
func Catalog(ctx context.Context, st Store, repo, branch string) ([]schemas.BranchListing, error) {
	prefix := ""
	var err error
	switch {
	case repo != "" && branch != "":
		prefix, err = BranchPrefix(repo, branch)
	case repo != "":
		prefix, err = RepoPrefix(repo)
	}
	if err != nil {
		return nil, err
	}
	infos, err := st.List(ctx, prefix)
	if err != nil {
		return nil, fmt.Errorf("list store: %w", err)
	}
	type bkey struct{ repo, branch string }
	branches := map[bkey]*schemas.BranchListing{}
	snaps := map[Ref]*schemas.SnapshotListing{}
	var order []bkey
	for _, in := range infos {
		ref, rest, err := ParseKey(in.Key)
		if err != nil || ref.Branch == "" || branch != "" && ref.Branch != branch {
			continue
		}
		k := bkey{ref.Repo, ref.Branch}
		b := branches[k]
		if b == nil {
			b = &schemas.BranchListing{Repo: ref.Repo, Branch: ref.Branch, Snapshots: []schemas.SnapshotListing{}}
			branches[k] = b
			order = append(order, k)
		}
		if ref.Commit == "" {
			if rest == schemas.HeadFile {
				head, _, err := ReadHead(ctx, st, ref.Repo, ref.Branch)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return nil, err
				}
				b.Head, b.Generation, b.UpdatedAt = head.Commit, head.Generation, head.UpdatedAt
			}
			continue
		}
		s := snaps[ref]
		if s == nil {
			s = &schemas.SnapshotListing{Commit: ref.Commit}
			snaps[ref] = s
		}
		s.Objects++
		s.Bytes += in.Size
		if rest == schemas.ManifestFile {
			s.Complete = true
			s.StoredAt = in.ModTime
		} else if !s.Complete && in.ModTime.After(s.StoredAt) {
			s.StoredAt = in.ModTime
		}
	}
	for ref, s := range snaps {
		b := branches[bkey{ref.Repo, ref.Branch}]
		s.Head = b.Head == s.Commit
		s.StoredAt = s.StoredAt.UTC()
		b.Snapshots = append(b.Snapshots, *s)
	}
	out := make([]schemas.BranchListing, 0, len(order))
	for _, k := range order {
		b := branches[k]
		slices.SortFunc(b.Snapshots, func(x, y schemas.SnapshotListing) int {
			if x.Complete != y.Complete {
				if x.Complete {
					return -1
				}
				return 1
			}
			if c := y.StoredAt.Compare(x.StoredAt); c != 0 {
				return c
			}
			return cmp.Compare(x.Commit, y.Commit)
		})
		out = append(out, *b)
	}
	slices.SortFunc(out, func(x, y schemas.BranchListing) int {
		return cmp.Or(cmp.Compare(x.Repo, y.Repo), cmp.Compare(x.Branch, y.Branch))
	})
	return out, nil
}

// GCOptions tune GC.
type GCOptions struct {
	Repo, Branch string // narrow to a repository, or one of its branches
	// Keep is how many complete snapshots of each branch stay, newest
	// first; HEAD's stays in any case.
	Keep int
	// Grace spares incomplete snapshots (tables without a manifest)
	// younger than this: they may be uploads in progress.
	Grace  time.Duration
	DryRun bool
	Now    time.Time // for tests; time.Now() when zero
}

// GC deletes the snapshots of each branch beyond the newest opts.Keep,
// never HEAD's, and incomplete snapshots older than opts.Grace. A
// snapshot's manifest goes first, so no reader ever finds a manifest whose
// tables are gone; a GC that dies half-way leaves an incomplete snapshot,
// which the next one removes. HEAD is re-read before each deletion, so a
// snapshot HEAD moved to meanwhile stays.
func GC(ctx context.Context, st Store, opts GCOptions) (schemas.Collection, error) {
	if opts.Keep < 1 {
		return schemas.Collection{}, errors.New("gc: keep must be at least 1")
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	branches, err := Catalog(ctx, st, opts.Repo, opts.Branch)
	if err != nil {
		return schemas.Collection{}, err
	}
	res := schemas.Collection{DryRun: opts.DryRun, Keep: opts.Keep, Deleted: []schemas.DeletedListing{}}
	for _, b := range branches {
		kept := 0
		for _, s := range b.Snapshots {
			reason := ""
			switch {
			case s.Head:
			case !s.Complete:
				if now.Sub(s.StoredAt) >= opts.Grace {
					reason = "incomplete"
				}
			case kept >= opts.Keep:
				reason = "old"
			}
			if reason == "" {
				if s.Complete {
					kept++
				}
				res.Kept++
				continue
			}
			if !opts.DryRun {
				done, err := deleteSnapshot(ctx, st, b.Repo, b.Branch, s.Commit)
				if err != nil {
					return res, err
				}
				if !done {
					res.Kept++
					continue
				}
			}
			res.Deleted = append(res.Deleted, schemas.DeletedListing{
				Repo: b.Repo, Branch: b.Branch, Commit: s.Commit, Reason: reason, Objects: s.Objects, Bytes: s.Bytes,
			})
			res.Objects += s.Objects
			res.Bytes += s.Bytes
		}
	}
	return res, nil
}

// deleteSnapshot removes one snapshot, manifest first, unless HEAD names
// it now.
func deleteSnapshot(ctx context.Context, st Store, repo, branch, commit string) (bool, error) {
	head, _, err := ReadHead(ctx, st, repo, branch)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if head.Commit == commit {
		return false, nil
	}
	prefix, err := Prefix(repo, branch, commit)
	if err != nil {
		return false, err
	}
	if err := st.Delete(ctx, joinKey(prefix, schemas.ManifestFile)); err != nil {
		return false, fmt.Errorf("gc %s: %w", prefix, err)
	}
	infos, err := st.List(ctx, prefix)
	if err != nil {
		return false, fmt.Errorf("gc %s: %w", prefix, err)
	}
	for _, in := range infos {
		if err := st.Delete(ctx, in.Key); err != nil {
			return false, fmt.Errorf("gc %s: %w", prefix, err)
		}
	}
	return true, nil
}
