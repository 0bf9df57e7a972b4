package query

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"unsafe"

	"github.com/graphsnap/snap/schemas"
)

// Context defaults and bounds.
const (
	DefaultContextTokens = 4000   // the budget when ContextOptions.Tokens is 0
	MaxContextTokens     = 100000 // budgets are clamped to this
	DefaultContextLimit  = 30     // symbols at most when ContextOptions.Limit is 0
)

// ContextOptions shape a Context answer. Zero values take the defaults.
type ContextOptions struct {
	Tokens   int    // budget in tokens (≈ bytes/4); clamped to MaxContextTokens
	Limit    int    // at most this many symbols
	Language string // keep this language only
	File     string // keep symbols whose file matches (see MatchFile)
}

// CodeKind says what code a ContextSymbol carries.
type CodeKind uint8

// Code kinds.
const (
	CodeBody      CodeKind = iota // the whole body
	CodeTruncated                 // the body's first lines, cut to the budget
	CodeSignature                 // the signature only: no source, a large type, or no budget left for the body
	CodeInside                    // nothing: its text is inside the body of an earlier symbol
)

// String returns "body", "truncated", "signature" or "inside".
func (k CodeKind) String() string {
	switch k {
	case CodeBody:
		return "body"
	case CodeTruncated:
		return "truncated"
	case CodeSignature:
		return "signature"
	case CodeInside:
		return "inside"
	}
	return fmt.Sprintf("CodeKind(%d)", k)
}

// ContextSymbol is one symbol a Context answer picked.
type ContextSymbol struct {
	Node    int32
	Score   float64  // relevance: text match (the best is 1) plus graph shares and a small PageRank prior
	Matched []string // the task's words its name, qualified name, path or doc hold
	Via     string   // how the graph led to it ("called by net/http.(*Client).Do"); empty for a text match alone
	Code    string   // per Shown: the body, its first lines, the signature, or empty
	Shown   CodeKind
	Tokens  int // what the entry costs: its code and a line naming it
}

// Why says in words why the symbol was picked: "matches redirect, client",
// "called by X", or both.
func (s *ContextSymbol) Why() string {
	var parts []string
	if len(s.Matched) > 0 {
		parts = append(parts, "matches "+strings.Join(s.Matched, ", "))
	}
	if s.Via != "" {
		parts = append(parts, s.Via)
	}
	return strings.Join(parts, "; ")
}

// ContextResult is the outcome of Context.
type ContextResult struct {
	Terms     []string // the task's words that were searched, after stop words
	Unmatched []string // those no symbol holds
	Symbols   []ContextSymbol
	Tests     []ContextSymbol // the tests that rank among them, apart and without code (none when a file filter is set)
	Tokens    int             // tokens used, at most Budget
	Budget    int             // the budget it ran with
	Truncated bool            // some body was cut or left out to stay in budget
}

// Context scoring parameters.
const (
	bm25K1        = 2.0
	bm25B         = 0.75
	ctxSeeds      = 10   // the best text matches that share their score with neighbours
	ctxShare      = 0.5  // a neighbour's share of a seed's score, over sqrt(seed's neighbours); at most this in all
	ctxFanout     = 200  // neighbours of a seed looked at, at most
	ctxPrior      = 0.05 // weight of the PageRank prior
	ctxMinTrunc   = 32   // fewest tokens of body worth showing cut
	ctxDocWords   = 48   // words of a doc comment indexed
	ctxCallWords  = 32   // targets of a symbol's calls and references indexed
	ctxBodyWords  = 4096 // words of a function's body indexed
	ctxTests      = 5    // tests named apart, at most
	ctxTypeBoost  = 0.8  // what a type's text match counts, a function's being 1
	ctxValueBoost = 0.5  // and a field's, variable's or constant's
	ctxAsideBoost = 0.5  // and, times those, a symbol's in examples, benchmarks or docs (asidePath), or generated
)

