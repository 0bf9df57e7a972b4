package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// cacheFiles lists the files of a checkout's local cache (.snap/) that are
// snapshot objects: everything but the store's own files.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(filepath.Join(dir, ".snap"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != ".gitignore" && !strings.HasPrefix(d.Name(), ".snapstore") {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// checkout makes an empty checkout of the same repository as history's,
// to pull into.
func checkout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "remote", "add", "origin", "https://github.com/example/shop.git")
	return dir
}

// TestPullRefusesTamperedSnapshot damages a snapshot in an untrusted store
// (a folder, and an S3 server): a table's bytes, then the manifest made to
// match them. pull must refuse each, saying why, and put nothing in the
// local cache: no table, no manifest, no HEAD. query, which reads the store
// directly, refuses it too.
func TestPullRefusesTamperedSnapshot(t *testing.T) {
	dir, commits := history(t, 1)
	prefix, err := snapshot.Prefix("example/shop", "main", commits[0])
	if err != nil {
		t.Fatal(err)
	}
	type store struct {
		url  string
		path func(key string) string // the file holding an object
	}
	stores := map[string]func(t *testing.T) store{
		"folder": func(t *testing.T) store {
			root := filepath.Join(t.TempDir(), "remote")
			return store{root, func(key string) string { return filepath.Join(root, filepath.FromSlash(key)) }}
		},
		"s3": func(t *testing.T) store {
			srv := s3test.Start(t)
			setEnv(t, srv.Env())
			return store{srv.URL("team"), func(key string) string { return srv.Path("team/" + key) }}
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			if code, _, stderr := run(t, dir, "push", "--store", st.url); code != 0 {
				t.Fatalf("push: %s", stderr)
			}
			// Pristine, it pulls.
			if code, _, stderr := run(t, checkout(t), "pull", "--store", st.url); code != 0 {
				t.Fatalf("pull of an intact snapshot: %s", stderr)
			}

			nodes := st.path(prefix + "/" + schemas.NodesFile)
			orig, err := os.ReadFile(nodes)
			if err != nil {
				t.Fatal(err)
			}
			bad := bytes.Clone(orig)
			bad[len(bad)/2] ^= 0x01
			if err := os.WriteFile(nodes, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			refused := func(want string) {
				t.Helper()
				other := checkout(t)
				code, stdout, stderr := run(t, other, "pull", "--store", st.url, "--json")
				if code == 0 || !strings.Contains(stderr, want) || strings.TrimSpace(stdout) != "" {
					t.Errorf("pull: exit %d, stdout %q, stderr %q; want a failure saying %q", code, stdout, stderr, want)
				}
				if files := cacheFiles(t, other); len(files) > 0 {
					t.Errorf("a refused pull left %d files in the cache: %q", len(files), files)
				}
				code, _, stderr = run(t, other, "query", "status", "--store", st.url)
				if code == 0 || !strings.Contains(stderr, want) {
					t.Errorf("query: exit %d, %q; want a failure saying %q", code, stderr, want)
				}
			}
			refused("table nodes: sha256 mismatch")

			// The manifest rewritten to name the tampered table: HEAD's
			// digest of the manifest no longer matches.
			mpath := st.path(prefix + "/" + schemas.ManifestFile)
			raw, err := os.ReadFile(mpath)
			if err != nil {
				t.Fatal(err)
			}
			raw = bytes.Replace(raw, []byte(sha256Hex(orig)), []byte(sha256Hex(bad)), 1)
			if err := os.WriteFile(mpath, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			refused("manifest sha256 mismatch")
		})
	}
}

// lockedBuffer is a bytes.Buffer that a running command writes while the
// test reads it. It counts the writes.
type lockedBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serveHTTP runs snap serve --http in process on a free loopback port and
// returns its /mcp URL, the output it writes, and a function that stops it
// and returns its exit code.
func serveHTTP(t *testing.T, dir string, args ...string) (string, *lockedBuffer, func() int) {
	t.Helper()
	t.Chdir(dir)
	ctx, cancel := context.WithCancel(context.Background())
	out := new(lockedBuffer)
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, append([]string{"snap", "serve", "--http", "127.0.0.1:0"}, args...), strings.NewReader(""), out, out)
	}()
	url := regexp.MustCompile(`url=(http://\S+/mcp)`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := url.FindStringSubmatch(out.String()); m != nil {
			stop := func() int { cancel(); return <-done }
			t.Cleanup(func() { cancel() })
			return m[1], out, stop
		}
		select {
		case code := <-done:
			cancel()
			t.Fatalf("serve exited %d: %s", code, out)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not say where it listens: %s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// initialize is an MCP initialize request.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`

func post(t *testing.T, url string, header map[string]string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeHTTPToken: with a token (from SNAP_TOKEN or --token), every
// request must carry it; browsers' requests from other origins are
// refused with or without it; the token appears in no output.
func TestServeHTTPToken(t *testing.T) {
	dir, _ := history(t, 1)
	const token = "plantedBearerToken-0123456789abcdef"
	t.Setenv("SNAP_TOKEN", token)
	url, out, stop := serveHTTP(t, dir)
	for _, c := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer " + strings.ToUpper(token)}, http.StatusUnauthorized},
		{"token as basic", map[string]string{"Authorization": "Basic " + token}, http.StatusUnauthorized},
		{"token prefix", map[string]string{"Authorization": "Bearer " + token[:20]}, http.StatusUnauthorized},
		{"right token", map[string]string{"Authorization": "Bearer " + token}, http.StatusOK},
		{"scheme in lower case", map[string]string{"Authorization": "bearer " + token}, http.StatusOK},
		{"web page elsewhere", map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"sandboxed page", map[string]string{"Authorization": "Bearer " + token, "Origin": "null"}, http.StatusForbidden},
		{"local page", map[string]string{"Authorization": "Bearer " + token, "Origin": "http://localhost:6274"}, http.StatusOK},
		{"rebound name", map[string]string{"Authorization": "Bearer " + token, "Host": "evil.example"}, http.StatusForbidden},
	} {
		if c.header["Host"] != "" {
			// net/http sends Host from the request's field.
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
			req.Host = c.header["Host"]
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", c.header["Authorization"])
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.want)
			}
			continue
		}
		if got := post(t, url, c.header); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	if code := stop(); code != 0 {
		t.Errorf("serve exited %d: %s", code, out)
	}
	if strings.Contains(out.String(), token) || strings.Contains(out.String(), token[:12]) {
		t.Errorf("the token appears in the output: %s", out)
	}

	// --token does the same; without a token, loopback serves anyone.
	t.Setenv("SNAP_TOKEN", "")
	url, _, stop = serveHTTP(t, dir, "--token", token)
	if got := post(t, url, nil); got != http.StatusUnauthorized {
		t.Errorf("--token, no token sent: %d", got)
	}
	stop()
	url, _, stop = serveHTTP(t, dir)
	if got := post(t, url, nil); got != http.StatusOK {
		t.Errorf("loopback without a token: %d", got)
	}
	if got := post(t, url, map[string]string{"Origin": "http://attacker.example"}); got != http.StatusForbidden {
		t.Errorf("loopback, a web page elsewhere: %d", got)
	}
	stop()
}

// TestServeHTTPBeyondLoopback: listening beyond loopback needs a token,
// refused with exit 2 and a message that says what to do.
func TestServeHTTPBeyondLoopback(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SNAP_TOKEN", "")
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:8080"} {
		code, _, stderr := run(t, dir, "serve", "--http", addr)
		if code != 2 || !strings.Contains(stderr, "SNAP_TOKEN") || !strings.Contains(stderr, "--token") || !strings.Contains(stderr, "127.0.0.1:PORT") {
			t.Errorf("serve --http %s without a token: exit %d, %q", addr, code, stderr)
		}
	}
	if code, _, stderr := run(t, dir, "serve", "--http", "0.0.0.0:0", "--token", "tooshort"); code != 2 || !strings.Contains(stderr, "at least 16") {
		t.Errorf("short token: exit %d, %q", code, stderr)
	}
}

