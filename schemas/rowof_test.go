package schemas

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRowOf holds RowOf to a binary search over ids spread evenly, bunched
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
				if r, ok := RowOf(ids, id); ok != wantOK || ok && r != wantR {
					t.Fatalf("%s, %d ids: RowOf(%d) = %d, %v; want %d, %v", name, len(ids), id, r, ok, wantR, wantOK)
				}
			}
		}
	}
}
