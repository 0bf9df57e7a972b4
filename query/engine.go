// Package query answers structural questions over one snapshot in memory.
//
// Build turns a snapshot's rows into an immutable Engine: the node and
// edge rows in compact forms (Node and Edge rebuild them), the edges of
// every node in both directions (those it leads are a run of the edge
// rows, which are in the table's order; those into it a CSR of offsets,
// kinds and edge rows, built in O(N+E) from the edges' row numbers), name
// indexes
// (sorted name and qualified-name orders for exact and prefix lookups,
// camelCase/snake_case tokens, trigrams for fuzzy matching), files and
// sources by path. Nodes and edges are addressed by their row numbers
// (int32); Node and Edge return the rows.
//
// An Engine is never modified once built, so any number of goroutines may
// query it at once. Holder publishes the current one; a sync builds the next
// aside and swaps it in.
package query

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sync/errgroup"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// EdgeKind is an edge kind as the engine indexes it. The values follow
// schemas.EdgeKinds.
type EdgeKind uint8

// Edge kinds.
const (
	Contains EdgeKind = iota
	Calls
	Imports
	Extends
	Implements
	References
	Instantiates
	numEdgeKinds
)

// String returns the kind's name as tables write it ("calls").
func (k EdgeKind) String() string {
	if k < numEdgeKinds {
		return schemas.EdgeKinds[k]
	}
	return fmt.Sprintf("EdgeKind(%d)", k)
}

// ParseEdgeKind returns the kind named s ("calls").
func ParseEdgeKind(s string) (EdgeKind, bool) {
	for i, name := range schemas.EdgeKinds[:numEdgeKinds] {
		if name == s {
			return EdgeKind(i), true
		}
	}
	return 0, false
}

// Direction says which way a traversal follows edges.
type Direction uint8

// Directions. In goes from a node to the nodes whose edges point at it (its
// callers, its dependents: upstream); Out follows its own edges (callees,
// dependencies: downstream); Both does either.
const (
	In Direction = iota + 1
	Out
	Both
)

// String returns "in", "out" or "both".
func (d Direction) String() string {
	switch d {
	case In:
		return "in"
	case Out:
		return "out"
	case Both:
		return "both"
	}
	return fmt.Sprintf("Direction(%d)", d)
}

func (d Direction) reverse() Direction {
	switch d {
	case In:
		return Out
	case Out:
		return In
	}
	return d
}

// ParseDirection returns the direction named s ("in", "out", "both").
func ParseDirection(s string) (Direction, bool) {
	for _, d := range [...]Direction{In, Out, Both} {
		if d.String() == s {
			return d, true
		}
	}
	return 0, false
}

// adjacency is the resolved edges into every node, all kinds together
// (CSR): node row r's entries are off[r]:off[r+1], grouped by kind in
// EdgeKind order and in edge row order within a kind. For each, kind is
// its kind and idx its edge row. count says how many entries each kind
// has. (The edges a node leads need no such list: see outRows.)
type adjacency struct {
	off   []uint32
	kind  []EdgeKind
	idx   []uint32
	count [numEdgeKinds]int
}

// build fills a for n nodes from edges, taking them in the order of
// byKind (every edge row, grouped by kind, ascending within a kind).
func (a *adjacency) build(n int32, edges []edge, byKind []uint32) {
	// Count one slot ahead, prefix-sum, then fill with off[r] as r's
	// cursor and shift back: off[r] ends up at the start of r's entries.
	a.off = make([]uint32, n+1)
	for i := range edges {
		if r := edges[i].dstRow; r >= 0 { // an unresolved edge points at no node
			a.off[r+1]++
			a.count[edges[i].kind]++
		}
	}
	for r := int32(1); r <= n; r++ {
		a.off[r] += a.off[r-1]
	}
	m := a.off[n]
	a.kind, a.idx = make([]EdgeKind, m), make([]uint32, m)
	for _, i := range byKind {
		x := &edges[i]
		if r := x.dstRow; r >= 0 {
			j := a.off[r]
			a.kind[j], a.idx[j] = x.kind, i
			a.off[r]++
		}
	}
	copy(a.off[1:], a.off[:n])
	a.off[0] = 0
}

