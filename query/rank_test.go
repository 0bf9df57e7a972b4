package query_test

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// tiny builds an engine from edge specs "a calls b": functions named a and
// b in package pkg, file a.go. A destination "?x.b" is an unresolved edge
// with target x.b. kinds gives some nodes another kind.
func tiny(t testing.TB, kinds map[string]string, specs ...string) *query.Engine {
	t.Helper()
	var names []string
	for n := range kinds {
		names = append(names, n)
	}
	type spec struct{ src, kind, dst string }
	var ss []spec
	for _, s := range specs {
		f := strings.Fields(s)
		if len(f) != 3 {
			t.Fatalf("bad spec %q", s)
		}
		ss = append(ss, spec{f[0], f[1], f[2]})
		names = append(names, f[0])
		if !strings.HasPrefix(f[2], "?") {
			names = append(names, f[2])
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	s := &snapshot.Snapshot{}
	row := map[string]int32{}
	for i, n := range names {
		row[n] = int32(i)
		s.Nodes = append(s.Nodes, schemas.Node{
			ID: uint64(i + 1), Kind: cmp.Or(kinds[n], schemas.KindFunction), Name: n,
			QualifiedName: "pkg." + n, Language: "go", File: "a.go", StartLine: uint32(i + 1), EndLine: uint32(i + 1),
		})
	}
	for _, sp := range ss {
		e := schemas.Edge{Src: uint64(row[sp.src] + 1), Kind: sp.kind, File: "a.go", SrcRow: row[sp.src], DstRow: -1, Target: sp.dst}
		if strings.HasPrefix(sp.dst, "?") {
			e.Target = sp.dst[1:]
			e.Resolution = schemas.Unresolved
		} else {
			e.Dst, e.DstRow = uint64(row[sp.dst]+1), row[sp.dst]
		}
		s.Edges = append(s.Edges, e)
	}
	slices.SortStableFunc(s.Edges, func(a, b schemas.Edge) int {
		return cmp.Or(cmp.Compare(a.Src, b.Src), strings.Compare(a.Kind, b.Kind), cmp.Compare(a.Dst, b.Dst))
	})
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func ranked(e *query.Engine, rs []query.Ranked) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = e.Node(r.Node).Name
	}
	return out
}

func TestRankHubAboveLeaf(t *testing.T) {
	e := tiny(t, nil,
		"a calls hub", "b calls hub", "c calls hub", "d calls hub",
		"a calls leaf", "hub calls sink")
	rs := e.Rank(query.RankOptions{Limit: -1})
	got := ranked(e, rs)
	if got[0] != "sink" || got[1] != "hub" {
		t.Errorf("order %v: want sink (fed by the hub alone) then hub first", got)
	}
	if slices.Index(got, "hub") > slices.Index(got, "leaf") {
		t.Errorf("order %v: hub below leaf", got)
	}
	sum := 0.0
	for _, r := range rs {
		sum += r.Score
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Errorf("scores sum to %v, want 1", sum)
	}
	// Ties go to the smaller row: a, b, c, d have the same rank.
	if i := slices.Index(got, "a"); got[i+1] != "b" || got[i+2] != "c" || got[i+3] != "d" {
		t.Errorf("order %v: equal ranks not by row", got)
	}
}

func TestRankSeeded(t *testing.T) {
	e := tiny(t, nil, "a calls b", "c calls d", "d calls e")
	global := e.Rank(query.RankOptions{Limit: -1})
	score := func(rs []query.Ranked, name string) float64 {
		for _, r := range rs {
			if e.Node(r.Node).Name == name {
				return r.Score
			}
		}
		return 0
	}
	c := e.Find("c", "")
	seeded := e.Rank(query.RankOptions{Seeds: c, Limit: -1})
	if score(seeded, "c") != 0 {
		t.Error("the seed is in the result")
	}
	if score(seeded, "b") != 0 || score(seeded, "d") <= score(global, "d") {
		t.Errorf("seeded on c: b %v, d %v (global d %v): rank did not move to c's side",
			score(seeded, "b"), score(seeded, "d"), score(global, "d"))
	}
	if got := ranked(e, seeded); !slices.Equal(got, []string{"d", "e"}) {
		t.Errorf("seeded on c: %v, want [d e]", got)
	}
	// Out-of-range seeds are ignored: the global rank.
	if got := e.Rank(query.RankOptions{Seeds: []int32{-1, 99}, Limit: -1}); !slices.Equal(got, global) {
		t.Errorf("bad seeds: %v, want the global rank", got)
	}
}

func TestRankKindsAndFilters(t *testing.T) {
	e := build(t)
	for _, tc := range []struct {
		name string
		opt  query.RankOptions
		ok   func(n *schemas.Node) bool
	}{
		{"default leaves out containers", query.RankOptions{Limit: -1}, func(n *schemas.Node) bool {
			return n.Kind != schemas.KindFile && n.Kind != schemas.KindModule && n.Kind != schemas.KindPackage
		}},
		{"node kinds", query.RankOptions{NodeKinds: []string{schemas.KindMethod}}, func(n *schemas.Node) bool { return n.Kind == schemas.KindMethod }},
		{"language", query.RankOptions{Language: "python"}, func(n *schemas.Node) bool { return n.Language == "python" }},
		{"file", query.RankOptions{File: "net/http/client.go"}, func(n *schemas.Node) bool { return n.File == "src/net/http/client.go" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := e.Rank(tc.opt)
			if len(rs) == 0 {
				t.Fatal("nothing ranked")
			}
			for i, r := range rs {
				if n := e.Node(r.Node); !tc.ok(&n) {
					t.Errorf("%s (%s, %s) kept", n.QualifiedName, n.Kind, n.File)
				}
				if i > 0 && rs[i-1].Score < r.Score {
					t.Errorf("not sorted at %d", i)
				}
			}
		})
	}
	if n := len(e.Rank(query.RankOptions{})); n != query.DefaultRankLimit {
		t.Errorf("default limit: %d ranked", n)
	}
	// Over calls only, what calls reach ranks; a struct only instantiated
	// drops out.
	calls := e.Rank(query.RankOptions{Kinds: []query.EdgeKind{query.Calls}, Limit: 3})
	if got := ranked(e, calls); !slices.Contains(got, "do") {
		t.Errorf("top calls %v, want do (the call cycle)", got)
	}
	for _, r := range e.Rank(query.RankOptions{Kinds: []query.EdgeKind{query.Calls}, NodeKinds: []string{schemas.KindStruct}, Limit: -1}) {
		if r.Score > 0.05 {
			t.Errorf("struct %s ranks %v over calls alone", e.Node(r.Node).QualifiedName, r.Score)
		}
	}
}

func TestRankConcurrent(t *testing.T) {
	e := build(t)
	want := e.Rank(query.RankOptions{Limit: -1})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			e2 := e
			if got := e2.Rank(query.RankOptions{Limit: -1}); !slices.Equal(got, want) {
				t.Error("rank differs between calls")
			}
		})
	}
	wg.Wait()
}

func TestHolderWarm(t *testing.T) {
	e := build(t)
	h := &query.Holder{Warm: true}
	h.Store(e)
	// Warm runs in the background; a query meanwhile answers as usual.
	if got := e.Rank(query.RankOptions{Limit: 3}); len(got) != 3 {
		t.Errorf("rank while warming: %v", got)
	}
	e.Warm() // and warming twice builds nothing twice
	if got := e.Context("handle a request", query.ContextOptions{}); len(got.Symbols) == 0 {
		t.Errorf("context after warming: %+v", got)
	}
}
