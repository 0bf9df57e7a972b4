package languages

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// The hostile repository: what a tree may hold to hang, stall or crash
// the index. Each case states the row the files table must then have;
// none may hold up the run. The bounds on time below are coarse: they
// tell a file that cost its limit from one that ran for minutes.

// hang is longer than any run below takes, and shorter than the minutes
// each hostile file took before it was bounded.
const hang = 60 * time.Second

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// indexWithin indexes dir with every language and opts, and fails t when
// the run takes longer than hang.
func indexWithin(t *testing.T, dir string, opts indexer.Options) map[string]schemas.File {
	t.Helper()
	opts.Languages, opts.Workers = All(), 2
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	start := time.Now()
	g, err := indexer.Index(ctx, dir, opts)
	if err != nil {
		t.Fatalf("index after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	files := make(map[string]schemas.File)
	for _, f := range g.Files {
		files[f.Path] = f
	}
	return files
}

// wantStatus fails t unless the file at p was recorded with status and
// an error holding errHas.
func wantStatus(t *testing.T, files map[string]schemas.File, p, status, errHas string) {
	t.Helper()
	f, ok := files[p]
	switch {
	case !ok:
		t.Errorf("%q: not recorded", p)
	case f.Status != status || !strings.Contains(f.Error, errHas):
		t.Errorf("%q: %s (%s), want %s (%s)", p, f.Status, f.Error, status, errHas)
	}
}

// specialTree makes a tree of a Go and a TypeScript file, and of files
// that are not regular files, and links to them, in the tree and out of
// it. It reports whether it could make a device (root can).
func specialTree(t *testing.T) (dir string, device bool) {
	dir = t.TempDir()
	outside := t.TempDir()
	languagetest.WriteFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "b.ts": "export function b() {}\n"})
	languagetest.WriteFiles(t, outside, map[string]string{"secret.go": "package secret\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.go"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	// A pipe no one writes to: reading it waits for ever.
	symlink(t, "pipe.go", filepath.Join(dir, "pipe-link.go"))
	// Files an extractor reads beside the one it parses.
	symlink(t, "pipe.go", filepath.Join(dir, "go.mod"))
	symlink(t, "pipe.go", filepath.Join(dir, "package.json"))
	// A socket cannot be opened at all.
	l, err := net.Listen("unix", filepath.Join(dir, "sock.go"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	symlink(t, "sock.go", filepath.Join(dir, "sock-link.go"))
	// Devices: the endless /dev/zero, out of the tree, and one made in it.
	symlink(t, "/dev/zero", filepath.Join(dir, "zero.go"))
	symlink(t, "/dev/null", filepath.Join(dir, "null.go"))
	symlink(t, filepath.Join(outside, "secret.go"), filepath.Join(dir, "out.go"))
	// 1, 5 is /dev/zero's: reading it never ends.
	if err := syscall.Mknod(filepath.Join(dir, "dev.go"), syscall.S_IFCHR|0o644, 1<<8|5); err == nil {
		device = true
		symlink(t, "dev.go", filepath.Join(dir, "dev-link.go"))
	}
	return dir, device
}

// TestSpecialFiles indexes a tree holding a named pipe, a socket and a
// device, links to them, and links to devices and files out of the tree:
// what is no regular file is recorded as skipped_special and never read
// (reading the pipe waited for ever, the device never ended), what lies
// out of the tree as unreadable. It walks the tree twice: with git,
// which lists the links, and without it (the walk of a folder), which
// lists the pipe, socket and device too and reads a .gitignore that is a
// pipe.
func TestSpecialFiles(t *testing.T) {
	dir, device := specialTree(t)
	check := func(t *testing.T, files map[string]schemas.File, unlinked bool) {
		wantStatus(t, files, "a.go", schemas.StatusOK, "")
		wantStatus(t, files, "b.ts", schemas.StatusOK, "")
		for _, p := range []string{"pipe-link.go", "go.mod", "package.json"} {
			wantStatus(t, files, p, schemas.StatusSkippedSpecial, "a named pipe (FIFO)")
		}
		wantStatus(t, files, "sock-link.go", schemas.StatusSkippedSpecial, "a socket")
		for _, p := range []string{"zero.go", "null.go", "out.go"} {
			wantStatus(t, files, p, schemas.StatusUnreadable, "escapes")
		}
		if device {
			wantStatus(t, files, "dev-link.go", schemas.StatusSkippedSpecial, "a character device")
		}
		if unlinked {
			wantStatus(t, files, "pipe.go", schemas.StatusSkippedSpecial, "a named pipe (FIFO)")
			wantStatus(t, files, "sock.go", schemas.StatusSkippedSpecial, "a socket")
			if device {
				wantStatus(t, files, "dev.go", schemas.StatusSkippedSpecial, "a character device")
			}
		}
		for p, f := range files {
			if f.Status == schemas.StatusSkippedSpecial && (f.SHA256 != "" || f.Size != 0) {
				t.Errorf("%s: skipped_special with sha256 %q and size %d, want none", p, f.SHA256, f.Size)
			}
		}
	}
	t.Run("git", func(t *testing.T) {
		requireGit(t)
		check(t, indexWithin(t, dir, indexer.Options{}), false)
	})
	t.Run("folder", func(t *testing.T) {
		languagetest.WriteFiles(t, dir, map[string]string{"sub/c.go": "package sub\n"})
		if err := syscall.Mkfifo(filepath.Join(dir, "sub", ".gitignore"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", t.TempDir()) // no git: Walk walks the folder
		files := indexWithin(t, dir, indexer.Options{})
		check(t, files, true)
		wantStatus(t, files, "sub/c.go", schemas.StatusOK, "")
	})
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
}
