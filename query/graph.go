package query

import (
	"cmp"
	"slices"
)

// Link is an edge seen from one of its ends: the edge row and the row of
// the node at the other end, -1 for an unresolved edge.
type Link struct {
	Edge int32
	Node int32
}

// callKinds are the edges a caller has to its callee: calls, and
// instantiations (a constructor call names the class).
var callKinds = [...]EdgeKind{Calls, Instantiates}

// Callers returns the call sites that reach r (calls and instantiations),
// ordered by file, line and column.
func (e *Engine) Callers(r int32) []Link {
	edges, srcs := e.callSites().span(r)
	if len(edges) == 0 {
		return nil
	}
	out := make([]Link, len(edges))
	for j, i := range edges {
		out[j] = Link{Edge: int32(i), Node: srcs[j]}
	}
	return out
}

// callSites returns the in-edges of callKinds, all kinds together, each
// node's ordered by file, line, column and edge row: the order Callers
// answers in, sorted once on first use (or by Warm) rather than on every
// call.
func (e *Engine) callSites() *csr {
	l := e.lazy()
	l.sitesOnce.Do(func() { l.sites = e.buildCallSites() })
	return &l.sites
}

func (e *Engine) buildCallSites() csr {
	n := len(e.nodes)
	c := csr{off: make([]uint32, n+1)}
	isCall := func(ed *edge) bool { return ed.dstRow >= 0 && (ed.kind == Calls || ed.kind == Instantiates) }
	for i := range e.edges {
		if ed := &e.edges[i]; isCall(ed) {
			c.off[ed.dstRow+1]++
		}
	}
	for r := 1; r <= n; r++ {
		c.off[r] += c.off[r-1]
	}
	c.idx = make([]uint32, c.off[n])
	c.nbr = make([]int32, c.off[n])
	for i := range e.edges {
		if ed := &e.edges[i]; isCall(ed) {
			c.idx[c.off[ed.dstRow]] = uint32(i)
			c.off[ed.dstRow]++
		}
	}
	copy(c.off[1:], c.off[:n])
	c.off[0] = 0
	// Each callee's sites in order; most have a few. Keys are gathered
	// next to each other first, so that comparing does not miss the cache.
	type key struct{ hi, lo uint64 } // file and line; column and edge row
	var keys []key
	for r := range n {
		lo, hi := c.off[r], c.off[r+1]
		if hi-lo > 1 {
			keys = keys[:0]
			for _, i := range c.idx[lo:hi] {
				s := &e.edges[i]
				keys = append(keys, key{uint64(e.edgeFile(i))<<32 | uint64(s.line), uint64(s.col)<<32 | uint64(i)})
			}
			slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.hi, b.hi), cmp.Compare(a.lo, b.lo)) })
			for j, k := range keys {
				c.idx[lo+uint32(j)] = uint32(k.lo)
			}
		}
		for j := lo; j < hi; j++ {
			c.nbr[j] = e.edges[c.idx[j]].srcRow
		}
	}
	return c
}

// Callees returns what r calls or instantiates, ordered by file, line and
// column: the resolved calls, and apart the unresolved ones, whose edges
// hold the target as written and why it was not resolved.
func (e *Engine) Callees(r int32) (resolved, unresolved []Link) {
	for _, k := range callKinds {
		rs := e.outRows(r, k)
		for i := rs.lo; i < rs.hi; i++ {
			l := Link{Edge: int32(i), Node: e.edges[i].dstRow}
			if l.Node < 0 {
				unresolved = append(unresolved, l)
			} else {
				resolved = append(resolved, l)
			}
		}
	}
	e.sortSites(resolved)
	e.sortSites(unresolved)
	return resolved, unresolved
}

func (e *Engine) sortSites(links []Link) {
	slices.SortFunc(links, func(a, b Link) int {
		x, y := &e.edges[a.Edge], &e.edges[b.Edge]
		return cmp.Or(
			cmp.Compare(e.edgeFile(uint32(a.Edge)), e.edgeFile(uint32(b.Edge))), // numbered in path order
			cmp.Compare(x.line, y.line),
			cmp.Compare(x.col, y.col),
			cmp.Compare(a.Edge, b.Edge))
	})
}

// Children returns the rows r contains (its contains edges), in source
// order.
func (e *Engine) Children(r int32) []int32 {
	var out []int32
	rs := e.outRows(r, Contains)
	for i := rs.lo; i < rs.hi; i++ {
		if d := e.edges[i].dstRow; d >= 0 {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b int32) int {
		x, y := &e.nodes[a], &e.nodes[b]
		return cmp.Or(
			cmp.Compare(x.file, y.file), // numbers of sorted paths
			cmp.Compare(x.startLine, y.startLine),
			cmp.Compare(x.startCol, y.startCol),
			cmp.Compare(a, b))
	})
	return out
}

