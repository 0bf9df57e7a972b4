package overlay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/overlay"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
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

// checkout copies the Go fixture into a git repository with one commit.
func checkout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := "../testdata/go/shop"
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
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func options() indexer.Options { return indexer.Options{Languages: languages.All()} }

// index indexes dir fully, as `snap index --full` would, under commit.
func index(t *testing.T, dir, commit string) *snapshot.Snapshot {
	t.Helper()
	g, err := indexer.Index(context.Background(), dir, options())
	if err != nil {
		t.Fatal(err)
	}
	grammars := map[string]string{}
	for _, l := range languages.All() {
		grammars[l.Name()] = l.GrammarVersion()
	}
	return &snapshot.Snapshot{
		Manifest: schemas.Manifest{Repo: "example/shop", Branch: "main", Commit: commit, FeatureVersion: schemas.FeatureVersion,
			Indexer: schemas.Indexer{Name: "snap", Version: "test"}, Grammars: grammars,
			Counts: schemas.Counts{Files: len(g.Files), Nodes: len(g.Nodes), Edges: len(g.Edges), Unresolved: g.Stats.Unresolved,
				ParseErrors: g.Stats.ParseErrors, Languages: g.Stats.Languages}},
		Nodes: g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs,
	}
}

func build(t *testing.T, s *snapshot.Snapshot) *query.Engine {
	t.Helper()
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// serve indexes dir's HEAD and serves it with an overlay over dir.
func serve(t *testing.T, dir string) (*query.Holder, *overlay.Overlay, *snapshot.Snapshot) {
	t.Helper()
	base := index(t, dir, gitRun(t, dir, "rev-parse", "HEAD"))
	h := &query.Holder{}
	h.Store(build(t, base))
	o := overlay.New(overlay.Config{
		Dir: dir, Holder: h, Options: options(), IndexerVersion: "test",
		Refs: func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error) {
			if m.Commit != base.Manifest.Commit {
				t.Errorf("refs of %s asked, serving %s", m.Commit, base.Manifest.Commit)
			}
			return slices.Clone(base.Refs), nil
		},
	})
	return h, o, base
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func edit(t *testing.T, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	write(t, dir, name, strings.Replace(string(data), old, new, 1))
}

// headerKeys are the fields that name the snapshot or the overlay rather
// than the code: they differ between an overlay and a full index of the
// same tree.
var headerKeys = []string{"commit", "indexed_at", "build_ms", "build", "overlay", "checkout", "next_cursor", "base", "dirty", "tables", "fingerprint"}

func normalize(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range headerKeys {
				delete(x, k)
			}
			// The hint names the files answered from the checkout.
			if h, ok := x["hint"].(string); ok {
				h, _, _ = strings.Cut(h, "from the working tree, not the snapshot: ")
				if h = strings.TrimSuffix(h, "; "); h == "" {
					delete(x, "hint")
				} else {
					x["hint"] = h
				}
			}
			for _, y := range x {
				strip(y)
			}
		case []any:
			for _, y := range x {
				strip(y)
			}
		}
	}
	strip(v)
	out, _ := json.Marshal(v)
	return string(out)
}

