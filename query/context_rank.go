package query

import (
	"math"
	"math/bits"
	"slices"
	"sync"
)

// How Context ranks rows, cheaply where it can.
//
// A task's words may be common: in GOROOT/src every symbol of a Go file
// holds "go" (its path ends in .go), four in ten hold "internal". Adding
// up BM25 for every row such a word matches, then scaling, normalising and
// ranking them all, is most of what a task costs, and what made the
// costliest tasks twenty times the median. Yet a common word weighs little
// (its IDF is small): a row that holds common words only scores at most
// the sum of their largest weights, which is usually far below the rows
// that also hold a rarer word. So rank adds up the rows that hold a rarer
// word, their common words included, and bounds the others: when the bound
// shows that none of them could be the best match, a seed or a pick, the
// answer is settled; else Context ranks again over every row. Either way
// the answer is the one a full ranking gives, to the bit.

// Ranking parameters.
const (
	// ctxCommon: a term that at least 1/ctxCommon of the documents hold
	// is common.
	ctxCommon = 8
	// ctxSlack is the relative margin that bounds keep over rounding.
	ctxSlack = 1e-9
)

// ctxScratch is what a Context call adds up by row: arrays by row, which
// each term's postings walk forward in row order, from a pool, zero but for
// the rows a call touched, which it clears when done.
type ctxScratch struct {
	text  []ctxText   // by row: the text match, zero for none
	slot  []int32     // by row: 1 + its index in share, zero for none
	rows  []int32     // the rows whose text match was added up, first matched first
	share []ctxShared // the rows seeds shared their score with, first reached first
}

// ctxText is a row's text match: BM25 over the terms it holds, scaled by
// their share of the task's and normalised, or -1 when the options'
// filters drop the row.
type ctxText struct {
	score float64
	mask  uint64 // terms matched
}

// ctxShared is a row that seeds shared their score with.
type ctxShared struct {
	row   int32
	ok    bool    // kept by the options' filters
	graph float64 // shares from seeds
	via   string
	viaBy float64 // the largest share, which names via
}

var scratchPool = sync.Pool{New: func() any { return new(ctxScratch) }}

// contextScratch returns a cleared scratch for n rows from the pool.
func contextScratch(n int) *ctxScratch {
	s := scratchPool.Get().(*ctxScratch)
	if len(s.text) < n {
		s.text, s.slot = make([]ctxText, n), make([]int32, n)
	}
	return s
}

// reset clears what a ranking touched.
func (s *ctxScratch) reset() {
	for _, r := range s.rows {
		s.text[r] = ctxText{}
	}
	for _, g := range s.share {
		s.text[g.row], s.slot[g.row] = ctxText{}, 0
	}
	clear(s.share)
	s.rows, s.share = s.rows[:0], s.share[:0]
}

// release clears s and puts it back in the pool.
func (s *ctxScratch) release() {
	s.reset()
	scratchPool.Put(s)
}

// graph returns the shares row r got from seeds and the via they name.
func (s *ctxScratch) graph(r int32) (float64, string) {
	if i := s.slot[r]; i > 0 {
		return s.share[i-1].graph, s.share[i-1].via
	}
	return 0, ""
}

// ctxTerm is a task's term that the index holds.
type ctxTerm struct {
	bit  uint64 // 1 << its place among the task's terms
	docs []int32
	tfs  []uint16
	idf  float64
}

// ctxRun is the ranking of one Context call.
type ctxRun struct {
	e         *Engine
	x         *ctxIndex
	s         *ctxScratch
	opt       ContextOptions
	terms     []ctxTerm // in the task's order
	matchable int       // the task's terms the index holds
}

// keep reports whether the options' filters keep row r.
func (q *ctxRun) keep(r int32) bool {
	e := q.e
	file := e.NodeFile(r)
	return !isContainer(e.NodeKind(r)) && (q.opt.Language == "" || e.nodeLang(r) == q.opt.Language) &&
		MatchFile(file, q.opt.File) && e.InScope(file)
}

// shared returns row r's entry in the scratch's share, adding it when it
// has none.
func (q *ctxRun) shared(r int32) *ctxShared {
	s := q.s
	if s.slot[r] == 0 {
		s.share = append(s.share, ctxShared{row: r, ok: q.keep(r)})
		s.slot[r] = int32(len(s.share))
	}
	return &s.share[s.slot[r]-1]
}

// bm25 is the BM25 weight of a term of inverse document frequency idf
// that row r holds with weighted frequency tf.
func (x *ctxIndex) bm25(idf float64, tf uint16, r int32) float64 {
	f := float64(tf)
	norm := bm25K1 * (1 - bm25B + bm25B*float64(x.lens[r])/x.avgLen)
	return idf * f * (bm25K1 + 1) / (f + norm)
}

// coverage scales a row's BM25 by the share of the task's words it holds:
// from a half (one word of many) to one (all of them).
func (q *ctxRun) coverage(mask uint64) float64 {
	return 0.5 + 0.5*float64(bits.OnesCount64(mask))/float64(max(q.matchable, 1))
}

