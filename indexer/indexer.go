// Package indexer turns a directory into the rows of a snapshot: it walks
// the files, hashes them, parses the ones a Language claims in parallel
// (one parser per worker), extracts symbols and raw references, and
// resolves the references of all files in one global pass.
//
// A file that cannot be read or parsed is recorded in the files table with
// its status and error; the run goes on.
package indexer

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
)

// DefaultMaxFileSize is the size above which a file is recorded as
// skipped_large and not parsed.
const DefaultMaxFileSize = 1 << 20

// DefaultMaxFileTime is how long one file may take before it is given up
// and recorded as skipped_timeout (see Options.MaxFileTime): a file of
// ordinary code takes milliseconds.
const DefaultMaxFileTime = 2 * time.Second

// Options control one run.
type Options struct {
	Languages   []Language
	Workers     int   // parse workers; 0 means GOMAXPROCS
	MaxFileSize int64 // 0 means DefaultMaxFileSize
	NoSources   bool  // leave the sources table empty
	// MaxFileTime is how long one file may take to be read, hashed,
	// parsed and extracted: a file that takes longer is given up, within
	// milliseconds of its time, and recorded as skipped_timeout. 0 means
	// DefaultMaxFileTime; a negative duration, no limit. Some input takes
	// tree-sitter minutes (a grammar's error recovery going round over a
	// megabyte of another language's code), or an extractor (a terabyte
	// to hash, sparse), and one such file must not hold up the run. The
	// limit is a clock's, so a file near it may be given up on one machine
	// and not on another: only such a file makes a snapshot differ from
	// another of the same tree.
	MaxFileTime time.Duration
	// ParseOnly walks, reads and parses with the languages' grammars, and
	// does nothing else: the floor the full run is measured against.
	ParseOnly bool
	// Progress, if set, is called after each file with the number of files
	// done and the total. It is called from several goroutines.
	Progress func(done, total int)
	// Base, if set, is an earlier snapshot of the tree: files whose content
	// has not changed take their rows from it instead of being parsed.
	// Index empties *Base once every file's rows are gathered: a base is as
	// large as the tables, and kept through the link it would be marked by
	// every collection there and held at the peak. Its nodes and refs
	// become the graph's: Index lays the run's over them, in place, when
	// they have the room (see spliceRefs).
	Base *Base
	// Known, if set with a Base, is what an earlier run saw of the files
	// (see StatCache): a file whose stat is as it was then, and whose
	// content the base holds the rows of, is not read. Its source row is
	// then left empty, and Graph.Unread says so.
	Known *StatCache
	// Paths, if set, returns the tree's files as WalkStat lists them, from
	// a walk started beside other work (reading the base); otherwise Index
	// walks the tree itself. A file unread (Known) takes its stat from
	// there, when a regular file's.
	Paths func() (Walked, error)
	// Exclude leaves out the paths matching these globs, and the paths
	// under folders matching them (see ValidateExclude).
	Exclude []string
	// Vendored and Minified index the files that are otherwise recorded
	// as skipped_vendored and skipped_minified (see skip.go).
	Vendored, Minified bool
	// Derived indexes build output (see derived.go), otherwise recorded
	// as skipped_derived.
	Derived bool
	// SkipGenerated leaves generated files out, recorded as
	// skipped_generated. By default they are indexed, marked is_generated:
	// they are code the project calls (protobuf messages, client sets,
	// bundled packages), and answers rank them below written code.
	SkipGenerated bool
	// Gathered, if set, is called once the graph's files, sources and
	// refs are final, before resolution; NodesDone once its nodes are,
	// before the edges are filled and sorted. Index changes those rows no
	// more, so a writer may encode them while Index goes on.
	Gathered  func(g *Graph)
	NodesDone func(nodes []schemas.Node)
	// BaseEdges, if set with a Base, returns the base's edges, in table
	// order (a capacity above their length saves a copy). When every file
	// the run parsed is of a FilesResolver language and declares what it
	// declared in the base (nothing added or removed), only those files'
	// references are resolved, and every other edge is the base's: see
	// Graph.EdgesFromBase.
	BaseEdges func() ([]schemas.Edge, error)
}

// Graph is the result of a run: the rows of every table, sorted as
// FORMAT.md prescribes, and what it cost.
type Graph struct {
	Nodes   []schemas.Node
	Edges   []schemas.Edge
	Files   []schemas.File
	Sources []schemas.Source
	Refs    []schemas.Ref
	Stats   Stats
	// Unread, when not nil, says by row of Sources which files the run
	// did not read (Options.Known): their Content is not set, and is the
	// base's. Seen is what the run saw of the files, for the next run's
	// Options.Known.
	Unread []bool
	Seen   *StatCache
	// refSpans and edgeSpans are the runs of Refs and Edges that are the
	// base's (RefsFromBase, EdgesFromBase).
	refSpans, edgeSpans []span
	// nodeScope, when the nodes are the base's row for row, holds the
	// files whose nodes alone may differ (NodesFromBase).
	nodeScope map[string]bool
}

// Stats describe a run.
type Stats struct {
	Duration    time.Duration
	Workers     int
	FilesParsed int
	FilesReused int
	FilesUnread int // files not read (Options.Known): most of those reused, and others
	SourceBytes int64
	ParseErrors int
	Unresolved  int
	Languages   map[string]int // files per language
	// EdgesReused are the edges taken from the base (Options.BaseEdges),
	// whose files' references were not resolved again.
	EdgesReused int
	// Where the time went: walking and parsing, gathering the rows, and
	// resolving and sorting.
	Parse, Gather, Link time.Duration
}

// fileResult is what a worker produced for one path.
type fileResult struct {
	file   schemas.File
	src    []byte // kept only for indexed files
	lang   Language
	result *Result
	reused bool // result holds the base's rows, not a parse
	// baseNodes are the rows in the base's nodes of the file's nodes when
	// reused (result.Nodes is then empty).
	baseNodes []int32
	unread    bool        // reused without reading the file: src is nil
	stat      fs.FileInfo // the file's stat before it was read, or when unread
}

