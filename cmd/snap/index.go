package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

func indexCommand(log *slog.Logger) *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "index a repository into a snapshot in the store",
		UsageText: "snap index [--store URL] [--full | --base FOLDER] [--languages LANGUAGES] [--exclude GLOB ...] [--quiet] [PATH]",
		ArgsUsage: "[PATH]",
		Description: "Walks PATH (default .), parses every file of a supported language, resolves\n" +
			"calls, imports and inheritance, and writes a verified snapshot into the store\n" +
			"(default: .snap/ at the repository root), then moves the branch's HEAD to it.\n" +
			"The snapshot's folder is printed on stdout.\n\n" +
			"Unless --full, the files unchanged since the branch's HEAD keep its rows, and\n" +
			"those whose stat (size, times, inode) is as the last run here saw it are not\n" +
			"even read: a stat cache per tree in $SNAP_CACHE_DIR (default: snap/ in the\n" +
			"user's cache folder), trusted as git trusts its index.\n\n" +
			"Examples:\n  snap index\n  snap index --store /tmp/graphs $(go env GOROOT)/src",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "store", Usage: "store `URL`: a folder, file:// or s3:// URL (default: .snap/ at the repository root)"},
			&cli.IntFlag{Name: "workers", Usage: "parse workers (default: the number of CPUs)"},
			&cli.Int64Flag{Name: "max-file-size", Value: indexer.DefaultMaxFileSize, Usage: "skip files larger than this many `BYTES`"},
			&cli.DurationFlag{Name: "max-file-time", Value: indexer.DefaultMaxFileTime, Usage: "give up a file that takes longer than this `DURATION` to read and parse (0: no limit)"},
			&cli.BoolFlag{Name: "no-sources", Usage: "leave the sources table out of the snapshot"},
			&cli.StringFlag{Name: "repo", Usage: "file the snapshot under this repository `NAME` (default: from the origin remote)"},
			&cli.StringFlag{Name: "branch", Usage: "file the snapshot under this `BRANCH` (default: the checked-out branch)"},
			&cli.BoolFlag{Name: "parse-only", Usage: "only walk, read and parse (the floor for benchmarks); write nothing"},
			&cli.StringFlag{Name: "base", Usage: "reuse the rows of unchanged files from the snapshot in this `FOLDER` (default: the store's HEAD of the branch)"},
			&cli.BoolFlag{Name: "full", Usage: "parse every file, reusing nothing from an earlier snapshot"},
			&cli.StringSliceFlag{Name: "languages", Usage: "index only these `LANGUAGES` (go, python, …; comma-separated; default: all)"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "leave out paths matching this `GLOB` (doublestar: testdata, **/*_gen.go); repeatable"},
			&cli.BoolFlag{Name: "vendored", Usage: "index vendored folders (vendor/, node_modules/, third_party/) too"},
			&cli.BoolFlag{Name: "no-generated", Usage: "leave out generated files (\"Code generated … DO NOT EDIT\", @generated), indexed by default"},
			&cli.BoolFlag{Name: "generated", Hidden: true, Usage: "index generated files: the default now"},
			&cli.BoolFlag{Name: "minified", Usage: "index minified files (*.min.*, lines over 1,000 bytes) too"},
			&cli.BoolFlag{Name: "derived", Usage: "index build output (a tsconfig's outDir, a package's dist/ with source maps) too"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress output"},
		},
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, 1); err != nil {
				return err
			}
			dir := c.Args().First()
			if dir == "" {
				dir = "."
			}
			if fi, err := os.Stat(dir); err != nil {
				return usagef("cannot index %s: %v", dir, errors.Unwrap(err))
			} else if !fi.IsDir() {
				return usagef("cannot index %s: not a directory (give the repository's folder)", dir)
			}
			if c.Int("workers") < 0 || c.Int64("max-file-size") <= 0 {
				return usagef("--workers must be ≥ 0 and --max-file-size > 0")
			}
			if n := c.Int64("max-file-size"); n > snapshot.MaxValueSize {
				return usagef("--max-file-size %d is over %d (%d MiB): the snapshot would hold a file whose page a reader refuses", n, snapshot.MaxValueSize, snapshot.MaxValueSize>>20)
			}
			if err := indexer.ValidateExclude(c.StringSlice("exclude")); err != nil {
				return usagef("--exclude: %v", err)
			}
			if _, err := chooseLanguages(c.StringSlice("languages")); err != nil {
				return err
			}
			return runIndex(c.Context, log, c, dir)
		},
	}
}

