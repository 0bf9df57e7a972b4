package query

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/graphsnap/snap/schemas"
)

// lazy holds what an engine computes on first use and keeps: most
// sessions never ask for it, and a swap should not wait for it.
type lazy struct {
	rankOnce sync.Once
	rankG    *rankGraph // the default kinds' graph, kept for seeded runs
	rank     []float64  // global PageRank by row

	ctxOnce sync.Once
	ctx     *ctxIndex

	importTexts lazyIndex // import text → imports edges (ImportSites)
}

func (e *Engine) lazy() *lazy { return &e.later }

// PageRank parameters.
const (
	rankDamping   = 0.85
	rankTolerance = 1e-6 // stop when the L1 change of a round is below
	rankRounds    = 50   // and after this many rounds in any case
)

// DefaultRankLimit is how many symbols Rank returns when RankOptions.Limit
// is 0.
const DefaultRankLimit = 20

// DefaultRankKinds are the edges that pass rank by default: every kind but
// contains.
var DefaultRankKinds = DefaultPathKinds

// RankOptions shape a PageRank. Zero values take the defaults.
type RankOptions struct {
	// Kinds are the edges that pass rank along their direction (a callee
	// called by many ranks high); none means DefaultRankKinds.
	Kinds []EdgeKind
	// Seeds personalise the rank: the random walk restarts on them only,
	// so the result is what matters from the seeds' point of view. Rows out
	// of range are ignored; the seeds themselves are left out of the result.
	Seeds []int32
	// NodeKinds keeps symbols of these kinds ("function"); none keeps all
	// but file, package and module nodes, unless Containers.
	NodeKinds []string
	// Containers keeps file, package and module nodes when NodeKinds is
	// empty.
	Containers bool
	Language   string // keep this language only
	File       string // keep symbols whose file matches (see MatchFile)
	Limit      int    // at most this many; 0 for DefaultRankLimit, -1 for all
}

// Ranked is one symbol of a PageRank: its row and its score, the
// stationary probability of the random walk at it (scores of all nodes sum
// to 1, so they shrink as graphs grow; compare them within one answer).
type Ranked struct {
	Node  int32
	Score float64
}

// Rank orders symbols by PageRank over opt.Kinds: damping 0.85, power
// iteration until the L1 change is below 1e-6 or after 50 rounds, the rank
// of nodes without edges spread on the restart vector (every node, or the
// seeds). Ties go to the smaller row. The global rank (no seeds, default
// kinds) is computed once per engine and kept; other runs cost one
// iteration each, about O(rounds × edges).
func (e *Engine) Rank(opt RankOptions) []Ranked {
	var seeds []int32
	for _, s := range opt.Seeds {
		if s >= 0 && int(s) < len(e.nodes) {
			seeds = append(seeds, s)
		}
	}
	var scores []float64
	switch {
	case len(seeds) == 0 && isDefaultRankKinds(opt.Kinds):
		scores = e.globalRank()
	case isDefaultRankKinds(opt.Kinds):
		e.globalRank() // builds the default graph once
		scores = e.lazy().rankG.run(seeds)
	default:
		scores = e.rankGraph(opt.Kinds).run(seeds)
	}

	limit := opt.Limit
	if limit == 0 {
		limit = DefaultRankLimit
	}
	isSeed := newBitset(len(e.nodes))
	for _, s := range seeds {
		isSeed.set(s)
	}
	var hs []Hit
	for r := range int32(len(e.nodes)) {
		if isSeed.has(r) || scores[r] == 0 || !e.keepRanked(&e.nodes[r], &opt) {
			continue
		}
		hs = append(hs, Hit{Node: r, Score: float32(scores[r])})
	}
	// Order by the exact score, not the float32 copy.
	top := best(hs, max(limit, 0), func(a, b Hit) int {
		return cmp.Or(cmp.Compare(scores[b.Node], scores[a.Node]), cmp.Compare(a.Node, b.Node))
	})
	out := make([]Ranked, len(top))
	for i, h := range top {
		out[i] = Ranked{Node: h.Node, Score: scores[h.Node]}
	}
	return out
}

