package query

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestSortKeys holds sortKeys to a plain sort by string, then id, on
// strings that share long prefixes, differ only in length or in zero
// bytes, repeat, or are empty, on one goroutine and on several.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	parts := []string{"", "a", "net/http", "net/http.", "(*Server)", "Serve", "\x00", "\x00\x00", "cmd/compile/internal/ssa", "é", "zz"}
	for _, n := range []int{0, 1, 2, 13, 200, 3000, 60000} { // the last sorts on several goroutines
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
		for _, workers := range []int{1, 2, 5} {
			got := slices.Clone(keys)
			sortKeys(got, workers)
			for i := range got {
				if got[i].s != want[i].s || got[i].id != want[i].id {
					t.Fatalf("%d keys, %d workers: at %d got %q/%d, want %q/%d", n, workers, i, got[i].s, got[i].id, want[i].s, want[i].id)
				}
			}
		}
	}
}

// TestRowSizes holds the engine's rows to the sizes its heap per node
// is counted in (README, Performance): a field more shows here first.
func TestRowSizes(t *testing.T) {
	if n, e := unsafe.Sizeof(node{}), unsafe.Sizeof(edge{}); n != 72 || e != 24 {
		t.Fatalf("a node row takes %d bytes and an edge row %d, want 72 and 24", n, e)
	}
}
