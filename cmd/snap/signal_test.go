package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalStopsIndex runs the snap binary over a tree whose one file
// takes minutes to parse (Java read as Python: the grammar's error
// recovery goes round), with no time limit per file, and sends it
// SIGTERM: it must exit soon after, although the parse is under way in
// C, and publish nothing. Before, it went on parsing for minutes.
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
	store := filepath.Join(t.TempDir(), "store")
	cmd := exec.Command(bin, "index", "--max-file-time", "0", "--store", store, "-q", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(time.Second) // into the parse, which takes minutes
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("snap index exited 0 after SIGTERM; stderr:\n%s", stderr.String())
		}
		t.Logf("exited %v after SIGTERM: %v", time.Since(sent).Round(time.Millisecond), err)
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("snap index still ran 10s after SIGTERM; stderr:\n%s", stderr.String())
	}
	filepath.WalkDir(store, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (d.Name() == "manifest.json" || d.Name() == "HEAD") {
			t.Errorf("%s: published after SIGTERM", p)
		}
		return nil
	})
}