// TestNoCredentialsInOutput plants credentials where snap finds them (the
// AWS variables, a store URL, its endpoint, SNAP_STORE, git config, a
// serve token) and runs the commands that use a store against stores that
// fail (unreachable, refusing the credentials, a URL refused for holding
// them), in text and JSON: no output may show any of them.
func TestNoCredentialsInOutput(t *testing.T) {
	srv := s3test.Start(t)
	dir, _ := history(t, 1)
	secrets := map[string]string{
		"access key":    "AKIAPLANTEDKEY7Q2XW9",
		"secret key":    "plantedSecretKey/wJalrXUtnFEMI7K7MDENG",
		"session token": "plantedSessionToken8f3a9c0d7e",
		"URL key":       "AKIAURLKEYPLANTED55",
		"URL secret":    "plantedUrlSecret9QxZr7",
		"serve token":   "plantedServeToken-5d1c0a9b8e7f",
	}
	setEnv(t, []string{
		"AWS_ACCESS_KEY_ID=" + secrets["access key"],
		"AWS_SECRET_ACCESS_KEY=" + secrets["secret key"],
		"AWS_SESSION_TOKEN=" + secrets["session token"],
		"AWS_REGION=" + s3test.Region,
		"SNAP_TOKEN=" + secrets["serve token"],
		"SNAP_STORE=",
	})
	creds := secrets["URL key"] + ":" + secrets["URL secret"]
	stores := map[string]string{
		"unreachable":        "s3://snap-bucket/p?endpoint=http://127.0.0.1:1",
		"wrong credentials":  srv.URL("p"),
		"credentials in URL": "s3://" + creds + "@snap-bucket/p?endpoint=http://127.0.0.1:1",
		"in the endpoint":    "s3://snap-bucket/p?endpoint=http://" + creds + "@127.0.0.1:1",
		"no endpoint key":    "s3://snap-bucket/p?http://" + creds + "@127.0.0.1:1",
		"in the prefix":      "s3://snap-bucket//http://" + creds + "@127.0.0.1:1",
		"upper-case scheme":  "S3://" + creds + "@snap-bucket/p",
		"no scheme":          creds + "@minio://snap-bucket/p",
	}
	commands := [][]string{
		{"ls"}, {"ls", "--json"}, {"push"}, {"push", "--json"}, {"pull"}, {"pull", "--json"},
		{"doctor"}, {"doctor", "--json"}, {"gc"}, {"gc", "--json"}, {"query", "status"}, {"query", "status", "--json"},
		{"index", "-q"}, {"serve", "--sync", "1m"}, {"serve", "--http", "127.0.0.1:0", "--sync", "1m"},
	}
	check := func(what, out string) {
		t.Helper()
		for name, s := range secrets {
			if strings.Contains(out, s) || strings.Contains(out, s[:min(len(s), 12)]) {
				t.Errorf("%s: the %s shows in the output:\n%s", what, name, out)
			}
		}
	}
	for name, url := range stores {
		for _, args := range commands {
			what := "snap " + strings.Join(args, " ") + " --store <" + name + ">"
			limit := 30 * time.Second
			if args[0] == "serve" {
				limit = 3 * time.Second // it serves from the cache until stopped
			}
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			// serve over the stdio of an empty stdin stops when it ends.
			Run(ctx, append(append([]string{"snap"}, args...), "--store", url), strings.NewReader(""), &stdout, &stderr)
			cancel()
			check(what, stdout.String()+stderr.String())
		}
	}
	// The store named by SNAP_STORE and by git config.
	t.Setenv("SNAP_STORE", stores["credentials in URL"])
	code, stdout, stderr := run(t, dir, "ls", "--json")
	if code != 2 {
		t.Errorf("ls with credentials in SNAP_STORE: exit %d", code)
	}
	check("SNAP_STORE", stdout+stderr)
	t.Setenv("SNAP_STORE", "")
	gitRun(t, dir, "config", "snap.store", stores["in the endpoint"])
	code, stdout, stderr = run(t, dir, "pull", "--json")
	if code != 2 {
		t.Errorf("pull with credentials in git config: exit %d", code)
	}
	check("git config snap.store", stdout+stderr)

	// A machine-readable answer never carries them either: doctor --json
	// of a store that works, with its credentials in the environment.
	setEnv(t, srv.Env())
	secrets["server secret"], secrets["server key"] = srv.SecretKey, srv.AccessKey
	code, stdout, stderr = run(t, dir, "doctor", "--store", srv.URL("p"), "--json")
	var ck schemas.Checkup
	if err := json.Unmarshal([]byte(stdout), &ck); code != 0 || err != nil || !ck.OK {
		t.Errorf("doctor of a working store: exit %d, %s %s", code, stdout, stderr)
	}
	check("doctor --json", stdout+stderr)
}