// sameAnswers calls every sample tool on got and on a full index of the
// tree, and compares the answers, bytes modulo the header fields.
func sameAnswers(t *testing.T, got *query.Engine, dir string) {
	t.Helper()
	want := build(t, index(t, dir, "full"))
	calls, err := mcp.SampleCalls(want)
	if err != nil {
		t.Fatal(err)
	}
	regs := [2]*mcp.Registry{}
	for i, e := range [2]*query.Engine{got, want} {
		h := &query.Holder{}
		h.Store(e)
		if regs[i], err = mcp.NewRegistry(h); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	for _, c := range calls {
		a, _ := regs[0].CallJSON(ctx, c.Tool, c.Args)
		b, _ := regs[1].CallJSON(ctx, c.Tool, c.Args)
		if x, y := normalize(t, a), normalize(t, b); x != y {
			t.Errorf("%s %s: the overlay answers\n%s\na full index\n%s", c.Tool, c.Args, x, y)
		}
	}
}

func check(t *testing.T, o *overlay.Overlay) {
	t.Helper()
	if err := o.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// find returns the row of the one symbol named qname.
func find(t *testing.T, e *query.Engine, qname string) int32 {
	t.Helper()
	rows := e.Find(qname, "")
	if len(rows) != 1 {
		t.Fatalf("%s: %d symbols", qname, len(rows))
	}
	return rows[0]
}

func TestOverlay(t *testing.T) {
	dir := checkout(t)
	h, o, base := serve(t, dir)
	baseEngine := h.Load()

	// A clean checkout: nothing to do, the snapshot stays.
	check(t, o)
	if h.Load() != baseEngine {
		t.Fatal("a clean checkout replaced the snapshot")
	}
	if st := o.Status(); st.Differing != 0 || st.CommitsBehind != 0 || st.CommitsAhead != 0 || st.Head != base.Manifest.Commit {
		t.Fatalf("clean status %+v", st)
	}

	t.Run("edit", func(t *testing.T) {
		// An uncommitted edit whose new call resolves into an unchanged file.
		edit(t, dir, "server/server.go", "func Describe(", "func Restock(s *st.MemStore) int { return st.Total() + s.Len() }\n\nfunc Describe(")
		check(t, o)
		e := h.Load()
		if e.Overlay() == nil || !slices.Equal(e.Overlay().Modified, []string{"server/server.go"}) {
			t.Fatalf("overlay %+v", e.Overlay())
		}
		if !strings.HasPrefix(e.Commit(), base.Manifest.Commit+"+overlay-") {
			t.Errorf("commit %q", e.Commit())
		}
		_, _ = find(t, e, "Restock"), find(t, e, "Total")
		var callees []string
		resolved, _ := e.Callees(find(t, e, "Restock"))
		for _, l := range resolved {
			callees = append(callees, e.Node(l.Node).QualifiedName+" in "+e.Node(l.Node).File)
		}
		sort.Strings(callees)
		if !slices.ContainsFunc(callees, func(s string) bool { return strings.HasSuffix(s, "Total in store/store.go") }) {
			t.Errorf("Restock calls %v, want store.Total in store/store.go", callees)
		}
		sameAnswers(t, e, dir)
	})

	t.Run("unchanged", func(t *testing.T) {
		e := h.Load()
		check(t, o)
		if h.Load() != e {
			t.Error("a check with nothing new built again")
		}
	})

	t.Run("add delete rename", func(t *testing.T) {
		write(t, dir, "store/extra/extra.go", "package extra\n\nimport \"example.com/shop/store\"\n\nfunc Count() int { return store.NewMemStore().Len() }\n")
		if err := os.Remove(filepath.Join(dir, "platform/other.go")); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(dir, "cmd/shop/broken.go"), filepath.Join(dir, "cmd/shop/fixed.go")); err != nil {
			t.Fatal(err)
		}
		check(t, o)
		ov := h.Load().Overlay()
		if ov == nil || !slices.Equal(ov.Added, []string{"cmd/shop/fixed.go", "store/extra/extra.go"}) ||
			!slices.Equal(ov.Deleted, []string{"cmd/shop/broken.go", "platform/other.go"}) || !slices.Equal(ov.Modified, []string{"server/server.go"}) {
			t.Fatalf("overlay %+v", ov)
		}
		sameAnswers(t, h.Load(), dir)
	})

	t.Run("removed symbol breaks its callers", func(t *testing.T) {
		// main.go, unchanged, calls store.NewMemStore; the edit removes it.
		edit(t, dir, "store/store.go", "func NewMemStore() *MemStore {\n\treturn &MemStore{items: make(map[string]Item)}\n}\n", "")
		check(t, o)
		e := h.Load()
		if rows := e.Find("store.NewMemStore", ""); len(rows) != 0 {
			t.Fatalf("NewMemStore still there: %v", rows)
		}
		d := query.Diff(build(t, base), e, query.DiffOptions{})
		if d.Summary.Broken == 0 {
			t.Errorf("diff against the snapshot: no broken symbol; summary %+v", d.Summary)
		}
		var left []string // callers the removal leaves unresolved, in files the edit did not touch
		for i := range int32(e.NumEdges()) {
			ed := e.Edge(i)
			if ed.Kind == schemas.EdgeCalls && ed.Dst == 0 && strings.Contains(ed.Target, "NewMemStore") {
				left = append(left, ed.File)
			}
		}
		sort.Strings(left)
		if !slices.Contains(left, "cmd/shop/main.go") {
			t.Errorf("unresolved calls of NewMemStore in %v, want cmd/shop/main.go", left)
		}
		sameAnswers(t, e, dir)
	})

	t.Run("committed but not indexed", func(t *testing.T) {
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "commit", "-q", "-m", "second")
		gitRun(t, dir, "commit", "-q", "--allow-empty", "-m", "third")
		check(t, o)
		st := o.Status()
		if st.CommitsBehind != 2 || st.CommitsAhead != 0 || st.Differing != 6 {
			t.Errorf("status %+v, want 2 commits behind, 6 files differing", st)
		}
		sameAnswers(t, h.Load(), dir)
	})

	t.Run("back to the snapshot", func(t *testing.T) {
		gitRun(t, dir, "checkout", "-q", base.Manifest.Commit)
		gitRun(t, dir, "clean", "-q", "-fd")
		check(t, o)
		e := h.Load()
		if e.Overlay() != nil || e.Commit() != base.Manifest.Commit || e.Fingerprint() != baseEngine.Fingerprint() {
			t.Errorf("overlay %+v, commit %s", e.Overlay(), e.Commit())
		}
		if st := o.Status(); st.Differing != 0 || st.CommitsBehind != 0 {
			t.Errorf("status %+v", st)
		}
		sameAnswers(t, e, dir)
	})
}

