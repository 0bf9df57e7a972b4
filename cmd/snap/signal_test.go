package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalStopsIndex sends SIGTERM to the snap binary while it indexes
// and wants it gone soon after, having published nothing:
//
//   - in a parse: a tree whose one file takes minutes to parse (Java read
//     as Python: the grammar's error recovery goes round), with no time
//     limit per file. The parse under way in C must see the signal;
//     before, it went on for minutes.
//   - in work that never looks at the signal: stopped at a fault point
//     (a sleep of an hour) after the tables are stored and before the
//     manifest. The process must exit anyway, within its grace period.
func TestSignalStopsIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "snap")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	src := "class Big { void m() {\n" + strings.Repeat("f(1, 2, 3);\n", 85_000) + "} }\n"
	if err := os.WriteFile(filepath.Join(dir, "big.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("parse", func(t *testing.T) {
		store := filepath.Join(t.TempDir(), "store")
		cmd := exec.Command(bin, "index", "--max-file-time", "0", "--store", store, "-q", dir)
		terminate(t, cmd, func(string) bool {
			time.Sleep(time.Second) // into the parse, which takes minutes
			return true
		})
		unpublished(t, store)
	})
	t.Run("fault", func(t *testing.T) {
		store := filepath.Join(t.TempDir(), "store")
		cmd := exec.Command(bin, "index", "--store", store, "-q", dir)
		cmd.Env = append(os.Environ(), "SNAP_FAULT=index-before-manifest")
		terminate(t, cmd, func(stderr string) bool {
			return strings.Contains(stderr, "fault point index-before-manifest reached")
		})
		unpublished(t, store)
	})
}

// terminate starts cmd, sends it SIGTERM once ready (given what it wrote
// to stderr so far) says so, and fails t unless it exits, with an error,
// within 10 s of the signal.
func terminate(t *testing.T, cmd *exec.Cmd, ready func(stderr string) bool) {
	t.Helper()
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for deadline := time.Now().Add(time.Minute); !ready(stderr.String()); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			t.Fatalf("not ready to be signalled after a minute; stderr:\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("snap exited 0 after SIGTERM; stderr:\n%s", stderr.String())
		}
		t.Logf("exited %v after SIGTERM: %v", time.Since(sent).Round(time.Millisecond), err)
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("snap still ran 10s after SIGTERM; stderr:\n%s", stderr.String())
	}
}

// unpublished fails t if store holds a manifest or a HEAD.
func unpublished(t *testing.T, store string) {
	t.Helper()
	filepath.WalkDir(store, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (d.Name() == "manifest.json" || d.Name() == "HEAD.json") {
			t.Errorf("%s: published after SIGTERM", p)
		}
		return nil
	})
}