// Index indexes the directory root.
func Index(ctx context.Context, root string, opts Options) (*Graph, error) {
	start := time.Now()
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	walk := opts.Paths
	if walk == nil {
		walk = func() (Walked, error) { return WalkStat(ctx, abs) }
	}
	walked, err := walk()
	if err != nil {
		return nil, err
	}
	if err := ValidateExclude(opts.Exclude); err != nil {
		return nil, err
	}
	paths, info := walked.Paths, walked.Info
	if len(info) != len(paths) {
		info = nil
	}
	if len(opts.Exclude) > 0 {
		n := 0
		for i, p := range paths {
			if !Excluded(opts.Exclude, p) {
				paths[n] = p
				if info != nil {
					info[n] = info[i]
				}
				n++
			}
		}
		paths = paths[:n]
		if info != nil {
			info = info[:n]
		}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	maxSize := opts.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	// Every read goes through a root on the folder: a symbolic link in
	// the tree that leads out of it (to a secret of the CI runner, say)
	// is refused, not followed into the snapshot.
	fsRoot, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	defer fsRoot.Close()
	tree := &Tree{
		Root:  abs,
		Paths: make(map[string]bool, len(paths)),
		ReadFile: func(name string) ([]byte, error) {
			return readRegular(fsRoot, filepath.FromSlash(name))
		},
	}
	for _, p := range paths {
		tree.Paths[p] = true
	}
	var ru *reuse
	if !opts.ParseOnly {
		ru = newReuse(opts.Base, tree.ReadFile, paths, opts.Languages)
	}
	built := &buildOutput{read: smallReader(fsRoot)}
	if !opts.Derived {
		built.folders = derivedFolders(built.read, paths)
	}

	results := make([]fileResult, len(paths))
	var next, done atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for range workers {
		g.Go(func() error {
			extractors := make(map[Language]Extractor)
			files := &folderFiles{root: fsRoot}
			defer func() {
				for _, x := range extractors {
					x.Close()
				}
				files.close()
			}()
			if opts.ParseOnly {
				for _, l := range opts.Languages {
					x, err := newParseOnly(l)
					if err != nil {
						return err
					}
					extractors[l] = x
				}
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				var seen fs.FileInfo
				if info != nil {
					seen = info[i]
				}
				r, err := indexFile(gctx, files, tree, paths[i], seen, &opts, maxSize, extractors, ru, built)
				if err != nil {
					return err
				}
				results[i] = r
				if opts.Progress != nil {
					opts.Progress(int(done.Add(1)), len(paths))
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}

	parsed := time.Now()
	// The tables are sized first and filled once: their rows are large,
	// and growing them by appending copied each several times.
	var nodes, refs, sources int
	refsPerLang := make(map[Language]int)
	for i := range results {
		if r := &results[i]; r.result != nil {
			nodes += 1 + len(r.result.Nodes) + len(r.baseNodes)
			refs += len(r.result.Refs)
			refsPerLang[r.lang] += len(r.result.Refs)
			sources++
		}
	}
	if opts.NoSources {
		sources = 0
	}
	out := &Graph{
		Stats:   Stats{Workers: workers, Languages: make(map[string]int)},
		Files:   make([]schemas.File, 0, len(results)),
		Sources: make([]schemas.Source, 0, sources),
	}
	// With a base, the refs go over the base's own, in place (spliceRefs):
	// most are there already, and a copy of them all was the largest
	// allocation of an incremental run (90 MB on GOROOT/src).
	splice := ru != nil && refs <= cap(ru.base.Refs)
	if !splice {
		out.Refs = make([]schemas.Ref, 0, refs)
	}
	// Most trees have refs in one language: its refs are then all of
	// them, shared with the table rather than copied (Resolve only reads
	// them). Of several, the one with the most gets the table too when
	// its resolver skips the others' (AllRefsResolver); the rest, copies.
	shared := sharedRefs(refsPerLang)
	refsByLang := make(map[Language][]schemas.Ref, len(refsPerLang))
	for l, n := range refsPerLang {
		if l != shared && n > 0 {
			refsByLang[l] = make([]schemas.Ref, 0, n)
		}
	}
	// The base's nodes are in id order: those reused go first, in that
	// order, and link sorts only the others before merging them in. They
	// are copied beside the rest of the rows (a copy of every row of the
	// tree: on GOROOT/src 79 MB of nodes there, 90 MB of refs here), and
	// the stat cache is filled beside both.
	sorted := 0
	var keep []bool
	if ru != nil {
		keep = make([]bool, len(ru.base.Nodes))
		for i := range results {
			for _, row := range results[i].baseNodes {
				if !keep[row] {
					keep[row] = true
					sorted++
				}
			}
		}
	}
	// What only the files parsed need resolved (Options.BaseEdges), and
	// the base's node ids, which the graph's must be for the base's edges
	// to hold: before the nodes go over the base's.
	var ed *edits
	if ru != nil && opts.BaseEdges != nil {
		if scope, ok := editScope(ru, results); ok {
			ed = &edits{scope: scope, baseEdges: opts.BaseEdges, baseIDs: make([]uint64, len(ru.base.Nodes))}
			for i := range ru.base.Nodes {
				ed.baseIDs[i] = ru.base.Nodes[i].ID
			}
		}
	}
	// The nodes, with room for a node per file more: what the resolvers
	// make (a Go package per folder) is then merged in place (mergeNodes).
	var wg sync.WaitGroup
	switch need := nodes + len(results); {
	case ru != nil && need <= cap(ru.base.Nodes):
		// The nodes kept move down over the base's, in place: a copy of
		// them all was as large as the refs' (78 MB on GOROOT/src). The
		// rest of the rows then follow them there.
		keepNodes(ru.base.Nodes, ru.base.Nodes, keep)
		out.Nodes = ru.base.Nodes[:sorted:need]
	case ru != nil:
		out.Nodes = make([]schemas.Node, sorted, need)
		wg.Go(func() { keepNodes(out.Nodes, ru.base.Nodes, keep) })
	default:
		out.Nodes = make([]schemas.Node, 0, need)
	}
	if !opts.ParseOnly {
		out.Seen = NewStatCache(start)
		wg.Go(func() {
			for i := range results {
				if r := &results[i]; r.stat != nil && r.file.SHA256 != "" {
					out.Seen.add(r.file.Path, r.stat, r.file.SHA256)
				}
			}
		})
	}
	rest := out.Nodes[sorted:sorted:cap(out.Nodes)] // room for them all: no append moves it
	for i := range results {
		r := &results[i]
		out.Files = append(out.Files, r.file)
		if r.unread {
			out.Stats.FilesUnread++
		}
		if r.file.Status == schemas.StatusParseError {
			out.Stats.ParseErrors++ // with rows, or none (given up)
		}
		if r.result == nil {
			continue
		}
		if r.reused {
			out.Stats.FilesReused++
		} else {
			out.Stats.FilesParsed++
		}
		out.Stats.SourceBytes += r.file.Size
		out.Stats.Languages[r.lang.Name()]++
		rest = append(rest, fileNode(r.file))
		rest = append(rest, r.result.Nodes...)
		if r.lang != shared {
			refsByLang[r.lang] = append(refsByLang[r.lang], r.result.Refs...)
		}
		if !splice {
			out.Refs = append(out.Refs, r.result.Refs...) // in table order: paths are sorted, each file's refs too
		}
		if !opts.NoSources {
			if r.unread && out.Unread == nil {
				out.Unread = make([]bool, len(out.Sources), sources)
			}
			if out.Unread != nil {
				out.Unread = append(out.Unread, r.unread)
			}
			out.Sources = append(out.Sources, schemas.Source{Path: r.file.Path, Content: r.src})
		}
	}
	wg.Wait()
	if len(rest) > cap(out.Nodes)-sorted {
		return nil, fmt.Errorf("index %s: %d nodes gathered past the %d counted", root, sorted+len(rest), cap(out.Nodes))
	}
	out.Nodes = out.Nodes[:sorted+len(rest)]
	if ru != nil {
		spans, ok := refSpans(ru, results)
		switch {
		case ok && splice:
			out.Refs = spliceRefs(ru, results, spans, refs)
		case splice:
			out.Refs = make([]schemas.Ref, 0, refs)
			for i := range results {
				if r := &results[i]; r.result != nil {
					out.Refs = append(out.Refs, r.result.Refs...)
				}
			}
		}
		if ok {
			out.refSpans = spans
		}
	}
	if shared != nil {
		refsByLang[shared] = out.Refs
	}
	if opts.Base != nil {
		*opts.Base = Base{}
	}
	gathered := time.Now()
	if !slices.IsSortedFunc(out.Refs, compareRefs) {
		return nil, fmt.Errorf("index %s: refs out of table order", root) // indexFile sorts each file's
	}
	if opts.Gathered != nil {
		opts.Gathered(out)
	}
	if err := link(out, sorted, opts.Languages, refsByLang, opts.NodesDone, ed); err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	out.Stats.Duration = time.Since(start)
	out.Stats.Parse, out.Stats.Gather, out.Stats.Link = parsed.Sub(start), gathered.Sub(parsed), time.Since(gathered)
	return out, nil
}

// span says that rows [to, to+n) of a table are rows [from, from+n) of
// the base's.
type span struct{ from, to, n int }

// refSpans returns where the refs of the reused files of results, laid out
// in order, come from in the base's refs: one span for each run of files
// that moved together. It reports false when the base's runs are not in
// the results' order (never: both are by path).
func refSpans(ru *reuse, results []fileResult) ([]span, bool) {
	var spans []span
	at := 0
	for i := range results {
		r := &results[i]
		if r.result == nil {
			continue
		}
		if k := len(r.result.Refs); r.reused && k > 0 {
			from := ru.refs[r.file.Path][0]
			switch l := len(spans); {
			case l > 0 && from < spans[l-1].from+spans[l-1].n:
				return nil, false
			case l > 0 && from == spans[l-1].from+spans[l-1].n && at == spans[l-1].to+spans[l-1].n:
				spans[l-1].n += k
			default:
				spans = append(spans, span{from, at, k})
			}
		}
		at += len(r.result.Refs)
	}
	return spans, true
}

// spliceRefs lays the refs of results out in order over the base's refs,
// whose runs the reused files' results are (reuse.result, refSpans), and
// returns them: n rows, n no more than the base's capacity. The base's
// runs keep their order, each moving by the refs added or dropped before
// it: those moving down move first, in order, then those moving up, in
// reverse order, so that none is overwritten before it has moved. The
// parsed files' refs, in memory of their own, then fill the rows left to
// them. Only the rows that move are copied, into memory already touched.
func spliceRefs(ru *reuse, results []fileResult, spans []span, n int) []schemas.Ref {
	all := ru.base.Refs[:max(n, len(ru.base.Refs))]
	for _, m := range spans {
		if m.to < m.from {
			copy(all[m.to:m.to+m.n], all[m.from:m.from+m.n])
		}
	}
	for i := len(spans) - 1; i >= 0; i-- {
		if m := spans[i]; m.to > m.from {
			copy(all[m.to:m.to+m.n], all[m.from:m.from+m.n])
		}
	}
	at := 0
	for i := range results {
		r := &results[i]
		if r.result == nil {
			continue
		}
		if !r.reused {
			copy(all[at:], r.result.Refs)
		}
		at += len(r.result.Refs)
	}
	return all[:n]
}

// RefsFromBase reports whether rows [lo, hi) of g.Refs are rows [from,
// from+hi-lo) of the refs of the run's base (Options.Base), unchanged.
func (g *Graph) RefsFromBase(lo, hi int) (from int, ok bool) { return fromSpans(g.refSpans, lo, hi) }

// NodesFromBase is RefsFromBase for g.Nodes, known once they are final
// (Options.NodesDone). In a run that resolved only the files it parsed,
// the nodes have the base's ids, row for row, and every node of another
// file is the base's: its row was, or is made from rows that were (a
// file's own row, the package clauses of a folder), and the parents
// resolution gives it follow from declarations that did not change.
func (g *Graph) NodesFromBase(lo, hi int) (from int, ok bool) {
	if g.nodeScope == nil || lo >= hi || hi > len(g.Nodes) {
		return 0, false
	}
	for i := lo; i < hi; i++ {
		if g.nodeScope[g.Nodes[i].File] {
			return 0, false
		}
	}
	return lo, true
}

// fromSpans reports the base's row of rows [lo, hi) when one of spans
// holds them all.
func fromSpans(spans []span, lo, hi int) (int, bool) {
	i, found := slices.BinarySearchFunc(spans, lo, func(s span, row int) int { return cmp.Compare(s.to, row) })
	if !found {
		i-- // the span before lo's, which may hold it
	}
	if i < 0 || lo >= hi {
		return 0, false
	}
	if s := spans[i]; lo >= s.to && hi <= s.to+s.n {
		return s.from + lo - s.to, true
	}
	return 0, false
}

// link runs every language's resolver, adds contains edges, sorts the
// nodes and edges and fills the row numbers of edge endpoints. The first
// sorted nodes may be in id order already (a base's, see Index): then
// only the others are sorted, and merged in. The refs come in table order
// already (see Index). nodesDone, if not nil, is given the nodes once they
// are final.
func link(g *Graph, sorted int, langs []Language, refsByLang map[Language][]schemas.Ref, nodesDone func([]schemas.Node), ed *edits) error {
	if sorted > 0 && slices.IsSortedFunc(g.Nodes[:sorted], func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) }) {
		rest := slices.Clone(g.Nodes[sorted:])
		sortNodes(rest)
		g.Nodes = mergeNodes(g.Nodes[:sorted], rest) // in place: g.Nodes has room
	} else {
		sortNodes(g.Nodes)
	}
	// A language none of whose files the tree holds has nothing to
	// resolve: its resolver is not run (some index every node first).
	present := func(l Language) bool { return g.Stats.Languages[l.Name()] > 0 }
	// The base's edges decode beside the resolvers, which leave a core
	// idle at times (reading declarations, satisfying interfaces).
	var scope map[string]bool
	var base []schemas.Edge
	var baseErr error
	decoded := make(chan struct{})
	if ed != nil {
		scope = ed.scope
		go func() {
			defer close(decoded)
			base, baseErr = ed.baseEdges()
		}()
	} else {
		close(decoded)
	}
	newNodes, parts := resolve(g.Nodes, langs, refsByLang, present, scope)
	if len(newNodes) > 0 {
		sortNodes(newNodes)
		g.Nodes = mergeNodes(g.Nodes, newNodes)
	}
	ids, err := NodeIDs(g.Nodes)
	if err != nil {
		return err
	}
	if ed != nil && slices.Equal(ids, ed.baseIDs) {
		g.nodeScope = ed.scope
	}
	if nodesDone != nil {
		nodesDone(g.Nodes)
	}
	<-decoded
	if ed != nil && (baseErr != nil || !slices.Equal(ids, ed.baseIDs)) {
		// The base's edges cannot be read, or (never, when DeclaresAlike
		// holds) would point at the wrong rows: resolve everything
		// instead, over a copy of the nodes, which the writer may be
		// reading (the resolvers set the same parents again, and make the
		// nodes already merged).
		ed, base = nil, nil
		_, parts = resolve(slices.Clone(g.Nodes), langs, refsByLang, present, nil)
	}
	// A node with a parent is the end of a contains edge, made where the
	// sort places it rather than in a slice of its own; when only some
	// files' edges are made, only their nodes' (the others' are the
	// base's).
	parent := make([]int32, len(g.Nodes)) // row; -1 for none
	for i := range g.Nodes {
		n := &g.Nodes[i]
		parent[i] = -1
		if n.ParentID == 0 || (ed != nil && !ed.scope[n.File]) {
			continue
		}
		r, ok := schemas.RowOf(ids, n.ParentID)
		if !ok {
			return fmt.Errorf("node %s (%s): parent %d is not a node", n.QualifiedName, n.File, n.ParentID)
		}
		parent[i] = int32(r)
	}
	for _, edges := range parts {
		unresolved, err := FillRows(edges, ids)
		if err != nil {
			return err
		}
		g.Stats.Unresolved += unresolved
	}
	g.Edges = sortEdges(parts, g.Nodes, parent)
	if ed != nil {
		n := len(g.Edges)
		g.Edges, g.edgeSpans = mergeBaseEdges(base, g.Edges, ed.scope)
		g.Stats.EdgesReused = len(g.Edges) - n
		g.Stats.Unresolved = 0
		for i := range g.Edges {
			if g.Edges[i].Dst == 0 {
				g.Stats.Unresolved++
			}
		}
	}
	return nil
}

// edits is what a run resolving only the files it parsed needs (see
// Options.BaseEdges).
type edits struct {
	scope     map[string]bool // the files parsed
	baseEdges func() ([]schemas.Edge, error)
	baseIDs   []uint64 // the base's nodes' ids, in order
}

// editScope returns the files a run parsed, when each is of a
// FilesResolver language and declares what it declared in the base, and
// the tree holds the same files with rows as the base: only their
// references need resolving. It reports false otherwise.
func editScope(ru *reuse, results []fileResult) (map[string]bool, bool) {
	if len(results) != len(ru.base.Files) {
		return nil, false
	}
	scope := make(map[string]bool)
	for i := range results {
		r, bf := &results[i], &ru.base.Files[i]
		if r.file.Path != bf.Path {
			return nil, false
		}
		hasRows := bf.Status == schemas.StatusOK || bf.Status == schemas.StatusParseError
		switch {
		case r.result == nil:
			if hasRows {
				return nil, false
			}
			continue
		case r.reused:
			continue
		}
		fr, ok := r.lang.(FilesResolver)
		if _, reusable := ru.files[bf.Path]; !ok || !reusable || bf.Status != schemas.StatusOK || r.file.Status != schemas.StatusOK ||
			bf.Language != r.file.Language || bf.IsTest != r.file.IsTest {
			return nil, false
		}
		rows := ru.nodes(bf.Path)
		baseNodes := make([]schemas.Node, len(rows))
		for j, row := range rows {
			baseNodes[j] = ru.base.Nodes[row]
		}
		var baseRefs []schemas.Ref
		if run, ok := ru.refs[bf.Path]; ok {
			baseRefs = ru.base.Refs[run[0]:run[1]]
		}
		if !fr.DeclaresAlike(baseNodes, r.result.Nodes, baseRefs, r.result.Refs) {
			return nil, false
		}
		scope[bf.Path] = true
	}
	return scope, true
}

// mergeBaseEdges returns the base's edges but those of files in scope,
// merged with edges, all of files in scope, both in table order: in the
// base's memory when it has the room. The spans say which rows of the
// result are which of the base's: those kept, and the new ones that are
// the same as one dropped.
func mergeBaseEdges(base, edges []schemas.Edge, scope map[string]bool) ([]schemas.Edge, []span) {
	// The base's rows kept move down over those dropped; kept says from
	// where, a span per run of rows kept together.
	var kept []span
	type row struct {
		j int
		e schemas.Edge
	}
	var gone []row // the base's rows dropped, in order
	w := 0
	var last string // the file of the edge before, and whether in scope:
	in := false     // a source's edges mostly share one
	for j := range base {
		if f := base[j].File; len(f) != len(last) || unsafe.StringData(f) != unsafe.StringData(last) {
			last, in = f, scope[f]
		}
		if in {
			gone = append(gone, row{j, base[j]})
			continue
		}
		if l := len(kept); l > 0 && kept[l-1].from+kept[l-1].n == j {
			kept[l-1].n++
		} else {
			kept = append(kept, span{from: j, to: w, n: 1})
		}
		base[w] = base[j]
		w++
	}
	total := w + len(edges)
	var out []schemas.Edge
	isNew := make([]bool, total)
	if total <= cap(base) {
		// From the back, in place: a row goes where no row still to place
		// is.
		out = base[:total]
		i, k := w-1, len(edges)-1
		for p := total - 1; k >= 0; p-- {
			if i >= 0 && compareEdges(out[i], edges[k]) > 0 {
				out[p] = out[i]
				i--
			} else {
				out[p], isNew[p] = edges[k], true
				k--
			}
		}
	} else {
		out = make([]schemas.Edge, 0, total)
		i, k := 0, 0
		for i < w || k < len(edges) {
			if k == len(edges) || (i < w && compareEdges(base[i], edges[k]) < 0) {
				out = append(out, base[i])
				i++
			} else {
				isNew[len(out)] = true
				out = append(out, edges[k])
				k++
			}
		}
	}
	// A new edge the same as one dropped is that row of the base's (an
	// edit that moved nothing leaves a file's edges as they were): both
	// are in table order.
	same := make([]int, len(edges)) // the base's row; -1 for none
	for k, g := 0, 0; k < len(edges); k++ {
		same[k] = -1
		for g < len(gone) && compareEdges(gone[g].e, edges[k]) < 0 {
			g++
		}
		if g < len(gone) && gone[g].e == edges[k] {
			same[k] = gone[g].j
			g++
		}
	}
	// The spans of the result: each row not new is the next one kept.
	var spans []span
	c, run, k := 0, 0, 0
	for p := range out {
		var from int
		if isNew[p] {
			if from, k = same[k], k+1; from < 0 {
				continue
			}
		} else {
			for kept[run].to+kept[run].n <= c {
				run++
			}
			from = kept[run].from + c - kept[run].to
			c++
		}
		if l := len(spans); l > 0 && spans[l-1].to+spans[l-1].n == p && spans[l-1].from+spans[l-1].n == from {
			spans[l-1].n++
		} else {
			spans = append(spans, span{from: from, to: p, n: 1})
		}
	}
	return out, spans
}

// EdgesFromBase is RefsFromBase for g.Edges: it reports whether rows [lo,
// hi) of g.Edges are rows [from, from+hi-lo) of the base's edges
// (Options.BaseEdges), unchanged. Only a run that resolved the files it
// parsed alone has any.
func (g *Graph) EdgesFromBase(lo, hi int) (from int, ok bool) { return fromSpans(g.edgeSpans, lo, hi) }

// containsEdge is the contains edge into node row i of nodes, from row
// parent.
func containsEdge(nodes []schemas.Node, i int, parent int32) schemas.Edge {
	n := &nodes[i]
	return schemas.Edge{
		Src: n.ParentID, Dst: n.ID, Kind: schemas.EdgeContains, File: n.File,
		Line: n.StartLine, Col: n.StartCol, Target: n.Name,
		Resolution: schemas.ResolvedStructural, Confidence: 1, SrcRow: parent, DstRow: int32(i),
	}
}

// NodeIDs returns the ids of nodes, sorted by id, by row: what
// schemas.RowOf finds rows in. Two nodes with one id are an error.
func NodeIDs(nodes []schemas.Node) ([]uint64, error) {
	ids := make([]uint64, len(nodes))
	for i, n := range nodes {
		if i > 0 && n.ID <= nodes[i-1].ID {
			if n.ID == nodes[i-1].ID {
				return nil, fmt.Errorf("duplicate node id %d: %s (%s) and %s (%s)", n.ID,
					nodes[i-1].QualifiedName, nodes[i-1].File, n.QualifiedName, n.File)
			}
			return nil, fmt.Errorf("node %d: id %d below the previous %d: nodes must be sorted by id", i, n.ID, nodes[i-1].ID)
		}
		ids[i] = n.ID
	}
	return ids, nil
}

// FillRows sets the SrcRow and DstRow of every edge from ids (the nodes'
// ids by row, see NodeIDs; DstRow -1 for an unresolved edge) and counts
// the unresolved. An end that is not a node is an error.
func FillRows(edges []schemas.Edge, ids []uint64) (int, error) {
	unresolved := 0
	for i := range edges {
		e := &edges[i]
		r, ok := schemas.RowOf(ids, e.Src)
		if !ok {
			return 0, fmt.Errorf("edge %s %q at %s:%d: source %d is not a node", e.Kind, e.Target, e.File, e.Line, e.Src)
		}
		e.SrcRow, e.DstRow = int32(r), -1
		if e.Dst == 0 {
			unresolved++
			continue
		}
		if r, ok = schemas.RowOf(ids, e.Dst); !ok {
			return 0, fmt.Errorf("edge %s %q at %s:%d: destination %d is not a node", e.Kind, e.Target, e.File, e.Line, e.Dst)
		}
		e.DstRow = int32(r)
	}
	return unresolved, nil
}

// Resolve runs the resolvers of langs over nodes (sorted by id) and each
// language's refs, concurrently, and returns the nodes they made
// (packages, modules) and the edges they found. Resolvers may set the
// ParentID of the nodes of their language.
func Resolve(nodes []schemas.Node, langs []Language, refsByLang map[Language][]schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	newNodes, parts := resolve(nodes, langs, refsByLang, nil, nil)
	return newNodes, slices.Concat(parts...)
}

// resolve is Resolve with the edges in parts, as the resolvers made them
// (see PartsResolver). present, when not nil, says which languages have
// files among the nodes: a job (a language, or a family) none of whose
// languages has any, and that has no refs, is left out. scope, when not
// nil, keeps only the edges of its files (see FilesResolver): a resolver
// that cannot resolve them alone resolves everything, and its other edges
// are dropped.
func resolve(nodes []schemas.Node, langs []Language, refsByLang map[Language][]schemas.Ref, present func(Language) bool, scope map[string]bool) ([]schemas.Node, [][]schemas.Edge) {
	// Languages resolve concurrently: each reads the nodes and writes only
	// the ParentID of its own.
	type resolved struct {
		nodes []schemas.Node
		edges [][]schemas.Edge
	}
	type job struct {
		l       Language
		refs    []schemas.Ref
		present bool // files of one of its languages are among the nodes
	}
	var jobs []job
	leader := make(map[string]int) // family → its job
	for _, l := range langs {
		refs := refsByLang[l]
		here := present == nil || present(l)
		if f, ok := l.(Family); ok {
			if i, seen := leader[f.Family()]; seen {
				j := &jobs[i]
				j.refs = slices.Concat(j.refs, refs)
				slices.SortStableFunc(j.refs, func(a, b schemas.Ref) int { return cmp.Compare(a.File, b.File) })
				j.present = j.present || here
				continue
			}
			leader[f.Family()] = len(jobs)
		}
		jobs = append(jobs, job{l, refs, here})
	}
	out := make([]resolved, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		if !j.present && len(j.refs) == 0 {
			continue
		}
		wg.Go(func() {
			if f, ok := j.l.(FilesResolver); ok && scope != nil {
				out[i].nodes, out[i].edges = f.ResolveFiles(nodes, j.refs, scope)
				return
			}
			if p, ok := j.l.(PartsResolver); ok {
				out[i].nodes, out[i].edges = p.ResolveParts(nodes, j.refs)
			} else {
				var edges []schemas.Edge
				out[i].nodes, edges = j.l.Resolve(nodes, j.refs)
				out[i].edges = [][]schemas.Edge{edges}
			}
			if scope != nil {
				for k, part := range out[i].edges {
					out[i].edges[k] = slices.DeleteFunc(part, func(e schemas.Edge) bool { return !scope[e.File] })
				}
			}
		})
	}
	wg.Wait()
	if len(out) == 1 {
		return out[0].nodes, out[0].edges
	}
	var newNodes []schemas.Node
	var parts [][]schemas.Edge
	for _, r := range out {
		newNodes = append(newNodes, r.nodes...)
		parts = append(parts, r.edges...)
	}
	return newNodes, parts
}

// keepNodes copies the rows of base that keep marks, in order, to the
// start of dst, which may be base itself.
func keepNodes(dst, base []schemas.Node, keep []bool) {
	i := 0
	for row, k := range keep {
		if k {
			dst[i] = base[row]
			i++
		}
	}
}

// sharedRefs returns the language to hand the whole refs table to, of
// those with refs (their counts in perLang): the only one, or of several
// the one with the most, when it is an AllRefsResolver of no Family; else
// nil.
func sharedRefs(perLang map[Language]int) Language {
	var most Language
	with := 0
	for l, n := range perLang {
		if n == 0 {
			continue
		}
		with++
		if most == nil || n > perLang[most] || n == perLang[most] && l.Name() < most.Name() {
			most = l
		}
	}
	if with <= 1 {
		return most
	}
	_, all := most.(AllRefsResolver)
	_, family := most.(Family)
	if !all || family {
		return nil
	}
	return most
}

// mergeNodes merges two slices sorted by ID, a's rows first among equal
// ids. b is short (the nodes the resolvers made): each of its rows finds
// its place in a by binary search, and the rows of a between go over in
// one copy. When a has room for b, the merge is made in place, from the
// back, and no row goes into new memory.
func mergeNodes(a, b []schemas.Node) []schemas.Node {
	if cap(a)-len(a) >= len(b) {
		out := a[:len(a)+len(b)]
		end := len(a) // a[:end] and b[:j+1] are still to place, in out[:end+j+1]
		for j := len(b) - 1; j >= 0; j-- {
			p := sort.Search(end, func(k int) bool { return a[k].ID > b[j].ID })
			copy(out[p+j+1:], a[p:end])
			out[p+j] = b[j]
			end = p
		}
		return out
	}
	out := make([]schemas.Node, 0, len(a)+len(b))
	for _, n := range b {
		i, _ := slices.BinarySearchFunc(a, n.ID, func(m schemas.Node, id uint64) int { return cmp.Compare(m.ID, id) })
		for i < len(a) && a[i].ID == n.ID {
			i++ // equal ids: a's first, as a plain merge would
		}
		out = append(out, a[:i]...)
		out = append(out, n)
		a = a[i:]
	}
	return append(out, a...)
}

// sortNodes sorts nodes by ID. The rows are large: their ids are sorted
// with their places, and each row then moves once, along the cycles of
// the permutation.
func sortNodes(nodes []schemas.Node) {
	type key struct {
		id uint64
		at int32
	}
	keys := make([]key, len(nodes))
	for i := range nodes {
		keys[i] = key{nodes[i].ID, int32(i)}
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.at, b.at)) })
	// Row i takes the row now at keys[i].at; a place done is marked -1.
	for i := range keys {
		if keys[i].at < 0 || int(keys[i].at) == i {
			continue
		}
		tmp := nodes[i]
		j := i
		for {
			from := int(keys[j].at)
			keys[j].at = -1
			if from == i {
				nodes[j] = tmp
				break
			}
			nodes[j] = nodes[from]
			j = from
		}
	}
}

