// Package overlay keeps the answers of a served snapshot right while the
// checkout it was made from changes: it finds the files that differ from
// the snapshot (modified, added, deleted; uncommitted edits included),
// indexes the tree again with the indexer, taking the rows of every
// unchanged file from the served snapshot and resolving everything anew,
// and swaps the merged engine into the Holder like a sync. Resolution
// across the boundary works both ways because it runs over the whole tree:
// an edited file's new calls reach the snapshot's symbols, and callers of
// a removed symbol become unresolved.
//
// The overlay lives in memory only and never writes to a store. While it
// builds, it holds one engine beside the one answering; between builds it
// keeps the snapshot's files table and the refs of the differing files.
package overlay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Config sets up an Overlay.
type Config struct {
	// Dir is the checkout: the folder the snapshot was indexed from.
	Dir    string
	Holder *query.Holder
	// Options are the indexer's options the snapshot was made with
	// (Languages at least); Base and Progress are set by the overlay.
	Options indexer.Options
	// Refs reads the refs table of the snapshot m describes: the one a
	// sync or the first load stored in Holder. The overlay reads it for
	// each build and drops it after.
	Refs func(ctx context.Context, m *schemas.Manifest) ([]schemas.Ref, error)
	// IndexerVersion is this build's indexer version: the snapshot's rows
	// are reused only when it made them. "" reuses them whatever made them.
	IndexerVersion string
	// Debounce is how long Watch waits after the last change before it
	// checks (default 300 ms).
	Debounce time.Duration
	Logger   *slog.Logger
}

// Status is what the last check found.
type Status struct {
	Head          string // the checkout's HEAD; "" outside git
	CommitsBehind int    // commits of HEAD the snapshot's commit lacks; -1 unknown
	CommitsAhead  int    // commits of the snapshot's commit HEAD lacks; -1 unknown
	// Differing counts the files that differ from the snapshot.
	Differing int
	LastCheck time.Time
	Took      time.Duration // the last check, with its build and swap
	LastError string
	Builds    int // overlays built since start
	Watching  bool
}

// Overlay checks a checkout against the snapshot a Holder serves and
// serves the merged engine. Its methods are safe for concurrent use;
// checks run one at a time.
type Overlay struct {
	cfg Config
	log *slog.Logger

	run sync.Mutex // one check at a time; guards what follows up to mu
	// served is the engine the last build stored, if it is still served.
	served *query.Engine
	// base is the snapshot beneath: the last engine stored by someone
	// else, known by its fingerprint.
	baseFP    string
	baseM     schemas.Manifest
	baseFiles map[string]schemas.File
	// extraRefs are the refs of the files the served overlay indexed
	// from the checkout (the snapshot's refs table has the old ones).
	extraRefs  []schemas.Ref
	extraFiles map[string]bool
	hashes     map[string]hashed // stat cache of the checkout's files
	dirs       []string          // folders holding the walked files
	git        gitState

	seen atomic.Pointer[query.Engine] // what the Holder held after the last check

	mu     sync.Mutex // guards status
	status Status
}

type hashed struct {
	size  int64
	mtime time.Time
	sha   string
}

// gitState caches the commit distance for one pair of commits.
type gitState struct {
	base, head    string
	behind, ahead int
}

