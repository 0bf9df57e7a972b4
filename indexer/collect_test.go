package indexer_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
)

// A small language for the tests: three kinds, three roles.
type kind uint8

const (
	kClass kind = iota
	kFunc
	kCall
)

const (
	rName = iota
	rBody
	rArgs
	numRoles
)

type span struct{ start, end uint32 }

type item struct {
	span
	kind kind
	has  uint8
	role [numRoles]span
}

func (it *item) SetMain(k kind, start, end uint32) { it.kind, it.span = k, span{start, end} }

func (it *item) SetRole(r int, start, end uint32) { it.role[r], it.has = span{start, end}, it.has|1<<r }

type collector = indexer.Collector[kind, item, *item]

// The capture indexes of the query: a main capture of each kind, then
// each kind's roles, as info describes them.
const (
	cClass = iota
	cFunc
	cCall
	cClassName
	cClassBody
	cFuncName
	cFuncBody
	cCallName
	cCallArgs
)

var info = []indexer.CaptureInfo[kind]{
	cClass: {kClass, -1}, cFunc: {kFunc, -1}, cCall: {kCall, -1},
	cClassName: {kClass, rName}, cClassBody: {kClass, rBody},
	cFuncName: {kFunc, rName}, cFuncBody: {kFunc, rBody},
	cCallName: {kCall, rName}, cCallArgs: {kCall, rArgs},
}

func capture(match, index, start, end uint32) indexer.Capture {
	return indexer.Capture{Match: match, Index: index, Start: start, End: end}
}

func TestCollect(t *testing.T) {
	caps := []indexer.Capture{
		// A call inside the function, yielded before it.
		capture(0, cCall, 30, 40), capture(0, cCallName, 30, 33), capture(0, cCallArgs, 33, 40),
		// The function, with a name child the query asked for: skipped,
		// and not looked up in info.
		capture(1, cFunc, 20, 50), capture(1, indexer.NameChild, 99, 100), capture(1, cFuncName, 25, 28),
		capture(1, cFuncBody, 28, 50),
		// The class holding it, its name captured twice: the last wins.
		capture(2, cClassName, 6, 7), capture(2, cClass, 0, 60), capture(2, cClassName, 6, 9),
		// A match with roles and no main capture yields nothing.
		capture(3, cFuncName, 1, 2),
		// A match with two main captures yields two items with its roles.
		capture(4, cCall, 20, 50), capture(4, cCallName, 20, 24), capture(4, cFunc, 20, 45),
		// The same range as the function, another kind: after it.
		capture(5, cClass, 20, 50),
	}
	want := []item{
		{span{0, 60}, kClass, 1 << rName, [numRoles]span{rName: {6, 9}}},
		{span{20, 50}, kClass, 0, [numRoles]span{}},
		{span{20, 50}, kFunc, 1<<rName | 1<<rBody, [numRoles]span{rName: {25, 28}, rBody: {28, 50}}},
		{span{20, 50}, kCall, 1 << rName, [numRoles]span{rName: {20, 24}}},
		{span{20, 45}, kFunc, 1 << rName, [numRoles]span{rName: {20, 24}}},
		{span{30, 40}, kCall, 1<<rName | 1<<rArgs, [numRoles]span{rName: {30, 33}, rArgs: {33, 40}}},
	}
	var c collector
	if got := c.Collect(caps, info); !slices.Equal(got, want) {
		t.Errorf("Collect:\n got %v\nwant %v", got, want)
	}
	if got := c.Collect(nil, info); len(got) != 0 {
		t.Errorf("Collect(nil) = %v, want none", got)
	}
}

func TestCollectMerge(t *testing.T) {
	// Three matches of one kind on one node, then one of another kind.
	caps := []indexer.Capture{
		capture(0, cFunc, 10, 20), capture(0, cFuncBody, 15, 20),
		capture(1, cFunc, 10, 20), capture(1, cFuncName, 12, 13), capture(1, cFuncBody, 14, 20),
		capture(2, cFunc, 10, 20), capture(2, cFuncName, 11, 12),
		capture(3, cCall, 10, 20), capture(3, cCallName, 10, 11),
	}
	call := item{span{10, 20}, kCall, 1 << rName, [numRoles]span{rName: {10, 11}}}
	for _, tc := range []struct {
		merge indexer.Merge
		want  []item
	}{
		{indexer.MergeFirst, []item{
			{span{10, 20}, kFunc, 1<<rName | 1<<rBody, [numRoles]span{rName: {12, 13}, rBody: {15, 20}}}, call,
		}},
		{indexer.MergeEarliest, []item{
			{span{10, 20}, kFunc, 1<<rName | 1<<rBody, [numRoles]span{rName: {11, 12}, rBody: {14, 20}}}, call,
		}},
	} {
		c := collector{Merge: tc.merge}
		if got := c.Collect(caps, info); !slices.Equal(got, tc.want) {
			t.Errorf("Merge %d:\n got %v\nwant %v", tc.merge, got, tc.want)
		}
	}
}