// each calls fn for every resolved neighbour of r over kinds in direction
// d, with the edge that leads there, until fn returns false; it reports
// whether fn always returned true.
func (e *Engine) each(r int32, kinds []EdgeKind, d Direction, fn func(edge, v int32) bool) bool {
	for _, k := range kinds {
		if d == Out || d == Both {
			rs := e.outRows(r, k)
			for i := rs.lo; i < rs.hi; i++ {
				if v := e.edges[i].dstRow; v >= 0 && !fn(int32(i), v) {
					return false
				}
			}
		}
		if d == In || d == Both {
			for _, i := range e.in.edges(r, k) {
				if !fn(int32(i), e.edges[i].srcRow) {
					return false
				}
			}
		}
	}
	return true
}

// Impact defaults and bounds.
const (
	DefaultImpactDepth = 3
	MaxImpactDepth     = 10
	DefaultImpactNodes = 1000
)

// DefaultImpactKinds are the edges along which a change spreads.
var DefaultImpactKinds = []EdgeKind{Calls, References, Instantiates, Implements, Extends}

// ImpactOptions shape an impact traversal. Zero values take the defaults:
// direction In (who is affected by a change to the seeds), depth
// DefaultImpactDepth, DefaultImpactNodes nodes, DefaultImpactKinds.
type ImpactOptions struct {
	Direction Direction
	Depth     int // clamped to MaxImpactDepth
	MaxNodes  int // stop after reaching this many nodes besides the seeds
	Kinds     []EdgeKind
}

// Level is one depth of an impact: its nodes in the order reached, and for
// each the edge by which it was first reached from the level before.
type Level struct {
	Depth int
	Nodes []int32
	Edges []int32
}

// ImpactResult is the outcome of Impact, with the options it ran with.
type ImpactResult struct {
	Direction Direction
	Depth     int
	Kinds     []EdgeKind
	Levels    []Level // depth 1 first; empty levels are left out
	Truncated bool    // MaxNodes stopped the traversal
}

// Impact walks breadth-first from seeds over opt.Kinds and groups the nodes
// reached by their distance. Every node appears once, at its shortest
// distance; cycles end where they meet a node already reached.
func (e *Engine) Impact(seeds []int32, opt ImpactOptions) ImpactResult {
	res := ImpactResult{
		Direction: cmp.Or(opt.Direction, In),
		Depth:     opt.Depth,
		Kinds:     opt.Kinds,
	}
	if res.Depth <= 0 {
		res.Depth = DefaultImpactDepth
	}
	res.Depth = min(res.Depth, MaxImpactDepth)
	if len(res.Kinds) == 0 {
		res.Kinds = DefaultImpactKinds
	}
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultImpactNodes
	}
	visited := e.rowSet()
	defer e.putRowSet(visited)
	frontier := make([]int32, 0, len(seeds))
	for _, s := range seeds {
		if !visited.has(s) {
			visited.set(s)
			frontier = append(frontier, s)
		}
	}
	reached := 0
	for depth := 1; depth <= res.Depth && len(frontier) > 0 && !res.Truncated; depth++ {
		lv := Level{Depth: depth}
		for _, u := range frontier {
			if !e.each(u, res.Kinds, res.Direction, func(edge, v int32) bool {
				if visited.has(v) {
					return true
				}
				if reached == maxNodes {
					res.Truncated = true
					return false
				}
				visited.set(v)
				reached++
				lv.Nodes = append(lv.Nodes, v)
				lv.Edges = append(lv.Edges, edge)
				return true
			}) {
				break
			}
		}
		if len(lv.Nodes) > 0 {
			res.Levels = append(res.Levels, lv)
		}
		frontier = lv.Nodes
	}
	return res
}

type bitset []uint64

func newBitset(n int) bitset      { return make(bitset, (n+63)/64) }
func (b bitset) has(i int32) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i int32)      { b[i/64] |= 1 << (i % 64) }

// rowSet is a set of node rows for one query: a bit per row of the
// engine, taken from a pool and cleared, when given back, by the words
// its rows set. A query that meets a few dozen rows then neither
// allocates nor clears a bit per row (GOROOT/src: 47 KB), which made an
// impact's tail latency the collector's.
type rowSet struct {
	bits bitset
	rows []int32 // set since taken
}

func (s *rowSet) has(r int32) bool { return s.bits.has(r) }

func (s *rowSet) set(r int32) {
	s.bits.set(r)
	s.rows = append(s.rows, r)
}

// rowSet returns an empty set of e's rows; give it back with putRowSet.
func (e *Engine) rowSet() *rowSet {
	if s, ok := e.later.rowSets.Get().(*rowSet); ok && len(s.bits) == (len(e.nodes)+63)/64 {
		return s
	}
	return &rowSet{bits: newBitset(len(e.nodes))}
}