// New returns an Overlay; nothing runs until Check or Watch.
func New(cfg Config) *Overlay {
	if cfg.Debounce <= 0 {
		cfg.Debounce = 300 * time.Millisecond
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Overlay{cfg: cfg, log: log, hashes: map[string]hashed{}, status: Status{CommitsBehind: -1, CommitsAhead: -1}}
}

// Status reports the last check.
func (o *Overlay) Status() Status {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.status
}

// errRaced reports that the Holder changed while an overlay was built.
var errRaced = errors.New("the served snapshot changed during the build")

// Check compares the checkout with the snapshot served and, when they
// differ otherwise than the overlay served says, builds the overlay and
// swaps it in. Without an engine in the Holder it does nothing.
func (o *Overlay) Check(ctx context.Context) error {
	o.run.Lock()
	defer o.run.Unlock()
	start := time.Now()
	err := o.check(ctx)
	if errors.Is(err, errRaced) { // a sync swapped a snapshot in: once more, over it
		err = o.check(ctx)
	}
	o.seen.Store(o.cfg.Holder.Load())
	o.mu.Lock()
	o.status.LastCheck, o.status.Took = time.Now().UTC(), time.Since(start)
	o.status.LastError = ""
	if err != nil {
		o.status.LastError = err.Error()
	}
	o.mu.Unlock()
	if err != nil {
		o.log.Warn("overlay: check failed; serving what was served", "err", err)
	}
	return err
}

func (o *Overlay) check(ctx context.Context) error {
	cur := o.cfg.Holder.Load()
	if cur == nil {
		return nil
	}
	if cur != o.served && cur.Fingerprint() != o.baseFP {
		o.setBase(cur)
	}
	o.distance(ctx)
	if isHex(o.git.base) && (o.git.head == "" || o.git.behind < 0) {
		// The snapshot is of a git commit the checkout's history does not
		// hold (or the checkout has no commit): another line of work, or
		// an unrelated clone, whose files say nothing about what the
		// snapshot lacks.
		return fmt.Errorf("the snapshot's commit %.12s is not in this checkout's history: no overlay (git fetch, or snap index here)", o.git.base)
	}
	return o.update(ctx, cur)
}

// update compares the checkout with the snapshot beneath cur, the engine
// served, and builds the overlay unless cur already answers for the
// checkout.
func (o *Overlay) update(ctx context.Context, cur *query.Engine) error {
	paths, err := indexer.Walk(ctx, o.cfg.Dir)
	if err != nil {
		return err
	}
	if len(o.cfg.Options.Exclude) > 0 {
		paths = slices.DeleteFunc(paths, func(p string) bool { return indexer.Excluded(o.cfg.Options.Exclude, p) })
	}
	o.dirs = folders(paths)
	// Read as the indexer reads, through a root on the checkout: a link
	// leading out of it is unreadable here too.
	root, err := os.OpenRoot(o.cfg.Dir)
	if err != nil {
		return err
	}
	defer root.Close()
	sig, n := o.compare(root, paths)
	o.mu.Lock()
	o.status.Differing = n
	o.mu.Unlock()
	switch {
	case cur == o.served && sig == servedSig(cur):
		return nil // the overlay served is the checkout
	case cur != o.served && n == 0:
		return nil // the snapshot served is the checkout
	}
	return o.build(ctx, cur)
}

// Worktree returns the engine of the checkout cfg.Dir as it is now,
// built once as Check builds the overlay over base: base itself when no
// file differs from it, else an engine whose Overlay lists the files that
// differ. cfg.Holder is not used, nothing is watched and nothing is
// written. Unlike Check it does not ask whether the checkout's history
// holds base's commit: the snapshot's rows are reused by content only,
// so the engine is the tree's whatever commit base was made from.
func Worktree(ctx context.Context, cfg Config, base *query.Engine) (*query.Engine, error) {
	cfg.Holder = &query.Holder{}
	cfg.Holder.Store(base)
	o := New(cfg)
	o.run.Lock()
	defer o.run.Unlock()
	o.setBase(base)
	if err := o.update(ctx, base); err != nil {
		return nil, err
	}
	return cfg.Holder.Load(), nil
}

// setBase takes e, which someone else stored, as the snapshot beneath.
func (o *Overlay) setBase(e *query.Engine) {
	o.baseFP, o.baseM = e.Fingerprint(), *e.Manifest()
	o.baseFiles = make(map[string]schemas.File, len(e.Files()))
	for _, f := range e.Files() {
		o.baseFiles[f.Path] = f
	}
	o.served, o.extraRefs, o.extraFiles = nil, nil, nil
	if e.Overlay() != nil {
		o.log.Warn("overlay: the snapshot stored is itself an overlay")
	}
}

// servedSig is the signature of the differences an engine serves: its
// commit's suffix, or "" for a snapshot.
func servedSig(e *query.Engine) string {
	if _, sig, ok := strings.Cut(e.Commit(), commitMark); ok && e.Overlay() != nil {
		return sig
	}
	return ""
}

// commitMark separates the snapshot's commit from the digest of the
// differences in an overlay's commit.
const commitMark = "+overlay-"

// compare hashes the walked files (those whose size and modification time
// changed since the last check) and returns a digest of how they differ
// from the snapshot's files, "" when they do not, and how many differ.
func (o *Overlay) compare(root *os.Root, paths []string) (string, int) {
	h := sha256.New()
	n := 0
	seen := make(map[string]bool, len(paths))
	next := make(map[string]hashed, len(paths))
	for _, p := range paths {
		seen[p] = true
		full := filepath.FromSlash(p)
		fi, err := root.Stat(full)
		cur := hashed{}
		// Only a regular file is hashed: opening a FIFO would block.
		if err == nil && fi.Mode().IsRegular() {
			cur = hashed{size: fi.Size(), mtime: fi.ModTime()}
			if old, ok := o.hashes[p]; ok && old.size == cur.size && old.mtime.Equal(cur.mtime) {
				cur.sha = old.sha
			} else if cur.sha, err = indexer.HashFile(root, full); err != nil {
				cur.sha = ""
			}
			next[p] = cur
		}
		b, ok := o.baseFiles[p]
		switch {
		case !ok:
		case b.SHA256 == "": // not read by the indexer (vendored, unreadable): by size
			if b.Size == cur.size {
				continue
			}
		case b.SHA256 == cur.sha:
			continue
		}
		n++
		fmt.Fprintf(h, "%s\x00%s\x00", p, cur.sha)
	}
	o.hashes = next
	var gone []string
	for p := range o.baseFiles {
		if !seen[p] {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	for _, p := range gone {
		n++
		fmt.Fprintf(h, "%s\x00-\x00", p)
	}
	if n == 0 {
		return "", 0
	}
	return hex.EncodeToString(h.Sum(nil))[:16], n
}

// build indexes the checkout with the snapshot as base, and swaps the
// merged engine in if cur is still served.
func (o *Overlay) build(ctx context.Context, cur *query.Engine) error {
	start := time.Now()
	opts := o.cfg.Options
	opts.Progress, opts.NoSources = nil, opts.NoSources || !cur.HasSources()
	// The snapshot's rows are a base only when made the way this build
	// makes them; else the checkout is indexed whole.
	if o.cfg.IndexerVersion == "" || o.baseM.Indexer.Name == "snap" && o.baseM.Indexer.Version == o.cfg.IndexerVersion &&
		o.baseM.FeatureVersion == schemas.FeatureVersion {
		refs, err := o.cfg.Refs(ctx, &o.baseM)
		if err != nil {
			return fmt.Errorf("read the snapshot's refs: %w", err)
		}
		if len(o.extraFiles) > 0 {
			refs = slices.DeleteFunc(refs, func(r schemas.Ref) bool { return o.extraFiles[r.File] })
			refs = append(refs, o.extraRefs...)
		}
		opts.Base = &indexer.Base{Files: cur.Files(), Nodes: cur.Nodes(), Refs: refs, Grammars: o.baseM.Grammars}
	}
	g, err := indexer.Index(ctx, o.cfg.Dir, opts)
	if err != nil {
		return err
	}
	opts.Base = nil // the refs read are garbage from here
	// What differs is what the indexer read, which may be newer than
	// what compare saw.
	ov := query.Overlay{Base: o.baseM.Commit, BuiltAt: start.UTC()}
	h := sha256.New()
	seen := make(map[string]bool, len(g.Files))
	extra := map[string]bool{}
	for _, f := range g.Files {
		seen[f.Path] = true
		b, ok := o.baseFiles[f.Path]
		switch {
		case !ok:
			ov.Added = append(ov.Added, f.Path)
		case b.SHA256 == f.SHA256 && b.Size == f.Size:
			continue
		default:
			ov.Modified = append(ov.Modified, f.Path)
		}
		extra[f.Path] = true
		sha := f.SHA256
		if c, ok := o.hashes[f.Path]; ok { // what compare writes for a file the indexer does not hash
			sha = c.sha
		}
		fmt.Fprintf(h, "%s\x00%s\x00", f.Path, sha)
	}
	for p := range o.baseFiles {
		if !seen[p] {
			ov.Deleted = append(ov.Deleted, p)
		}
	}
	slices.Sort(ov.Deleted)
	for _, p := range ov.Deleted {
		fmt.Fprintf(h, "%s\x00-\x00", p)
	}
	var extraRefs []schemas.Ref
	for _, r := range g.Refs {
		if extra[r.File] {
			extraRefs = append(extraRefs, r)
		}
	}
	s := &snapshot.Snapshot{Manifest: o.baseM, Nodes: g.Nodes, Edges: g.Edges, Files: g.Files}
	if !opts.NoSources {
		s.Sources = g.Sources
	}
	differ := len(ov.Added)+len(ov.Modified)+len(ov.Deleted) > 0
	var e *query.Engine
	if !differ {
		// Back to the snapshot: the same rows under its own manifest.
		e, err = query.Build(s)
	} else {
		sig := hex.EncodeToString(h.Sum(nil))[:16]
		m := &s.Manifest
		m.Commit, m.Base, m.Dirty, m.IndexedAt = o.baseM.Commit+commitMark+sig, o.baseM.Commit, true, ov.BuiltAt.Truncate(time.Second)
		m.Tables = nil // the overlay's rows are in no file
		m.Counts = schemas.Counts{Files: len(g.Files), Nodes: len(g.Nodes), Edges: len(g.Edges), Unresolved: g.Stats.Unresolved,
			ParseErrors: g.Stats.ParseErrors, Languages: g.Stats.Languages}
		m.Build = schemas.Build{DurationMS: g.Stats.Duration.Milliseconds(), Workers: g.Stats.Workers,
			FilesParsed: g.Stats.FilesParsed, FilesReused: g.Stats.FilesReused, SourceBytes: g.Stats.SourceBytes}
		e, err = query.BuildWith(s, query.BuildOptions{Overlay: &ov})
	}
	if err != nil {
		return fmt.Errorf("build the overlay's engine: %w", err)
	}
	if !o.cfg.Holder.CompareAndSwap(cur, e) {
		return errRaced
	}
	o.served, o.extraRefs, o.extraFiles = e, extraRefs, extra
	if !differ {
		o.served, o.extraRefs, o.extraFiles = nil, nil, nil
		o.baseFP = e.Fingerprint()
	}
	o.mu.Lock()
	o.status.Builds++
	o.status.Differing = len(ov.Added) + len(ov.Modified) + len(ov.Deleted)
	o.mu.Unlock()
	o.log.Info("overlay", "commit", e.Commit(), "modified", len(ov.Modified), "added", len(ov.Added), "deleted", len(ov.Deleted),
		"parsed", g.Stats.FilesParsed, "reused", g.Stats.FilesReused, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// distance records the checkout's HEAD and how many commits lie between
// it and the snapshot's commit.
func (o *Overlay) distance(ctx context.Context) {
	head, err := git(ctx, o.cfg.Dir, "rev-parse", "HEAD")
	base := snapshot.GitCommit(o.baseM.Commit)
	g := gitState{base: base, head: head, behind: -1, ahead: -1}
	switch {
	case err != nil || head == "":
		g.head = ""
	case g.base == o.git.base && g.head == o.git.head:
		g = o.git
	case isHex(base):
		if out, err := git(ctx, o.cfg.Dir, "rev-list", "--left-right", "--count", base+"..."+head); err == nil {
			if l, r, ok := strings.Cut(out, "\t"); ok {
				g.ahead, _ = strconv.Atoi(l)
				g.behind, _ = strconv.Atoi(r)
			}
		}
	}
	o.git = g
	o.mu.Lock()
	o.status.Head, o.status.CommitsBehind, o.status.CommitsAhead = g.head, g.behind, g.ahead
	o.mu.Unlock()
}

func isHex(s string) bool {
	if len(s) < 7 {
		return false
	}
	_, err := hex.DecodeString(s[:len(s)&^1])
	return err == nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// folders returns the folders holding paths and their parents, "." for
// the root, sorted.
func folders(paths []string) []string {
	set := map[string]bool{".": true}
	for _, p := range paths {
		for d := path.Dir(p); d != "." && !set[d]; d = path.Dir(d) {
			set[d] = true
		}
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}
