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
	rank     []float64 // global PageRank by row

	ctxOnce sync.Once
	ctx     *ctxIndex

	importTexts lazyIndex // import text → imports edges (ImportSites)

	reasonsOnce sync.Once
	reasons     []ReasonCount // UnresolvedReasons

	sitesOnce sync.Once
	sites     csr // callers in site order (callSites)

	rowSets sync.Pool // of *rowSet (Engine.rowSet)
}

func (e *Engine) lazy() *lazy { return e.later }

// Warm builds what the engine otherwise builds on first use: the
// postings of search, the index of snap_context (about 2 s for
// GOROOT/src), the global rank, the
// callers of every node in site order, and the lists behind import
// lookups and statistics. Queries running meanwhile
// answer as usual; one that needs an index still being built waits for
// it, as it would have built it itself.
func (e *Engine) Warm() {
	e.names.postings()
	e.contextIndex()
	e.globalRank()
	e.callSites()
	e.ImportSites("")
	e.UnresolvedReasons()
}

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

// Rank orders symbols by PageRank over opt.Kinds: damping 0.85, the rank
// of nodes without edges spread on the restart vector (every node, or the
// seeds). Ties go to the smaller row. The global rank (no seeds) runs power
// iteration until the L1 change is below 1e-6 or after 50 rounds; with
// the default kinds it is computed once per engine and kept. A seeded
// rank is computed by forward push from the seeds (see personalised), at
// a cost that depends on their neighbourhood, not on the graph's size.
func (e *Engine) Rank(opt RankOptions) []Ranked {
	var seeds []int32
	for _, s := range opt.Seeds {
		if s >= 0 && int(s) < len(e.nodes) {
			seeds = append(seeds, s)
		}
	}
	kinds := opt.Kinds
	if len(kinds) == 0 {
		kinds = DefaultRankKinds
	}
	var scores []float64
	var rows []int32 // the rows with a score, when not every row has one
	switch {
	case len(seeds) > 0:
		st := e.personalised(seeds, kinds)
		defer pushStates.Put(st)
		scores, rows = st.p, st.touched
	case isDefaultRankKinds(opt.Kinds):
		scores = e.globalRank()
	default:
		scores = e.rankGraph(kinds).run()
	}

	limit := opt.Limit
	if limit == 0 {
		limit = DefaultRankLimit
	}
	var hs []Hit
	keep := func(r int32) {
		if scores[r] != 0 && !slices.Contains(seeds, r) && e.keepRanked(r, &opt) {
			hs = append(hs, Hit{Node: r, Score: float32(scores[r])})
		}
	}
	if rows != nil {
		for _, r := range rows {
			keep(r)
		}
	} else {
		for r := range int32(len(e.nodes)) {
			keep(r)
		}
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

// rankPushError bounds the error of a seeded rank: the sum over all
// nodes of the differences to the exact scores (the rank still to spread
// when push stops) stays below it.
const rankPushError = 1e-5

// pushState is the scratch of a forward push, kept between calls: scores
// and residuals by row, and the rows touched, the only ones to clear.
type pushState struct {
	p, r    []float64
	queued  bitset
	touched []int32
	queue   []int32
	outs    []int32
}

var pushStates = sync.Pool{New: func() any { return new(pushState) }}

// personalised computes the PageRank whose walk restarts on seeds by
// forward push (Andersen, Chung and Lang, 2006): rank starts on the seeds
// as residue, and a node holding residue keeps 1-damping of it as score
// and passes the rest evenly to its successors, or back to the seeds if
// it has none. Nodes pass their residue while it is above a threshold
// per out-edge; the threshold shrinks until the residue left, which is
// the whole error, is below rankPushError. The answer is the fixed point
// power iteration converges to, within that. Put the state back into
// pushStates when done with it.
func (e *Engine) personalised(seeds []int32, kinds []EdgeKind) *pushState {
	st := pushStates.Get().(*pushState)
	n := len(e.nodes)
	if len(st.p) < n {
		st.p, st.r, st.queued = make([]float64, n), make([]float64, n), newBitset(n)
	} else {
		for _, v := range st.touched {
			st.p[v], st.r[v] = 0, 0
		}
	}
	st.touched, st.queue = st.touched[:0], st.queue[:0]
	touch := func(v int32) {
		if st.p[v] == 0 && st.r[v] == 0 && !st.queued.has(v) {
			st.touched = append(st.touched, v)
		}
	}
	threshold := 1e-4
	enqueue := func(v int32, degree int) {
		if !st.queued.has(v) && st.r[v] > threshold*float64(max(degree, 1)) {
			st.queued.set(v)
			st.queue = append(st.queue, v)
		}
	}
	add := func(v int32, x float64, degree int) {
		touch(v)
		st.r[v] += x
		enqueue(v, degree)
	}
	outDegree := func(u int32) int {
		d := 0
		e.each(u, kinds, Out, func(_, _ int32) bool { d++; return true })
		return d
	}
	share := 1 / float64(len(seeds))
	for _, s := range seeds {
		add(s, share, outDegree(s))
	}
	for {
		if len(st.queue) == 0 {
			left := 0.0
			for _, v := range st.touched {
				left += st.r[v]
			}
			if left < rankPushError || threshold < 1e-12 {
				break
			}
			threshold /= 8
			for _, v := range st.touched {
				enqueue(v, outDegree(v))
			}
			continue
		}
		u := st.queue[len(st.queue)-1]
		st.queue = st.queue[:len(st.queue)-1]
		st.queued[u/64] &^= 1 << (u % 64)
		ru := st.r[u]
		st.r[u] = 0
		st.p[u] += (1 - rankDamping) * ru
		pass := rankDamping * ru
		st.outs = st.outs[:0]
		e.each(u, kinds, Out, func(_, v int32) bool { st.outs = append(st.outs, v); return true })
		if len(st.outs) == 0 {
			for _, s := range seeds {
				add(s, pass*share, outDegree(s))
			}
			continue
		}
		each := pass / float64(len(st.outs))
		for _, v := range st.outs {
			add(v, each, outDegree(v))
		}
	}
	return st
}

func isDefaultRankKinds(kinds []EdgeKind) bool {
	return len(kinds) == 0 || slices.Equal(kinds, DefaultRankKinds)
}

func (e *Engine) keepRanked(r int32, opt *RankOptions) bool {
	kind := e.NodeKind(r)
	if len(opt.NodeKinds) > 0 {
		if !slices.Contains(opt.NodeKinds, kind) {
			return false
		}
	} else if !opt.Containers && isContainer(kind) {
		return false
	}
	file := e.NodeFile(r)
	return (opt.Language == "" || e.nodeLang(r) == opt.Language) && MatchFile(file, opt.File) && e.InScope(file)
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
		l.rank = e.rankGraph(DefaultRankKinds).run()
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
			total += e.in.count[k]
		}
	}
	g.src = make([]int32, 0, total)
	for v := range int32(n) {
		for _, k := range kinds {
			if k >= numEdgeKinds {
				continue
			}
			for _, i := range e.in.edges(v, k) {
				u := e.edges[i].srcRow
				g.src = append(g.src, u)
				g.outs[u]++
			}
		}
		g.off[v+1] = uint32(len(g.src))
	}
	return g
}

// run iterates PageRank to convergence and returns the scores by row.
func (g *rankGraph) run() []float64 {
	n := len(g.outs)
	if n == 0 {
		return nil
	}
	// restart is the restart vector: uniform.
	restart := make([]float64, n)
	for v := range restart {
		restart[v] = 1 / float64(n)
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