// TestCollectReuse checks that Collect reuses its memory: after the first
// file, collecting one no larger allocates nothing.
func TestCollectReuse(t *testing.T) {
	caps := randomCaptures(rand.New(rand.NewPCG(1, 2)), 500)
	for _, merge := range []indexer.Merge{indexer.KeepAll, indexer.MergeFirst, indexer.MergeEarliest} {
		c := collector{Merge: merge}
		first := c.Collect(caps, info)
		if len(first) == 0 {
			t.Fatal("no items")
		}
		p := &first[0]
		if allocs := testing.AllocsPerRun(10, func() { c.Collect(caps, info) }); allocs != 0 {
			t.Errorf("Merge %d: %v allocations per Collect, want 0", merge, allocs)
		}
		if again := c.Collect(caps[:len(caps)/2], info); len(again) == 0 || &again[0] != p {
			t.Errorf("Merge %d: the second Collect did not reuse the first's items", merge)
		}
	}
}

// TestCollectSameAsSort checks Collect against the collectors it replaced:
// the items of every match sorted in place, unstably (KeepAll keeps the
// order that sort gives items tied on range and kind), or stably and then
// merged.
func TestCollectSameAsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var c [3]collector
	for i := range c {
		c[i].Merge = indexer.Merge(i)
	}
	for range 300 {
		caps := randomCaptures(r, r.IntN(200))
		items := naiveItems(caps)
		byPos := func(a, b item) int {
			return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end), cmp.Compare(a.kind, b.kind))
		}
		want := slices.Clone(items)
		slices.SortFunc(want, byPos)
		if got := c[indexer.KeepAll].Collect(caps, info); !slices.Equal(got, want) {
			t.Fatalf("KeepAll, captures %v:\n got %v\nwant %v", caps, got, want)
		}
		slices.SortStableFunc(items, byPos)
		for _, merge := range []indexer.Merge{indexer.MergeFirst, indexer.MergeEarliest} {
			want := naiveMerge(items, merge == indexer.MergeEarliest)
			if got := c[merge].Collect(caps, info); !slices.Equal(got, want) {
				t.Fatalf("Merge %d, captures %v:\n got %v\nwant %v", merge, caps, got, want)
			}
		}
	}
}

// randomCaptures returns n captures in random matches of a few captures
// each, on few distinct ranges so that ties abound.
func randomCaptures(r *rand.Rand, n int) []indexer.Capture {
	var caps []indexer.Capture
	for m := uint32(0); len(caps) < n; m++ {
		for range 1 + r.IntN(4) {
			start := uint32(r.IntN(8))
			caps = append(caps, capture(m, uint32(r.IntN(len(info))), start, start+uint32(r.IntN(4))))
		}
	}
	return caps
}

// naiveItems is one item per main capture, in match order.
func naiveItems(caps []indexer.Capture) []item {
	var items []item
	for i := 0; i < len(caps); {
		j := i
		for j < len(caps) && caps[j].Match == caps[i].Match {
			j++
		}
		var it item
		for _, c := range caps[i:j] {
			if r := info[c.Index].Role; r >= 0 {
				it.SetRole(int(r), c.Start, c.End)
			}
		}
		for _, c := range caps[i:j] {
			if ci := info[c.Index]; ci.Role < 0 {
				it.SetMain(ci.Kind, c.Start, c.End)
				items = append(items, it)
			}
		}
		i = j
	}
	return items
}

// naiveMerge folds the items of one kind on one range into the first.
func naiveMerge(items []item, earliest bool) []item {
	var out []item
	for _, it := range items {
		if n := len(out); n > 0 && out[n-1].span == it.span && out[n-1].kind == it.kind {
			p := &out[n-1]
			for r := range numRoles {
				if it.has&(1<<r) != 0 && (p.has&(1<<r) == 0 || earliest && it.role[r].start < p.role[r].start) {
					p.SetRole(r, it.role[r].start, it.role[r].end)
				}
			}
			continue
		}
		out = append(out, it)
	}
	return out
}
