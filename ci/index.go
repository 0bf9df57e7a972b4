// Package ci is snap's pipeline from a tree to a published snapshot, and
// what a CI run does around it. Index walks the tree, finds and reads the
// base snapshot its unchanged files' rows are reused from, indexes,
// writes the tables and moves the branch's HEAD: what `snap index` runs.
// Run is `snap ci`: it reads the CI's environment (ReadEnv), indexes
// against the last snapshot, pushes it, and on a pull request diffs it
// against the target branch's (DiffMarkdown) and applies the gate
// (Failed).
//
// The package reads no flags and no environment variable: its callers
// pass them in a Config. It logs on the Config's logger and writes
// nothing on stdout.
package ci

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Config is what Index indexes, and where it publishes.
type Config struct {
	// Dir is the folder to index.
	Dir string
	// Store is the URL of the store to publish in (snapshot.Open); ""
	// is the local cache, .snap/ at the repository root.
	Store string
	// Repo and Branch file the snapshot under these instead of the
	// checkout's (Detect).
	Repo, Branch string
	// Base is the folder of a snapshot whose unchanged files' rows are
	// reused; "" is the store's HEAD of the branch.
	Base string
	// Full parses every file, reusing nothing.
	Full bool
	// Options say what to index and how. Index sets Paths, Progress,
	// Base, BaseEdges, Known, Gathered and NodesDone itself.
	Options indexer.Options

	// Version is the indexer's version the manifest records; a base made
	// by another version is not reused.
	Version string
	// Args is the command line the manifest records.
	Args []string
	// StatCache is the folder of the stat caches, one per tree
	// (indexer.StatCache); "" keeps none.
	StatCache string
	// KeepGC leaves the collector's percentage as it is (GOGC is set);
	// otherwise the run sets it to 200.
	KeepGC bool

	// Log is where the run logs; nil logs nothing.
	Log *slog.Logger
	// Progress is where a progress bar is drawn when it is a terminal,
	// and otherwise says that progress goes to Log, a line every 10%;
	// nil shows no progress.
	Progress io.Writer
	// ProgressLines logs progress even on a terminal (a CI's log keeps
	// every line).
	ProgressLines bool
	// Fault, when set, is called at each step of publishing with the
	// step's name, for the tests that stop a run there.
	Fault func(point string)
}

// Result is what Index published.
type Result struct {
	Prefix   string // the snapshot's key prefix in the store
	Folder   string // the snapshot's folder, for a local store; "" otherwise
	Manifest schemas.Manifest
	Head     snapshot.HeadMove
}

// withDefaults fills in what may be left out.
func (c Config) withDefaults() Config {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Fault == nil {
		c.Fault = func(string) {}
	}
	return c
}

// Index walks, indexes and publishes the tree at cfg.Dir: the files
// unchanged since the base keep its rows, the tables go to the store and
// the branch's HEAD moves to them (in a local cache to whatever was
// indexed, in a shared store only forward). With Options.ParseOnly it
// only walks, reads and parses, and publishes nothing.
func Index(ctx context.Context, cfg Config) (Result, error) {
	cfg = cfg.withDefaults()
	if cfg.Full && cfg.Base != "" {
		return Result{}, configErrorf("index: --full and --base exclude each other")
	}
	// The tree is walked while the run finds its identity and reads its
	// base: the walk mostly waits for git, the base read for nothing else.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	paths := walkAhead(ctx, cfg.Dir)
	id := Detect(ctx, cfg.Dir)
	id.ReadCommit(ctx) // outside git, the commit comes from the files' hashes (TreeCommit)
	id.Repo = cmp.Or(cfg.Repo, id.Repo)
	id.Branch = cmp.Or(cfg.Branch, id.Branch)
	j := job{cfg: cfg, dir: cfg.Dir, id: id, opts: cfg.Options}
	j.opts.Paths = paths
	if j.opts.ParseOnly {
		_, err := j.run(ctx)
		return Result{}, err
	}
	var err error
	if j.store, err = OpenStore(ctx, cfg.Store, id.Root); err != nil {
		return Result{}, err
	}
	start := time.Now()
	if j.base, err = findBase(ctx, cfg, j.store, id); err != nil {
		return Result{}, err
	}
	j.baseRead = time.Since(start)
	return j.run(ctx)
}