// edges returns r's edges of kind k, as edge rows.
func (a *adjacency) edges(r int32, k EdgeKind) []uint32 {
	lo, hi := a.off[r], a.off[r+1]
	kinds := a.kind[lo:hi]
	var i, j int
	if len(kinds) <= 16 { // most nodes have a few edges
		for i < len(kinds) && kinds[i] < k {
			i++
		}
		for j = i; j < len(kinds) && kinds[j] == k; j++ {
		}
	} else {
		i, _ = slices.BinarySearch(kinds, k)
		j, _ = slices.BinarySearch(kinds[i:], k+1)
		j += i
	}
	return a.idx[lo+uint32(i) : lo+uint32(j)]
}

// The edges each node leads are the edge rows themselves: they are in the
// table's order, by source row and within a source by kind (in the order
// of the kinds' names), so node r's are the rows outAt[r]:outAt[r+1] and
// those of one kind a run of them (outRows).

// rowRange is the edge rows lo:hi.
type rowRange struct{ lo, hi uint32 }

func (x rowRange) len() int { return int(x.hi - x.lo) }

// kindRank is each kind's place in the order of the kinds' names, the
// order of the edges table within a source.
var kindRank = func() (rank [numEdgeKinds]uint8) {
	for k := range numEdgeKinds {
		for j := range numEdgeKinds {
			if schemas.EdgeKinds[j] < schemas.EdgeKinds[k] {
				rank[k]++
			}
		}
	}
	return rank
}()

// outStarts returns where each of n nodes' edges start among edges,
// which buildAdjacency has checked are in the table's order.
func outStarts(n int32, edges []edge) []uint32 {
	at := make([]uint32, n+1)
	for i := range edges {
		at[edges[i].srcRow+1]++
	}
	for r := int32(1); r <= n; r++ {
		at[r] += at[r-1]
	}
	return at
}

// outRows returns the edges of kind k that r leads.
func (e *Engine) outRows(r int32, k EdgeKind) rowRange {
	if k >= numEdgeKinds {
		return rowRange{}
	}
	lo, hi := e.outAt[r], e.outAt[r+1]
	run := e.edges[lo:hi]
	want := kindRank[k]
	var i, j int
	if len(run) <= 16 { // most nodes lead a few edges
		for i < len(run) && kindRank[run[i].kind] < want {
			i++
		}
		for j = i; j < len(run) && run[j].kind == k; j++ {
		}
	} else {
		i = sort.Search(len(run), func(x int) bool { return kindRank[run[x].kind] >= want })
		j = i + sort.Search(len(run)-i, func(x int) bool { return kindRank[run[i+x].kind] > want })
	}
	return rowRange{lo + uint32(i), lo + uint32(j)}
}

// csr is an adjacency of one kind: the edges of node row r are
// idx[off[r]:off[r+1]], and nbr the rows at their other ends.
type csr struct {
	off []uint32
	idx []uint32
	nbr []int32
}

// span returns the edges of row and their other ends.
func (c *csr) span(row int32) ([]uint32, []int32) {
	lo, hi := c.off[row], c.off[row+1]
	return c.idx[lo:hi], c.nbr[lo:hi]
}

// edge is an edge row as the engine keeps it: 24 bytes where a
// schemas.Edge takes 144. Its ends are node rows (their ids are the
// nodes'), its target a place in Engine.targets, where each
// distinct target is kept once, its resolution, reason and confidence
// one number into Engine.edgeWhy, since few such triples occur, and its
// Args are kept apart, compressed (packedArgs). Its file is its source's
// (all but one edge in a hundred), or else listed in Engine.otherFiles
// (see edgeFile). Edge rebuilds the row.
type edge struct {
	target         uint32 // a place in Engine.targets (see arena)
	srcRow, dstRow int32  // dstRow -1 when unresolved
	line, col      uint32
	why            uint16
	kind           EdgeKind
	flags          edgeFlags
}

