package ci

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/graphsnap/snap/snapshot"
)

// ChooseBranch picks the repository and branch of st to answer for:
// repo and branch. When the store has no HEAD for them but holds that
// repository under one branch only (or one repository only, when the
// caller did not name the repository: anyRepo), that one is chosen,
// unless the caller named the branch (pinned). No choice is a
// ConfigError listing what the store holds.
func ChooseBranch(ctx context.Context, st Store, repo, branch string, anyRepo, pinned bool) (string, string, error) {
	_, _, err := snapshot.ReadHead(ctx, st, repo, branch)
	if err == nil {
		return repo, branch, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", "", st.Err(err)
	}
	heads, err := snapshot.Heads(ctx, st)
	if err != nil {
		return "", "", st.Err(err)
	}
	var pick []snapshot.Ref
	for _, h := range heads {
		if h.Repo == repo || anyRepo && len(heads) == 1 {
			pick = append(pick, h)
		}
	}
	if len(pick) == 1 && !pinned {
		return pick[0].Repo, pick[0].Branch, nil
	}
	var names []string
	for _, h := range heads {
		names = append(names, h.Repo+" "+h.Branch)
	}
	if len(names) == 0 {
		return "", "", configErrorf("no snapshot in %s: run `snap index` or `snap pull` first", st.Label)
	}
	return "", "", configErrorf("no snapshot of %s %s in %s; it holds: %s (choose with --repo and --branch)",
		repo, branch, st.Label, strings.Join(names, ", "))
}

// HeadSource is the snapshot the HEAD of repo's branch in st names.
func HeadSource(ctx context.Context, st Store, repo, branch string) (Source, error) {
	head, _, err := snapshot.ReadHead(ctx, st, repo, branch)
	if err != nil {
		return Source{}, st.Err(err)
	}
	prefix, err := snapshot.Prefix(repo, branch, head.Commit)
	if err != nil {
		return Source{}, err
	}
	return Source{Store: st, Prefix: prefix, Label: repo + " " + branch + " " + head.Commit, ManifestSHA256: head.ManifestSHA256}, nil
}