// SortEdges returns the edges of parts in table order, in one new slice:
// (Src, Kind, Dst, Line, Col, Target, File), then by every other column,
// so that the order is total and the same rows always come out in the
// same order. Their SrcRow must be filled (FillRows) from nodes sorted by
// ID, so that the order of SrcRow is that of Src: each edge is placed in
// its source's run, which is then sorted alone, instead of comparing every
// edge with the others.
func SortEdges(parts ...[]schemas.Edge) []schemas.Edge { return sortEdges(parts, nil, nil) }

// sortEdges is SortEdges of parts and of the contains edges into every
// node of nodes whose parent row (parent[i]) is not -1.
func sortEdges(parts [][]schemas.Edge, nodes []schemas.Node, parent []int32) []schemas.Edge {
	rows, n := int32(0), 0
	for _, p := range parts {
		n += len(p)
		for i := range p {
			rows = max(rows, p[i].SrcRow+1)
		}
	}
	for _, r := range parent {
		if r >= 0 {
			n++
			rows = max(rows, r+1)
		}
	}
	start := make([]int32, rows+1)
	for _, p := range parts {
		for i := range p {
			start[p[i].SrcRow+1]++
		}
	}
	for _, r := range parent {
		if r >= 0 {
			start[r+1]++
		}
	}
	for r := range rows {
		start[r+1] += start[r]
	}
	out := make([]schemas.Edge, n)
	next := slices.Clone(start[:rows])
	for _, p := range parts {
		for i := range p {
			r := p[i].SrcRow
			out[next[r]] = p[i]
			next[r]++
		}
	}
	for i, r := range parent {
		if r >= 0 {
			out[next[r]] = containsEdge(nodes, i, r)
			next[r]++
		}
	}
	// The runs are sorted on every core, each worker a range of rows: at
	// the end of the link, nothing else runs beside.
	onEveryCore(int(rows), 1, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			if run := out[start[r]:start[r+1]]; len(run) > 1 {
				slices.SortFunc(run, compareEdges)
			}
		}
	})
	return out
}