// otherFile is the file of an edge that is not in its source's file: a
// number into nodeTable.files.
type otherFile struct{ row, file uint32 }

// edgeFlags are an edge's booleans.
type edgeFlags uint8

const (
	inLoop edgeFlags = 1 << iota
	inTry
	conditional
	inOtherFile // its file is in Engine.otherFiles
)

// why is an edge's resolution, its confidence (the float32's bits, so
// that even a NaN is one key) and, when unresolved, the reason.
type why struct {
	resolution, reason string
	conf               uint32
}

// Engine is an immutable, indexed view of one snapshot. All methods are
// safe for concurrent use.
type Engine struct {
	manifest    schemas.Manifest
	nodes       []node
	nt          nodeTable
	edges       []edge
	targets     arena       // edge.target
	otherFiles  []otherFile // by row: the edges flagged inOtherFile
	edgeWhy     []why       // edge.why → resolution, reason and confidence
	args        packedArgs
	fingerprint string

	outAt []uint32 // see outRows
	in    adjacency

	names names

	files       []schemas.File
	fileByPath  map[string]int32
	sources     map[string][]byte     // snapshot.Snapshot.Sources
	sourceFiles *snapshot.SourceFiles // or this
	paths       []string              // every path known to the snapshot, sorted
	fileSymbols map[string][]int32    // path → node rows in source order
	fileNodes   map[string]int32      // path → its file node's row

	stats Stats

	overlay *Overlay // BuildOptions.Overlay
	repos   []Repo   // BuildOptions.Repos, sorted

	later *lazy  // what is computed on first use, shared by Within's views
	scope string // Within's repository prefix: what name and path lookups keep
}

// Build indexes s. It checks what the indexes rely on: nodes sorted by
// unique ID, edges in the table's order as far as source and kind go,
// every edge's kind known and its SrcRow and DstRow pointing at the nodes
// it names (DstRow -1 exactly when Dst is 0). The engine keeps s's
// files and sources, which must not be modified afterwards; it copies the
// nodes and edges into its own compact rows.
func Build(s *snapshot.Snapshot) (*Engine, error) { return BuildWith(s, BuildOptions{}) }

// BuildOptions shape how an engine is built.
type BuildOptions struct {
	// Workers, when 1, has the indexes built one at a time; otherwise
	// they build side by side. A server building the
	// next engine beside the one it serves builds with 1, so that requests
	// keep a core.
	Workers int
	// Overlay, for a snapshot that merges the working tree into a served
	// snapshot, is what the merge changed: Engine.Overlay returns it.
	Overlay *Overlay
	// Repos, for a snapshot that joins the snapshots of several
	// repositories each under its name, lists them: Engine.Repos returns
	// them, sorted by name. No repository's name may be a folder of
	// another's.
	Repos []Repo
}