// Field weights of the context index: a word in a symbol's name counts
// most, then in its qualified name, its file's path, its doc, and the
// names it calls, instantiates or references as written (resolved or not:
// "resp.redirect()" gives redirect).
const (
	weightName  = 6
	weightQName = 3
	weightPath  = 2
	weightDoc   = 1
	weightCall  = 1
	weightBody  = 1
)

// ctxIndex is a BM25 index over symbols (every node but files, packages,
// modules and namespaces). The postings of term t are docs[off[t]:off[t+1]]
// (rows, ascending) with their weighted term frequencies in tfs.
type ctxIndex struct {
	terms    map[string]int32
	off      []uint32
	docs     []int32
	tfs      []uint16
	lens     []uint16 // weighted length by row, saturated
	avgLen   float64
	numDocs  int
	prior    []float64       // the PageRank prior by row (see contextPrior)
	maxPrior float64         // the largest of them
	test     []bool          // by row: a test, or a symbol of a test file
	boost    []float32       // by row: what its text match counts (kindBoost)
	named    map[string]bool // the stop and task words that name a symbol whole
}

// Context answers a task in words ("add retry to the HTTP client's redirect
// handling") with the symbols most likely involved and their code, within a
// token budget (tokens ≈ bytes/4).
//
// It ranks symbols by BM25 over their name's words (camelCase and
// snake_case split), qualified name, file path, doc comment and the names
// they call, with those fields weighted in that order, words lower-cased
// and lightly stemmed.
// BM25 is scaled by the share of the task's words a symbol holds. Then the
// ten best matches pass a share of their score to their
// neighbours over calls, instantiations, references, implementations and
// containment (one hop), and a small PageRank prior breaks near-ties. It
// picks symbols by score until the budget is spent: each with its body, cut
// at a line to fit when needed (CodeTruncated), or its signature. Ties go
// to the smaller row. The index is built on first use and kept.
func (e *Engine) Context(task string, opt ContextOptions) ContextResult {
	res, _ := e.context(task, opt, -1, true)
	return res
}

