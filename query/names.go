package query

import (
	"github.com/graphsnap/snap/schemas"

	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
)

// names holds the name indexes of an engine. Distinct names are numbered
// in byName's order: name n's rows are byName[nameAt[n]:nameAt[n+1]].
// Nodes share names (String, Error, init, and in generated code whole
// tables of constants), so the words and trigrams of a name are posted
// once for the name, not once per row: on GOROOT/src a name has 2.6 rows.
type names struct {
	nodes   []node
	nt      *nodeTable
	byName  []int32 // rows by name folded to ASCII lower case, then name, then row
	nameAt  []uint32
	lens    []uint8 // by name: its length, or 255 for 255 bytes or more
	byQName []int32 // rows by qualified name, then row
	post    *namePostings
	scratch *sync.Pool // of *fuzzyScratch
}

// namePostings are the search's indexes of the distinct names, by word
// and by trigram. They are built on first use (or by Engine.Warm), not by
// the load: an engine answers its first calls without waiting for them
// (snap serve warms it right after), and a search that comes first builds
// them, once.
type namePostings struct {
	once   sync.Once
	serial bool
	tokens postings[string]
	grams  postings[uint32]
}

// postings returns the postings of x's names, built on the first call.
func (x *names) postings() *namePostings {
	p := x.post
	p.once.Do(func() {
		// The names by number, each its first row's: the order the
		// postings list them in.
		uniq := make([]string, len(x.nameAt)-1)
		order := make([]int32, len(uniq))
		for n := range uniq {
			uniq[n], order[n] = x.name(x.byName[x.nameAt[n]]), int32(n)
		}
		var wg sync.WaitGroup
		do := wg.Go
		if p.serial {
			do = func(f func()) { f() }
		}
		do(func() { p.tokens = tokenPostings(uniq, order) })
		p.grams = gramPostings(uniq, order)
		wg.Wait()
	})
	return p
}

// fuzzyScratch is what a fuzzy match needs: a zero counter per name, and
// room for candidates.
type fuzzyScratch struct {
	counts []uint8
	cand   []int32
}

// postings maps sorted keys to sorted name numbers: those of keys[i] are
// names[off[i]:off[i+1]].
type postings[K cmp.Ordered] struct {
	keys  []K
	off   []uint32
	names []int32
}

func (p *postings[K]) get(k K) []int32 {
	i, ok := slices.BinarySearch(p.keys, k)
	if !ok {
		return nil
	}
	return p.names[p.off[i]:p.off[i+1]]
}

// rowsOf returns name n's rows, in row order.
func (x *names) rowsOf(n int32) []int32 { return x.byName[x.nameAt[n]:x.nameAt[n+1]] }

// nameLen returns the length of name n. A fuzzy search asks it of many
// names: lens answers from a small array, where a row would be a miss
// of the cache each.
func (x *names) nameLen(n int32) int {
	if l := x.lens[n]; l < 0xff {
		return int(l)
	}
	return x.nt.nameLen(&x.nodes[x.byName[x.nameAt[n]]])
}

// buildNames indexes the names of nodes. The work that depends on the
// name alone (folding, sorting; words and trigrams later, see postings)
// is done once per distinct name; the rows are then placed by counting,
// which keeps each name's in row order. The two orders build side by
// side unless serial.
func buildNames(nodes []node, nt *nodeTable, serial bool) names {
	x := names{nodes: nodes, nt: nt, post: &namePostings{serial: serial}}
	workers := runtime.GOMAXPROCS(0)
	if serial {
		workers = 1
	}
	nameOf, uniq := distinctNames(&x, workers) // row → its name, an index into uniq
	x.scratch = &sync.Pool{New: func() any { return &fuzzyScratch{counts: make([]uint8, len(uniq))} }}
	// The names' numbers, in byName's order, come first.
	number := nameNumbers(uniq, workers)
	x.lens = make([]uint8, len(uniq))
	for id, s := range uniq {
		x.lens[number[id]] = uint8(min(len(s), 0xff))
	}
	var wg sync.WaitGroup
	do := wg.Go
	if serial {
		do = func(f func()) { f() }
	}
	do(func() { x.byQName = byQNameOrder(&x, workers) })
	x.byName, x.nameAt = byNameOrder(number, nameOf)
	wg.Wait()
	return x
}

