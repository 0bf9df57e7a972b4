package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

// These tests run real `snap` processes against a real S3-compatible
// server (versitygw on 127.0.0.1, started by s3test) and kill, race and
// starve them.

// snapIn runs the binary in dir with extra environment.
func snapIn(t testing.TB, dir string, env []string, args ...string) (int, string, string) {
	t.Helper()
	return snapWithin(t, dir, env, 0, args...)
}

// snapWithin is snapIn that fails t when the binary has not finished
// within limit (0: no limit), and kills it.
func snapWithin(t testing.TB, dir string, env []string, limit time.Duration, args ...string) (int, string, string) {
	t.Helper()
	ctx := context.Background()
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, snapBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("snap %v did not finish in %v\nstderr: %s", args, limit, stderr.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("snap %v: %v", args, err)
	}
	return code, stdout.String(), stderr.String()
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=snap", "GIT_AUTHOR_EMAIL=snap@example.com",
		"GIT_COMMITTER_NAME=snap", "GIT_COMMITTER_EMAIL=snap@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// history makes a checkout of the Go fixture with n commits on main, each
// indexed into its local cache, and returns it with the commits.
func history(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-R", filepath.Join("..", "testdata", "go", "shop")+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "remote", "add", "origin", "https://github.com/example/shop.git")
	var commits []string
	for i := range n {
		src := fmt.Sprintf("package shop\n\n// Version%d is commit %d.\nfunc Version%d() int { return %d }\n", i, i, i, i)
		os.WriteFile(filepath.Join(dir, "version.go"), []byte(src), 0o644)
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-q", "-m", fmt.Sprint("commit ", i))
		commits = append(commits, gitIn(t, dir, "rev-parse", "HEAD"))
		if code, _, stderr := snapIn(t, dir, nil, "index", "-q"); code != 0 {
			t.Fatalf("index: %s", stderr)
		}
	}
	return dir, commits
}

// clone is an empty checkout of the same repository: it has no snapshot
// of its own.
func clone(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "remote", "add", "origin", "git@github.com:example/shop.git")
	return dir
}

func decode[T any](t testing.TB, out string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	return v
}

func TestPushKilledAtEachStep(t *testing.T) {
	srv := s3test.Start(t)
	dir, commits := history(t, 1)
	for i, point := range []string{"after-tables=2", "after-manifest", "before-head"} {
		t.Run(point, func(t *testing.T) {
			url := srv.URL(fmt.Sprint("kill", i))
			cmd := exec.Command(snapBin, "push", "--store", url)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), srv.Env()...)
			if ok, out, _ := killAtFault(t, cmd, point); !ok {
				t.Fatalf("push ended before the fault point: %s", out)
			}

			// No reader loads what the push left.
			reader := clone(t)
			code, _, errOut := snapIn(t, reader, srv.Env(), "pull", "--store", url)
			if code != 2 || !strings.Contains(errOut, "holds no snapshot") {
				t.Fatalf("pull after a killed push: exit %d, %s", code, errOut)
			}
			code, out, errOut := snapIn(t, dir, srv.Env(), "ls", "--store", url, "--json")
			if code != 0 {
				t.Fatal(errOut)
			}
			ls := decode[schemas.Listing](t, out)
			if len(ls.Branches) != 1 || ls.Branches[0].Head != "" || len(ls.Branches[0].Snapshots) != 1 {
				t.Fatalf("ls after a killed push: %s", out)
			}
			if complete := ls.Branches[0].Snapshots[0].Complete; complete != (point != "after-tables=2") {
				t.Errorf("after %s the snapshot is complete=%v", point, complete)
			}

			// A rerun completes the push, and the reader gets it.
			code, out, errOut = snapIn(t, dir, srv.Env(), "push", "--store", url, "--json")
			if code != 0 {
				t.Fatalf("rerun: %s", errOut)
			}
			if tr := decode[schemas.Transfer](t, out); !tr.Head.Moved || tr.Head.Generation != 1 || tr.Commit != commits[0] {
				t.Fatalf("rerun: %s", out)
			}
			if code, _, errOut = snapIn(t, reader, srv.Env(), "pull", "--store", url); code != 0 {
				t.Fatalf("pull after the rerun: %s", errOut)
			}
			if code, out, errOut = snapIn(t, reader, nil, "query", "status", "--json"); code != 0 || !strings.Contains(out, commits[0]) {
				t.Fatalf("query after pull: %s %s", out, errOut)
			}
		})
	}
}