// putRowSet clears s and pools it for the next query.
func (e *Engine) putRowSet(s *rowSet) {
	for _, r := range s.rows {
		s.bits[r/64] = 0
	}
	s.rows = s.rows[:0]
	e.later.rowSets.Put(s)
}

// Path defaults and bounds.
const (
	DefaultPathDepth = 10
	MaxPathDepth     = 30
)

// DefaultPathKinds are the edges a path follows by default: every kind but
// contains.
var DefaultPathKinds = []EdgeKind{Calls, Imports, Extends, Implements, References, Instantiates}

// PathOptions shape a path search. Zero values take the defaults: edges
// followed forwards (Out), DefaultPathKinds, DefaultPathDepth hops.
type PathOptions struct {
	Direction Direction // Out: from reaches to along edges; In: to reaches from; Both: either way
	Kinds     []EdgeKind
	MaxDepth  int // clamped to MaxPathDepth
}

// Hop is one step of a path: the edge taken, from and to as the path goes,
// and whether the edge points against the path (possible with Both).
type Hop struct {
	Edge     int32
	From, To int32
	Reverse  bool
}

// step is how a search side reached a node: the edge, the node it came
// from, and the distance from that side's start.
type step struct {
	edge, prev int32
	dist       int
}

// Path returns a shortest path from one node to another over opt.Kinds, as
// hops, and whether one exists within opt.MaxDepth hops. It searches from
// both ends at once, always growing the side with the smaller frontier,
// so it explores little even in a large graph.
func (e *Engine) Path(from, to int32, opt PathOptions) ([]Hop, bool) {
	dir := cmp.Or(opt.Direction, Out)
	kinds := opt.Kinds
	if len(kinds) == 0 {
		kinds = DefaultPathKinds
	}
	maxDepth := opt.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultPathDepth
	}
	maxDepth = min(maxDepth, MaxPathDepth)
	if from == to {
		return nil, true
	}
	fwd := map[int32]step{from: {edge: -1, prev: -1}}
	bwd := map[int32]step{to: {edge: -1, prev: -1}}
	ff, bf := []int32{from}, []int32{to}
	depth := 0
	for len(ff) > 0 && len(bf) > 0 && depth < maxDepth {
		depth++
		// Grow the smaller side by one level, and of the nodes where the
		// two sides meet take the one closest to the other side's start.
		grow, seen, other, d := &ff, fwd, bwd, dir
		if len(bf) < len(ff) {
			grow, seen, other, d = &bf, bwd, fwd, dir.reverse()
		}
		var next []int32
		meet, best := int32(-1), 0
		for _, u := range *grow {
			du := seen[u].dist
			e.each(u, kinds, d, func(edge, v int32) bool {
				if _, ok := seen[v]; ok {
					return true
				}
				seen[v] = step{edge: edge, prev: u, dist: du + 1}
				next = append(next, v)
				if s, ok := other[v]; ok && (meet < 0 || s.dist < best) {
					meet, best = v, s.dist
				}
				return true
			})
		}
		if meet >= 0 {
			return e.joinPath(meet, fwd, bwd), true
		}
		*grow = next
	}
	return nil, false
}

// joinPath walks from meet back to the start through fwd and on to the
// end through bwd.
func (e *Engine) joinPath(meet int32, fwd, bwd map[int32]step) []Hop {
	var hops []Hop
	for v := meet; fwd[v].prev >= 0; v = fwd[v].prev {
		s := fwd[v]
		hops = append(hops, Hop{Edge: s.edge, From: s.prev, To: v})
	}
	slices.Reverse(hops)
	for v := meet; bwd[v].prev >= 0; v = bwd[v].prev {
		s := bwd[v]
		hops = append(hops, Hop{Edge: s.edge, From: v, To: s.prev})
	}
	for i := range hops {
		h := &hops[i]
		h.Reverse = e.edges[h.Edge].srcRow != h.From || e.edges[h.Edge].dstRow != h.To
	}
	return hops
}

// References returns the edges of kinds that reach r (incoming, resolved),
// with the symbol at their other end, ordered by file, line and column.
func (e *Engine) References(r int32, kinds []EdgeKind) []Link {
	var out []Link
	e.each(r, kinds, In, func(edge, v int32) bool {
		out = append(out, Link{Edge: edge, Node: v})
		return true
	})
	e.sortSites(out)
	return out
}

// Imports returns the resolved imports edges that leave r, with the
// symbol each reaches, ordered by file, line and column.
func (e *Engine) Imports(r int32) []Link {
	var out []Link
	e.each(r, []EdgeKind{Imports}, Out, func(edge, v int32) bool {
		out = append(out, Link{Edge: edge, Node: v})
		return true
	})
	e.sortSites(out)
	return out
}