// BuildWith is Build with options.
func BuildWith(s *snapshot.Snapshot, opts BuildOptions) (*Engine, error) {
	repos, err := sortRepos(opts.Repos)
	if err != nil {
		return nil, err
	}
	e := &Engine{
		overlay:  opts.Overlay,
		repos:    repos,
		manifest: s.Manifest,
		files:    s.Files,
		later:    new(lazy),
	}
	if len(s.Nodes) > 1<<31-1 || len(s.Edges) > 1<<32-1 {
		return nil, fmt.Errorf("snapshot too large: %d nodes, %d edges", len(s.Nodes), len(s.Edges))
	}
	ids := make([]uint64, len(s.Nodes)) // by row: a compact copy stays in cache
	for i := range s.Nodes {
		ids[i] = s.Nodes[i].ID
		if i > 0 && ids[i-1] >= ids[i] {
			return nil, fmt.Errorf("node %d: id %d not above previous %d: nodes must be sorted by unique id", i, ids[i], ids[i-1])
		}
	}
	// The indexes read the rows and write disjoint fields of e. The edges
	// need only the nodes' ids; names and files wait for the packed nodes.
	serial := opts.Workers == 1
	var g errgroup.Group
	if serial {
		g.SetLimit(1)
	}
	var ef edgeFiles
	g.Go(func() (err error) { ef, err = e.buildAdjacency(s.Edges, ids); return err })
	g.Go(func() error { e.args = packArgs(s.Edges); return nil })
	if e.nodes, e.nt, err = buildNodes(s.Nodes, ids); err != nil {
		g.Wait()
		return nil, err
	}
	g.Go(func() error { e.names = buildNames(e.nodes, &e.nt, serial); return nil })
	g.Go(func() error { e.buildFiles(s); return nil })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	e.placeEdgeFiles(ef, serial)
	e.stats.Nodes = len(e.nodes)
	e.stats.NodesByKind = map[string]int{}
	e.stats.NodesByLanguage = map[string]int{}
	var perWord [256][2]int // kind, language
	for i := range e.nodes {
		nd := &e.nodes[i]
		perWord[nd.kind][0]++
		perWord[nd.lang][1]++
	}
	for w, c := range perWord[:len(e.nt.words)] {
		if c[0] > 0 {
			e.stats.NodesByKind[e.nt.words[w]] = c[0]
		}
		if c[1] > 0 && w != 0 {
			e.stats.NodesByLanguage[e.nt.words[w]] = c[1]
		}
	}
	e.fingerprint = fingerprint(s)
	return e, nil
}

// edgeFiles are the edges' files as buildAdjacency meets them, before
// placeEdgeFiles places them among the nodes': paths, sorted, and each
// edge's number into them.
type edgeFiles struct {
	paths []string
	of    []uint32
}