// distinctNames numbers the distinct names of x's rows: row r's name is
// uniq[nameOf[r]]. With several workers, each takes the names whose hash
// falls to it, in a map of its own, and numbers them after the names of
// the workers before it: the numbers then depend on the workers, which is
// no matter (what uses them sorts the names first).
func distinctNames(x *names, workers int) (nameOf []int32, uniq []string) {
	n := len(x.nodes)
	nameOf = make([]int32, n)
	if workers <= 1 || n < 1<<14 {
		m := numbering{ids: make(map[string]int32)}
		for r := range n {
			nameOf[r] = m.of(x.name(int32(r)))
		}
		return nameOf, m.list
	}
	workers = min(workers, 256)
	share := make([]uint8, n) // row → the worker its name falls to
	var wg sync.WaitGroup
	size := (n + workers - 1) / workers
	for w := range workers {
		lo, hi := min(w*size, n), min((w+1)*size, n)
		wg.Go(func() {
			for r := lo; r < hi; r++ {
				share[r] = uint8(xxhash.Sum64String(x.name(int32(r))) % uint64(workers))
			}
		})
	}
	wg.Wait()
	parts := make([][]string, workers)
	for w := range workers {
		wg.Go(func() {
			m := numbering{ids: make(map[string]int32, n/workers/2)}
			for r, sh := range share {
				if int(sh) == w {
					nameOf[r] = m.of(x.name(int32(r)))
				}
			}
			parts[w] = m.list
		})
	}
	wg.Wait()
	first := make([]int32, workers) // the number of worker w's first name
	for w := 1; w < workers; w++ {
		first[w] = first[w-1] + int32(len(parts[w-1]))
	}
	for w := range workers {
		lo, hi := min(w*size, n), min((w+1)*size, n)
		wg.Go(func() {
			for r := lo; r < hi; r++ {
				nameOf[r] += first[share[r]]
			}
		})
	}
	uniq = slices.Concat(parts...)
	wg.Wait()
	return nameOf, uniq
}

// numbering numbers distinct strings in the order first met: list holds
// them by number.
type numbering struct {
	ids  map[string]int32
	list []string
}

func (m *numbering) of(s string) int32 {
	id, ok := m.ids[s]
	if !ok {
		id = int32(len(m.list))
		m.ids[s] = id
		m.list = append(m.list, s)
	}
	return id
}

// nameKeys lists keys by distinct name: those of name i are
// keys[off[i]:off[i+1]], each once.
type nameKeys struct {
	off  []uint32
	keys []int32
}

// spread inverts nk for n keys numbered from 0: the names of key k, by
// number, are names[off[k]:off[k+1]]. order lists the names by number.
func (nk *nameKeys) spread(n int, order []int32) (off []uint32, names []int32) {
	off = make([]uint32, n+1)
	for _, k := range nk.keys {
		off[k+1]++
	}
	for k := range n {
		off[k+1] += off[k]
	}
	names = make([]int32, off[n])
	next := slices.Clone(off[:n]) // where key k's next name goes
	for num, id := range order {
		for _, k := range nk.keys[nk.off[id]:nk.off[id+1]] {
			names[next[k]] = int32(num)
			next[k]++
		}
	}
	return off, names
}

// nameNumbers numbers the distinct names uniq in order of the name folded
// to ASCII lower case, then the name. Only distinct names are sorted:
// comparing the folded strings, computed once, orders them as compareFold
// does.
func nameNumbers(uniq []string, workers int) (number []int32) {
	keys := make([]prefixKey, len(uniq))
	for i, s := range uniq {
		keys[i] = prefixKey{s: foldASCII(s), id: int32(i)}
	}
	sortKeys(keys, workers)
	// Names that fold alike ("Run", "run") came out by id: order each
	// such run by the names themselves.
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].s == keys[i].s {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b prefixKey) int { return strings.Compare(uniq[a.id], uniq[b.id]) })
		}
		i = j
	}
	number = make([]int32, len(uniq))
	for i, k := range keys {
		number[k.id] = int32(i)
	}
	return number
}

// byNameOrder returns the rows by name number, then row, and where each
// name's rows start.
func byNameOrder(number, nameOf []int32) (rows []int32, at []uint32) {
	at = make([]uint32, len(number)+1)
	for _, id := range nameOf {
		at[number[id]+1]++
	}
	for n := range number {
		at[n+1] += at[n]
	}
	rows = make([]int32, len(nameOf))
	next := slices.Clone(at[:len(number)])
	for r, id := range nameOf {
		n := number[id]
		rows[next[n]] = int32(r)
		next[n]++
	}
	return rows, at
}

func (x *names) name(r int32) string  { return x.nt.name(&x.nodes[r]) }
func (x *names) qname(r int32) string { return x.nt.str(x.nodes[r].qname) }

