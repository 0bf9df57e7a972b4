package snapshot

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/graphsnap/snap/schemas"
)

// Ref names one snapshot in a store: a commit of a branch of a repository.
// Commit is empty when a Ref names a branch (as HEAD.json's key does).
type Ref struct {
	Repo   string
	Branch string
	Commit string
}

// Key segments are hive-style, so query engines read a bucket as a table
// partitioned by repo, branch and commit.
const (
	repoPart   = "repo="
	branchPart = "branch="
	commitPart = "commit="
)

// maxCommitLen bounds a commit token: a SHA-256 object name is 64 hex
// digits; the rest is room for tokens such as "dirty-<sha>".
const maxCommitLen = 128

// ValidateCommit reports whether commit can be a key segment: 1 to 128
// ASCII letters, digits, '.', '_' or '-', not starting with '.'. Git
// object names (hex) qualify.
func ValidateCommit(commit string) error {
	if commit == "" {
		return errors.New("invalid commit: empty")
	}
	if len(commit) > maxCommitLen {
		return fmt.Errorf("invalid commit %.20q...: longer than %d bytes", commit, maxCommitLen)
	}
	if commit[0] == '.' {
		return fmt.Errorf("invalid commit %q: starts with '.'", commit)
	}
	for i := 0; i < len(commit); i++ {
		c := commit[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("invalid commit %q: byte %q not allowed", commit, c)
		}
	}
	return nil
}

// BranchPrefix returns "repo=<repo>/branch=<branch>" with both escaped by
// url.PathEscape, so any name (slashes, spaces, "..", unicode) becomes one
// safe key segment and distinct names never collide.
func BranchPrefix(repo, branch string) (string, error) {
	if repo == "" {
		return "", errors.New("branch prefix: empty repo")
	}
	if branch == "" {
		return "", errors.New("branch prefix: empty branch")
	}
	return repoPart + url.PathEscape(repo) + "/" + branchPart + url.PathEscape(branch), nil
}

// RepoPrefix returns "repo=<repo>", escaped like BranchPrefix.
func RepoPrefix(repo string) (string, error) {
	if repo == "" {
		return "", errors.New("repo prefix: empty repo")
	}
	return repoPart + url.PathEscape(repo), nil
}

// Prefix returns the key prefix of one snapshot:
// "repo=<repo>/branch=<branch>/commit=<commit>".
func Prefix(repo, branch, commit string) (string, error) {
	bp, err := BranchPrefix(repo, branch)
	if err != nil {
		return "", err
	}
	if err := ValidateCommit(commit); err != nil {
		return "", fmt.Errorf("snapshot prefix: %w", err)
	}
	return bp + "/" + commitPart + commit, nil
}

// Prefix returns the key prefix of the snapshot r names; see Prefix.
func (r Ref) Prefix() (string, error) { return Prefix(r.Repo, r.Branch, r.Commit) }

// HeadKey returns the key of a branch's HEAD.json:
// "repo=<repo>/branch=<branch>/HEAD.json".
func HeadKey(repo, branch string) (string, error) {
	bp, err := BranchPrefix(repo, branch)
	if err != nil {
		return "", err
	}
	return bp + "/" + schemas.HeadFile, nil
}

// ParseKey splits a key made by Prefix or HeadKey back into its Ref and
// the rest of the key after the last partition segment ("manifest.json",
// "nodes.parquet", "HEAD.json"; "" for a bare prefix). A key under a branch
// but not under a commit gives a Ref with an empty Commit. Use it on the
// keys List returns.
func ParseKey(key string) (Ref, string, error) {
	var r Ref
	segs := strings.SplitN(key, "/", 4)
	bad := func(why string) (Ref, string, error) {
		return Ref{}, "", fmt.Errorf("parse key %q: %s", key, why)
	}
	var err error
	if !strings.HasPrefix(segs[0], repoPart) {
		return bad("does not start with " + repoPart)
	}
	if r.Repo, err = url.PathUnescape(segs[0][len(repoPart):]); err != nil || r.Repo == "" {
		return bad("bad repo segment")
	}
	if len(segs) < 2 {
		return r, "", nil
	}
	if !strings.HasPrefix(segs[1], branchPart) {
		return bad("second segment is not " + branchPart + "…")
	}
	if r.Branch, err = url.PathUnescape(segs[1][len(branchPart):]); err != nil || r.Branch == "" {
		return bad("bad branch segment")
	}
	if len(segs) < 3 {
		return r, "", nil
	}
	if !strings.HasPrefix(segs[2], commitPart) {
		return r, strings.Join(segs[2:], "/"), nil
	}
	r.Commit = segs[2][len(commitPart):]
	if err := ValidateCommit(r.Commit); err != nil {
		return bad(err.Error())
	}
	if len(segs) < 4 {
		return r, "", nil
	}
	return r, segs[3], nil
}

// ShortCommit abbreviates a commit token for people: 12 hex digits, a
// mark when the snapshot was of a dirty work tree, and one naming the
// build when it is stored under a build key (BuildCommit).
func ShortCommit(commit string) string {
	commit, build, built := strings.Cut(commit, buildMark)
	base, _, dirty := strings.Cut(commit, "-dirty-")
	if len(base) > 12 && !strings.HasPrefix(base, "tree-") {
		base = base[:12]
	}
	if dirty {
		base += "-dirty"
	}
	if built {
		base += buildMark + build[:min(len(build), 4)]
	}
	return base
}

// Heads lists the repositories and branches of st that have a HEAD,
// sorted by repository, then branch.
func Heads(ctx context.Context, st Store) ([]Ref, error) {
	infos, err := st.List(ctx, "")
	if err != nil {
		return nil, err
	}
	var out []Ref
	for _, in := range infos {
		if !strings.HasSuffix(in.Key, "/"+schemas.HeadFile) {
			continue
		}
		ref, _, err := ParseKey(in.Key)
		if err == nil {
			out = append(out, ref)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Repo+out[i].Branch < out[j].Repo+out[j].Branch })
	return out, nil
}