// filesBelow lists every path below dir with its mode, size, time and
// inode, not following links: equal twice when nothing below dir was
// written, replaced or removed.
func filesBelow(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			var ino uint64
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				ino = st.Ino
			}
			out[p] = fmt.Sprint(fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), ino)
		}
		return nil
	})
	return out
}

// unchanged fails t when something below dir differs from before.
func unchanged(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s: %s was written or removed", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s was created", what, p)
		}
	}
}

// TestIndexRefusesLinkedStore: a checkout whose committed .snap is a
// symbolic link to a folder elsewhere, or whose .snap/.snapstore.lock is
// one to a file elsewhere. snap index must refuse to write through
// either, saying what to do, and create nothing where they point.
func TestIndexRefusesLinkedStore(t *testing.T) {
	shop, err := filepath.Abs("../../testdata/go/shop")
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "keep.txt"), []byte("keep"), 0o644)
	before := filesBelow(t, outside)

	dir := copyTree(t, shop)
	if err := os.Symlink(outside, filepath.Join(dir, ".snap")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, "index", "-q")
	if code != 2 || !strings.Contains(stderr, ".snap is a symbolic link (to "+outside+")") || !strings.Contains(stderr, "--store") {
		t.Errorf("index through a linked .snap: exit %d, %s; want a usage error naming the link and --store", code, stderr)
	}
	// Named as --store, a checkout's .snap is refused too (snap setup
	// writes it so into MCP clients' settings).
	if code, _, stderr := run(t, dir, "index", "-q", "--store", filepath.Join(dir, ".snap")); code != 2 {
		t.Errorf("index --store LINKED/.snap: exit %d, %s", code, stderr)
	}
	unchanged(t, "a linked .snap", before, filesBelow(t, outside))

	target := filepath.Join(outside, "planted.lock")
	dir = copyTree(t, shop)
	os.MkdirAll(filepath.Join(dir, ".snap"), 0o755)
	if err := os.Symlink(target, filepath.Join(dir, ".snap", ".snapstore.lock")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = run(t, dir, "index", "-q")
	if code == 0 || !strings.Contains(stderr, ".snapstore.lock") {
		t.Errorf("index with a linked lock file: exit %d, %s; want a failure naming it", code, stderr)
	}
	unchanged(t, "a linked lock file", before, filesBelow(t, outside))
}