// byQNameOrder returns the rows by qualified name, then row.
func byQNameOrder(x *names, workers int) []int32 {
	nodes := x.nodes
	keys := make([]prefixKey, len(nodes))
	for r := range nodes {
		keys[r] = prefixKey{s: x.qname(int32(r)), id: int32(r)}
	}
	sortKeys(keys, workers)
	rows := make([]int32, len(nodes))
	for i, k := range keys {
		rows[i] = k.id
	}
	return rows
}

// prefixKey is a string to sort by and an id. While sortKeys sorts, pre
// holds the string's eight bytes at the depth it has reached, as a
// big-endian number, and n how many of them the string has (9: more
// follow): the keys sit next to each other, not behind the rows, and the
// numbers settle most comparisons without reading the strings.
type prefixKey struct {
	pre uint64
	s   string
	id  int32
	n   uint8
}

// sortKeys sorts keys by string, then id: a multikey quicksort eight bytes
// at a time. Qualified names share long prefixes (package paths), which a
// comparison sort reads again at every comparison; this reads each byte of
// a shared prefix a few times, in partitions that stay in cache. Large
// partitions are sorted on up to workers goroutines; the order is the
// same on any number.
func sortKeys(keys []prefixKey, workers int) {
	for i := range keys {
		keys[i].setChunk(0)
	}
	f := &forks{}
	f.idle.Store(int32(workers - 1))
	multikey(keys, 0, f)
	f.wg.Wait()
}

// forks lends goroutines to multikey: a large partition met while one of
// them is idle is sorted on it, and the goroutine is idle again when
// that is done. Shares of the keys are known only as the sort finds
// them (names sharing a package path's first bytes make one partition of
// a third of them): so no goroutine waits while another sorts alone.
type forks struct {
	idle atomic.Int32
	wg   sync.WaitGroup
}