func TestConcurrentPushes(t *testing.T) {
	srv := s3test.Start(t)
	dir, commits := history(t, 8)
	url := srv.URL("race")
	type result struct {
		code   int
		out    string
		stderr string
	}
	results := make([]result, len(commits))
	var wg sync.WaitGroup
	for i, c := range commits {
		// Older commits start a little earlier, so that many pushes
		// reach HEAD close together and several moves are accepted.
		time.Sleep(15 * time.Millisecond)
		wg.Go(func() {
			code, out, stderr := snapIn(t, dir, srv.Env(), "push", "--store", url, "--commit", c, "--json")
			results[i] = result{code, out, stderr}
		})
	}
	wg.Wait()
	var accepted []string
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("push %d: exit %d: %s", i, r.code, r.stderr)
		}
		if tr := decode[schemas.Transfer](t, r.out); tr.Head.Moved {
			accepted = append(accepted, tr.Commit)
		}
	}
	code, out, stderr := snapIn(t, dir, srv.Env(), "ls", "--store", url, "--json")
	if code != 0 {
		t.Fatal(stderr)
	}
	ls := decode[schemas.Listing](t, out)
	if len(ls.Branches) != 1 {
		t.Fatalf("ls: %s", out)
	}
	b := ls.Branches[0]
	complete := 0
	for _, s := range b.Snapshots {
		if s.Complete {
			complete++
		}
	}
	if complete != len(commits) {
		t.Errorf("%d complete snapshots in the store, want %d: a manifest was lost", complete, len(commits))
	}
	if b.Head != commits[len(commits)-1] {
		t.Errorf("HEAD at %s, want the newest commit %s", b.Head, commits[len(commits)-1])
	}
	if int(b.Generation) != len(accepted) {
		t.Errorf("generation %d after %d accepted moves: a HEAD write was lost", b.Generation, len(accepted))
	}
	for _, c := range accepted {
		if err := exec.Command("git", "-C", dir, "merge-base", "--is-ancestor", c, b.Head).Run(); err != nil {
			t.Errorf("accepted commit %s is not an ancestor of HEAD %s: a move was reverted", c, b.Head)
		}
	}
	t.Logf("%d of %d pushes moved HEAD", len(accepted), len(commits))
}

// serveStore starts `snap serve` in dir with args and the server's
// credentials, connected to the SDK client.
func serveStore(t testing.TB, dir string, env []string, args ...string) (*mcp.ClientSession, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(snapBin, append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "snap-e2e", Version: "1"}, nil)
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to snap serve: %v\nstderr: %s", err, stderr)
	}
	t.Cleanup(func() {
		sess.Close()
		if strings.Contains(stderr.String(), "DATA RACE") {
			t.Errorf("snap serve: %s", stderr)
		}
	})
	return sess, stderr
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// syncState is the sync part of snap_status and snap_sync answers.
func syncState(t testing.TB, ans map[string]any) map[string]any {
	t.Helper()
	s, ok := ans["sync"].(map[string]any)
	if !ok {
		t.Fatalf("no sync in %v", ans)
	}
	return s
}

