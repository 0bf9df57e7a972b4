package query

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestRowOf holds rowOf to a binary search over ids spread evenly, bunched
// at either end, and with a single id, for ids present and absent.
func TestRowOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sets := map[string]func() uint64{
		"even":      rng.Uint64,
		"low":       func() uint64 { return rng.Uint64() >> 40 },
		"high":      func() uint64 { return ^(rng.Uint64() >> 40) },
		"two bunch": func() uint64 { return rng.Uint64()>>50 | rng.Uint64()&(1<<63) },
	}
	for name, gen := range sets {
		for _, n := range []int{0, 1, 2, 3, 100, 5000} {
			ids := make([]uint64, n)
			for i := range ids {
				ids[i] = gen()
			}
			slices.Sort(ids)
			ids = slices.Compact(ids)
			probes := slices.Clone(ids)
			for range 200 {
				probes = append(probes, gen())
			}
			probes = append(probes, 0, ^uint64(0))
			for _, id := range probes {
				wantR, wantOK := slices.BinarySearch(ids, id)
				if r, ok := rowOf(ids, id); ok != wantOK || ok && r != wantR {
					t.Fatalf("%s, %d ids: rowOf(%d) = %d, %v; want %d, %v", name, len(ids), id, r, ok, wantR, wantOK)
				}
			}
		}
	}
}

// TestSortKeys holds sortKeys to a plain sort by string, then id, on
// strings that share long prefixes, differ only in length or in zero
// bytes, repeat, or are empty.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	parts := []string{"", "a", "net/http", "net/http.", "(*Server)", "Serve", "\x00", "\x00\x00", "cmd/compile/internal/ssa", "é", "zz"}
	for _, n := range []int{0, 1, 2, 13, 200, 3000} {
		keys := make([]prefixKey, n)
		for i := range keys {
			var s string
			for range rng.IntN(5) {
				s += parts[rng.IntN(len(parts))]
			}
			keys[i] = prefixKey{s: s, id: int32(rng.IntN(n + 1))}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, func(a, b prefixKey) int { return cmp.Or(strings.Compare(a.s, b.s), cmp.Compare(a.id, b.id)) })
		sortKeys(keys)
		for i := range keys {
			if keys[i].s != want[i].s || keys[i].id != want[i].id {
				t.Fatalf("%d keys: at %d got %q/%d, want %q/%d", n, i, keys[i].s, keys[i].id, want[i].s, want[i].id)
			}
		}
	}
}