// walkAhead starts indexer.WalkStat of dir and returns what waits for it.
func walkAhead(ctx context.Context, dir string) func() (indexer.Walked, error) {
	type walked struct {
		w   indexer.Walked
		err error
	}
	done := make(chan walked, 1)
	go func() {
		abs, err := filepath.Abs(dir)
		if err != nil {
			done <- walked{err: err}
			return
		}
		w, err := indexer.WalkStat(ctx, abs)
		done <- walked{w, err}
	}()
	return sync.OnceValues(func() (indexer.Walked, error) {
		w := <-done
		return w.w, w.err
	})
}

// job is one run of the indexer into a store.
type job struct {
	cfg      Config
	dir      string
	id       Identity // the commit's identity; Commit "" means: from the files
	store    Store
	opts     indexer.Options
	base     base // what the run may reuse
	baseRead time.Duration
}

// run indexes, writes the snapshot and moves the branch's HEAD: in a local
// cache to it whatever it is, in a shared store only forward.
func (j job) run(ctx context.Context) (Result, error) {
	start := time.Now()
	id, opts, log, fault := j.id, j.opts, j.cfg.Log, j.cfg.Fault
	opts.Progress = progress(j.cfg.Progress, j.cfg.ProgressLines, log)
	opts.Base = j.base.rows
	if j.base.rows != nil && j.base.tables.HasEdges() {
		// Edits that leave every declaration as it was resolve only the
		// files they touch; the other edges are the base's.
		opts.BaseEdges = func() ([]schemas.Edge, error) { return j.base.tables.Edges(0) }
	}
	// With a base, all a run holds until its rows are gathered is kept:
	// the base's rows, the files' contents, the few files parsed. The
	// collector stays paused until then, as while the base was read
	// (loadBase); the first collection after frees the base's rows, and
	// the link then allocates into their memory. When many files changed,
	// their parses' garbage waits too: at most what a full run allocates,
	// a third over its peak on GOROOT/src (GOMEMLIMIT still holds).
	// Otherwise, and after, the collector runs at GOGC 200 (unless GOGC
	// says otherwise): what an index allocates is mostly kept to the end,
	// and each collection marks a heap that is mostly live (GOROOT/src,
	// five alternations of an incremental run: 2.51 → 2.33 s, peak RSS
	// 939 → 974 MB; three of a full run: 10.52 → 10.05 s, CPU 20.0 →
	// 19.2 s, peak RSS 1151 → 1233 MB).
	if !j.cfg.KeepGC {
		defer debug.SetGCPercent(debug.SetGCPercent(200))
	}
	resume := func() {}
	if opts.Base != nil {
		resume = pauseGC()
	}
	// Tree-sitter allocates with mimalloc where the machine has it.
	alloc, err := indexer.UseCAllocator()
	if err != nil {
		log.Warn("tree-sitter allocates with the C library's malloc", "err", err)
	}
	defer resume() // a no-op once called
	// With a base, files found as the last run here saw them are not read
	// (indexer.StatCache). Every run leaves what it saw for the next.
	cachePath := statCachePath(j.cfg.StatCache, j.dir)
	if opts.Base != nil && cachePath != "" {
		if known, err := indexer.LoadStatCache(cachePath); err != nil {
			log.Warn("the stat cache cannot be read; reading every file", "err", err)
		} else {
			opts.Known = known
		}
	}
	var closeLoader func()
	defer func() {
		if closeLoader != nil {
			closeLoader()
		}
	}()
	// The tables are written as they become final, while the indexer
	// resolves: files, sources and refs once every file is read, nodes
	// once resolution has made its own, edges at the end.
	var (
		graph    *indexer.Graph // as gathered, and as Index returns it
		w        *snapshot.Writer
		commit   string
		prefix   string
		writeErr error
	)
	if !opts.ParseOnly {
		opts.Gathered = func(g *indexer.Graph) {
			graph = g
			resume()
			commit = id.Commit
			switch {
			case commit == "":
				commit = TreeCommit(g.Files)
			case id.Dirty:
				commit += "-dirty-" + strings.TrimPrefix(TreeCommit(g.Files), "tree-")
			}
			if prefix, writeErr = snapshot.Prefix(id.Repo, id.Branch, commit); writeErr != nil {
				return
			}
			if w, writeErr = snapshot.NewWriter(ctx, j.store, prefix); writeErr != nil {
				return
			}
			var stored atomic.Int32
			w.AfterTable = func(schemas.Table) { fault("index-after-tables=" + strconv.Itoa(int(stored.Add(1)))) }
			w.BeforeManifest = func() { fault("index-before-manifest") }
			w.CopyFrom(j.base.tables)
			w.Files(g.Files)
			if !opts.NoSources {
				sources := g.Sources
				if sources == nil {
					sources = []schemas.Source{}
				}
				if g.Unread != nil {
					var load func(string) ([]byte, error)
					load, closeLoader = sourceLoader(j.dir, g.Files)
					w.SourcesUnread(sources, g.Unread, load)
				} else {
					w.Sources(sources)
				}
			}
			// With a base, most row groups are the base's, known so
			// without hashing them (none are, without one).
			w.RefsFrom(g.Refs, g.RefsFromBase)
		}
		opts.NodesDone = func(nodes []schemas.Node) {
			if w != nil {
				w.NodesFrom(nodes, graph.NodesFromBase)
			}
		}
	}
	g, err := indexer.Index(ctx, j.dir, opts)
	if err != nil {
		if w != nil {
			w.Wait() // the error is Index's; only let no write outlive the run
		}
		return Result{}, err
	}
	if len(g.Files) == 0 {
		log.Warn("no files to index: the folder is empty, or git ignores everything in it", "path", j.dir)
	}
	if opts.ParseOnly {
		log.Info("parsed", "files", g.Stats.FilesParsed, "bytes", g.Stats.SourceBytes, "workers", g.Stats.Workers,
			"allocator", alloc, "duration", time.Since(start).Round(time.Millisecond))
		return Result{}, nil
	}
	if writeErr != nil {
		return Result{}, writeErr
	}
	grammars := make(map[string]string)
	for _, l := range opts.Languages {
		grammars[l.Name()] = l.GrammarVersion()
	}
	manifest := schemas.Manifest{
		Repo: id.Repo, Branch: id.Branch, Commit: commit, Parents: id.Parents, Dirty: id.Dirty, Base: j.base.commit,
		IndexedAt: time.Now().UTC().Truncate(time.Second),
		Indexer:   schemas.Indexer{Name: "snap", Version: j.cfg.Version, GoVersion: runtime.Version(), Args: j.cfg.Args},
		Grammars:  grammars,
		Counts: schemas.Counts{
			Files: len(g.Files), Nodes: len(g.Nodes), Edges: len(g.Edges), Unresolved: g.Stats.Unresolved,
			ParseErrors: g.Stats.ParseErrors, Languages: g.Stats.Languages,
		},
		Build: schemas.Build{
			DurationMS: g.Stats.Duration.Milliseconds(), Workers: g.Stats.Workers,
			FilesParsed: g.Stats.FilesParsed, FilesReused: g.Stats.FilesReused, SourceBytes: g.Stats.SourceBytes,
		},
	}
	writeStart := time.Now()
	w.EdgesFrom(g.Edges, g.EdgesFromBase)
	// Nothing of a snapshot is ever written twice: a commit indexed again
	// to the same tables reuses the stored snapshot, and to other tables
	// (other options, another build) goes under a key of its own.
	pub, err := w.Publish(manifest)
	if err != nil {
		return Result{}, j.store.Err(err)
	}
	wrote := time.Since(writeStart)
	fault("index-after-manifest")
	m := pub.Manifest
	switch {
	case pub.Reused:
		log.Info("the store holds these tables already: nothing written", "snapshot", pub.Prefix)
	case pub.Prefix != prefix:
		log.Info("the commit's key holds another snapshot of it: this one goes under its own", "snapshot", pub.Prefix)
	}
	prefix = pub.Prefix
	// A local cache's HEAD follows whatever was indexed last; a shared
	// store's only moves forward.
	hopts := snapshot.HeadOptions{Force: j.store.Local(), BeforeWrite: func() { fault("index-before-head") }}
	if id.Git {
		hopts.Ancestry = Ancestry(id.Root)
	}
	mv, err := snapshot.MoveHead(ctx, j.store, id.Repo, id.Branch, m, pub.ManifestSHA256, hopts)
	if err != nil {
		return Result{}, j.store.Err(err)
	}
	if !mv.Moved {
		log.Info("HEAD not moved", "reason", mv.Reason, "head", mv.To.Commit)
	}
	if cachePath != "" && g.Seen != nil {
		if err := g.Seen.Save(cachePath); err != nil {
			log.Debug("stat cache not saved", "path", cachePath, "err", err)
		}
	}
	var groups snapshot.RowGroups
	for _, t := range m.Tables {
		n := w.RowGroups(t.Name)
		groups.All, groups.Copied = groups.All+n.All, groups.Copied+n.Copied
	}
	log.Info("indexed", "repo", id.Repo, "branch", id.Branch, "commit", m.Commit,
		"files", len(g.Files), "parsed", g.Stats.FilesParsed, "reused", g.Stats.FilesReused, "unread", g.Stats.FilesUnread, "nodes", len(g.Nodes), "edges", len(g.Edges), "unresolved", g.Stats.Unresolved,
		"parse_errors", g.Stats.ParseErrors, "edges_reused", g.Stats.EdgesReused, "duration", time.Since(start).Round(time.Millisecond),
		"base_read", j.baseRead.Round(time.Millisecond), "parse", g.Stats.Parse.Round(time.Millisecond),
		"gather", g.Stats.Gather.Round(time.Millisecond), "resolve", g.Stats.Link.Round(time.Millisecond), "write", wrote.Round(time.Millisecond),
		"row_groups", groups.All, "row_groups_copied", groups.Copied, "allocator", alloc)
	res := Result{Prefix: prefix, Manifest: m, Head: mv}
	if j.store.Local() {
		res.Folder = filepath.Join(j.store.Dir, filepath.FromSlash(prefix))
	}
	return res, nil
}