// context is Context with the terms that at least commonDF documents hold
// bounded (see rank), or with those that 1/ctxCommon of them hold when
// commonDF is -1. Without code, it picks symbols up to the limit, with no
// code and no budget, and every test apart. It reports whether the bound
// settled the answer.
func (e *Engine) context(task string, opt ContextOptions, commonDF int, code bool) (ContextResult, bool) {
	budget := opt.Tokens
	if budget <= 0 {
		budget = DefaultContextTokens
	}
	budget = min(budget, MaxContextTokens)
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultContextLimit
	}
	res := ContextResult{Budget: budget}
	x := e.contextIndex()

	// The task's terms, each with the first word that gave it.
	var terms, words []string
	queryTerms(task, x.named, func(term, word string) {
		if !slices.Contains(terms, term) && len(terms) < 64 {
			terms = append(terms, term)
			words = append(words, word)
		}
	})
	res.Terms = words

	q := ctxRun{e: e, x: x, s: contextScratch(len(e.nodes)), opt: opt}
	defer q.s.release()
	if commonDF < 0 {
		commonDF = x.numDocs / ctxCommon
	}
	var common, all uint64
	for t, term := range terms {
		id, ok := x.terms[term]
		if !ok {
			res.Unmatched = append(res.Unmatched, words[t])
			continue
		}
		docs, tfs := x.docs[x.off[id]:x.off[id+1]], x.tfs[x.off[id]:x.off[id+1]]
		df := float64(len(docs))
		idf := math.Log(1 + (float64(x.numDocs)-df+0.5)/(df+0.5))
		q.terms = append(q.terms, ctxTerm{bit: 1 << t, docs: docs, tfs: tfs, idf: idf})
		if all |= 1 << t; len(docs) >= commonDF {
			common |= 1 << t
		}
	}
	q.matchable = len(q.terms)
	if common == all {
		common = 0 // no row holds a rarer term
	}
	// The picks come from the best few: enough for the limit, and for
	// the entries that the budget makes the loop skip.
	k := 4*limit + 16
	picks, bounded := q.rank(common, k)
	if !bounded {
		q.s.reset()
		picks, _ = q.rank(0, k)
	}
	bounded = bounded && common != 0
	text := q.s.text

	// Pick by score until the budget or the limit is reached.
	type span struct {
		file       string
		start, end uint32
		row        int32
	}
	var shown []span // bodies shown whole
	for _, p := range picks {
		if len(res.Symbols) == limit || !code && len(res.Symbols)+len(res.Tests) == limit {
			break
		}
		r := p.row
		n := e.Node(r)
		sym := ContextSymbol{Node: r, Score: p.score}
		for t := range terms {
			if text[r].mask&(1<<t) != 0 {
				sym.Matched = append(sym.Matched, words[t])
			}
		}
		if graph, via := q.s.graph(r); graph > 0 {
			sym.Via = via
		}
		if !code {
			if x.test[r] && opt.File == "" {
				res.Tests = append(res.Tests, sym)
			} else {
				res.Symbols = append(res.Symbols, sym)
			}
			continue
		}
		left := budget - res.Tokens
		head := tokensOf(len(n.QualifiedName) + len(n.File) + len(sym.Why()) + 16)
		if head > left {
			break
		}
		if x.test[r] && opt.File == "" {
			// Tests come apart, named without their code.
			if len(res.Tests) < ctxTests {
				sym.Shown, sym.Tokens = CodeSignature, head
				res.Tokens += head
				res.Tests = append(res.Tests, sym)
			}
			continue
		}
		inside := slices.IndexFunc(shown, func(p span) bool {
			return p.file == n.File && p.start <= n.StartByte && n.EndByte <= p.end && p.row != r
		})
		body, hasBody := e.Body(r)
		sig := tokensOf(len(n.Signature))
		switch {
		case inside >= 0:
			sym.Shown = CodeInside
			in := "inside " + e.NodeQName(shown[inside].row)
			if sym.Via == "" {
				sym.Via = in
			} else {
				sym.Via += "; " + in
			}
		case !hasBody || isTypeLike(n.Kind) && tokensOf(len(body)) > budget/4:
			sym.Shown, sym.Code = CodeSignature, n.Signature
		case head+tokensOf(len(body)) <= left:
			sym.Shown, sym.Code = CodeBody, string(body)
			shown = append(shown, span{n.File, n.StartByte, n.EndByte, r})
		case left-head >= ctxMinTrunc:
			cut := body[:(left-head)*4]
			if i := bytes.LastIndexByte(cut, '\n'); i > 0 {
				cut = cut[:i+1]
			}
			sym.Shown, sym.Code = CodeTruncated, string(cut)
			res.Truncated = true
		case head+sig <= left:
			sym.Shown, sym.Code = CodeSignature, n.Signature
			res.Truncated = true
		default:
			res.Truncated = true
			continue
		}
		sym.Tokens = head + tokensOf(len(sym.Code))
		res.Tokens += sym.Tokens
		res.Symbols = append(res.Symbols, sym)
	}
	return res, bounded
}

// tokensOf estimates the tokens of n bytes.
func tokensOf(n int) int { return (n + 3) / 4 }

// isTypeLike reports whether kind declares a type, whose body may hold
// every member.
func isTypeLike(kind string) bool {
	switch kind {
	case schemas.KindClass, schemas.KindStruct, schemas.KindInterface, schemas.KindTrait, schemas.KindEnum:
		return true
	}
	return false
}

// ctxLink is a neighbour of a context seed and how it relates to it, as
// words to put before the seed's name.
type ctxLink struct {
	node int32
	why  string
}