func isDefaultRankKinds(kinds []EdgeKind) bool {
	return len(kinds) == 0 || slices.Equal(kinds, DefaultRankKinds)
}

func (e *Engine) keepRanked(n *schemas.Node, opt *RankOptions) bool {
	if len(opt.NodeKinds) > 0 {
		if !slices.Contains(opt.NodeKinds, n.Kind) {
			return false
		}
	} else if !opt.Containers && isContainer(n.Kind) {
		return false
	}
	return (opt.Language == "" || n.Language == opt.Language) && MatchFile(n.File, opt.File)
}

// isContainer reports whether kind is a file, package, module or namespace:
// nodes that hold symbols rather than being one.
func isContainer(kind string) bool {
	switch kind {
	case schemas.KindFile, schemas.KindPackage, schemas.KindModule, schemas.KindNamespace:
		return true
	}
	return false
}

// globalRank returns the unseeded PageRank over DefaultRankKinds by row,
// computing it on first use. The slice is shared: do not modify it.
func (e *Engine) globalRank() []float64 {
	l := e.lazy()
	l.rankOnce.Do(func() {
		l.rankG = e.rankGraph(DefaultRankKinds)
		l.rank = l.rankG.run(nil)
	})
	return l.rank
}

// rankGraph is the graph a PageRank walks, reduced to what the inner loop
// reads: for each node the sources of its incoming edges (CSR), and each
// node's out-degree. Unresolved edges are left out; parallel edges count
// once each, so three call sites pass three times the rank of one.
type rankGraph struct {
	off  []uint32
	src  []int32
	outs []uint32
}

func (e *Engine) rankGraph(kinds []EdgeKind) *rankGraph {
	n := len(e.nodes)
	g := &rankGraph{off: make([]uint32, n+1), outs: make([]uint32, n)}
	kinds = slices.Compact(slices.Sorted(slices.Values(kinds)))
	total := 0
	for _, k := range kinds {
		if k < numEdgeKinds {
			total += len(e.in[k].idx)
		}
	}
	g.src = make([]int32, 0, total)
	for v := range int32(n) {
		for _, k := range kinds {
			if k >= numEdgeKinds {
				continue
			}
			for _, i := range e.in[k].edges(v) {
				u := e.edges[i].SrcRow
				g.src = append(g.src, u)
				g.outs[u]++
			}
		}
		g.off[v+1] = uint32(len(g.src))
	}
	return g
}

// run iterates PageRank to convergence and returns the scores by row. With
// seeds, the walk restarts on them (evenly) instead of on every node.
func (g *rankGraph) run(seeds []int32) []float64 {
	n := len(g.outs)
	if n == 0 {
		return nil
	}
	// restart is the restart vector: uniform, or spread over the seeds
	// (a seed listed twice counts twice).
	restart := make([]float64, n)
	if len(seeds) == 0 {
		for v := range restart {
			restart[v] = 1 / float64(n)
		}
	}
	for _, s := range seeds {
		restart[s] += 1 / float64(len(seeds))
	}
	rank := slices.Clone(restart)
	next := make([]float64, n)
	share := make([]float64, n) // rank[u] / outdegree(u)
	for range rankRounds {
		dangling := 0.0
		for u, d := range g.outs {
			if d == 0 {
				dangling += rank[u]
				share[u] = 0
			} else {
				share[u] = rank[u] / float64(d)
			}
		}
		// Every node restarts with probability 1-d, and the walk leaves a
		// dangling node through a restart too.
		restartMass := (1 - rankDamping) + rankDamping*dangling
		delta := 0.0
		for v := range n {
			sum := 0.0
			for _, u := range g.src[g.off[v]:g.off[v+1]] {
				sum += share[u]
			}
			x := rankDamping*sum + restartMass*restart[v]
			delta += math.Abs(x - rank[v])
			next[v] = x
		}
		rank, next = next, rank
		if delta < rankTolerance {
			break
		}
	}
	return rank
}