// buildAdjacency checks edges against the nodes, whose ids are ids (by
// row), and builds the compact edges and both adjacencies; the edges'
// files wait for the nodes' (placeEdgeFiles).
func (e *Engine) buildAdjacency(edges []schemas.Edge, ids []uint64) (edgeFiles, error) {
	n := int32(len(ids))
	e.edges = make([]edge, len(edges))
	files := map[string]uint32{}
	whys := map[why]uint32{}
	lastFile, lastWhy := "", why{}
	// Targets repeat (len, Errorf, String): a table of recent ones, by
	// hash, keeps most repeats once for little of a map's cost.
	var recent [1 << 16]uint32 // places of targets; 0 for none
	size := 0
	for i := range edges {
		size += textRoom + len(edges[i].Target)
	}
	if size > 1<<32-1 {
		return edgeFiles{}, fmt.Errorf("edges: %d bytes of targets, more than an engine holds", size)
	}
	targets := newArena(size) // room for every target, repeats included
	var fileID, whyID uint32
	fileOf := make([]uint32, len(edges))
	var perKind [numEdgeKinds]int
	var unresolved []int // by why
	for i := range edges {
		ed := &edges[i]
		k, ok := ParseEdgeKind(ed.Kind)
		if !ok {
			return edgeFiles{}, fmt.Errorf("edge %d: unknown kind %q", i, ed.Kind)
		}
		if ed.SrcRow < 0 || ed.SrcRow >= n || ids[ed.SrcRow] != ed.Src {
			return edgeFiles{}, fmt.Errorf("edge %d: src_row %d does not hold src %d", i, ed.SrcRow, ed.Src)
		}
		if i > 0 {
			prev := &e.edges[i-1]
			if ed.SrcRow < prev.srcRow || ed.SrcRow == prev.srcRow && kindRank[k] < kindRank[prev.kind] {
				return edgeFiles{}, fmt.Errorf("edge %d: not in the table's order (by src, then kind): src_row %d, kind %s after src_row %d, kind %s",
					i, ed.SrcRow, ed.Kind, prev.srcRow, prev.kind)
			}
		}
		// Neighbouring edges mostly share a file and a why: the maps are
		// asked only when they change.
		if ed.File != lastFile || len(files) == 0 {
			id, ok := files[ed.File]
			if !ok {
				id = uint32(len(files))
				files[ed.File] = id
			}
			lastFile, fileID = ed.File, id
		}
		if w := (why{ed.Resolution, ed.Reason, math.Float32bits(ed.Confidence)}); w != lastWhy || len(whys) == 0 {
			id, ok := whys[w]
			if !ok {
				if len(whys) > math.MaxUint16 {
					return edgeFiles{}, fmt.Errorf("edges: more than %d distinct resolutions, reasons and confidences", math.MaxUint16+1)
				}
				id = uint32(len(whys))
				whys[w] = id
				unresolved = append(unresolved, 0)
			}
			lastWhy, whyID = w, id
		}
		switch {
		case ed.Dst == 0:
			if ed.DstRow != -1 {
				return edgeFiles{}, fmt.Errorf("edge %d: unresolved edge has dst_row %d, want -1", i, ed.DstRow)
			}
			unresolved[whyID]++
		case ed.DstRow < 0 || ed.DstRow >= n || ids[ed.DstRow] != ed.Dst:
			return edgeFiles{}, fmt.Errorf("edge %d: dst_row %d does not hold dst %d", i, ed.DstRow, ed.Dst)
		}
		var f edgeFlags
		if ed.InLoop {
			f |= inLoop
		}
		if ed.InTry {
			f |= inTry
		}
		if ed.Conditional {
			f |= conditional
		}
		var t uint32
		if ed.Target != "" {
			slot := &recent[xxhash.Sum64String(ed.Target)&uint64(len(recent)-1)]
			if *slot == 0 || targets.str(*slot) != ed.Target {
				*slot = targets.add(ed.Target)
			}
			t = *slot
		}
		fileOf[i] = fileID
		e.edges[i] = edge{
			target: t, srcRow: ed.SrcRow, dstRow: ed.DstRow, line: ed.Line, col: ed.Col,
			why: uint16(whyID), kind: k, flags: f,
		}
		perKind[k]++
	}
	e.targets = slices.Clone(targets) // without the room the repeats did not take
	// Files are numbered in path order, so that comparing numbers
	// compares paths.
	ef := edgeFiles{paths: make([]string, 0, len(files)), of: fileOf}
	for f := range files {
		ef.paths = append(ef.paths, strings.Clone(f)) // as buildNodes does t.files
	}
	slices.Sort(ef.paths)
	rank := make([]uint32, len(files))
	for i, f := range ef.paths {
		rank[files[f]] = uint32(i)
	}
	for i := range fileOf {
		fileOf[i] = rank[fileOf[i]]
	}
	e.edgeWhy = make([]why, len(whys))
	e.stats.UnresolvedByReason = map[string]int{}
	for w, id := range whys {
		e.edgeWhy[id] = w
		if c := unresolved[id]; c > 0 {
			e.stats.UnresolvedByReason[cmp.Or(w.reason, w.resolution)] += c
			e.stats.Unresolved += c
		}
	}
	e.stats.EdgesByKind = map[string]int{}
	for k, c := range perKind {
		if c > 0 {
			e.stats.EdgesByKind[schemas.EdgeKinds[k]] = c
		}
	}
	// Edge rows grouped by kind, in row order within a kind (a counting
	// sort): placing them by node in this order leaves each node's
	// entries grouped by kind, as adjacency wants.
	var start [numEdgeKinds + 1]int
	for k, c := range perKind {
		start[k+1] = start[k] + c
	}
	byKind := make([]uint32, len(e.edges))
	for i := range e.edges {
		k := e.edges[i].kind
		byKind[start[k]] = uint32(i)
		start[k]++
	}
	e.outAt = outStarts(n, e.edges)
	e.in.build(n, e.edges, byKind)
	e.stats.Edges = len(e.edges)
	return ef, nil
}