// startProfiles starts a CPU profile of the command when SNAP_CPUPROFILE
// names a file, for the performance work (go tool pprof FILE); stop ends
// and writes it. When SNAP_MEMPROFILE names a file, stop also writes a
// heap profile there (its alloc_space says what the run allocated); when
// SNAP_TRACE does, the command's execution trace goes there (go tool
// trace FILE: which goroutines ran when, and where a core stood idle).
func startProfiles() (stop func(), err error) {
	var stops []func()
	for _, p := range []struct {
		env   string
		start func(io.Writer) error
		stop  func()
	}{
		{"SNAP_CPUPROFILE", pprof.StartCPUProfile, pprof.StopCPUProfile},
		{"SNAP_TRACE", trace.Start, trace.Stop},
	} {
		path := os.Getenv(p.env)
		if path == "" {
			continue
		}
		f, err := os.Create(path)
		if err == nil {
			err = p.start(f)
		}
		if err != nil {
			for _, s := range stops {
				s()
			}
			if f != nil {
				f.Close()
			}
			return nil, fmt.Errorf("%s: %w", p.env, err)
		}
		stops = append(stops, func() { p.stop(); f.Close() })
	}
	mem := os.Getenv("SNAP_MEMPROFILE")
	return func() {
		for _, s := range stops {
			s()
		}
		if mem == "" {
			return
		}
		runtime.GC() // the profile holds what the last collection saw
		if f, err := os.Create(mem); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}, nil
}

