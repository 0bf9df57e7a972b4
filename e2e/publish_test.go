package e2e

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
)

// These tests kill and race `snap index` in one checkout, the way a user
// re-indexing with other options, an editor's hook and a terminal do,
// and check after each trial that the local cache's HEAD names a
// snapshot that verifies and that the snapshot published before is as it
// was.

// killAtFault starts cmd with SNAP_FAULT=point and SIGKILLs it once it
// says it reached the point. It reports false, with what it wrote on
// stderr and how it ended, when cmd ended before reaching it.
func killAtFault(t *testing.T, cmd *exec.Cmd, point string) (bool, string, error) {
	t.Helper()
	cmd.Env = append(cmd.Env, "SNAP_FAULT="+point)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reached := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var all strings.Builder
		for sc.Scan() {
			all.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "fault point "+point+" reached") {
				reached <- ""
			}
		}
		reached <- all.String()
	}()
	select {
	case out := <-reached:
		if out != "" {
			return false, out, cmd.Wait()
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%v did not reach the fault point %s in a minute", cmd.Args, point)
	}
	cmd.Process.Kill() // SIGKILL: no deferred cleanup runs
	cmd.Wait()
	return true, "", nil
}

// cacheHead reads the local cache's HEAD of the fixture's main branch and
// returns it with the folder of the snapshot it names.
func cacheHead(t *testing.T, dir string) (schemas.Head, string) {
	t.Helper()
	branch := filepath.Join(dir, ".snap", "repo="+url.PathEscape("example/shop"), "branch=main")
	raw, err := os.ReadFile(filepath.Join(branch, schemas.HeadFile))
	if err != nil {
		t.Fatal(err)
	}
	var head schemas.Head
	if err := json.Unmarshal(raw, &head); err != nil {
		t.Fatalf("HEAD.json: %v: %s", err, raw)
	}
	return head, filepath.Join(branch, "commit="+head.Commit)
}

// checkHead fails t unless the cache's HEAD names a manifest with the
// digest it names, in a snapshot that `snap verify` passes.
func checkHead(t *testing.T, dir, what string) {
	t.Helper()
	head, folder := cacheHead(t, dir)
	raw, err := os.ReadFile(filepath.Join(folder, schemas.ManifestFile))
	if err != nil {
		t.Errorf("%s: HEAD names %s: %v", what, head.Commit, err)
		return
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != head.ManifestSHA256 {
		t.Errorf("%s: HEAD names manifest %s, %s holds %x", what, head.ManifestSHA256, folder, sum)
	}
	if code, _, stderr := snapIn(t, dir, nil, "verify", folder); code != 0 {
		t.Errorf("%s: HEAD's snapshot does not verify: %s", what, stderr)
	}
}

// fileIDs lists the files below dir with their inode, size and time:
// equal twice when none was written, replaced or removed.
func fileIDs(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			out[p] = fmt.Sprint(fi.Sys().(*syscall.Stat_t).Ino, fi.Size(), fi.ModTime().UnixNano())
		}
		return nil
	})
	return out
}

// checkKept fails t when a file of the snapshot published first changed,
// or when it no longer verifies.
func checkKept(t *testing.T, dir, folder string, before map[string]string, what string) {
	t.Helper()
	after := fileIDs(t, folder)
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s: %s of the first snapshot was written or removed", what, filepath.Base(p))
		}
	}
	if code, _, stderr := snapIn(t, dir, nil, "verify", folder); code != 0 {
		t.Errorf("%s: the first snapshot no longer verifies: %s", what, stderr)
	}
}

