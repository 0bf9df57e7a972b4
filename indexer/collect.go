package indexer

import (
	"cmp"
	"math/bits"
	"slices"
)

// MaxRoles is the number of role slots a Collector keeps for an item:
// the roles of a language are numbered from 0 to at most MaxRoles-1.
const MaxRoles = 16

// CaptureInfo says what capture i of a query stands for: the kind of its
// item and, for a role capture, the role's slot (-1 for the main capture).
type CaptureInfo[K cmp.Ordered] struct {
	Kind K
	Role int8
}

// Item is a language's item type, filled by a Collector through its
// pointer.
type Item[K cmp.Ordered, T any] interface {
	*T
	// SetMain sets the kind and the range of the item's main capture.
	SetMain(kind K, start, end uint32)
	// SetRole sets the range of role slot r and marks the role present.
	SetRole(r int, start, end uint32)
}

// Merge says what a Collector does with the items of one kind on one
// node, which two patterns of a query can both match.
type Merge uint8

const (
	// KeepAll keeps every item, in no set order among themselves.
	KeepAll Merge = iota
	// MergeFirst keeps the first item in match order, which takes from
	// the others the roles it lacks.
	MergeFirst
	// MergeEarliest is MergeFirst, but the item also takes a role it has
	// when another's starts earlier.
	MergeEarliest
)

// Collector turns the captures of a Scan into items: one per main capture,
// holding the role captures of its match. Its zero value is ready to use;
// it reuses its memory from one Collect to the next, so a Collector is not
// safe for concurrent use: keep one per extractor.
type Collector[K cmp.Ordered, T any, P Item[K, T]] struct {
	Merge Merge
	raw   []collected[K]
	keys  []collectedKey[K]
	out   []T
}

// collected is an item before it is sorted and handed to its language.
type collected[K cmp.Ordered] struct {
	start, end uint32
	kind       K
	has        uint16              // bit r set when role r was captured
	role       [MaxRoles][2]uint32 // start, end
}

// collectedKey is what items sort by: start, then end descending, then
// kind; with a Merge, then match order.
type collectedKey[K cmp.Ordered] struct {
	pos  uint64 // start<<32 | ^end
	kind K
	i    int32 // in Collector.raw
}

// Collect returns the items of caps, which info describes by capture
// index, in document order: by start, then containers before what they
// contain (longer first), then by kind. Captures with index NameChild are
// skipped; a match with no main capture yields no item. The slice is valid
// until the next Collect.
func (c *Collector[K, T, P]) Collect(caps []Capture, info []CaptureInfo[K]) []T {
	raw := c.raw[:0]
	for i := 0; i < len(caps); {
		j := i
		for j < len(caps) && caps[j].Match == caps[i].Match {
			j++
		}
		var it collected[K]
		for _, cp := range caps[i:j] {
			if cp.Index == NameChild {
				continue
			}
			if r := info[cp.Index].Role; r >= 0 {
				it.role[r] = [2]uint32{cp.Start, cp.End}
				it.has |= 1 << r
			}
		}
		for _, cp := range caps[i:j] {
			if cp.Index == NameChild {
				continue
			}
			if ci := info[cp.Index]; ci.Role < 0 {
				it.kind, it.start, it.end = ci.Kind, cp.Start, cp.End
				raw = append(raw, it)
			}
		}
		i = j
	}
	c.raw = raw
	keys := c.keys[:0]
	for i := range raw {
		keys = append(keys, collectedKey[K]{uint64(raw[i].start)<<32 | uint64(^raw[i].end), raw[i].kind, int32(i)})
	}
	c.keys = keys
	if c.Merge == KeepAll {
		slices.SortFunc(keys, func(a, b collectedKey[K]) int {
			return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.kind, b.kind))
		})
	} else {
		slices.SortFunc(keys, func(a, b collectedKey[K]) int {
			return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.kind, b.kind), cmp.Compare(a.i, b.i))
		})
		keys = c.merge(keys)
	}
	out := slices.Grow(c.out[:0], len(keys))[:len(keys)]
	clear(out)
	for n, k := range keys {
		it, p := &raw[k.i], P(&out[n])
		p.SetMain(it.kind, it.start, it.end)
		for h := it.has; h != 0; h &= h - 1 {
			r := bits.TrailingZeros16(h)
			p.SetRole(r, it.role[r][0], it.role[r][1])
		}
	}
	c.out = out
	return out
}

// merge folds each run of keys of one kind on one node into its first
// item, as c.Merge says, and returns the keys left.
func (c *Collector[K, T, P]) merge(keys []collectedKey[K]) []collectedKey[K] {
	kept := keys[:0]
	for _, k := range keys {
		n := len(kept)
		if n == 0 || kept[n-1].pos != k.pos || kept[n-1].kind != k.kind {
			kept = append(kept, k)
			continue
		}
		dst, src := &c.raw[kept[n-1].i], &c.raw[k.i]
		for h := src.has; h != 0; h &= h - 1 {
			r := bits.TrailingZeros16(h)
			if dst.has&(1<<r) == 0 || c.Merge == MergeEarliest && src.role[r][0] < dst.role[r][0] {
				dst.role[r] = src.role[r]
				dst.has |= 1 << r
			}
		}
	}
	return kept
}