// contextLinks returns r's neighbours over calls, instantiations,
// references, implementations and containment, in edge order, each once.
func (e *Engine) contextLinks(r int32) []ctxLink {
	var out []ctxLink
	seen := map[int32]bool{r: true}
	add := func(v int32, why string) {
		if !seen[v] {
			seen[v] = true
			out = append(out, ctxLink{v, why})
		}
	}
	for _, k := range [...]EdgeKind{Calls, Instantiates, References, Implements, Extends, Contains} {
		rs := e.outRows(r, k)
		for i := rs.lo; i < rs.hi; i++ {
			if v := e.edges[i].dstRow; v >= 0 {
				add(v, linkWords[k][0])
			}
		}
		for _, i := range e.in.edges(r, k) {
			add(e.edges[i].srcRow, linkWords[k][1])
		}
	}
	return out
}

// linkWords says how a neighbour relates to a seed: [0] when the seed's
// edge points at it, [1] when its edge points at the seed.
var linkWords = [numEdgeKinds][2]string{
	Contains:     {"declared in", "contains"},
	Calls:        {"called by", "calls"},
	Instantiates: {"instantiated by", "instantiates"},
	References:   {"referenced by", "references"},
	Implements:   {"implemented by", "implements"},
	Extends:      {"extended by", "extends"},
}

// contextIndex returns the engine's context index, building it on first
// use.
func (e *Engine) contextIndex() *ctxIndex {
	l := e.lazy()
	l.ctxOnce.Do(func() {
		x := e.buildContextIndex()
		x.prior = e.contextPrior()
		for _, p := range x.prior {
			x.maxPrior = max(x.maxPrior, p)
		}
		l.ctx = x
	})
	return l.ctx
}

// contextPrior returns the PageRank prior of Context by row: the log of
// the global rank scaled by the node count, over that of the highest, times
// ctxPrior; all zero when no node has rank.
func (e *Engine) contextPrior() []float64 {
	rank := e.globalRank()
	maxRank := 0.0
	for _, r := range rank {
		maxRank = max(maxRank, r)
	}
	prior := make([]float64, len(e.nodes))
	if maxRank == 0 {
		return prior
	}
	uniform := float64(len(e.nodes))
	for r := range prior {
		prior[r] = ctxPrior * math.Log1p(rank[r]*uniform) / math.Log1p(maxRank*uniform)
	}
	return prior
}

