package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

// indexed indexes a copy of a fixture into its local store and returns
// the copy, the snapshot folder and the snapshot as our reader reads it.
func indexed(t *testing.T, fixture string) (string, string, *snapshot.Snapshot) {
	t.Helper()
	dir := copyTree(t, fixture)
	code, stdout, stderr := run(t, dir, "index", "-q")
	if code != 0 {
		t.Fatalf("index: %s", stderr)
	}
	snap := strings.TrimSpace(stdout)
	return dir, snap, readDir(t, snap)
}

func readDir(t *testing.T, dir string) *snapshot.Snapshot {
	t.Helper()
	st, err := snapshot.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Read(context.Background(), st, "", snapshot.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExportChoosesSnapshot exports by HEAD (no argument), by branch, by
// a commit's prefix and by folder, and names the default folder after the
// commit.
func TestExportChoosesSnapshot(t *testing.T) {
	dir, commits := history(t, 2)
	commitOf := func(out string) string {
		m, err := snapshot.VerifyDir(context.Background(), out)
		if err != nil {
			t.Fatalf("verify %s: %v", out, err)
		}
		return m.Commit
	}
	tmp := t.TempDir()
	folder, _ := snapshot.Prefix("example/shop", "main", commits[0])
	for i, c := range []struct {
		args []string
		want string
	}{
		{nil, commits[1]},
		{[]string{"main"}, commits[1]},
		{[]string{commits[0][:8]}, commits[0]},
		{[]string{filepath.Join(dir, ".snap", filepath.FromSlash(folder))}, commits[0]},
		{[]string{"--repo", "example/shop", commits[0][:8]}, commits[0]},
	} {
		out := filepath.Join(tmp, strconv.Itoa(i))
		args := append([]string{"export", "--format", "parquet", "--out", out}, c.args...)
		if code, _, stderr := run(t, dir, args...); code != 0 {
			t.Fatalf("snap %v: exit %d: %s", args, code, stderr)
		}
		if got := commitOf(out); got != c.want {
			t.Errorf("snap %v exported %s, want %s", args, got, c.want)
		}
	}
	// The default folder, in the working folder.
	code, stdout, stderr := run(t, dir, "export", "--format", "jsonl")
	want := "snap-" + commits[1][:12] + "-jsonl"
	if code != 0 || strings.TrimSpace(stdout) != want || !strings.Contains(stderr, "exported example/shop main "+commits[1][:12]+" as jsonl: nodes ") {
		t.Errorf("default --out: exit %d, %q, %q; want %s", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, want, "nodes.jsonl")); err != nil {
		t.Error(err)
	}
}

// TestExportS3 exports from a bucket: the HEAD of this checkout's branch,
// and a commit by its prefix.
func TestExportS3(t *testing.T) {
	srv := s3test.Start(t)
	setEnv(t, srv.Env())
	dir, commits := history(t, 1)
	url := srv.URL("export")
	if code, _, stderr := run(t, dir, "push", "--store", url); code != 0 {
		t.Fatal(stderr)
	}
	prefix, _ := snapshot.Prefix("example/shop", "main", commits[0])
	local := readDir(t, filepath.Join(dir, ".snap", filepath.FromSlash(prefix)))
	tmp := t.TempDir()
	if code, _, stderr := run(t, dir, "export", "--format", "parquet", "--store", url, "--out", filepath.Join(tmp, "pq")); code != 0 {
		t.Fatalf("parquet from a bucket: exit %d: %s", code, stderr)
	}
	if s := readDir(t, filepath.Join(tmp, "pq")); s.Manifest.Commit != commits[0] || len(s.Nodes) != len(local.Nodes) {
		t.Errorf("parquet from a bucket: commit %s, %d nodes; want %s, %d", s.Manifest.Commit, len(s.Nodes), commits[0], len(local.Nodes))
	}
	if code, _, stderr := run(t, dir, "export", "--format", "jsonl", "--store", url, "--out", filepath.Join(tmp, "jsonl"), commits[0][:8]); code != 0 {
		t.Fatalf("jsonl from a bucket: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(tmp, "jsonl", "edges.jsonl"))
	if n := bytes.Count(data, []byte("\n")); n != len(local.Edges) {
		t.Errorf("edges.jsonl from a bucket: %d lines, want %d", n, len(local.Edges))
	}
}

// TestExportRefuses holds the usage errors (exit 2), the refused output
// folders among them, and the refusal of a damaged snapshot (exit 1).
func TestExportRefuses(t *testing.T) {
	dir, snap, _ := indexed(t, "../../testdata/go/shop")
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "--format is required"},
		{[]string{"export", "--format", "csv"}, `--format "csv" is not a format`},
		{[]string{"export", "--format", "arrow", "a", "b"}, "takes 0 to 1 arguments"},
		{[]string{"export", "--format", "arrow", "--out", full}, "is not empty: choose another folder, or replace it with --force"},
		{[]string{"export", "--format", "arrow", "--out", filepath.Join(dir, ".snap"), "--force"}, "holds a snapshot store"},
		{[]string{"export", "--format", "arrow", "--out", dir, "--force"}, "holds the working folder"},
		{[]string{"export", "--format", "arrow", "--branch", "main", snap}, "exclude each other"},
		{[]string{"export", "--format", "arrow", "nosuchref"}, "is not a snapshot folder, nor a branch or commit"},
	} {
		code, _, stderr := run(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if code, _, stderr := run(t, t.TempDir(), "export", "--format", "arrow"); code != 2 || !strings.Contains(stderr, "snap index") {
		t.Errorf("export with no store: exit %d, %q", code, stderr)
	}

	// A damaged snapshot is a failure, exit code 1.
	edges := filepath.Join(snap, "edges.parquet")
	data, _ := os.ReadFile(edges)
	data[len(data)/2] ^= 0xff
	os.WriteFile(edges, data, 0o644)
	if code, _, stderr := run(t, dir, "export", "--format", "arrow", "--out", filepath.Join(t.TempDir(), "arrow"), snap); code != 1 || !strings.Contains(stderr, "sha256") {
		t.Errorf("export of a flipped byte: exit %d, %q", code, stderr)
	}
}