// placeEdgeFiles numbers the edges' files among the nodes' (adding any
// file only edges name, in path order) and keeps apart those of the edges
// whose file is not their source's, on every core unless serial.
func (e *Engine) placeEdgeFiles(ef edgeFiles, serial bool) {
	files := e.nt.files
	num := make([]uint32, len(ef.paths)) // edge file → its number among files
	var extra []string
	for i, p := range ef.paths {
		f, ok := slices.BinarySearch(files, p)
		if !ok {
			extra = append(extra, p)
		}
		num[i] = uint32(f)
	}
	if extra != nil {
		merged := slices.Concat(files, extra)
		slices.Sort(merged)
		renumber := make([]uint32, len(files))
		for i, p := range files {
			f, _ := slices.BinarySearch(merged, p)
			renumber[i] = uint32(f)
		}
		for i := range e.nodes {
			e.nodes[i].file = renumber[e.nodes[i].file]
		}
		for i, p := range ef.paths {
			f, _ := slices.BinarySearch(merged, p)
			num[i] = uint32(f)
		}
		e.nt.files = merged
	}
	// Each edge reads its source node's row, a miss of the cache each:
	// the edges are split among the cores, their lists joined in order.
	workers := min(runtime.GOMAXPROCS(0), max(len(e.edges)>>16, 1))
	if serial {
		workers = 1
	}
	others := make([][]otherFile, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(e.edges)/workers, (w+1)*len(e.edges)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				x := &e.edges[i]
				if f := num[ef.of[i]]; f != e.nodes[x.srcRow].file {
					x.flags |= inOtherFile
					others[w] = append(others[w], otherFile{uint32(i), f})
				}
			}
		})
	}
	wg.Wait()
	e.otherFiles = slices.Concat(others...)
}

// edgeFile returns the file of edge row i, a number into nodeTable.files.
func (e *Engine) edgeFile(i uint32) uint32 {
	x := &e.edges[i]
	if x.flags&inOtherFile == 0 {
		return e.nodes[x.srcRow].file
	}
	j, _ := slices.BinarySearchFunc(e.otherFiles, i, func(o otherFile, row uint32) int { return cmp.Compare(o.row, row) })
	return e.otherFiles[j].file
}

