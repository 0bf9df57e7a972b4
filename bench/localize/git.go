package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// git runs git in the repository dir and returns its standard output.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// extract writes the tree of commit into dir, as git archive gives it.
func extract(ctx context.Context, repo, commit, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "archive", "--format=tar", commit)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git archive: %w", err)
	}
	terr := untar(out, dir)
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %w: %s", commit, err, strings.TrimSpace(stderr.String()))
	}
	return terr
}

// untar writes a tar stream's directories and regular files under dir;
// links and other entries are left out.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read archive: %w", err)
		}
		name := filepath.Clean(h.Name)
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			continue
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("write %s: %w", name, err)
			}
		}
	}
}

// message returns a commit's message, subject and body, without trailer
// lines (Signed-off-by: …) and with blank lines collapsed.
func message(ctx context.Context, repo, commit string) (string, error) {
	out, err := git(ctx, repo, "log", "-1", "--format=%B", commit)
	if err != nil {
		return "", err
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || isTrailer(l) {
			continue
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n"), nil
}

// isTrailer reports whether a message line is a trailer such as
// "Signed-off-by: A <a@b>".
func isTrailer(l string) bool {
	k, _, ok := strings.Cut(l, ": ")
	if !ok || strings.ContainsAny(k, " \t") {
		return false
	}
	switch strings.ToLower(k) {
	case "signed-off-by", "co-authored-by", "reviewed-by", "acked-by", "change-id", "reviewed-on", "tested-by":
		return true
	}
	return false
}

// fileChange is what a commit changed in one file: its path at the parent
// and the parent's lines it deleted or changed, and the lines after which
// it inserted lines (0: before the first).
type fileChange struct {
	Path     string
	Status   byte // A, M, D, R, …
	Deleted  []lineRange
	Inserted []uint32
}

// lineRange is the lines from Lo to Hi, both included, counted from 1.
type lineRange struct{ Lo, Hi uint32 }

// changes returns what commit changed against its parent, by file.
func changes(ctx context.Context, repo, parent, commit string) ([]fileChange, error) {
	out, err := git(ctx, repo, "diff", "-U0", "-M", "--no-color", "--no-ext-diff", parent, commit)
	if err != nil {
		return nil, err
	}
	return parseDiff(out)
}

// parseDiff reads a unified diff with no context lines (git diff -U0):
// each file's old path and status, and the old side of its hunks.
func parseDiff(diff []byte) ([]fileChange, error) {
	var out []fileChange
	var cur *fileChange
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "diff --git "):
			out = append(out, fileChange{Status: 'M'})
			cur = &out[len(out)-1]
			// The old path, until a --- line says it for sure.
			if a, _, ok := strings.Cut(strings.TrimPrefix(l, "diff --git a/"), " b/"); ok {
				cur.Path = a
			}
		case cur == nil:
		case strings.HasPrefix(l, "new file mode"):
			cur.Status = 'A'
		case strings.HasPrefix(l, "deleted file mode"):
			cur.Status = 'D'
		case strings.HasPrefix(l, "rename from "):
			cur.Status, cur.Path = 'R', strings.TrimPrefix(l, "rename from ")
		case strings.HasPrefix(l, "--- a/"):
			cur.Path = strings.TrimPrefix(l, "--- a/")
		case strings.HasPrefix(l, "@@ "):
			lo, n, err := oldSide(l)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				cur.Inserted = append(cur.Inserted, lo)
			} else {
				cur.Deleted = append(cur.Deleted, lineRange{lo, lo + n - 1})
			}
		}
	}
	return out, sc.Err()
}

// oldSide parses a hunk header "@@ -12,3 +12,4 @@" into the old side's
// first line and line count.
func oldSide(h string) (uint32, uint32, error) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, 0, fmt.Errorf("hunk header %q", h)
	}
	start, count, ok := strings.Cut(f[1][1:], ",")
	lo, err := strconv.ParseUint(start, 10, 32)
	if err != nil {
		return 0, 0, fmt.Errorf("hunk header %q: %w", h, err)
	}
	n := uint64(1)
	if ok {
		if n, err = strconv.ParseUint(count, 10, 32); err != nil {
			return 0, 0, fmt.Errorf("hunk header %q: %w", h, err)
		}
	}
	return uint32(lo), uint32(n), nil
}
