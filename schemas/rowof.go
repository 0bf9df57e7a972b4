package schemas

import (
	"math/bits"
	"slices"
)

// RowOf finds id in ids, the nodes' ids in table order (sorted), and
// returns its row. Ids are hashes, spread evenly: the search starts where
// id would sit if they were exactly even, and widens from there until it
// brackets id, so it reads a few cache lines where a plain binary search
// reads twenty. It needs no index built beforehand.
func RowOf(ids []uint64, id uint64) (int, bool) {
	n := len(ids)
	if n == 0 {
		return 0, false
	}
	guess, _ := bits.Mul64(id, uint64(n))
	lo, hi := int(guess), int(guess)+1 // ids[lo] <= id < ids[hi], once widened
	for step := 1; lo > 0 && ids[lo] > id; step *= 2 {
		hi, lo = lo, max(lo-step, 0)
	}
	for step := 1; hi < n && ids[hi] <= id; step *= 2 {
		lo, hi = hi, min(hi+step, n)
	}
	i, ok := slices.BinarySearch(ids[lo:hi], id)
	return lo + i, ok
}