// rank returns the k rows that rank first by final score, the first first
// (see Context), leaving in the scratch what the answer reads of them. The
// terms whose bits common holds are added up only for the rows that hold
// another term, and the rows that hold common terms only are bounded. It
// returns false when that bound cannot rule them out; rank with common
// zero then gives the answer.
func (q *ctxRun) rank(common uint64, k int) ([]rowScore, bool) {
	s, x, text := q.s, q.x, q.s.text
	rare := ^common
	// A row that holds common terms only scores below ub before
	// normalisation: a term's weight is below idf·(k1+1), and the
	// coverage of all of them bounds its coverage.
	ub, nc := 0.0, uint64(0)
	for _, t := range q.terms {
		if t.bit&common != 0 {
			ub += t.idf * (bm25K1 + 1)
			nc |= t.bit
		}
	}
	ub *= q.coverage(nc) * (1 + ctxSlack)

	// BM25, added up term after term in the task's order, as a full
	// ranking does: a sum's rounding depends on its order.
	if common != 0 {
		for _, t := range q.terms {
			if t.bit&common == 0 {
				for _, r := range t.docs {
					if text[r].mask == 0 {
						s.rows = append(s.rows, r)
					}
					text[r].mask |= t.bit
				}
			}
		}
	}
	for _, t := range q.terms {
		switch {
		case common == 0:
			for i, r := range t.docs {
				c := &text[r]
				if c.mask == 0 {
					s.rows = append(s.rows, r)
				}
				c.score += x.bm25(t.idf, t.tfs[i], r)
				c.mask |= t.bit
			}
		case t.bit&common == 0:
			for i, r := range t.docs {
				text[r].score += x.bm25(t.idf, t.tfs[i], r)
			}
		default:
			for i, r := range t.docs {
				if c := &text[r]; c.mask&rare != 0 {
					c.score += x.bm25(t.idf, t.tfs[i], r)
					c.mask |= t.bit
				}
			}
		}
	}
	// Coverage, the filters, and the best kept match, which normalises.
	filtered := q.opt.Language != "" || q.opt.File != "" || q.e.scope != ""
	top := 0.0
	for _, r := range s.rows {
		c := &text[r]
		c.score *= q.coverage(c.mask) * float64(x.boost[r])
		// Every row with a text match is a symbol: with no filter, each
		// is kept.
		if filtered && !q.keep(r) {
			c.score = -1
			continue
		}
		if c.score > top {
			top = c.score
		}
	}
	if common != 0 && !(top > ub) {
		return nil, false
	}
	if top == 0 {
		return nil, true
	}
	seeds := topRows{k: ctxSeeds}
	for _, r := range s.rows {
		if c := &text[r]; c.score >= 0 {
			c.score /= top
			seeds.push(r, c.score)
		}
	}
	bound := ub / top * (1 + ctxSlack)
	if common != 0 && !seeds.beats(bound) {
		return nil, false
	}

	// Graph expansion from the best text matches.
	for _, sd := range seeds.sorted() {
		h := sd.row
		links := q.e.contextLinks(h)
		share := ctxShare * sd.score / math.Sqrt(float64(len(links)))
		for _, l := range links[:min(len(links), ctxFanout)] {
			if l.node == h {
				continue
			}
			g := q.shared(l.node)
			if !g.ok {
				continue
			}
			g.graph += share
			if share > g.viaBy {
				g.viaBy, g.via = share, l.why+" "+q.e.NodeQName(h)
			}
		}
	}
	// The rows reached that hold common terms only: their text match in
	// full, as the rows above.
	if common != 0 {
		for _, g := range s.share {
			c := &text[g.row]
			if !g.ok || c.mask != 0 {
				continue
			}
			for _, t := range q.terms {
				if t.bit&common == 0 {
					continue
				}
				if i, ok := slices.BinarySearch(t.docs, g.row); ok {
					c.score += x.bm25(t.idf, t.tfs[i], g.row)
					c.mask |= t.bit
				}
			}
			if c.mask != 0 {
				c.score *= q.coverage(c.mask) * float64(x.boost[g.row])
				c.score /= top
			}
		}
	}

	// Final scores: text, graph shares, prior.
	picks := topRows{k: k}
	for _, r := range s.rows {
		if c := text[r]; c.score >= 0 {
			graph, _ := s.graph(r)
			if c.score > 0 || graph > 0 {
				picks.push(r, c.score+min(graph, ctxShare)+x.prior[r])
			}
		}
	}
	for _, g := range s.share {
		if c := text[g.row]; g.ok && c.mask&rare == 0 && (c.score > 0 || g.graph > 0) {
			picks.push(g.row, c.score+min(g.graph, ctxShare)+x.prior[g.row])
		}
	}
	if common != 0 && !picks.beats((bound+x.maxPrior)*(1+ctxSlack)) {
		return nil, false
	}
	return picks.sorted(), true
}

// rowScore is a row and its score.
type rowScore struct {
	row   int32
	score float64
}

// before reports whether a ranks before b: by a higher score, then by a
// smaller row.
func (a rowScore) before(b rowScore) bool {
	return a.score > b.score || a.score == b.score && a.row < b.row
}

// topRows keeps the k rows pushed that rank first (see rowScore.before),
// in a heap with the last of them at the root, so that a row ranking after
// it costs one comparison.
type topRows struct {
	k int
	h []rowScore
}

func (t *topRows) push(r int32, score float64) {
	x := rowScore{r, score}
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !t.h[p].before(t.h[i]) {
				break
			}
			t.h[p], t.h[i] = t.h[i], t.h[p]
			i = p
		}
		return
	}
	if t.k == 0 || !x.before(t.h[0]) {
		return
	}
	t.h[0] = x
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(t.h) {
			return
		}
		if c+1 < len(t.h) && t.h[c].before(t.h[c+1]) {
			c++
		}
		if !t.h[i].before(t.h[c]) {
			return
		}
		t.h[i], t.h[c] = t.h[c], t.h[i]
		i = c
	}
}

// beats reports whether t holds k rows and each scores above score, so
// that no row scoring at most score would be kept.
func (t *topRows) beats(score float64) bool {
	return len(t.h) == t.k && t.k > 0 && t.h[0].score > score
}

// sorted returns the rows kept, the first first; it reorders t's heap.
func (t *topRows) sorted() []rowScore {
	slices.SortFunc(t.h, func(a, b rowScore) int {
		switch {
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
	return t.h
}