// take reports whether a goroutine was idle, and makes it busy.
func (f *forks) take() bool {
	for {
		n := f.idle.Load()
		if n <= 0 {
			return false
		}
		if f.idle.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// minForkKeys is the least a partition holds for multikey to sort it on
// a goroutine of its own.
const minForkKeys = 1 << 12

func (k *prefixKey) setChunk(depth int) {
	var b [8]byte
	rest := len(k.s) - depth
	if rest > 0 {
		copy(b[:], k.s[depth:])
	}
	k.pre, k.n = binary.BigEndian.Uint64(b[:]), uint8(min(max(rest, 0), 9))
}

func compareChunk(a, b *prefixKey) int {
	if a.pre != b.pre {
		return cmp.Compare(a.pre, b.pre)
	}
	return cmp.Compare(a.n, b.n)
}

// multikey sorts keys from byte depth on. A large partition is sorted on
// a goroutine of f's when one is idle.
func multikey(keys []prefixKey, depth int, f *forks) {
	for len(keys) > 12 {
		// Median of three as the pivot, then a three-way partition:
		// [0,lt) below, [lt,gt) equal, [gt,len) above.
		a, b, c := &keys[0], &keys[len(keys)/2], &keys[len(keys)-1]
		if compareChunk(a, b) > 0 {
			a, b = b, a
		}
		if compareChunk(b, c) > 0 {
			b = c
			if compareChunk(a, b) > 0 {
				b = a
			}
		}
		pivot := *b
		lt, i, gt := 0, 0, len(keys)
		for i < gt {
			switch c := compareChunk(&keys[i], &pivot); {
			case c < 0:
				keys[lt], keys[i] = keys[i], keys[lt]
				lt++
				i++
			case c > 0:
				gt--
				keys[gt], keys[i] = keys[i], keys[gt]
			default:
				i++
			}
		}
		part := func(p []prefixKey, depth int) {
			if len(p) >= minForkKeys && f.take() {
				f.wg.Go(func() {
					multikey(p, depth, f)
					f.idle.Add(1)
				})
				return
			}
			multikey(p, depth, f)
		}
		part(keys[:lt], depth)
		eq := keys[lt:gt]
		if pivot.n == 9 {
			for j := range eq {
				eq[j].setChunk(depth + 8)
			}
			part(eq, depth+8)
		} else {
			slices.SortFunc(eq, func(x, y prefixKey) int { return cmp.Compare(x.id, y.id) }) // the same string
		}
		keys = keys[gt:]
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && cmp.Or(strings.Compare(keys[j-1].s[depth:], keys[j].s[depth:]), cmp.Compare(keys[j-1].id, keys[j].id)) > 0; j-- {
			keys[j-1], keys[j] = keys[j], keys[j-1]
		}
	}
}

// tokenPostings indexes rows by the words of their names (see tokens).
func tokenPostings(uniq []string, order []int32) postings[string] {
	ids := map[string]int32{}
	var toks []string // by id, in order of appearance
	nk := nameKeys{off: make([]uint32, len(uniq)+1)}
	var buf []byte
	for n, name := range uniq {
		start := len(nk.keys)
		words(name, func(i, j int) {
			w := name[i:j]
			var id int32
			var ok bool
			if hasUpperASCII(w) {
				buf = appendFold(buf[:0], w)
				id, ok = ids[string(buf)]
			} else {
				id, ok = ids[w]
			}
			if !ok {
				t := foldASCII(w)
				id = int32(len(toks))
				ids[t] = id
				toks = append(toks, t)
			}
			nk.keys = append(nk.keys, id)
		})
		slices.Sort(nk.keys[start:])
		nk.keys = append(nk.keys[:start], slices.Compact(nk.keys[start:])...)
		nk.off[n+1] = uint32(len(nk.keys))
	}
	// Number the words in sorted order, as postings keys are.
	sorted := make([]int32, len(toks))
	for i := range sorted {
		sorted[i] = int32(i)
	}
	slices.SortFunc(sorted, func(a, b int32) int { return strings.Compare(toks[a], toks[b]) })
	p := postings[string]{keys: make([]string, len(toks))}
	rank := make([]int32, len(toks))
	for i, id := range sorted {
		rank[id] = int32(i)
		p.keys[i] = toks[id]
	}
	for i, id := range nk.keys {
		nk.keys[i] = rank[id]
	}
	p.off, p.names = nk.spread(len(toks), order)
	return p
}

// gramPostings indexes names by their trigrams (see trigrams). A trigram
// is three bytes: a bitset of all 1<<24 of them, with the count of set
// bits before each word of it, numbers the ones present in order without
// a map.
func gramPostings(uniq []string, order []int32) postings[uint32] {
	size := 0 // a name has at most as many trigrams as bytes
	for _, name := range uniq {
		size += len(name)
	}
	grams := make([]uint32, 0, size)
	off := make([]uint32, len(uniq)+1)
	for i, name := range uniq {
		grams = trigrams(name, grams)
		off[i+1] = uint32(len(grams))
	}
	set := make([]uint64, 1<<24/64)
	for _, g := range grams {
		set[g/64] |= 1 << (g % 64)
	}
	before := make([]uint32, len(set)) // set bits in the words before
	n := uint32(0)
	for i, w := range set {
		before[i] = n
		n += uint32(bits.OnesCount64(w))
	}
	p := postings[uint32]{keys: make([]uint32, 0, n)}
	for i, w := range set {
		for w != 0 {
			p.keys = append(p.keys, uint32(i*64+bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	nk := nameKeys{off: off, keys: make([]int32, len(grams))}
	for i, g := range grams {
		nk.keys[i] = int32(before[g/64] + uint32(bits.OnesCount64(set[g/64]&(1<<(g%64)-1))))
	}
	p.off, p.names = nk.spread(len(p.keys), order)
	return p
}

// lowerASCII folds ASCII upper-case letters; the name indexes fold case
// for ASCII only, and compare other bytes as they are.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func compareFold(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if x, y := lowerASCII(a[i]), lowerASCII(b[i]); x != y {
			return cmp.Compare(x, y)
		}
	}
	return cmp.Compare(len(a), len(b))
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && compareFold(s[:len(prefix)], prefix) == 0
}

// nameRange returns the rows whose name starts with prefix, or equals it
// when exact, ignoring ASCII case.
func (x *names) nameRange(prefix string, exact bool) []int32 {
	lo := sort.Search(len(x.byName), func(i int) bool {
		return compareFold(x.name(x.byName[i]), prefix) >= 0
	})
	hi := lo + sort.Search(len(x.byName)-lo, func(i int) bool {
		name := x.name(x.byName[lo+i])
		if exact {
			return compareFold(name, prefix) > 0
		}
		return !hasPrefixFold(name, prefix)
	})
	return x.byName[lo:hi]
}

// qualified returns the rows whose qualified name is q.
func (x *names) qualified(q string) []int32 {
	lo := sort.Search(len(x.byQName), func(i int) bool {
		return x.qname(x.byQName[i]) >= q
	})
	hi := lo
	for hi < len(x.byQName) && x.qname(x.byQName[hi]) == q {
		hi++
	}
	return x.byQName[lo:hi]
}

// words calls fn with the bounds of each word of an identifier: it splits
// at separators (anything but ASCII letters and digits and non-ASCII
// bytes), at case changes and at letter/digit changes, so "HTTPServer" has
// HTTP and Server, "parse_args2" parse, args and 2.
func words(name string, fn func(i, j int)) {
	eachWord(name, func(i, j int) bool { fn(i, j); return true })
}

// eachWord is words, stopping when fn returns false.
func eachWord(name string, fn func(i, j int) bool) {
	start := -1
	for i := 0; i < len(name); i++ {
		c := wordClass[name[i]]
		if c == 0 {
			if start >= 0 {
				if !fn(start, i) {
					return
				}
				start = -1
			}
			continue
		}
		if start >= 0 {
			p := wordClass[name[i-1]]
			if c == 2 && p == 1 || // fooBar
				c == 2 && p == 2 && i+1 < len(name) && wordClass[name[i+1]] == 1 || // HTTPServer
				(c == 3) != (p == 3) { // utf8, v2Client
				if !fn(start, i) {
					return
				}
				start = i
			}
		} else {
			start = i
		}
	}
	if start >= 0 {
		fn(start, len(name))
	}
}

// wordClass classes the bytes of identifiers: 0 separator, 1 lower case
// or non-ASCII, 2 upper case, 3 digit.
var wordClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case 'a' <= c && c <= 'z', c >= 0x80:
			t[c] = 1
		case 'A' <= c && c <= 'Z':
			t[c] = 2
		case '0' <= c && c <= '9':
			t[c] = 3
		}
	}
	return t
}()

