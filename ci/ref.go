package ci

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/graphsnap/snap/snapshot"
)

// Ref finds the snapshot of repo in st that rev names: a branch (its
// HEAD), a commit or a unique prefix of one (at least 4 digits), or else
// any revision git resolves in the checkout at root (HEAD, HEAD~1, a tag,
// origin/main), matched to a snapshot of that commit. A rev that names
// no snapshot is a ConfigError that says what to do.
func Ref(ctx context.Context, st Store, repo, root, rev string) (Source, error) {
	if _, err := snapshot.HeadKey(repo, rev); err == nil {
		head, _, err := snapshot.ReadHead(ctx, st, repo, rev)
		if err == nil {
			prefix, err := snapshot.Prefix(repo, rev, head.Commit)
			if err != nil {
				return Source{}, err
			}
			return Source{Store: st, Prefix: prefix, Label: rev, ManifestSHA256: head.ManifestSHA256}, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return Source{}, st.Err(err)
		}
	}
	list, err := snapshot.Catalog(ctx, st, repo, "")
	if err != nil {
		return Source{}, st.Err(err)
	}
	// commit finds the complete snapshots whose commit match says is
	// the one.
	commit := func(match func(string) bool) (hits []string, prefix string) {
		for _, b := range list {
			for _, s := range b.Snapshots {
				if s.Complete && match(s.Commit) && !slices.Contains(hits, s.Commit) {
					hits = append(hits, s.Commit)
					prefix, _ = snapshot.Prefix(repo, b.Branch, s.Commit)
				}
			}
		}
		return hits, prefix
	}
	hits, prefix := commit(func(c string) bool { return len(rev) >= 4 && strings.HasPrefix(c, rev) })
	switch {
	case len(hits) == 1:
		return Source{Store: st, Prefix: prefix, Label: rev}, nil
	case len(hits) > 1:
		return Source{}, configErrorf("%s names %d commits of %s: %s; give more of it", rev, len(hits), repo, strings.Join(hits, ", "))
	}
	sha, err := Git(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil || sha == "" {
		return Source{}, configErrorf("%s is not a snapshot folder, nor a branch or commit of %s in %s, nor a revision of the checkout (see `snap ls`)", rev, repo, st.Label)
	}
	if hits, prefix := commit(func(c string) bool { return c == sha }); len(hits) == 1 {
		return Source{Store: st, Prefix: prefix, Label: rev}, nil
	}
	return Source{}, configErrorf("%s is commit %s, and %s holds no snapshot of it: index it there (git checkout %s && snap index)",
		rev, sha, st.Label, shortCommit(sha))
}

func shortCommit(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