func runIndex(ctx context.Context, log *slog.Logger, c *cli.Context, dir string) error {
	stop, err := startProfiles()
	if err != nil {
		return err
	}
	defer stop()
	// The tree is walked while the run finds its identity and reads its
	// base: the walk mostly waits for git, the base read for nothing else.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	paths := walkAhead(ctx, dir)
	id := detect(ctx, dir)
	id.readCommit(ctx) // outside git, the commit comes from the files' hashes (treeCommit)
	if v := c.String("repo"); v != "" {
		id.Repo = v
	}
	if v := c.String("branch"); v != "" {
		id.Branch = v
	}
	langs, err := chooseLanguages(c.StringSlice("languages"))
	if err != nil {
		return err
	}
	job := indexJob{
		dir: dir, id: id, log: log,
		opts: indexer.Options{
			Languages:     langs,
			Exclude:       c.StringSlice("exclude"),
			Vendored:      c.Bool("vendored"),
			SkipGenerated: c.Bool("no-generated"),
			Derived:       c.Bool("derived"),
			Minified:      c.Bool("minified"),
			Workers:       c.Int("workers"),
			MaxFileSize:   c.Int64("max-file-size"),
			MaxFileTime:   cmp.Or(c.Duration("max-file-time"), -1), // 0 on the command line is no limit
			NoSources:     c.Bool("no-sources"),
			ParseOnly:     c.Bool("parse-only"),
			Paths:         paths,
		},
	}
	if !c.Bool("quiet") {
		job.opts.Progress = progress(c.App.ErrWriter, log)
	}
	if !job.opts.ParseOnly {
		if job.store, err = openStore(c.String("store"), id.Root); err != nil {
			return err
		}
		start := time.Now()
		if job.base, err = findBase(ctx, log, c, job.store, id); err != nil {
			return err
		}
		job.baseRead = time.Since(start)
	}
	res, err := job.run(ctx)
	if err != nil || job.opts.ParseOnly {
		return err
	}
	if job.store.local() {
		fmt.Fprintln(c.App.Writer, filepath.Join(job.store.root, filepath.FromSlash(res.prefix)))
	} else {
		fmt.Fprintln(c.App.Writer, res.prefix)
	}
	return nil
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

// indexJob is one run of the indexer into a store.
type indexJob struct {
	dir      string
	id       identity // the commit's identity; Commit "" means: from the files
	store    storeRef
	opts     indexer.Options
	base     base // what the run may reuse
	baseRead time.Duration
	log      *slog.Logger
}

// indexResult is what an indexJob wrote.
type indexResult struct {
	prefix   string
	manifest schemas.Manifest
	head     snapshot.HeadMove
}

// run indexes, writes the snapshot and moves the branch's HEAD: in a local
// cache to it whatever it is, in a shared store only forward.
func (j indexJob) run(ctx context.Context) (indexResult, error) {
	start := time.Now()
	id, opts, log := j.id, j.opts, j.log
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
	if os.Getenv("GOGC") == "" {
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
	cachePath := statCachePath(j.dir)
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
				commit = treeCommit(g.Files)
			case id.Dirty:
				commit += "-dirty-" + strings.TrimPrefix(treeCommit(g.Files), "tree-")
			}
			if prefix, writeErr = snapshot.Prefix(id.Repo, id.Branch, commit); writeErr != nil {
				return
			}
			if w, writeErr = snapshot.NewWriter(ctx, j.store.store, prefix); writeErr != nil {
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
		return indexResult{}, err
	}
	if len(g.Files) == 0 {
		log.Warn("no files to index: the folder is empty, or git ignores everything in it", "path", j.dir)
	}
	if opts.ParseOnly {
		log.Info("parsed", "files", g.Stats.FilesParsed, "bytes", g.Stats.SourceBytes, "workers", g.Stats.Workers,
			"allocator", alloc, "duration", time.Since(start).Round(time.Millisecond))
		return indexResult{}, nil
	}
	if writeErr != nil {
		return indexResult{}, writeErr
	}
	grammars := make(map[string]string)
	for _, l := range opts.Languages {
		grammars[l.Name()] = l.GrammarVersion()
	}
	manifest := schemas.Manifest{
		Repo: id.Repo, Branch: id.Branch, Commit: commit, Parents: id.Parents, Dirty: id.Dirty, Base: j.base.commit,
		IndexedAt: time.Now().UTC().Truncate(time.Second),
		Indexer:   schemas.Indexer{Name: "snap", Version: version(), GoVersion: runtime.Version(), Args: os.Args[1:]},
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
		return indexResult{}, storeError(j.store, err)
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
	hopts := snapshot.HeadOptions{Force: j.store.local(), BeforeWrite: func() { fault("index-before-head") }}
	if id.Git {
		hopts.Ancestry = gitAncestry(id.Root)
	}
	mv, err := snapshot.MoveHead(ctx, j.store.store, id.Repo, id.Branch, m, pub.ManifestSHA256, hopts)
	if err != nil {
		return indexResult{}, storeError(j.store, err)
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
	return indexResult{prefix: prefix, manifest: m, head: mv}, nil
}

// statCachePath returns where the stat cache of the tree at dir is kept:
// in $SNAP_CACHE_DIR, else snap/ in the user's cache folder, under a hash
// of the tree's absolute path; "" when there is no such folder.
func statCachePath(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	cache := os.Getenv("SNAP_CACHE_DIR")
	if cache == "" {
		user, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(user, "snap")
	}
	return filepath.Join(cache, "stat", sha256Hex([]byte(abs))[:32])
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

// progress returns a progress callback: a bar on a terminal (files done,
// rate, time left), a line every 10% elsewhere and whenever $CI is set
// (CI logs keep every line).
func progress(w any, log *slog.Logger) func(done, total int) {
	f, isFile := w.(*os.File)
	if isFile && term.IsTerminal(int(f.Fd())) && os.Getenv("CI") == "" {
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

// findBase reads the snapshot whose rows the run may reuse (--base, else
// the store's HEAD of the branch; none with --full). A base that this
// build did not make is not used: its rows could differ from a parse.
func findBase(ctx context.Context, log *slog.Logger, c *cli.Context, st storeRef, id identity) (base, error) {
	if c.Bool("full") {
		if c.String("base") != "" {
			return base{}, usagef("index: --full and --base exclude each other")
		}
		return base{}, nil
	}
	var src snapshot.Store
	prefix, label := "", c.String("base")
	if dir := c.String("base"); dir != "" {
		var err error
		if src, err = snapshot.OpenDir(dir); err != nil {
			return base{}, usagef("--base %s: %v", dir, err)
		}
	} else {
		head, _, err := snapshot.ReadHead(ctx, st.store, id.Repo, id.Branch)
		if errors.Is(err, fs.ErrNotExist) {
			return base{}, nil // a first index
		} else if err != nil {
			return base{}, storeError(st, err)
		}
		if prefix, err = snapshot.Prefix(id.Repo, id.Branch, head.Commit); err != nil {
			return base{}, err
		}
		src, label = st.store, prefix
	}
	return loadBase(ctx, log, src, prefix, label, c.String("base") != "")
}

// loadBase reads the snapshot at prefix of src as a base. A base that
// cannot be read, or that another build made, is not used (the run parses
// everything and says why); when the user named it (explicit), that is an
// error.
func loadBase(ctx context.Context, log *slog.Logger, src snapshot.Store, prefix, label string, explicit bool) (base, error) {
	m, _, err := snapshot.ReadManifest(ctx, src, prefix)
	if err != nil {
		if explicit {
			return base{}, usagef("--base %s: %v", label, err)
		}
		log.Warn("the previous snapshot cannot be read; indexing every file", "base", label, "err", err)
		return base{}, nil
	}
	if m.FormatVersion != schemas.FormatVersion || m.Indexer.Name != "snap" || m.Indexer.Version != version() {
		log.Info("the previous snapshot was made by another build; indexing every file", "base", label,
			"made_by", m.Indexer.Name+" "+m.Indexer.Version, "format", m.FormatVersion)
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

// languageAliases are the short names --languages accepts besides each
// language's own.
var languageAliases = map[string][]string{
	"py": {"python"}, "ts": {"typescript", "tsx"}, "js": {"javascript"}, "golang": {"go"}, "rs": {"rust"}, "kt": {"kotlin"}, "cs": {"csharp"}, "c#": {"csharp"}, "sh": {"bash"}, "shell": {"bash"}, "rb": {"ruby"}, "h": {"c"}, "c++": {"cpp"}, "cxx": {"cpp"}, "cc": {"cpp"}, "sc": {"scala"},
}

// chooseLanguages returns the languages --languages names; every one when
// it names none.
func chooseLanguages(names []string) ([]indexer.Language, error) {
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
			return nil, usagef("--languages: unknown language %q (have %s)", n, strings.Join(known, ", "))
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
