package main

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/graphsnap/snap/schemas"
)

// isCallable reports whether a node kind has a body that runs: the
// functions whose changes are the truth, and the documents of the BM25
// baseline.
func isCallable(kind string) bool {
	switch kind {
	case schemas.KindFunction, schemas.KindMethod, schemas.KindConstructor:
		return true
	}
	return false
}

// truth returns the callables of nodes, in the files of ch that keep
// holds, whose lines meet the lines the change deleted or replaced, or
// that hold a line it inserted after; and the files of ch, at the parent,
// that keep holds and the change touched.
func truth(nodes []schemas.Node, ch []fileChange, keep func(path string) bool) (fns map[uint64]bool, files map[string]bool) {
	fns, files = map[uint64]bool{}, map[string]bool{}
	byFile := map[string]*fileChange{}
	for i := range ch {
		c := &ch[i]
		if c.Status == 'A' || !keep(c.Path) || len(c.Deleted)+len(c.Inserted) == 0 {
			continue
		}
		byFile[c.Path] = c
		files[c.Path] = true
	}
	for i := range nodes {
		n := &nodes[i]
		c := byFile[n.File]
		if c == nil || !isCallable(n.Kind) {
			continue
		}
		hit := slices.ContainsFunc(c.Deleted, func(r lineRange) bool { return r.Lo <= n.EndLine && n.StartLine <= r.Hi }) ||
			slices.ContainsFunc(c.Inserted, func(after uint32) bool { return n.StartLine <= after && after < n.EndLine })
		if hit {
			fns[n.ID] = true
		}
	}
	return fns, files
}

// terms splits text into lower-cased words: runs of letters and digits,
// cut where camelCase changes case ("parseHTTPHeader" gives parse, http,
// header) and at underscores; single characters are left out.
func terms(text string) []string {
	var out []string
	rs := []rune(text)
	flush := func(i, j int) {
		if j-i > 1 {
			out = append(out, strings.ToLower(string(rs[i:j])))
		}
	}
	start := -1
	for i := 0; i <= len(rs); i++ {
		alnum := i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
		if !alnum {
			if start >= 0 {
				flush(start, i)
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev, r := rs[i-1], rs[i]
		// aB: a word starts at B; ABc: a word starts at B.
		if unicode.IsLower(prev) && unicode.IsUpper(r) ||
			unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
			flush(start, i)
			start = i
		}
	}
	return out
}

// BM25 parameters of the baseline.
const (
	baseK1 = 1.2
	baseB  = 0.75
)

// bm25 is the baseline: BM25 over documents of terms.
type bm25 struct {
	tf     []map[string]int
	length []int
	df     map[string]int
	avg    float64
}

func newBM25(docs [][]string) *bm25 {
	x := &bm25{df: map[string]int{}}
	total := 0
	for _, d := range docs {
		tf := map[string]int{}
		for _, t := range d {
			tf[t]++
		}
		for t := range tf {
			x.df[t]++
		}
		x.tf = append(x.tf, tf)
		x.length = append(x.length, len(d))
		total += len(d)
	}
	if len(docs) > 0 {
		x.avg = float64(total) / float64(len(docs))
	}
	return x
}

// rank returns the documents that hold a term of the query, best first;
// ties go to the earlier document.
func (x *bm25) rank(query []string) []int {
	n := float64(len(x.tf))
	var qs []string
	for _, t := range query {
		if !slices.Contains(qs, t) {
			qs = append(qs, t)
		}
	}
	score := make([]float64, len(x.tf))
	var hit []int
	for d, tf := range x.tf {
		for _, t := range qs {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			df := float64(x.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			norm := baseK1 * (1 - baseB + baseB*float64(x.length[d])/x.avg)
			score[d] += idf * f * (baseK1 + 1) / (f + norm)
		}
		if score[d] > 0 {
			hit = append(hit, d)
		}
	}
	slices.SortStableFunc(hit, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return 0
	})
	return hit
}

// accFile reports whether one of want is among the first k distinct files
// of ranked.
func accFile(ranked []string, want map[string]bool, k int) bool {
	var seen []string
	for _, f := range ranked {
		if slices.Contains(seen, f) {
			continue
		}
		if len(seen) == k {
			return false
		}
		seen = append(seen, f)
		if want[f] {
			return true
		}
	}
	return false
}

// accFunc reports whether one of want is among the first k of ranked.
func accFunc(ranked []uint64, want map[uint64]bool, k int) bool {
	return slices.ContainsFunc(ranked[:min(k, len(ranked))], func(id uint64) bool { return want[id] })
}