// tokens appends the words of name, folded to ASCII lower case, to dst.
func tokens(name string, dst []string) []string {
	words(name, func(i, j int) { dst = append(dst, foldASCII(name[i:j])) })
	return dst
}

// hasUpperASCII reports whether s holds an ASCII upper-case letter.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// appendFold appends s with ASCII letters in lower case to dst.
func appendFold(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, lowerASCII(s[i]))
	}
	return dst
}

// foldASCII returns s with ASCII letters in lower case.
func foldASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}

func countWords(name string) int {
	n := 0
	words(name, func(int, int) { n++ })
	return n
}

// trigrams appends the distinct trigrams of name, folded to ASCII lower
// case and padded with a zero byte at both ends, so "ab" has two.
func trigrams(name string, dst []uint32) []uint32 {
	if name == "" {
		return dst
	}
	start := len(dst)
	at := func(i int) uint32 { // byte i of the padded name
		if i == 0 || i == len(name)+1 {
			return 0
		}
		return uint32(lowerASCII(name[i-1]))
	}
	for i := 0; i+2 < len(name)+2; i++ {
		dst = append(dst, at(i)<<16|at(i+1)<<8|at(i+2))
	}
	slices.Sort(dst[start:])
	return append(dst[:start], slices.Compact(dst[start:])...)
}

// normQualified drops Go's receiver punctuation, so that
// "net/http.(*Server).Serve" reads "net/http.Server.Serve".
func normQualified(q string) string {
	if !strings.Contains(q, "(") {
		return q
	}
	return receiverPunct.Replace(q)
}

var receiverPunct = strings.NewReplacer("(*", "", "(", "", ")", "")

// isPunct reports whether c is receiver punctuation, which matching
// qualified names ignores.
func isPunct(c byte) bool { return c == '(' || c == '*' || c == ')' }

// cutSuffix removes suffix from the end of s, ignoring receiver punctuation
// in s, and then any punctuation left before it.
func cutSuffix(s, suffix string) (string, bool) {
	i, j := len(s), len(suffix)
	for j > 0 {
		switch {
		case i == 0:
			return "", false
		case isPunct(s[i-1]):
			i--
		case s[i-1] == suffix[j-1]:
			i, j = i-1, j-1
		default:
			return "", false
		}
	}
	for i > 0 && isPunct(s[i-1]) {
		i--
	}
	return s[:i], true
}

// splitScope splits a dotted query ("Server.Serve", "net/http.(*Server).Serve",
// "app.models.User.save") into the scope before its last dot and the name
// after it, without receiver punctuation.
func splitScope(q string) (scope, name string, ok bool) {
	q = normQualified(q)
	i := strings.LastIndexByte(q, '.')
	if i <= 0 || i == len(q)-1 {
		return "", "", false
	}
	return q[:i], q[i+1:], true
}

