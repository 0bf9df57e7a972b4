package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
)

func gitRun(t *testing.T, dir string, args ...string) string {
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

// copyFixture copies a fixture of testdata into a new folder.
func copyFixture(t *testing.T, fixture string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "testdata", filepath.FromSlash(fixture))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func newStore(t *testing.T, dir string) snapshot.Store {
	t.Helper()
	st, err := filestore.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// localStore is a store in a new folder, as a cache on this machine is,
// named label in messages.
func localStore(t *testing.T, label string) ci.Store {
	dir := t.TempDir()
	return ci.Store{Store: newStore(t, dir), Label: label, Dir: dir}
}

func indexOptions([]string) (indexer.Options, error) {
	return indexer.Options{Languages: languages.All()}, nil
}

// publish indexes dir as commit of repo's branch into st and moves the
// branch's HEAD there, as snap index does.
func publish(t *testing.T, st snapshot.Store, dir, repo, branch, commit string) {
	t.Helper()
	ctx := context.Background()
	opts, _ := indexOptions(nil)
	g, err := indexer.Index(ctx, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	prefix, err := snapshot.Prefix(repo, branch, commit)
	if err != nil {
		t.Fatal(err)
	}
	m, err := snapshot.Write(ctx, st, prefix, &snapshot.Snapshot{
		Manifest: schemas.Manifest{Repo: repo, Branch: branch, Commit: commit,
			Indexer: schemas.Indexer{Name: "snap", Version: "test", Args: []string{"index"}},
			Counts:  schemas.Counts{Files: len(g.Files), Nodes: len(g.Nodes), Edges: len(g.Edges)}},
		Nodes: g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, raw, err := snapshot.ReadManifest(ctx, st, prefix)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.MoveHead(ctx, st, repo, branch, m, sha256Hex(raw), snapshot.HeadOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// start starts a server of cfg and waits for its first engine.
func start(t *testing.T, cfg Config) (*Server, *query.Holder) {
	t.Helper()
	h := &query.Holder{}
	s, err := Start(context.Background(), h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, h
}

// commit is the n-th made-up commit.
func commit(n int) string { return strings.Repeat(string(rune('a'+n)), 40) }

// TestOnce loads the followed branch once, and offers no sync, whatever
// the Config asks; a branch the store lacks fails it.
func TestOnce(t *testing.T) {
	cache := localStore(t, "cache")
	publish(t, cache, copyFixture(t, "go/shop"), "example/shop", "main", commit(0))
	h := &query.Holder{}
	cfg := Config{Follow: &Repo{"example/shop", "main"}, Interval: time.Hour, Remote: cache, Cache: cache}
	s, err := Once(context.Background(), h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if e := h.Load(); e == nil || e.Commit() != commit(0) {
		t.Fatalf("Once returned before the engine was in the holder")
	}
	if opts := s.Options(mcp.Options{}); !opts.NoSyncTool || opts.Library == nil {
		t.Errorf("options %+v: want the library, and no snap_sync", opts)
	}
	cfg.Follow = &Repo{"example/shop", "dev"}
	if _, err := Once(context.Background(), &query.Holder{}, cfg); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Once of a missing branch: %v", err)
	}
}

// TestFollow serves a remote store's branch through the local cache,
// and swaps in the snapshot published after it, on snap_sync.
func TestFollow(t *testing.T) {
	dir := copyFixture(t, "go/shop")
	remote, cache := newStore(t, t.TempDir()), localStore(t, "cache")
	publish(t, remote, dir, "example/shop", "main", commit(0))
	s, h := start(t, Config{Follow: &Repo{"example/shop", "main"}, Interval: time.Hour,
		Remote: ci.Store{Store: remote, Label: "remote"}, Cache: cache})
	if c := h.Load().Commit(); c != commit(0) {
		t.Fatalf("serving %s, want %s", c, commit(0))
	}
	if head, _, err := snapshot.ReadHead(context.Background(), cache, "example/shop", "main"); err != nil || head.Commit != commit(0) {
		t.Errorf("the cache's HEAD: %s, %v; want the snapshot pulled", head.Commit, err)
	}
	opts := s.Options(mcp.Options{})
	if opts.Sync == nil || opts.NoSyncTool || opts.Library == nil || opts.Repos != nil {
		t.Fatalf("options %+v: want a Syncer with its tool and a Library", opts)
	}
	st := opts.Sync.SyncNow(context.Background())
	if st.LastError != "" || st.Swaps != 0 || st.Head != commit(0) || st.Interval != "1h0m0s" {
		t.Errorf("a sync with nothing new: %+v", st)
	}
	os.WriteFile(filepath.Join(dir, "version.go"), []byte("package shop\n\nconst Version = 2\n"), 0o644)
	publish(t, remote, dir, "example/shop", "main", commit(1))
	st = opts.Sync.SyncNow(context.Background())
	if st.LastError != "" || st.Swaps != 1 || h.Load().Commit() != commit(1) {
		t.Errorf("a sync after a publish: %+v, serving %s", st, h.Load().Commit())
	}
}

// TestFollowStoreDown serves the cached snapshot when the store cannot
// be reached, and says why in snap_status.
func TestFollowStoreDown(t *testing.T) {
	dir := copyFixture(t, "go/shop")
	cache := localStore(t, "cache")
	publish(t, cache, dir, "example/shop", "main", commit(0))
	s, h := start(t, Config{Follow: &Repo{"example/shop", "main"}, Interval: time.Hour,
		Remote: ci.Store{Store: brokenStore{cache.Store}, Label: "down"}, Cache: cache})
	if c := h.Load().Commit(); c != commit(0) {
		t.Fatalf("serving %s, want the cached %s", c, commit(0))
	}
	if st := s.Options(mcp.Options{}).Sync.SyncStatus(); !strings.Contains(st.LastError, "store unavailable") || st.Failures != 1 {
		t.Errorf("status %+v: want the store's error", st)
	}
}

// TestStartFails: a snapshot that cannot be loaded is Ready's error.
func TestStartFails(t *testing.T) {
	empty := newStore(t, t.TempDir())
	s, err := Start(context.Background(), &query.Holder{}, Config{Snapshot: &ci.Source{Store: empty, Label: "nothing"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Ready(context.Background()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Ready: %v, want the missing manifest", err)
	}
}

// TestJoin serves two repositories of a store joined, and refuses what
// the store cannot give with a ConfigError.
func TestJoin(t *testing.T) {
	st := localStore(t, "store")
	publish(t, st, copyFixture(t, "go/shop"), "example.com/go", "main", commit(0))
	publish(t, st, copyFixture(t, "go/shop"), "example.com/go", "release", commit(1))
	publish(t, st, copyFixture(t, "python/app"), "example.com/py", "main", commit(2))
	stores := Config{Remote: st, Cache: st}

	cfg := stores
	cfg.Join = []Repo{{Name: "example.com/py"}, {Name: "example.com/go", Branch: "release"}}
	s, h := start(t, cfg)
	opts := s.Options(mcp.Options{})
	if !slices.Equal(opts.Repos, []string{"example.com/go", "example.com/py"}) || opts.Sync == nil || !opts.NoSyncTool {
		t.Errorf("options %+v: want both repositories, snap_status and no snap_sync", opts)
	}
	var got []string
	for _, r := range opts.Sync.SyncStatus().Repos {
		got = append(got, r.Repo+" "+r.Branch+" "+r.Head)
	}
	if want := []string{"example.com/py main " + commit(2), "example.com/go release " + commit(1)}; !slices.Equal(got, want) {
		t.Errorf("repositories served %q, want %q", got, want)
	}
	if n := h.Load().NumNodes(); n == 0 {
		t.Error("the join has no nodes")
	}

	for _, c := range []struct {
		join []Repo
		all  bool
		mem  int64
		want string
	}{
		{[]Repo{{Name: "example.com/go"}, {Name: "example.com/nope"}}, false, 0, "no repository example.com/nope in store; it holds: example.com/go, example.com/py"},
		{[]Repo{{Name: "example.com/go"}, {Name: "example.com/go"}}, false, 0, "--repo example.com/go is given twice"},
		{[]Repo{{Name: "example.com/go", Branch: "nope"}, {Name: "example.com/py"}}, false, 0, "no branch nope of example.com/go"},
		{nil, true, 1 << 10, "no repository fits in the memory budget of 1 KiB"},
	} {
		cfg := stores
		cfg.Join, cfg.AllRepos, cfg.Memory = c.join, c.all, c.mem
		_, err := Start(context.Background(), &query.Holder{}, cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("join %v (all %v, memory %d): %v; want a ConfigError saying %q", c.join, c.all, c.mem, err, c.want)
		}
	}
}

// TestCheckout serves a checkout's snapshot from the local cache with the
// working tree over it, edits a file, and asks snap_sync and snap_status:
// the edit is answered, the status says how the checkout differs, and the
// cache is not written.
func TestCheckout(t *testing.T) {
	dir := copyFixture(t, "go/shop")
	gitRun(t, dir, "init", "-q", "-b", "main")
	cacheDir := filepath.Join(dir, ".snap")
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".snap/\n"), 0o644)
	cache := newStore(t, cacheDir)
	var commits []string
	for i := range 2 {
		os.WriteFile(filepath.Join(dir, "version.go"), []byte("package shop\n\nconst Version = "+string(rune('0'+i))+"\n"), 0o644)
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "commit", "-q", "-m", "commit")
		commits = append(commits, gitRun(t, dir, "rev-parse", "HEAD"))
	}
	publish(t, cache, dir, "example/shop", "main", commits[1])
	local := ci.Store{Store: cache, Label: cacheDir, Dir: cacheDir}
	s, h := start(t, Config{Follow: &Repo{"example/shop", "main"}, Remote: local, Cache: local,
		Checkout: &Checkout{Dir: dir, Repo: "example/shop", Options: indexOptions, IndexerVersion: "test"}})
	reg, err := mcp.NewRegistry(h)
	if err != nil {
		t.Fatal(err)
	}
	reg.WithSyncer(s.Options(mcp.Options{}).Sync)
	before := listing(t, cache)

	ctx := context.Background()
	call := func(tool, args string) map[string]any {
		t.Helper()
		out, isErr := reg.CallJSON(ctx, tool, json.RawMessage(args))
		if isErr {
			t.Fatalf("%s: %s", tool, out)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Move HEAD back one commit, the snapshot's being the second, and edit.
	gitRun(t, dir, "checkout", "-q", commits[0])
	data, err := os.ReadFile(filepath.Join(dir, "store/store.go"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "store/store.go"), append(data, "\nfunc Restock() int { return Total() }\n"...), 0o644)
	call("snap_sync", "{}")
	st := call("snap_status", "{}")
	if !strings.HasPrefix(st["commit"].(string), commits[1]+"+overlay-") {
		t.Errorf("commit %v", st["commit"])
	}
	ck, _ := st["checkout"].(map[string]any)
	if ck["head"] != commits[0] || ck["commits_ahead"] != 1.0 || ck["commits_behind"] != 0.0 || ck["files_differing"] != 2.0 {
		t.Errorf("checkout %v, want HEAD %s one commit behind the snapshot, 2 files differing", ck, commits[0])
	}
	o, _ := st["overlay"].(map[string]any)
	if o["base"] != commits[1] || !slices.Equal(o["modified"].([]any), []any{"store/store.go", "version.go"}) {
		t.Errorf("overlay %v", o)
	}
	found := call("snap_search", `{"query":"Restock"}`)
	if text, _ := json.Marshal(found); !strings.Contains(string(text), `store/store.go`) ||
		found["hint"] != "from the working tree, not the snapshot: store/store.go" {
		t.Errorf("snap_search Restock: %s, want it found in store/store.go, from the working tree", text)
	}
	if s := call("snap_symbol", `{"name":"server.New"}`); s["hint"] != nil {
		t.Errorf("snap_symbol server.New, a file the checkout did not change: hint %q, want none", s["hint"])
	}
	if got := listing(t, cache); !slices.EqualFunc(got, before, func(a, b snapshot.Info) bool { return a.Key == b.Key && a.Size == b.Size && a.ModTime.Equal(b.ModTime) }) {
		t.Errorf("the overlay wrote into the cache:\n%v\nwas\n%v", got, before)
	}
}

// listing lists the objects of st, with their sizes and times.
func listing(t *testing.T, st snapshot.Store) []snapshot.Info {
	t.Helper()
	infos, err := st.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return infos
}

// brokenStore is a store that cannot be reached.
type brokenStore struct{ snapshot.Store }

func (brokenStore) Get(context.Context, string) (io.ReadCloser, snapshot.Info, error) {
	return nil, snapshot.Info{}, snapshot.ErrUnavailable
}

func (brokenStore) Put(context.Context, string, io.Reader, snapshot.PutOptions) (snapshot.Info, error) {
	return snapshot.Info{}, snapshot.ErrUnavailable
}

func (brokenStore) List(context.Context, string) ([]snapshot.Info, error) {
	return nil, snapshot.ErrUnavailable
}

func (brokenStore) Delete(context.Context, string) error { return snapshot.ErrUnavailable }