// fingerprint names the snapshot's content in 16 hex digits: its commit and
// the hashes of its tables, or its row counts when the manifest lists no
// tables (a snapshot built in memory).
func fingerprint(s *snapshot.Snapshot) string {
	h := fnv.New64a()
	h.Write([]byte(s.Manifest.Repo))
	h.Write([]byte{0})
	h.Write([]byte(s.Manifest.Commit))
	for _, t := range s.Manifest.Tables {
		h.Write([]byte{0})
		h.Write([]byte(t.SHA256))
	}
	var b [8]byte
	for _, n := range [...]int{len(s.Nodes), len(s.Edges), len(s.Files), len(s.Sources)} {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Manifest returns the snapshot's manifest.
func (e *Engine) Manifest() *schemas.Manifest { return &e.manifest }

// Commit returns the commit the snapshot was built from.
func (e *Engine) Commit() string { return e.manifest.Commit }

// Fingerprint identifies the snapshot's content; two engines with the same
// fingerprint answer the same way. Cursors carry it.
func (e *Engine) Fingerprint() string { return e.fingerprint }

// NumNodes returns the number of node rows.
func (e *Engine) NumNodes() int { return len(e.nodes) }

// NumEdges returns the number of edge rows.
func (e *Engine) NumEdges() int { return len(e.edges) }

// Edge returns edge row i, as the snapshot has it but for Args, left
// empty: EdgeArgs reads it.
func (e *Engine) Edge(i int32) schemas.Edge {
	x := &e.edges[i]
	w := &e.edgeWhy[x.why]
	ed := schemas.Edge{
		Src: e.nodes[x.srcRow].id, Kind: x.kind.String(), File: e.nt.files[e.edgeFile(uint32(i))], Line: x.line, Col: x.col,
		Target: e.targets.str(x.target), Resolution: w.resolution, Confidence: math.Float32frombits(w.conf), Reason: w.reason,
		InLoop: x.flags&inLoop != 0, InTry: x.flags&inTry != 0, Conditional: x.flags&conditional != 0,
		SrcRow: x.srcRow, DstRow: x.dstRow,
	}
	if x.dstRow >= 0 {
		ed.Dst = e.nodes[x.dstRow].id
	}
	return ed
}

// EdgeArgs returns the Args of edge row i: the arguments of a call as
// written.
func (e *Engine) EdgeArgs(i int32) string { return e.args.get(i) }

// EdgeKind returns the kind of edge row i.
func (e *Engine) EdgeKind(i int32) EdgeKind { return e.edges[i].kind }

// EdgeEnds returns the node rows edge row i joins; to is -1 when the edge
// is unresolved.
func (e *Engine) EdgeEnds(i int32) (from, to int32) { return e.edges[i].srcRow, e.edges[i].dstRow }

// Lookup returns the row of the node with that id.
func (e *Engine) Lookup(id uint64) (int32, bool) {
	r, ok := slices.BinarySearchFunc(e.nodes, id, func(n node, id uint64) int {
		return cmp.Compare(n.id, id)
	})
	return int32(r), ok
}

// Parent returns the row of r's parent node, if it has one in the snapshot.
func (e *Engine) Parent(r int32) (int32, bool) {
	switch p := e.nodes[r].parent; p {
	case noParent:
		return -1, false
	case outsideParent:
		return e.Lookup(e.nt.outside[r]) // absent: not a row
	default:
		return p, true
	}
}

// Degree counts r's edges of kind k in direction d (In or Out), unresolved
// ones included for Out.
func (e *Engine) Degree(r int32, k EdgeKind, d Direction) int {
	n := 0
	if d == Out || d == Both {
		n += e.outRows(r, k).len()
	}
	if d == In || d == Both {
		n += len(e.in.edges(r, k))
	}
	return n
}

// Stats counts a snapshot's rows by meaning.
type Stats struct {
	Nodes              int            `json:"nodes"`
	Edges              int            `json:"edges"`
	Files              int            `json:"files"`
	Sources            int            `json:"sources"`
	Unresolved         int            `json:"unresolved"`
	NodesByKind        map[string]int `json:"nodes_by_kind"`
	NodesByLanguage    map[string]int `json:"nodes_by_language"`
	FilesByLanguage    map[string]int `json:"files_by_language"`
	FilesByStatus      map[string]int `json:"files_by_status"`
	EdgesByKind        map[string]int `json:"edges_by_kind"`
	UnresolvedByReason map[string]int `json:"unresolved_by_reason"`
}

// Stats returns the snapshot's counts. The maps are shared: do not modify
// them.
func (e *Engine) Stats() Stats { return e.stats }

// ReasonCount is how many unresolved references have one reason.
type ReasonCount struct {
	Reason string
	Count  int
}

// UnresolvedReasons returns the reasons of unresolved references, the most
// frequent first (ties by reason), computed on first use. The slice is
// shared: do not modify it.
func (e *Engine) UnresolvedReasons() []ReasonCount {
	l := e.lazy()
	l.reasonsOnce.Do(func() {
		l.reasons = make([]ReasonCount, 0, len(e.stats.UnresolvedByReason))
		for r, n := range e.stats.UnresolvedByReason {
			l.reasons = append(l.reasons, ReasonCount{r, n})
		}
		slices.SortFunc(l.reasons, func(a, b ReasonCount) int {
			return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
		})
	})
	return l.reasons
}