// TestIndexAgainKilledAtEachStep indexes a commit again with other
// options (or the same), killed at each step of publishing: after each
// table, before and after the manifest, before HEAD. After every kill,
// HEAD still names a snapshot that verifies, the first snapshot's files
// are as they were, and a rerun publishes one that verifies.
func TestIndexAgainKilledAtEachStep(t *testing.T) {
	points := []string{"index-after-tables=1", "index-after-tables=3", "index-after-tables=5",
		"index-before-manifest", "index-after-manifest", "index-before-head"}
	variants := [][]string{{"--no-sources"}, {"--full"}, {}, {"--exclude", "**/*_test.go"}}
	dir, _ := history(t, 1)
	_, first := cacheHead(t, dir)
	before := fileIDs(t, first)
	killed := 0
	for _, args := range variants {
		for _, point := range points {
			what := fmt.Sprintf("index %v killed at %s", args, point)
			cmd := exec.Command(snapBin, append([]string{"index", "-q"}, args...)...)
			cmd.Dir = dir
			cmd.Env = os.Environ()
			ok, out, err := killAtFault(t, cmd, point)
			if ok {
				killed++
			} else if err != nil {
				t.Errorf("%s: failed before the point: %v\n%s", what, err, out)
			}
			checkHead(t, dir, what)
			checkKept(t, dir, first, before, what)
		}
		if code, _, stderr := snapIn(t, dir, nil, append([]string{"index", "-q"}, args...)...); code != 0 {
			t.Fatalf("index %v, rerun: %s", args, stderr)
		}
		checkHead(t, dir, fmt.Sprintf("index %v, rerun", args))
		checkKept(t, dir, first, before, fmt.Sprintf("index %v, rerun", args))
	}
	// Runs of the same tables reach no manifest and no HEAD write: most
	// points are still reached.
	if killed < len(variants)*len(points)/2 {
		t.Errorf("only %d of %d runs reached their fault point", killed, len(variants)*len(points))
	}
	t.Logf("%d runs killed at their fault point", killed)
}

// TestConcurrentLocalIndexes runs six `snap index` at once in one
// checkout, with three sets of options, several times. Each run
// publishes or loses cleanly (exit 0, or a message); after every trial
// HEAD names a snapshot that verifies and the first snapshot is as it
// was.
func TestConcurrentLocalIndexes(t *testing.T) {
	dir, _ := history(t, 1)
	_, first := cacheHead(t, dir)
	before := fileIDs(t, first)
	options := [][]string{{}, {"--no-sources"}, {"--full"}}
	for trial := range 5 {
		var wg sync.WaitGroup
		codes := make([]int, 6)
		errs := make([]string, 6)
		for i := range codes {
			wg.Go(func() {
				codes[i], _, errs[i] = snapIn(t, dir, nil, append([]string{"index", "-q"}, options[i%len(options)]...)...)
			})
		}
		wg.Wait()
		for i, code := range codes {
			if code != 0 {
				t.Errorf("trial %d: index %v: exit %d: %s", trial, options[i%len(options)], code, errs[i])
			}
		}
		what := fmt.Sprintf("trial %d", trial)
		checkHead(t, dir, what)
		checkKept(t, dir, first, before, what)
	}
	// Two sets of tables, two snapshots of the commit: its own key and
	// one build key.
	entries, err := os.ReadDir(filepath.Dir(first))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range entries {
		if e.IsDir() {
			keys = append(keys, e.Name())
		}
	}
	if len(keys) != 2 {
		t.Errorf("the commit's snapshots: %v; want its key and one build key", keys)
	}
}

// TestIndexOverLargeFile: a checkout gains a 40 MB source file. Indexing
// it with a --max-file-size past what a reader reads back is refused
// before anything is written, so HEAD stays as it was and verifies; with
// the default, the file is recorded as too large and the new HEAD
// verifies.
func TestIndexOverLargeFile(t *testing.T) {
	dir, _ := history(t, 1)
	head, first := cacheHead(t, dir)
	cache := fileIDs(t, filepath.Join(dir, ".snap"))
	big := "package shop\n\n" + strings.Repeat("// x = 1\n", 40<<20/9)
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "big.go")
	gitIn(t, dir, "commit", "-q", "-m", "a large file")
	code, _, stderr := snapIn(t, dir, nil, "index", "-q", "--max-file-size", "300000000")
	if code != 2 || !strings.Contains(stderr, "--max-file-size") {
		t.Errorf("index --max-file-size 300000000: exit %d, %s; want a usage error", code, stderr)
	}
	if now, _ := cacheHead(t, dir); now != head {
		t.Errorf("a refused index moved HEAD to %s", now.Commit)
	}
	if now := fileIDs(t, filepath.Join(dir, ".snap")); fmt.Sprint(now) != fmt.Sprint(cache) {
		t.Errorf("a refused index wrote into the cache")
	}
	checkHead(t, dir, "a refused index")
	if code, _, stderr := snapIn(t, dir, nil, "index", "-q"); code != 0 {
		t.Fatalf("index: %s", stderr)
	}
	checkHead(t, dir, "index with the default --max-file-size")
	if _, folder := cacheHead(t, dir); folder == first {
		t.Errorf("HEAD did not move to the new commit")
	}
}