func compareEdges(a, b schemas.Edge) int {
	if c := schemas.CompareEdges(&a, &b); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.Resolution, b.Resolution), cmp.Compare(a.Reason, b.Reason),
		cmp.Compare(a.Confidence, b.Confidence), cmp.Compare(a.Args, b.Args), compareBool(a.InLoop, b.InLoop),
		compareBool(a.InTry, b.InTry), compareBool(a.Conditional, b.Conditional))
}

// SortRefs sorts refs in table order: (File, Line, Col, Kind, Target, Src,
// Expr), then by every other column.
func SortRefs(refs []schemas.Ref) { slices.SortFunc(refs, compareRefs) }

func compareRefs(a, b schemas.Ref) int {
	if c := schemas.CompareRefs(&a, &b); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.Args, b.Args), compareBool(a.InLoop, b.InLoop),
		compareBool(a.InTry, b.InTry), compareBool(a.Conditional, b.Conditional))
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func fileNode(f schemas.File) schemas.Node {
	return schemas.Node{
		ID: FileID(f.Path), Kind: schemas.KindFile, Name: path.Base(f.Path), QualifiedName: f.Path,
		Language: f.Language, File: f.Path, StartLine: 1, EndLine: max(f.Lines, 1),
		EndByte: uint32(f.Size), IsTest: f.IsTest, Exported: true,
	}
}