// statCachePath returns where the stat cache of the tree at dir is kept
// in the folder cache: under a hash of the tree's absolute path; "" when
// cache is "".
func statCachePath(cache, dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil || cache == "" {
		return ""
	}
	return filepath.Join(cache, "stat", sha256Hex([]byte(abs))[:32])
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// sourceLoader returns what reads, for the writer, the content of a file
// the run did not read (indexer.Options.Known), through a root on the
// tree's folder as the indexer reads, and checks it against the hash the
// files table (files, by path) gives it: a file written since the run
// found it unchanged is an error, and the run must be made again. done
// closes the root.
func sourceLoader(dir string, files []schemas.File) (load func(string) ([]byte, error), done func()) {
	var root *os.Root
	var rootErr error
	var once sync.Once
	load = func(p string) ([]byte, error) {
		once.Do(func() { root, rootErr = os.OpenRoot(dir) })
		if rootErr != nil {
			return nil, rootErr
		}
		i, ok := slices.BinarySearchFunc(files, p, func(f schemas.File, p string) int { return strings.Compare(f.Path, p) })
		if !ok {
			return nil, fmt.Errorf("%s: not a file of the run", p)
		}
		data, err := root.ReadFile(filepath.FromSlash(p))
		if err != nil {
			return nil, err
		}
		if sha256Hex(data) != files[i].SHA256 {
			return nil, fmt.Errorf("%s changed while it was indexed: index again", p)
		}
		return data, nil
	}
	done = func() {
		if root != nil {
			root.Close()
		}
	}
	return load, done
}

// progress returns a progress callback: a bar on w when it is a terminal
// and lines is false (files done, rate, time left), else a log line
// every 10%; nil when w is nil.
func progress(w io.Writer, lines bool, log *slog.Logger) func(done, total int) {
	if w == nil {
		return nil
	}
	f, isFile := w.(*os.File)
	if isFile && !lines && term.IsTerminal(int(f.Fd())) {
		var bar *progressbar.ProgressBar
		var once sync.Once
		return func(done, total int) {
			once.Do(func() {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("indexing"),
					progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("files"),
					progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(),
					progressbar.OptionThrottle(100*time.Millisecond))
			})
			bar.Set(done)
		}
	}
	return func(done, total int) {
		if total >= 10 && done%(total/10) == 0 {
			log.Info("indexing", "files", done, "of", total)
		}
	}
}