// TestOverlaySync checks that an overlay built over a snapshot a sync has
// replaced meanwhile is not stored, and that the next check takes the new
// snapshot as its base.
func TestOverlaySync(t *testing.T) {
	dir := checkout(t)
	h, o, base := serve(t, dir)
	edit(t, dir, "store/store.go", "func Total(", "func Count() int { return 0 }\n\nfunc Total(")
	check(t, o)
	if h.Load().Overlay() == nil {
		t.Fatal("no overlay")
	}
	// A sync stores a snapshot of the same commit, indexed afresh.
	next := index(t, dir, base.Manifest.Commit+"-dirty-x")
	h.Store(build(t, next))
	check(t, o)
	if e := h.Load(); e.Overlay() != nil || e.Commit() != next.Manifest.Commit {
		t.Errorf("after a sync of the checkout: overlay %+v, commit %s", e.Overlay(), e.Commit())
	}
}

// TestWatch saves a file in a watched checkout and waits for an answer
// that reflects it; the time from save to answer is logged.
func TestWatch(t *testing.T) {
	dir := checkout(t)
	h, o, _ := serve(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- o.Watch(ctx) }()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(10 * time.Second); !o.Status().Watching || o.Status().LastCheck.IsZero(); {
		if time.Now().After(deadline) {
			t.Fatal("the watch did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var took []time.Duration
	for i := range 5 {
		name := []string{"Alpha", "Beta", "Gamma", "Delta", "Epsilon"}[i]
		// New folders too: they must be watched as they appear.
		file := "server/server.go"
		if i%2 == 1 {
			file = "fresh" + name + "/x.go"
			write(t, dir, file, "package fresh\n\nfunc Placeholder() {}\n")
			time.Sleep(50 * time.Millisecond) // let the folder be watched; the file is edited below
		}
		data, _ := os.ReadFile(filepath.Join(dir, file))
		start := time.Now()
		write(t, dir, file, string(data)+"\nfunc "+name+"() {}\n")
		for deadline := start.Add(30 * time.Second); len(h.Load().Find(name, "")) == 0; {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no answer reflects the save after 30 s; status %+v", name, o.Status())
			}
			time.Sleep(5 * time.Millisecond)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	t.Logf("save → answer on the shop fixture: median %v (of %v)", took[len(took)/2], took)
}

// TestWorktree builds the working tree's engine once, over a snapshot of
// a commit the checkout's history lacks (which Check refuses to serve):
// a clean tree is the snapshot itself, an edited one answers as a full
// index of it does, and the snapshot's engine is left as it was.
func TestWorktree(t *testing.T) {
	dir := checkout(t)
	base := index(t, dir, "0123456789abcdef0123456789abcdef01234567")
	baseEngine := build(t, base)
	refsRead := 0
	cfg := overlay.Config{Dir: dir, Options: options(), IndexerVersion: "test",
		Refs: func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error) {
			refsRead++
			return slices.Clone(base.Refs), nil
		}}
	ctx := context.Background()

	e, err := overlay.Worktree(ctx, cfg, baseEngine)
	if err != nil {
		t.Fatal(err)
	}
	if e != baseEngine || refsRead != 0 {
		t.Fatalf("a clean tree: engine %s (refs read %d times), want the snapshot's", e.Commit(), refsRead)
	}

	edit(t, dir, "store/store.go", "func Total(", "func Count() int { return 0 }\n\nfunc Total(")
	if err := os.Remove(filepath.Join(dir, "cmd/shop/broken.go")); err != nil {
		t.Fatal(err)
	}
	e, err = overlay.Worktree(ctx, cfg, baseEngine)
	if err != nil {
		t.Fatal(err)
	}
	ov := e.Overlay()
	if ov == nil || ov.Base != base.Manifest.Commit || !slices.Equal(ov.Modified, []string{"store/store.go"}) ||
		!slices.Equal(ov.Deleted, []string{"cmd/shop/broken.go"}) || len(ov.Added) != 0 || refsRead != 1 {
		t.Fatalf("overlay %+v, refs read %d times", ov, refsRead)
	}
	_ = find(t, e, "Count")
	// A snapshot made at another feature version is no base: the tree is
	// indexed whole, its refs never read.
	other := *base
	other.Manifest.FeatureVersion = 0
	if e, err := overlay.Worktree(ctx, cfg, build(t, &other)); err != nil || refsRead != 1 || len(e.Find("Count", "")) != 1 {
		t.Errorf("a base of another feature version: err %v, refs read %d times", err, refsRead)
	}
	if rows := baseEngine.Find("Count", ""); len(rows) != 0 || baseEngine.Overlay() != nil {
		t.Errorf("the snapshot's engine changed: Count %v, overlay %+v", rows, baseEngine.Overlay())
	}
	sameAnswers(t, e, dir)

	// Check, by contrast, serves no overlay over a commit not in the history.
	h := &query.Holder{}
	h.Store(baseEngine)
	cfg.Holder = h
	if err := overlay.New(cfg).Check(ctx); err == nil || !strings.Contains(err.Error(), "not in this checkout's history") || h.Load() != baseEngine {
		t.Errorf("Check over a commit not in the history: %v", err)
	}
}

// TestWorktreeSpecialFiles: a FIFO in the checkout, and a link to it, are
// no files to hash or index. Opening one for reading would block until a
// writer came, so the overlay must tell them apart before opening.
func TestWorktreeSpecialFiles(t *testing.T) {
	dir := checkout(t)
	base := index(t, dir, "0123456789abcdef0123456789abcdef01234567")
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	cfg := overlay.Config{Dir: dir, Options: options(), IndexerVersion: "test",
		Refs: func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error) {
			return slices.Clone(base.Refs), nil
		}}
	done := make(chan error, 1)
	go func() {
		_, err := overlay.Worktree(context.Background(), cfg, build(t, base))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		// Let the reader blocked on the FIFO go before failing.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("the overlay blocked on a FIFO in the checkout")
	}
}

// TestOverlayBuildKey: a snapshot stored under its commit's build key
// (another build of the same commit) is of that commit: the checkout is
// neither behind nor ahead of it.
func TestOverlayBuildKey(t *testing.T) {
	dir := checkout(t)
	head := gitRun(t, dir, "rev-parse", "HEAD")
	base := index(t, dir, head+"-build-0123456789abcdef")
	h := &query.Holder{}
	h.Store(build(t, base))
	o := overlay.New(overlay.Config{Dir: dir, Holder: h, Options: options(), IndexerVersion: "test",
		Refs: func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error) {
			return slices.Clone(base.Refs), nil
		}})
	check(t, o)
	if st := o.Status(); st.CommitsBehind != 0 || st.CommitsAhead != 0 || st.Head != head {
		t.Fatalf("status over a build key of HEAD: %+v", st)
	}
}