func (e *Engine) buildContextIndex() *ctxIndex {
	nodes := e.nodes
	x := &ctxIndex{terms: map[string]int32{}, lens: make([]uint16, len(nodes)),
		test: make([]bool, len(nodes)), boost: make([]float32, len(nodes)), named: map[string]bool{}}
	// Pass 1: each document's distinct terms and weights, flat, a
	// file's symbols after another's, so that each file's source is read
	// once.
	var (
		docTerm  []int32  // term ids, document after document
		docTF    []uint16 // their weights
		docStart = make([]uint32, len(nodes))
		docEnd   = make([]uint32, len(nodes))
		df       []uint32
		total    float64
	)
	// A document's weights add up by term id: weight[t] belongs to the
	// document whose row+1 is stamp[t], and doc lists its terms.
	var (
		weight []int
		stamp  []int32
		doc    []int32
		row    int32
	)
	// Words recur across symbols far more than they vary: each distinct
	// word as written is folded, stemmed and numbered once, in names (stop
	// words kept: "Do", "is_empty") and elsewhere.
	termOf := [2]map[string]int32{{}, {}} // word → term id, -1 for none
	term := func(word string, name bool) int32 {
		k := 0
		if name {
			k = 1
		}
		id, ok := termOf[k][word]
		if !ok {
			id = -1
			t, ok := indexTerm(word)
			if name && !ok && len(word) > 1 {
				t, ok = stem(foldASCII(word)), true
			}
			if ok {
				if id, ok = x.terms[t]; !ok {
					id = int32(len(df))
					x.terms[t] = id
					df = append(df, 0)
					weight = append(weight, 0)
					stamp = append(stamp, 0)
				}
			}
			termOf[k][strings.Clone(word)] = id
		}
		return id
	}
	add := func(id int32, w uint16) {
		if stamp[id] != row+1 {
			stamp[id], weight[id] = row+1, 0
			doc = append(doc, id)
		}
		weight[id] += int(w)
	}
	// So do names, scopes, paths and call targets: their terms are
	// cached whole.
	cache := [2]map[string][]int32{{}, {}}
	addAll := func(s string, w uint16, name bool) {
		k := 0
		if name {
			k = 1
		}
		ids, ok := cache[k][s]
		if !ok {
			ids = []int32{}
			words(s, func(i, j int) {
				if id := term(s[i:j], name); id >= 0 {
					ids = append(ids, id)
				}
			})
			cache[k][s] = ids
		}
		for _, id := range ids {
			add(id, w)
		}
	}
	tests, asideFiles := map[string]bool{}, map[string]bool{}
	for _, f := range e.files {
		if f.IsTest || testPath(f.Path) {
			tests[f.Path] = true
		} else if asidePath(f.Path) {
			asideFiles[f.Path] = true
		}
	}
	index := func(r int32, src []byte) {
		n := e.Node(r)
		row, doc = r, doc[:0]
		x.test[r] = n.IsTest || tests[n.File]
		x.boost[r] = kindBoost(n.Kind)
		if asideFiles[n.File] || e.IsGenerated(r) {
			x.boost[r] *= ctxAsideBoost
		}
		if w := foldASCII(n.Name); stopWords[w] || taskWords[w] {
			x.named[w] = true
		}
		addAll(n.Name, weightName, true)
		// A '.' ends a word: the words of the qualified name are those of
		// its scope and of its last part.
		q := normQualified(n.QualifiedName)
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			addAll(q[:i], weightQName, true)
			q = q[i+1:]
		}
		addAll(q, weightQName, true)
		addAll(n.File, weightPath, false)
		nw := 0
		eachWord(n.Doc, func(i, j int) bool {
			if id := term(n.Doc[i:j], false); id >= 0 {
				add(id, weightDoc)
			}
			nw++
			return nw < ctxDocWords
		})
		calls := 0
		for _, k := range [...]EdgeKind{Calls, Instantiates, References} {
			rs := e.outRows(r, k)
			for i := rs.lo; i < rs.hi; i++ {
				if calls++; calls > ctxCallWords {
					break
				}
				addAll(targetName(e.targets.str(e.edges[i].target)), weightCall, false)
			}
		}
		// The body of a function: every word of its code and comments.
		if isCallable(n.Kind) && n.StartByte <= n.EndByte && int(n.EndByte) <= len(src) && n.EndByte > n.StartByte {
			body := unsafe.String(&src[n.StartByte], n.EndByte-n.StartByte)
			nw := 0
			eachWord(body, func(i, j int) bool {
				if id := term(body[i:j], false); id >= 0 {
					add(id, weightBody)
				}
				nw++
				return nw < ctxBodyWords
			})
		}
		length := 0
		docStart[r] = uint32(len(docTerm))
		for _, id := range doc {
			w := weight[id]
			df[id]++
			docTerm = append(docTerm, id)
			docTF = append(docTF, uint16(min(w, math.MaxUint16)))
			length += w
		}
		docEnd[r] = uint32(len(docTerm))
		x.lens[r] = uint16(min(length, math.MaxUint16))
		total += float64(x.lens[r])
		x.numDocs++
	}
	done := make([]bool, len(nodes))
	for _, p := range e.paths {
		rows := e.fileSymbols[p]
		if len(rows) == 0 {
			continue
		}
		src, _ := e.Source(p)
		for _, r := range rows {
			if !done[r] && !isContainer(e.NodeKind(r)) {
				done[r] = true
				index(r, src)
			}
		}
	}
	for r := range nodes {
		if !done[r] && !isContainer(e.NodeKind(int32(r))) {
			index(int32(r), nil)
		}
	}
	if x.numDocs > 0 {
		x.avgLen = total / float64(x.numDocs)
	}
	// Pass 2: invert, documents in row order.
	x.off = make([]uint32, len(df)+1)
	for t, d := range df {
		x.off[t+1] = x.off[t] + d
	}
	x.docs = make([]int32, len(docTerm))
	x.tfs = make([]uint16, len(docTerm))
	next := slices.Clone(x.off[:len(df)])
	for r := range nodes {
		for i := docStart[r]; i < docEnd[r]; i++ {
			t := docTerm[i]
			x.docs[next[t]] = int32(r)
			x.tfs[next[t]] = docTF[i]
			next[t]++
		}
	}
	return x
}