// base is the snapshot a run may reuse: its rows, which files need not be
// parsed again, its tables, whose row groups may be copied, and its
// commit, which the manifest records. The zero base is none.
type base struct {
	rows   *indexer.Base
	tables *snapshot.Base
	commit string
}

// findBase reads the snapshot whose rows the run may reuse (cfg.Base,
// else the store's HEAD of the branch; none when cfg.Full). A base that
// this build did not make is not used: its rows could differ from a
// parse.
func findBase(ctx context.Context, cfg Config, st Store, id Identity) (base, error) {
	if cfg.Full {
		return base{}, nil
	}
	var src snapshot.Store
	prefix, label := "", cfg.Base
	if dir := cfg.Base; dir != "" {
		var err error
		if src, err = snapshot.OpenDir(dir); err != nil {
			return base{}, configErrorf("--base %s: %v", dir, err)
		}
	} else {
		head, _, err := snapshot.ReadHead(ctx, st, id.Repo, id.Branch)
		if errors.Is(err, fs.ErrNotExist) {
			return base{}, nil // a first index
		} else if err != nil {
			return base{}, st.Err(err)
		}
		if prefix, err = snapshot.Prefix(id.Repo, id.Branch, head.Commit); err != nil {
			return base{}, err
		}
		src, label = st, prefix
	}
	return loadBase(ctx, cfg, src, prefix, label, cfg.Base != "")
}