// TestIndexMaxFileSizeBound: a --max-file-size past what a reader reads
// back is a usage error, before anything is indexed or written.
func TestIndexMaxFileSizeBound(t *testing.T) {
	dir := copyTree(t, "../../testdata/go/shop")
	code, _, stderr := run(t, dir, "index", "-q", "--max-file-size", "300000000")
	if code != 2 || !strings.Contains(stderr, "--max-file-size") {
		t.Errorf("--max-file-size 300000000: exit %d, %s; want a usage error", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".snap")); err == nil {
		t.Errorf("a refused index made .snap")
	}
	if code, _, stderr := run(t, dir, "index", "-q", "--max-file-size", fmt.Sprint(snapshot.MaxValueSize)); code != 0 {
		t.Errorf("--max-file-size %d: exit %d, %s", snapshot.MaxValueSize, code, stderr)
	}
}

// headFolder returns the folder of the snapshot HEAD names in a
// checkout's .snap, and HEAD.
func headFolder(t *testing.T, dir string) (string, schemas.Head) {
	t.Helper()
	st, err := snapshot.OpenDir(filepath.Join(dir, ".snap"))
	if err != nil {
		t.Fatal(err)
	}
	head, _, err := snapshot.ReadHead(context.Background(), st, "example/shop", "main")
	if err != nil {
		t.Fatal(err)
	}
	prefix, err := snapshot.Prefix("example/shop", "main", head.Commit)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, ".snap", filepath.FromSlash(prefix)), head
}

// TestIndexAgainWithOtherOptions indexes one commit again and again with
// other options. The first snapshot's files are never written again;
// --no-sources goes under the commit's build key, a run of the first
// tables reuses the first snapshot, and HEAD, wherever it moves, names a
// snapshot that verifies with the digest it names.
func TestIndexAgainWithOtherOptions(t *testing.T) {
	dir, commits := history(t, 1)
	first, _ := headFolder(t, dir)
	if filepath.Base(first) != "commit="+commits[0] {
		t.Fatalf("the first snapshot is at %s", first)
	}
	before := filesBelow(t, first)
	for _, c := range []struct {
		args  []string
		build bool // under the build key, not the commit's
	}{
		{[]string{"--full"}, false},
		{[]string{"--no-sources"}, true},
		{nil, false},
		{[]string{"--no-sources", "--full"}, true},
		{[]string{"--exclude", "**/*_test.go"}, true},
	} {
		code, stdout, stderr := run(t, dir, append([]string{"index", "-q"}, c.args...)...)
		if code != 0 {
			t.Fatalf("index %v: %s", c.args, stderr)
		}
		folder, head := headFolder(t, dir)
		if strings.TrimSpace(stdout) != folder {
			t.Errorf("index %v printed %q; HEAD names %s", c.args, stdout, folder)
		}
		if got := strings.Contains(filepath.Base(folder), "-build-"); got != c.build || !strings.HasPrefix(filepath.Base(folder), "commit="+commits[0]) {
			t.Errorf("index %v went to %s", c.args, folder)
		}
		raw, err := os.ReadFile(filepath.Join(folder, schemas.ManifestFile))
		if err != nil || sha256Hex(raw) != head.ManifestSHA256 {
			t.Errorf("index %v: HEAD names manifest %s; the folder holds %s (%v)", c.args, head.ManifestSHA256, sha256Hex(raw), err)
		}
		if code, _, stderr := run(t, dir, "verify", folder); code != 0 {
			t.Errorf("index %v: HEAD does not verify: %s", c.args, stderr)
		}
		unchanged(t, fmt.Sprintf("index %v", c.args), before, filesBelow(t, first))
	}
}