// inScope reports whether a node (its qualified name and name), named as
// the query's last part, sits in scope: its qualified name, without its
// own name and receiver punctuation, is scope or ends with scope after a
// '.' or '/'.
func inScope(qname, name, scope string) bool {
	outer, ok := cutSuffix(qname, name)
	if !ok || !strings.HasSuffix(outer, ".") {
		return false
	}
	rest, ok := cutSuffix(outer[:len(outer)-1], scope)
	return ok && (rest == "" || strings.HasSuffix(rest, ".") || strings.HasSuffix(rest, "/"))
}

// MatchFile reports whether path is filter or ends with "/"+filter, so
// "net/http/server.go" matches "src/net/http/server.go" but "http/server.go"
// does not match "src/nethttp/server.go". An empty filter matches anything.
func MatchFile(path, filter string) bool {
	filter = strings.TrimPrefix(filter, "./")
	if filter == "" || path == filter {
		return true
	}
	return len(path) > len(filter) && strings.HasSuffix(path, filter) && path[len(path)-len(filter)-1] == '/'
}

// Find returns the rows of the symbols that name designates, in row order:
// a qualified name ("net/http.(*Server).Serve", "app.models.user.User"), a
// dotted suffix of one ("Server.Serve", "http.Server", "User.save"), or a
// plain name ("Serve"). Plain names match case-sensitively, and ignoring
// ASCII case only when nothing matches exactly. When file is not empty it
// keeps the symbols whose file matches it (see MatchFile). Several rows mean
// the name is ambiguous: Find never picks one.
func (e *Engine) Find(name, file string) []int32 {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	keep := func(rows []int32, ok func(r int32) bool) []int32 {
		var out []int32
		for _, r := range rows {
			f := e.NodeFile(r)
			if MatchFile(f, file) && e.InScope(f) && (ok == nil || ok(r)) {
				out = append(out, r)
			}
		}
		return out
	}
	if rows := keep(e.names.qualified(name), nil); len(rows) > 0 {
		return e.oneSymbol(rows)
	}
	if scope, last, ok := splitScope(name); ok {
		rows := keep(e.names.nameRange(last, true), func(r int32) bool {
			name, qname := e.nt.names(&e.nodes[r])
			return name == last && inScope(qname, last, scope)
		})
		if len(rows) > 0 {
			slices.Sort(rows)
			return e.oneSymbol(rows)
		}
	}
	same := e.names.nameRange(name, true)
	rows := keep(same, func(r int32) bool { return e.NodeName(r) == name })
	if len(rows) == 0 {
		rows = keep(same, nil)
	}
	if len(rows) == 0 {
		if alias, ok := moduleAlias(name); ok {
			return e.Find(alias, file)
		}
	}
	slices.Sort(rows)
	return e.oneSymbol(rows)
}

// oneSymbol drops from sorted rows what names the same symbol as another
// row: a TypeScript or JavaScript function's overload signatures beside
// its implementation (the last declaration of the qualified name in its
// file, which calls resolve to), and a module beside a declaration of it
// with its name (the module switchMap and its function switchMap).
func (e *Engine) oneSymbol(rows []int32) []int32 {
	if len(rows) < 2 {
		return rows
	}
	type key struct {
		qname string
		file  uint32
		kind  uint8
	}
	last := make(map[key]int32)
	scripts := func(r int32) bool {
		switch e.nodeLang(r) {
		case "typescript", "tsx", "javascript":
			k := e.NodeKind(r)
			return k == schemas.KindFunction || k == schemas.KindMethod
		}
		return false
	}
	for _, r := range rows {
		if scripts(r) {
			n := &e.nodes[r]
			k := key{e.NodeQName(r), n.file, n.kind}
			if l, ok := last[k]; !ok || e.nodes[l].startLine < n.startLine {
				last[k] = r
			}
		}
	}
	return slices.DeleteFunc(slices.Clone(rows), func(r int32) bool {
		if scripts(r) {
			n := &e.nodes[r]
			return last[key{e.NodeQName(r), n.file, n.kind}] != r
		}
		if e.NodeKind(r) != schemas.KindModule {
			return false
		}
		return slices.ContainsFunc(rows, func(o int32) bool {
			p, ok := e.Parent(o)
			return ok && p == r && e.NodeName(o) == e.NodeName(r)
		})
	})
}

// moduleAliases are module names that stand for another module in the
// code a snapshot is of: Python's os.path is posixpath on a POSIX system,
// where the Python indexer resolves it (schemas/languages.md).
var moduleAliases = map[string]string{"os.path": "posixpath"}