// waitCommit polls snap_status until the server answers from commit.
func waitCommit(t testing.TB, sess *mcp.ClientSession, commit string, limit time.Duration) map[string]any {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ans, isErr := call(t, sess, "snap_status", nil)
		if !isErr && ans["commit"] == commit {
			return ans
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer from %s within %s: %v", commit, limit, ans)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestSyncRefusesCorruptObject(t *testing.T) {
	srv := s3test.Start(t)
	dir, commits := history(t, 2)
	url := srv.URL("corrupt")
	if code, _, stderr := snapIn(t, dir, srv.Env(), "push", "--store", url, "--commit", commits[0]); code != 0 {
		t.Fatal(stderr)
	}
	reader := clone(t)
	sess, stderr := serveStore(t, reader, srv.Env(), "--store", url, "--sync", "1h")
	waitCommit(t, sess, commits[0], time.Minute)

	if code, _, stderr := snapIn(t, dir, srv.Env(), "push", "--store", url, "--commit", commits[1]); code != 0 {
		t.Fatal(stderr)
	}
	// Damage the new snapshot's nodes table on the server's disk.
	prefix := "corrupt/repo=example%2Fshop/branch=main/commit=" + commits[1]
	var m schemas.Manifest
	raw, err := os.ReadFile(srv.Path(prefix + "/manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(raw, &m)
	path := srv.Path(prefix + "/nodes.parquet")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	found := sha256.Sum256(data)
	var want string
	for _, tb := range m.Tables {
		if tb.Name == "nodes" {
			want = tb.SHA256
		}
	}
	wants := []string{"table nodes", "sha256 mismatch", want, hex.EncodeToString(found[:])}

	ans, _ := call(t, sess, "snap_sync", nil)
	lastErr, _ := syncState(t, ans)["last_error"].(string)
	for _, w := range wants {
		if !strings.Contains(lastErr, w) {
			t.Errorf("sync error %q does not say %q", lastErr, w)
		}
	}
	if ans["commit"] != commits[0] {
		t.Errorf("after a refused sync the server answers from %v, want %s", ans["commit"], commits[0])
	}
	ans, _ = call(t, sess, "snap_status", nil)
	if ans["commit"] != commits[0] || syncState(t, ans)["last_error"] != lastErr {
		t.Errorf("status after a refused sync: %v", ans)
	}
	if ans, isErr := call(t, sess, "snap_search", map[string]any{"query": "Version0"}); isErr || ans["commit"] != commits[0] {
		t.Errorf("search after a refused sync: %v", ans)
	}

	// pull refuses it too, and leaves nothing a reader would load.
	other := clone(t)
	code, _, errOut := snapIn(t, other, srv.Env(), "pull", "--store", url)
	if code != 1 {
		t.Errorf("pull of a corrupt snapshot: exit %d: %s", code, errOut)
	}
	for _, w := range wants {
		if !strings.Contains(errOut, w) {
			t.Errorf("pull error %q does not say %q", errOut, w)
		}
	}
	if code, _, _ := snapIn(t, other, nil, "query", "status"); code == 0 {
		t.Error("a clone answers from a refused pull")
	}
	if strings.Contains(stderr.String(), srv.SecretKey) {
		t.Error("the secret key appears in the server's log")
	}
}

func TestSyncSurvivesStoreOutage(t *testing.T) {
	srv := s3test.Start(t)
	dir, commits := history(t, 2)
	url := srv.URL("outage")
	if code, _, stderr := snapIn(t, dir, srv.Env(), "push", "--store", url, "--commit", commits[0]); code != 0 {
		t.Fatal(stderr)
	}
	reader := clone(t)
	sess, stderr := serveStore(t, reader, srv.Env(), "--store", url, "--sync", "1s")
	waitCommit(t, sess, commits[0], time.Minute)

	srv.Stop()
	deadline := time.Now().Add(time.Minute)
	for {
		ans, isErr := call(t, sess, "snap_status", nil)
		if isErr || ans["commit"] != commits[0] {
			t.Fatalf("status while the store is down: %v", ans)
		}
		if s := syncState(t, ans); s["last_error"] != nil && s["failures"] != nil {
			t.Logf("while down: %v", s["last_error"])
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no sync error reported a minute into the outage: %v", ans)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if ans, isErr := call(t, sess, "snap_calls", map[string]any{"name": "Version0"}); isErr {
		t.Errorf("callers while the store is down: %v", ans)
	}
	// A server started while the store is down serves the cached snapshot
	// and says why.
	sess2, _ := serveStore(t, reader, srv.Env(), "--store", url, "--sync", "1h")
	ans := waitCommit(t, sess2, commits[0], time.Minute)
	if e, _ := syncState(t, ans)["last_error"].(string); !strings.Contains(e, "cannot reach") {
		t.Errorf("a server started without its store reports %q", e)
	}
	sess2.Close()
	// One started without a cache fails, and says why.
	code, _, errOut := snapIn(t, clone(t), srv.Env(), "serve", "--store", url)
	if code != 1 || !strings.Contains(errOut, "cannot reach") {
		t.Errorf("serve without store or cache: exit %d: %s", code, errOut)
	}

	srv.Restart()
	if code, _, errOut := snapIn(t, dir, srv.Env(), "push", "--store", url, "--commit", commits[1]); code != 0 {
		t.Fatal(errOut)
	}
	// The server's own retries find the new snapshot: no snap_sync here.
	ans = waitCommit(t, sess, commits[1], 2*time.Minute)
	if s := syncState(t, ans); s["last_error"] != nil || s["swaps"] != float64(1) {
		t.Errorf("sync after recovery: %v", s)
	}
	if strings.Contains(stderr.String(), srv.SecretKey) {
		t.Error("the secret key appears in the server's log")
	}
}

// TestSwapUnderLoad calls tools without pause while the server swaps in
// new snapshots: no call fails, each answers from one whole snapshot, and
// the latency during swaps is logged beside the steady state.
func TestSwapUnderLoad(t *testing.T) {
	srv := s3test.Start(t)
	dir, commits := history(t, 4)
	url := srv.URL("swap")
	if code, _, stderr := snapIn(t, dir, srv.Env(), "push", "--store", url, "--commit", commits[0]); code != 0 {
		t.Fatal(stderr)
	}
	reader := clone(t)
	sess, _ := serveStore(t, reader, srv.Env(), "--store", url, "--sync", "1h")
	waitCommit(t, sess, commits[0], time.Minute)

	ctx := context.Background()
	var mu sync.Mutex
	var steady, swapping []time.Duration
	inSwap := false
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				during := inSwap
				mu.Unlock()
				start := time.Now()
				res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "snap_calls", Arguments: map[string]any{"name": "NewMemStore"}})
				took := time.Since(start)
				if err != nil || res.IsError {
					t.Errorf("call during load: %v %v", err, res)
					return
				}
				var ans map[string]any
				json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &ans)
				if !slices.Contains(commits, fmt.Sprint(ans["commit"])) {
					t.Errorf("answer from an unknown snapshot: %v", ans)
				}
				mu.Lock()
				if during {
					swapping = append(swapping, took)
				} else {
					steady = append(steady, took)
				}
				mu.Unlock()
			}
		})
	}
	time.Sleep(time.Second)
	for _, c := range commits[1:] {
		if code, _, stderr := snapIn(t, dir, srv.Env(), "push", "--store", url, "--commit", c); code != 0 {
			t.Fatal(stderr)
		}
		mu.Lock()
		inSwap = true
		mu.Unlock()
		res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "snap_sync"})
		mu.Lock()
		inSwap = false
		mu.Unlock()
		if err != nil || res.IsError {
			t.Fatalf("snap_sync: %v %v", err, res)
		}
		time.Sleep(500 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	waitCommit(t, sess, commits[len(commits)-1], time.Second)
	if len(swapping) == 0 || len(steady) == 0 {
		t.Fatalf("%d calls during swaps, %d steady", len(swapping), len(steady))
	}
	p := func(d []time.Duration, q float64) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[int(q*float64(len(d)-1))]
	}
	t.Logf("snap_callers over stdio: steady p50 %v p99 %v (%d calls); during swaps p50 %v p99 %v (%d calls)",
		p(steady, .5), p(steady, .99), len(steady), p(swapping, .5), p(swapping, .99), len(swapping))
}

// TestSyncLocalStore follows the local cache: a re-index is served
// without a restart.
func TestSyncLocalStore(t *testing.T) {
	dir, commits := history(t, 1)
	sess, _ := serveStore(t, dir, nil, "--sync", "200ms")
	waitCommit(t, sess, commits[0], time.Minute)
	os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package shop\n\nfunc Extra() {}\n"), 0o644)
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "extra")
	next := gitIn(t, dir, "rev-parse", "HEAD")
	if code, _, stderr := snapIn(t, dir, nil, "index", "-q"); code != 0 {
		t.Fatal(stderr)
	}
	waitCommit(t, sess, next, time.Minute)
	if ans, isErr := call(t, sess, "snap_symbol", map[string]any{"name": "Extra"}); isErr {
		t.Errorf("the new snapshot does not know Extra: %v", ans)
	}
}
