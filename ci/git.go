package ci

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Identity is what a snapshot is filed under.
type Identity struct {
	Root    string // repository root, or the indexed folder outside git
	Repo    string
	Branch  string
	Commit  string
	Parents []string
	Dirty   bool
	Git     bool
}

// Git runs git in dir and returns what it printed, trimmed.
func Git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", err
	}
	return strings.TrimSpace(out.String()), nil
}

var remoteRE = regexp.MustCompile(`[:/]([^/:]+/[^/]+?)(?:\.git)?/?$`)

// repoName turns a remote URL into owner/name.
func repoName(url string) string {
	if m := remoteRE.FindStringSubmatch(url); m != nil {
		return m[1]
	}
	return ""
}

// Detect finds the repository and branch of dir: the repository's name
// from its origin remote (owner/name), else its folder's name. Outside
// git the repository is the folder's name and the branch "local".
func Detect(ctx context.Context, dir string) Identity {
	abs, _ := filepath.Abs(dir)
	id := Identity{Root: abs, Repo: filepath.Base(abs), Branch: "local"}
	top, err := Git(ctx, abs, "rev-parse", "--show-toplevel")
	if err != nil {
		return id
	}
	id.Git, id.Root = true, top
	id.Repo = filepath.Base(top)
	if url, err := Git(ctx, top, "remote", "get-url", "origin"); err == nil && repoName(url) != "" {
		id.Repo = repoName(url)
	}
	if b, err := Git(ctx, top, "symbolic-ref", "--short", "-q", "HEAD"); err == nil && b != "" {
		id.Branch = b
	} else {
		id.Branch = "detached"
	}
	return id
}

// ReadCommit fills in the commit, its parents and whether the work tree
// differs from it: what indexing records, and reading does not need.
// Outside git it does nothing: the commit then comes from the files'
// hashes (TreeCommit).
func (id *Identity) ReadCommit(ctx context.Context) {
	if !id.Git {
		return
	}
	top := id.Root
	if c, err := Git(ctx, top, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err == nil {
		id.Commit = c
		if p, err := Git(ctx, top, "rev-list", "--parents", "-n", "1", c); err == nil {
			if f := strings.Fields(p); len(f) > 1 {
				id.Parents = f[1:]
			}
		}
	}
	if s, err := Git(ctx, top, "status", "--porcelain", "--untracked-files=normal"); err == nil && s != "" {
		id.Dirty = true
	}
}

// TreeCommit names a tree that has no commit by the hashes of its files.
func TreeCommit(files []schemas.File) string {
	// One buffer, hashed once: a write per field cost 24 ms on
	// GOROOT/src's 11,478 files, all of it on the index's critical path.
	size := 0
	for _, f := range files {
		size += len(f.Path) + len(f.SHA256) + 2
	}
	b := make([]byte, 0, size)
	for _, f := range files {
		b = append(append(append(append(b, f.Path...), 0), f.SHA256...), '\n')
	}
	sum := sha256.Sum256(b)
	return "tree-" + hex.EncodeToString(sum[:8])
}

// Ancestry answers ancestry questions from the repository at root:
// `git merge-base --is-ancestor` exits 0 for yes, 1 for no, and otherwise
// (an unknown commit) cannot tell.
func Ancestry(root string) snapshot.AncestryFunc {
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

// mergeBase finds the commit a pull request's changes are measured from:
// the merge base of HEAD and the target's commit the CI names, else the
// target branch as the remote or the checkout knows it.
func mergeBase(ctx context.Context, root string, env Env) (string, error) {
	refs := []string{env.BaseSHA}
	if env.BaseBranch != "" {
		refs = append(refs, "refs/remotes/origin/"+env.BaseBranch, "refs/heads/"+env.BaseBranch)
	}
	for _, ref := range refs {
		if ref == "" {
			continue
		}
		if sha, err := Git(ctx, root, "merge-base", "HEAD", ref); err == nil && sha != "" {
			return sha, nil
		}
	}
	return "", fmt.Errorf("no merge base of HEAD and %s in this clone: check out with fetch-depth: 0", env.BaseBranch)
}
