package query

import (
	"cmp"
	"slices"
	"strings"
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
	var out []Link
	for _, k := range callKinds {
		for _, i := range e.in[k].edges(r) {
			out = append(out, Link{Edge: int32(i), Node: e.edges[i].SrcRow})
		}
	}
	e.sortSites(out)
	return out
}

// Callees returns what r calls or instantiates, ordered by file, line and
// column: the resolved calls, and apart the unresolved ones, whose edges
// hold the target as written and why it was not resolved.
func (e *Engine) Callees(r int32) (resolved, unresolved []Link) {
	for _, k := range callKinds {
		for _, i := range e.out[k].edges(r) {
			l := Link{Edge: int32(i), Node: e.edges[i].DstRow}
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
			strings.Compare(x.File, y.File),
			cmp.Compare(x.Line, y.Line),
			cmp.Compare(x.Col, y.Col),
			cmp.Compare(a.Edge, b.Edge))
	})
}

// Children returns the rows r contains (its contains edges), in source
// order.
func (e *Engine) Children(r int32) []int32 {
	var out []int32
	for _, i := range e.out[Contains].edges(r) {
		if d := e.edges[i].DstRow; d >= 0 {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b int32) int {
		x, y := &e.nodes[a], &e.nodes[b]
		return cmp.Or(
			strings.Compare(x.File, y.File),
			cmp.Compare(x.StartLine, y.StartLine),
			cmp.Compare(x.StartCol, y.StartCol),
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
			for _, i := range e.out[k].edges(r) {
				if v := e.edges[i].DstRow; v >= 0 && !fn(int32(i), v) {
					return false
				}
			}
		}
		if d == In || d == Both {
			for _, i := range e.in[k].edges(r) {
				if !fn(int32(i), e.edges[i].SrcRow) {
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
	visited := newBitset(len(e.nodes))
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
		h.Reverse = e.edges[h.Edge].SrcRow != h.From || e.edges[h.Edge].DstRow != h.To
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
