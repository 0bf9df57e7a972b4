package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/graphsnap/snap/schemas"
)

// ErrNotDescendant is wrapped by MoveHead when the snapshot's commit does
// not descend from the commit HEAD names (history was rewritten, or the
// ancestry cannot be proven): HEAD is left alone unless the move is forced.
var ErrNotDescendant = errors.New("not a descendant of HEAD")

// AncestryFunc reports whether ancestor is an ancestor of descendant (or
// the same commit). An error means it cannot tell, for instance because a
// commit is unknown to it; MoveHead then looks at the store's manifests.
type AncestryFunc func(ctx context.Context, ancestor, descendant string) (bool, error)

// HeadOptions tune MoveHead.
type HeadOptions struct {
	// Force moves HEAD to the snapshot even when its commit does not
	// descend from HEAD's. A local cache follows whatever was indexed
	// last; a shared store only moves forward.
	Force bool
	// Ancestry answers ancestry questions first (git, in a checkout);
	// recorded parents in the store's manifests are the fallback.
	Ancestry AncestryFunc
	// Attempts bounds the compare-and-swap rounds lost to other writers;
	// 0 means 20.
	Attempts int
	// BeforeWrite, when set, is called before each write of HEAD.json.
	BeforeWrite func()
}

// HeadMove says what MoveHead did.
type HeadMove struct {
	Moved bool
	From  schemas.Head // HEAD before; zero when the branch had none
	To    schemas.Head // HEAD after (From when not moved)
	// Reason says why HEAD was not moved: "already there" or "HEAD is
	// newer".
	Reason string
	// Retries counts compare-and-swap rounds lost to other writers.
	Retries int
}

// MoveHead points the HEAD of repo's branch at the snapshot whose
// manifest m (with digest manifestSHA256) has been stored. Call it after
// Write or Copy stored that snapshot whole.
//
// HEAD moves only forward: to the same commit, or to one that descends
// from HEAD's commit. When HEAD's commit descends from m's, HEAD is newer
// and stays (no error). When neither descends from the other, MoveHead
// fails with ErrNotDescendant unless opts.Force. Every write is a
// compare-and-swap on HEAD's ETag; a writer that loses re-reads HEAD and
// decides again, so no accepted move is lost or reverted.
func MoveHead(ctx context.Context, st Store, repo, branch string, m schemas.Manifest, manifestSHA256 string, opts HeadOptions) (HeadMove, error) {
	attempts := opts.Attempts
	if attempts <= 0 {
		attempts = 20
	}
	var mv HeadMove
	for try := 0; try < attempts; try++ {
		if try > 0 {
			mv.Retries++
			// Back off a little, with jitter, so racing writers spread out.
			d := time.Duration(rand.Int64N(int64(10*time.Millisecond) << min(try, 6)))
			select {
			case <-ctx.Done():
				return mv, ctx.Err()
			case <-time.After(d):
			}
		}
		head, info, err := ReadHead(ctx, st, repo, branch)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return mv, err
		}
		mv.From, mv.To = head, head
		if exists {
			if head.Commit == m.Commit && head.ManifestSHA256 == manifestSHA256 {
				mv.Reason = "already there"
				return mv, nil
			}
			if !opts.Force {
				fwd, err := descends(ctx, st, repo, branch, m.Commit, m.Parents, head.Commit, opts.Ancestry)
				if err != nil {
					return mv, err
				}
				if !fwd {
					back, err := descends(ctx, st, repo, branch, head.Commit, nil, m.Commit, opts.Ancestry)
					if err != nil {
						return mv, err
					}
					if back {
						mv.Reason = "HEAD is newer"
						return mv, nil
					}
					return mv, fmt.Errorf("move HEAD of %s %s: %w: HEAD is at %s and %s does not descend from it (history rewritten, or an ancestry the store cannot prove); the snapshot is stored, HEAD is not moved",
						repo, branch, ErrNotDescendant, head.Commit, m.Commit)
				}
			}
		}
		next := schemas.Head{
			Commit:         m.Commit,
			ManifestSHA256: manifestSHA256,
			Generation:     head.Generation + 1,
			UpdatedAt:      time.Now().UTC(),
		}
		if opts.BeforeWrite != nil {
			opts.BeforeWrite()
		}
		_, err = WriteHead(ctx, st, repo, branch, next, info.ETag)
		if errors.Is(err, ErrPrecondition) {
			continue
		}
		if err != nil {
			return mv, err
		}
		mv.Moved, mv.To = true, next
		return mv, nil
	}
	return mv, fmt.Errorf("move HEAD of %s %s: lost the compare-and-swap %d times to other writers; try again", repo, branch, attempts)
}

// maxAncestryWalk bounds how many manifests descends reads.
const maxAncestryWalk = 10000

// descends reports whether commit (with the given parents, or those its
// manifest records when nil) is ancestor or a descendant of it. A dirty
// snapshot ("<sha>-dirty-<tree>") and a build key's ("<sha>-build-<hex>")
// count as their commit. It asks ancestry
// first and, when that cannot tell, walks the parents recorded in the
// manifests of repo's branch.
func descends(ctx context.Context, st Store, repo, branch, commit string, parents []string, ancestor string, ancestry AncestryFunc) (bool, error) {
	c, a := GitCommit(commit), GitCommit(ancestor)
	if c == a {
		return true, nil
	}
	if ancestry != nil {
		if ok, err := ancestry(ctx, a, c); err == nil {
			return ok, nil
		}
	}
	seen := map[string]bool{c: true}
	queue := []string{c}
	if parents != nil {
		if slices.Contains(parents, a) {
			return true, nil
		}
		queue = queue[:0]
		for _, p := range parents {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	for n := 0; len(queue) > 0 && n < maxAncestryWalk; n++ {
		cur := queue[0]
		queue = queue[1:]
		prefix, err := Prefix(repo, branch, cur)
		if err != nil {
			continue
		}
		m, _, err := ReadManifest(ctx, st, prefix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			continue // an unreadable manifest proves nothing
		}
		for _, p := range m.Parents {
			if p == a {
				return true, nil
			}
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, nil
}

// GitCommit returns the commit a snapshot's commit token was made from:
// the token without the "-dirty-<tree>" of a dirty snapshot and the
// "-build-<digest>" of a build key (BuildCommit).
func GitCommit(c string) string {
	for _, mark := range []string{"-dirty-", buildMark} {
		if i := strings.Index(c, mark); i > 0 {
			c = c[:i]
		}
	}
	return c
}
