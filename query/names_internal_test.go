package query

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas"
)

// namesByDefinition builds the name indexes the plain way, one row at a
// time, with the orders and keys as documented: what buildNames must
// equal.
func namesByDefinition(nodes []schemas.Node) names {
	x := names{byName: make([]int32, len(nodes)), byQName: make([]int32, len(nodes))}
	for r := range nodes {
		x.byName[r], x.byQName[r] = int32(r), int32(r)
	}
	slices.SortFunc(x.byName, func(a, b int32) int {
		na, nb := nodes[a].Name, nodes[b].Name
		return cmp.Or(compareFold(na, nb), strings.Compare(na, nb), cmp.Compare(a, b))
	})
	slices.SortFunc(x.byQName, func(a, b int32) int {
		return cmp.Or(strings.Compare(nodes[a].QualifiedName, nodes[b].QualifiedName), cmp.Compare(a, b))
	})
	// Distinct names, numbered in byName's order.
	x.nameAt = []uint32{0}
	var uniq []string
	for i, r := range x.byName {
		if i > 0 && nodes[r].Name != nodes[x.byName[i-1]].Name {
			uniq = append(uniq, nodes[x.byName[i-1]].Name)
			x.nameAt = append(x.nameAt, uint32(i))
		}
	}
	if len(nodes) > 0 {
		uniq = append(uniq, nodes[x.byName[len(nodes)-1]].Name)
		x.nameAt = append(x.nameAt, uint32(len(nodes)))
	}
	x.post = &namePostings{}
	x.post.tokens = postingsByDefinition(uniq, func(name string) []string {
		toks := tokens(name, nil)
		slices.Sort(toks)
		return slices.Compact(toks)
	})
	x.post.grams = postingsByDefinition(uniq, func(name string) []uint32 {
		return trigrams(name, nil)
	})
	return x
}

func postingsByDefinition[K cmp.Ordered](uniq []string, keys func(name string) []K) postings[K] {
	names := map[K][]int32{}
	for n, name := range uniq {
		for _, k := range keys(name) {
			names[k] = append(names[k], int32(n))
		}
	}
	p := postings[K]{off: []uint32{0}, names: []int32{}}
	for k := range names {
		p.keys = append(p.keys, k)
	}
	slices.Sort(p.keys)
	if p.keys == nil {
		p.keys = []K{}
	}
	for _, k := range p.keys {
		p.names = append(p.names, names[k]...)
		p.off = append(p.off, uint32(len(p.names)))
	}
	return p
}

func checkNames(t *testing.T, nodes []schemas.Node) {
	t.Helper()
	want := namesByDefinition(nodes)
	ids := make([]uint64, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	packed, nt, err := buildNodes(nodes, ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, serial := range []bool{false, true} {
		got := buildNames(packed, &nt, serial)
		for _, c := range []struct {
			name      string
			got, want any
		}{
			{"byName", got.byName, want.byName},
			{"nameAt", got.nameAt, want.nameAt},
			{"byQName", got.byQName, want.byQName},
			{"tokens", got.postings().tokens, want.post.tokens},
			{"grams", got.postings().grams, want.post.grams},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Errorf("serial %v: %s differs from its definition", serial, c.name)
			}
		}
	}
}

func TestBuildNamesMatchesDefinition(t *testing.T) {
	checkNames(t, nil)
	checkNames(t, querytest.Synthetic(5000, 3).Nodes)
	checkNames(t, querytest.Synthetic(40000, 3).Nodes) // names split among workers, sorts forked

	// Names that stress folding, words and trigrams: case variants,
	// non-ASCII bytes, separators, digits, empty names, many repeats.
	parts := []string{"", "a", "A", "ab", "Ab", "AB", "HTTP", "http", "Server", "server_", "_", "2", "v2", "é", "É",
		"\xff", "Z", "z", "[", "`", "@", "x.y", "get", "Get", "GET", " ", "utf8", "Ω"}
	rng := rand.New(rand.NewPCG(1, 2))
	var nodes []schemas.Node
	for r := range 3000 {
		var name strings.Builder
		for range rng.IntN(4) {
			name.WriteString(parts[rng.IntN(len(parts))])
		}
		nodes = append(nodes, schemas.Node{
			ID:            uint64(r + 1),
			Name:          name.String(),
			QualifiedName: fmt.Sprintf("p%d.%s", rng.IntN(5), name.String()),
		})
	}
	checkNames(t, nodes)
}

// TestDistinctNames holds distinctNames, on one worker and on several, to
// its contract: each row's number names its name, and every distinct name
// has one number.
func TestDistinctNames(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	nodes := make([]schemas.Node, 40000) // past the least split among workers
	ids := make([]uint64, len(nodes))
	for r := range nodes {
		name := fmt.Sprintf("n%d", rng.IntN(9000))
		if r%7 == 0 {
			name = ""
		}
		nodes[r] = schemas.Node{ID: uint64(r + 1), Name: name, QualifiedName: "p." + name}
		ids[r] = uint64(r + 1)
	}
	packed, nt, err := buildNodes(nodes, ids)
	if err != nil {
		t.Fatal(err)
	}
	x := names{nodes: packed, nt: &nt}
	distinct := map[string]bool{}
	for _, n := range nodes {
		distinct[n.Name] = true
	}
	for _, workers := range []int{1, 2, 3, 7} {
		nameOf, uniq := distinctNames(&x, workers)
		if len(uniq) != len(distinct) {
			t.Errorf("%d workers: %d names, want %d", workers, len(uniq), len(distinct))
		}
		seen := map[string]bool{}
		for _, s := range uniq {
			if seen[s] {
				t.Errorf("%d workers: name %q numbered twice", workers, s)
			}
			seen[s] = true
		}
		for r, n := range nodes {
			if got := uniq[nameOf[r]]; got != n.Name {
				t.Fatalf("%d workers: row %d numbered as %q, is %q", workers, r, got, n.Name)
			}
		}
	}
}

// TestPostingsOnFirstSearch holds the search's postings to being built
// by the first search that needs them, not by the load, once, whichever
// of several concurrent searches comes first; the answers are those of an
// engine warmed before its first search.
func TestPostingsOnFirstSearch(t *testing.T) {
	s := querytest.Synthetic(5000, 3)
	warm, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	warm.Warm()
	cold, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if p := cold.names.post; p.tokens.keys != nil || p.grams.keys != nil {
		t.Fatal("the load built the postings")
	}
	queries := []string{"handler", "RenderSesion", "load user", "ParseSer", "zzzz"}
	want := make([][]Hit, len(queries))
	for i, q := range queries {
		want[i] = warm.Search(q, SearchOptions{Limit: 20})
	}
	got := make([][][]Hit, 4)
	var wg sync.WaitGroup
	for g := range got {
		wg.Go(func() {
			for _, q := range queries {
				got[g] = append(got[g], cold.Search(q, SearchOptions{Limit: 20}))
			}
		})
	}
	wg.Wait()
	if p := cold.names.post; len(p.tokens.keys) == 0 || len(p.grams.keys) == 0 {
		t.Fatal("searches did not build the postings")
	}
	for g := range got {
		if !reflect.DeepEqual(got[g], want) {
			t.Errorf("goroutine %d: the searches of a cold engine differ from a warm one's", g)
		}
	}
}