// loadBase reads the snapshot at prefix of src as a base. A base that
// cannot be read, that another build made or whose rows mean other
// things (another feature version) is not used (the run parses
// everything and says why); when the user named it (explicit) and it
// cannot be read, that is an error.
func loadBase(ctx context.Context, cfg Config, src snapshot.Store, prefix, label string, explicit bool) (base, error) {
	log := cfg.Log
	m, _, err := snapshot.ReadManifest(ctx, src, prefix)
	if err != nil {
		if explicit {
			return base{}, configErrorf("--base %s: %v", label, err)
		}
		log.Warn("the previous snapshot cannot be read; indexing every file", "base", label, "err", err)
		return base{}, nil
	}
	if m.FormatVersion != schemas.FormatVersion || m.Indexer.Name != "snap" || m.Indexer.Version != cfg.Version {
		log.Info("the previous snapshot was made by another build; indexing every file", "base", label,
			"made_by", m.Indexer.Name+" "+m.Indexer.Version, "format", m.FormatVersion)
		return base{}, nil
	}
	if m.FeatureVersion != schemas.FeatureVersion {
		log.Info("the previous snapshot's rows mean other things (another feature version); indexing every file", "base", label,
			"feature_version", m.FeatureVersion, "want", schemas.FeatureVersion)
		return base{}, nil
	}
	// The base's rows are all kept, as a served snapshot's are: read with
	// the collector running, they would be marked by each collection as
	// the heap doubles (see pauseGC).
	resume := pauseGC()
	s, tables, err := snapshot.ReadBase(ctx, src, prefix, &m)
	resume()
	if err != nil {
		if explicit {
			return base{}, fmt.Errorf("--base %s: %w", label, err)
		}
		log.Warn("the previous snapshot does not verify; indexing every file", "base", label, "err", err)
		return base{}, nil
	}
	rows := &indexer.Base{Files: s.Files, Nodes: s.Nodes, Refs: s.Refs, Grammars: m.Grammars}
	return base{rows: rows, tables: tables, commit: m.Commit}, nil
}

// languageAliases are the short names Languages accepts besides each
// language's own.
var languageAliases = map[string][]string{
	"py": {"python"}, "ts": {"typescript", "tsx"}, "js": {"javascript"}, "golang": {"go"}, "rs": {"rust"}, "kt": {"kotlin"}, "cs": {"csharp"}, "c#": {"csharp"}, "sh": {"bash"}, "shell": {"bash"}, "rb": {"ruby"}, "h": {"c"}, "c++": {"cpp"}, "cxx": {"cpp"}, "cc": {"cpp"}, "sc": {"scala"},
}

// Languages returns the languages names name (a language's own name, or
// a short one: py, ts, golang, c++…, in any case); every one when names
// is empty.
func Languages(names []string) ([]indexer.Language, error) {
	all := languages.All()
	if len(names) == 0 {
		return all, nil
	}
	want := make(map[string]bool)
	var known []string
	for _, l := range all {
		known = append(known, l.Name())
	}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if alias, ok := languageAliases[n]; ok && slices.Contains(known, alias[0]) {
			for _, a := range alias {
				want[a] = true
			}
			continue
		}
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("unknown language %q (have %s)", n, strings.Join(known, ", "))
		}
		want[n] = true
	}
	var out []indexer.Language
	for _, l := range all {
		if want[l.Name()] {
			out = append(out, l)
		}
	}
	return out, nil
}