// moduleAlias returns name with a leading module alias replaced, if it
// has one.
func moduleAlias(name string) (string, bool) {
	for from, to := range moduleAliases {
		if rest, ok := strings.CutPrefix(name, from); ok && (rest == "" || rest[0] == '.') {
			return to + rest, true
		}
	}
	return "", false
}

// Match says how a search hit matched its query.
type Match uint8

// Matches, best first.
const (
	MatchExact  Match = iota // the name or qualified name is the query (ASCII case aside)
	MatchPrefix              // the name starts with the query
	MatchToken               // the name holds every word of the query
	MatchFuzzy               // the name shares enough trigrams with the query
)

func (m Match) String() string {
	switch m {
	case MatchExact:
		return "exact"
	case MatchPrefix:
		return "prefix"
	case MatchToken:
		return "token"
	case MatchFuzzy:
		return "fuzzy"
	}
	return "Match(?)"
}

// Hit is one search result: node row, how it matched, and a score in (0, 1]
// that orders hits of the same Match.
type Hit struct {
	Node  int32
	Match Match
	Score float32
}

// SearchOptions filter and bound a search.
type SearchOptions struct {
	Kinds    []string // node kinds to keep; none keeps all
	Language string   // keep this language only
	File     string   // keep symbols whose file matches (see MatchFile)
	Limit    int      // at most this many hits; 0 for all
}

// minFuzzy is the least trigram similarity (Dice coefficient) of a fuzzy
// hit.
const minFuzzy = 0.5

// Search ranks the symbols matching q: exact matches first, then name
// prefixes, then names holding every word of q, then fuzzy matches by
// trigrams. A dotted q ("http.Server", "User.sa") matches its last part
// against names within the scope before it. Within a tier, functions and
// types come before fields, variables and constants, and written code
// before generated code; ties go to the shorter name, then the smaller
// qualified name, then the smaller id, so answers are deterministic.
func (e *Engine) Search(q string, opt SearchOptions) []Hit {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil
	}
	scope, last, scoped := splitScope(q)
	if !scoped {
		last = q
	}
	seen := e.rowSet()
	defer e.putRowSet(seen)
	var hits, tier []Hit
	accept := func(r int32, m Match, score float32) {
		if seen.has(r) {
			return
		}
		if scoped {
			if name, qname := e.nt.names(&e.nodes[r]); !inScope(qname, name, scope) && qname != q {
				return
			}
		}
		if !e.keep(r, &opt) {
			return
		}
		seen.set(r)
		tier = append(tier, Hit{Node: r, Match: m, Score: score})
	}
	// flush moves the best of a tier to hits, in order; it reports whether
	// the limit is reached.
	flush := func() bool {
		k := 0
		if opt.Limit > 0 {
			k = opt.Limit - len(hits)
		}
		hits = append(hits, best(tier, k, func(a, b Hit) int {
			na, nb := &e.nodes[a.Node], &e.nodes[b.Node]
			return cmp.Or(
				cmp.Compare(b.Score, a.Score),
				cmp.Compare(e.searchClass(a.Node), e.searchClass(b.Node)),
				cmp.Compare(e.nt.nameLen(na), e.nt.nameLen(nb)),
				strings.Compare(e.nt.str(na.qname), e.nt.str(nb.qname)),
				cmp.Compare(a.Node, b.Node))
		})...)
		tier = tier[:0]
		return opt.Limit > 0 && len(hits) >= opt.Limit
	}

	for _, r := range e.names.qualified(q) {
		accept(r, MatchExact, 1)
	}
	for _, r := range e.names.nameRange(last, true) {
		if e.NodeName(r) == last {
			accept(r, MatchExact, 1)
		} else {
			accept(r, MatchExact, 0.9)
		}
	}
	if flush() {
		return hits[:opt.Limit]
	}
	for _, r := range e.names.nameRange(last, false) {
		accept(r, MatchPrefix, float32(len(last))/float32(e.nt.nameLen(&e.nodes[r])))
	}
	if flush() {
		return hits[:opt.Limit]
	}
	qt := tokens(last, nil)
	if len(qt) > 0 {
		post := e.names.postings()
		names := post.tokens.get(qt[0])
		for _, t := range qt[1:] {
			names = intersect(names, post.tokens.get(t))
		}
		for _, n := range names {
			rows := e.names.rowsOf(n)
			score := float32(len(qt)) / float32(max(len(qt), countWords(e.NodeName(rows[0]))))
			for _, r := range rows {
				accept(r, MatchToken, score)
			}
		}
		if flush() {
			return hits[:opt.Limit]
		}
	}
	e.names.fuzzy(last, func(r int32, score float32) { accept(r, MatchFuzzy, score) })
	if flush() {
		return hits[:opt.Limit]
	}
	return hits
}