// testPath reports whether a file is a test's by its path where its
// language does not say: under a folder named test, tests, __tests__,
// spec or specs, or named as tests are in most languages (x_test.go,
// test_x.py, x.test.ts, x.spec.js, XTest.java).
func testPath(p string) bool {
	dir, base := path.Split(p)
	for d := range strings.SplitSeq(strings.TrimSuffix(dir, "/"), "/") {
		switch d {
		case "test", "tests", "__tests__", "spec", "specs":
			return true
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, ".test") ||
		strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests")
}

// asidePath reports whether a file is beside the code a task changes, by
// its path: under a folder of examples, benchmarks or documentation.
func asidePath(p string) bool {
	for d := range strings.SplitSeq(path.Dir(p), "/") {
		switch d {
		case "example", "examples", "_examples", "benchmark", "benchmarks", "docs", "doc":
			return true
		}
	}
	return false
}

// isCallable reports whether kind is a function, a method or a
// constructor: code that runs, which a task most often means to change.
func isCallable(kind string) bool {
	switch kind {
	case schemas.KindFunction, schemas.KindMethod, schemas.KindConstructor:
		return true
	}
	return false
}

// kindBoost is what a symbol's text match counts by its kind: functions
// whole, types somewhat less, and fields, variables and constants, whose
// one-word names match many tasks by chance, least.
func kindBoost(kind string) float32 {
	switch {
	case isCallable(kind):
		return 1
	case isTypeLike(kind), kind == schemas.KindType:
		return ctxTypeBoost
	}
	return ctxValueBoost
}

// indexTerm returns the index term of one word, and false for a stop word
// or a single letter.
func indexTerm(word string) (string, bool) {
	w := foldASCII(word)
	if len(w) < 2 || stopWords[w] {
		return "", false
	}
	return stem(w), true
}

// queryTerms calls fn with the term and the word of each word of a task
// but numbers and single letters, and but stop words and task verbs
// ("add", "fix") that named does not hold: those that name no symbol.
func queryTerms(task string, named map[string]bool, fn func(term, word string)) {
	words(task, func(i, j int) {
		w := foldASCII(task[i:j])
		if len(w) < 2 || wordClass[w[0]] == 3 {
			return
		}
		if stopWords[w] || taskWords[w] {
			if named[w] {
				fn(stem(w), w)
			}
			return
		}
		fn(stem(w), w)
	})
}

// stopWords are left out of the index and of tasks.
var stopWords = setOf(`a an and are as at be been but by can could did do does for from had has have
	how if in into is it its may might must no not of on or our should so than that the their them then
	there these they this those to too was we were what when where which while who whom why will with
	would you your`)

// taskWords are words of a task that say what to do rather than what to do
// it to.
var taskWords = setOf(`add adding fix fixing implement implementing change changing modify improve
	refactor make need needs want wants please support supporting code function functions method methods
	logic`)

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// stem strips a lower-case word's plural and -ing/-ed endings and a final
// e, so "handles", "handling", "handled" and "handle" all read "handl", and
// "entries" reads "entry". It is deliberately light: "server" and "serve"
// stay apart.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") ||
		strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "zes")):
		w = w[:len(w)-2]
	case len(w) > 3 && w[len(w)-1] == 's' && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case len(w) >= 7 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:len(w)-3])
	case len(w) >= 6 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops the last of a doubled consonant left by a suffix
// ("mapp" → "map"), but not of ll, ss or zz ("call", "pass").
func undouble(w string) string {
	if n := len(w); n > 2 && w[n-1] == w[n-2] && strings.IndexByte("bdgmnprt", w[n-1]) >= 0 {
		return w[:n-1]
	}
	return w
}