// indexFile reads, hashes and (when a language claims it) parses one file.
func indexFile(ctx context.Context, files *folderFiles, t *Tree, p string, seen fs.FileInfo, opts *Options, maxSize int64, xs map[Language]Extractor, ru *reuse, built *buildOutput) (fileResult, error) {
	r := fileResult{file: schemas.File{Path: p, Status: schemas.StatusOK}}
	f := &r.file
	lang := LanguageFor(opts.Languages, t, p)
	if lang != nil {
		f.Language = lang.Name()
	}
	skipVendored := !opts.Vendored && vendored(p)
	skipDerived := !skipVendored && underAny(built.folders, p)
	if !skipVendored && !skipDerived && opts.Known != nil && ru != nil {
		if r, ok := unread(files, p, seen, lang, opts, maxSize, ru); ok {
			return r, nil
		}
	}
	// The file's time starts here: a run stopped (ctx) stops the file
	// too, a file over its time (fctx alone) is given up.
	fctx, limit := ctx, opts.MaxFileTime
	if limit == 0 {
		limit = DefaultMaxFileTime
	}
	if limit > 0 {
		var cancel context.CancelFunc
		fctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	timedOut := func(what string) (fileResult, error) {
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		f.Status, f.Error = schemas.StatusSkippedTimeout, fmt.Sprintf("%s took over %v (--max-file-time)", what, limit)
		return r, nil
	}
	var fh *os.File
	var fi fs.FileInfo
	var err error
	switch {
	case seen != nil && special(seen.Mode()):
		err = &SpecialError{Mode: seen.Mode()} // not opened at all
	case skipVendored || skipDerived:
		fi, err = files.root.Stat(filepath.FromSlash(p)) // not opened: see below
	default:
		fh, fi, err = files.open(p)
	}
	if se := (*SpecialError)(nil); errors.As(err, &se) {
		f.Status, f.Error = schemas.StatusSkippedSpecial, se.Error()
		return r, nil
	}
	if err != nil {
		f.Status, f.Error = schemas.StatusUnreadable, err.Error()
		return r, nil
	}
	if fh != nil {
		defer fh.Close()
	}
	if fi.IsDir() {
		f.Status, f.Error = schemas.StatusUnreadable, "a symbolic link to a directory"
		return r, nil
	}
	f.Size = fi.Size()
	if skipVendored {
		// Not read at all: node_modules may hold more than the project.
		f.Status = schemas.StatusSkippedVendored
		return r, nil
	}
	if skipDerived {
		f.Status = schemas.StatusSkippedDerived
		return r, nil
	}
	if f.Size > maxSize {
		f.Status, f.Error = schemas.StatusSkippedLarge, largeError(f.Size, maxSize)
		f.SHA256, err = hashReader(fctx, fh)
		if fctx.Err() != nil && errors.Is(err, fctx.Err()) {
			return timedOut("hashing")
		}
		if err != nil {
			f.Status, f.Error = schemas.StatusUnreadable, err.Error()
		}
		r.stat = fi
		return r, nil
	}
	src, err := readAll(fh, f.Size)
	if err != nil {
		f.Status, f.Error = schemas.StatusUnreadable, err.Error()
		return r, nil
	}
	r.stat = fi // taken before the read: a write since shows in the next stat
	f.Size = int64(len(src))
	sum := sha256.Sum256(src)
	f.SHA256 = hex.EncodeToString(sum[:])
	f.Lines = countLines(src)
	if isBinary(src) {
		f.Status = schemas.StatusSkippedBinary
		return r, nil
	}
	if lang == nil {
		f.Status = schemas.StatusUnsupported
		return r, nil
	}
	if !opts.Derived && mappedFrom(t, built.read, p, src) {
		f.Status = schemas.StatusSkippedDerived
		return r, nil
	}
	gen := generated(src)
	if gen && opts.SkipGenerated {
		f.Status, f.IsGenerated = schemas.StatusSkippedGenerated, true
		return r, nil
	}
	if !opts.Minified && minified(p, f.Size, f.Lines) {
		f.Status = schemas.StatusSkippedMinified
		return r, nil
	}
	if bf, ok := ru.lookup(p, f.SHA256); ok && bf.Language == lang.Name() {
		r.file, r.src, r.lang, r.result, r.reused = bf, src, lang, ru.result(p, bf), true
		r.baseNodes = ru.nodes(p)
		return r, nil
	}
	x := xs[lang]
	if x == nil {
		UseCAllocator()
		x, err = lang.NewExtractor(t)
		if err != nil {
			return r, fmt.Errorf("%s extractor: %w", lang.Name(), err)
		}
		xs[lang] = x
		// A new extractor compiles its language's query, once for the
		// run: the run's cost, not this file's, and on a loaded machine
		// enough to use up the file's time. The file's time starts again.
		if limit > 0 {
			var cancel context.CancelFunc
			fctx, cancel = context.WithTimeout(ctx, limit)
			defer cancel()
		}
	}
	res, err := x.Extract(fctx, p, src)
	if fctx.Err() != nil && errors.Is(err, fctx.Err()) {
		return timedOut("parse and extraction")
	}
	if err != nil {
		f.Status, f.Error = schemas.StatusParseError, err.Error()
		return r, nil
	}
	if res.ParseError != "" {
		f.Status, f.Error = schemas.StatusParseError, res.ParseError
	} else if !utf8.Valid(src) {
		f.Error = "not valid UTF-8"
	}
	f.IsTest, f.IsGenerated = res.IsTest, gen || res.Generated
	if !slices.IsSortedFunc(res.Refs, compareRefs) {
		SortRefs(res.Refs) // here, on the workers, so that Index only concatenates
	}
	r.src, r.lang, r.result = src, lang, res
	for i := range res.Nodes {
		if res.Nodes[i].ParentID == 0 {
			res.Nodes[i].ParentID = FileID(p)
		}
	}
	return r, nil
}

// unread returns the base's rows of the file at p, of language lang (nil
// for none), without reading it: when opts.Known holds the file's stat as
// it is now and the base holds the rows of the content it hashed. What
// else a read would check before reusing the rows (the file's size against
// the limit, its being generated or minified) is in the base's row, which
// is of that same content; a generated file that the base holds only
// because it was indexed without SkipGenerated, or that only its extractor
// called generated, is read. So is a file whose row the base has but not
// its rows (another grammar's). A file whose row is all the base has of
// it (unsupported, binary, generated, too large) takes that row when a
// read would decide the same again: from the same content, under this
// run's options. seen, if not nil, is the file's Lstat as the walk took
// it.
func unread(files *folderFiles, p string, seen fs.FileInfo, lang Language, opts *Options, maxSize int64, ru *reuse) (fileResult, bool) {
	name := ""
	if lang != nil {
		name = lang.Name()
	}
	_, rows := ru.files[p]
	i, plain := ru.plain[p]
	if !rows && !plain {
		return fileResult{}, false
	}
	// A regular file's Lstat from the walk is its stat: a link's is not.
	fi := seen
	if fi == nil || !fi.Mode().IsRegular() {
		var err error
		if fi, err = files.stat(p); err != nil {
			return fileResult{}, false
		}
	}
	sha, ok := opts.Known.lookup(p, fi)
	if !ok {
		return fileResult{}, false
	}
	if plain {
		// What a read would decide again, in the order it decides.
		bf := ru.base.Files[i]
		same := bf.SHA256 == sha && bf.Size == fi.Size() && bf.Language == name
		switch bf.Status {
		case schemas.StatusSkippedLarge:
			same = same && bf.Size > maxSize && bf.Error == largeError(bf.Size, maxSize)
		case schemas.StatusSkippedBinary:
			same = same && bf.Size <= maxSize
		case schemas.StatusUnsupported:
			same = same && bf.Size <= maxSize && lang == nil
		case schemas.StatusSkippedGenerated:
			same = same && bf.Size <= maxSize && lang != nil && bf.IsGenerated && opts.SkipGenerated
		default:
			same = false
		}
		return fileResult{file: bf, unread: true, stat: fi}, same
	}
	bf, ok := ru.lookup(p, sha)
	if !ok || lang == nil || bf.Language != name || bf.Size != fi.Size() || bf.Size > maxSize ||
		bf.IsGenerated && opts.SkipGenerated || !opts.Minified && minified(p, bf.Size, bf.Lines) {
		return fileResult{}, false
	}
	return fileResult{file: bf, lang: lang, result: ru.result(p, bf), reused: true, baseNodes: ru.nodes(p), unread: true, stat: fi}, true
}

// largeError is the error of a file of size bytes skipped for being over
// the limit of max.
func largeError(size, max int64) string {
	return fmt.Sprintf("%d bytes, over the %d-byte limit", size, max)
}

// HashFile returns the hex SHA-256 of the file name within fsRoot: the
// files table's hash. Reading through the root refuses what leads out;
// what is not a regular file is refused too (a *SpecialError).
func HashFile(fsRoot *os.Root, name string) (string, error) {
	fh, fi, err := openRead(fsRoot, name)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	if fi.IsDir() {
		return "", fmt.Errorf("hash %s: is a directory", name)
	}
	return hashReader(context.Background(), fh)
}

func countLines(src []byte) uint32 {
	n := uint32(bytes.Count(src, []byte{'\n'}))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// isBinary reports whether src looks like a binary file: a NUL byte in its
// first 8000 bytes, the test git uses.
func isBinary(src []byte) bool {
	return bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0
}

// parseOnly is an Extractor that parses and throws the tree away, through
// the same one-call path extraction uses.
type parseOnly struct{ s *Scanner }

func newParseOnly(l Language) (Extractor, error) {
	s, err := NewParser(unsafe.Pointer(l.Grammar().Inner))
	if err != nil {
		return nil, err
	}
	return parseOnly{s}, nil
}

func (p parseOnly) Extract(ctx context.Context, file string, src []byte) (*Result, error) {
	if _, _, _, err := p.s.Scan(ctx, src); err != nil {
		return nil, err
	}
	return &Result{}, nil
}

func (p parseOnly) Close() { p.s.Close() }