// searchClass orders hits of one score: functions and types (0) before
// the rest (1), written code before generated (2 more).
func (e *Engine) searchClass(r int32) int {
	c := 0
	if k := e.NodeKind(r); !isCallable(k) && !isTypeLike(k) && k != schemas.KindType && k != schemas.KindModule && k != schemas.KindPackage {
		c = 1
	}
	if e.IsGenerated(r) {
		c += 2
	}
	return c
}

// best returns the k smallest of hs by cmp, sorted (all of them when k is
// 0). It reorders hs.
func best(hs []Hit, k int, cmp func(a, b Hit) int) []Hit {
	if k <= 0 || len(hs) <= k {
		slices.SortFunc(hs, cmp)
		return hs
	}
	// Keep the k smallest so far in a heap with the largest at the root.
	h := hs[:k]
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= k {
				return
			}
			if c+1 < k && cmp(h[c+1], h[c]) > 0 {
				c++
			}
			if cmp(h[c], h[i]) <= 0 {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, x := range hs[k:] {
		if cmp(x, h[0]) < 0 {
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}

func (e *Engine) keep(r int32, opt *SearchOptions) bool {
	file := e.NodeFile(r)
	return (len(opt.Kinds) == 0 || slices.Contains(opt.Kinds, e.NodeKind(r))) &&
		(opt.Language == "" || e.nodeLang(r) == opt.Language) &&
		MatchFile(file, opt.File) && e.InScope(file)
}

func intersect(a, b []int32) []int32 {
	var out []int32
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			a = a[1:]
		case a[0] > b[0]:
			b = b[1:]
		default:
			out = append(out, a[0])
			a, b = a[1:], b[1:]
		}
	}
	return out
}

// fuzzy calls fn for every row whose name shares at least minFuzzy of its
// trigrams with q (Dice coefficient, counting a name's trigrams by its
// length). Queries under three bytes are left to the prefix tier.
//
// A name scoring minFuzzy holds at least need of q's trigrams, so it is in
// one of any len(lists)-need+1 of their postings: the shortest lists give
// the candidates, and the others only add to their counts.
func (x *names) fuzzy(q string, fn func(r int32, score float32)) {
	if len(q) < 3 {
		return
	}
	qg := trigrams(q[:min(len(q), 250)], nil) // a row's count fits a byte
	lists := make([][]int32, 0, len(qg))
	grams := &x.postings().grams
	for _, g := range qg {
		if l := grams.get(g); len(l) > 0 {
			lists = append(lists, l)
		}
	}
	need := int(math.Ceil(minFuzzy / 2 * float64(len(qg)+1)))
	if need > len(lists) {
		return
	}
	slices.SortFunc(lists, func(a, b []int32) int { return cmp.Compare(len(a), len(b)) })
	probe := len(lists) - need + 1

	sc := x.scratch.Get().(*fuzzyScratch)
	counts, cand := sc.counts, sc.cand[:0]
	for _, l := range lists[:probe] {
		for _, n := range l {
			if counts[n] == 0 {
				cand = append(cand, n)
			}
			counts[n]++
		}
	}
	for _, l := range lists[probe:] {
		for _, n := range l {
			if counts[n] > 0 {
				counts[n]++
			}
		}
	}
	for _, n := range cand {
		score := 2 * float32(counts[n]) / float32(len(qg)+x.nameLen(n))
		counts[n] = 0
		if score >= minFuzzy {
			for _, r := range x.rowsOf(n) {
				fn(r, min(score, 1))
			}
		}
	}
	sc.cand = cand
	x.scratch.Put(sc)
}

// Suggest returns up to n distinct names close to q (its last part for a
// dotted q), best first: what to offer when a name finds nothing.
func (e *Engine) Suggest(q string, n int) []string {
	_, last, ok := splitScope(q)
	if !ok {
		last = strings.TrimSpace(q)
	}
	var out []string
	for _, h := range e.Search(last, SearchOptions{Limit: 8 * n}) {
		name := e.NodeName(h.Node)
		if name != last && !slices.Contains(out, name) {
			out = append(out, name)
			if len(out) == n {
				break
			}
		}
	}
	return out
}
