package query

import (
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/s2"

	"github.com/graphsnap/snap/schemas"
)

// packedArgs keeps the edges' argument texts (schemas.Edge.Args: what a
// call passes, as written) compressed, argsBlock edges to a block: only
// the call details read them, one callee's sites at a time, and kept as
// strings they cost kubernetes' engine 155 B a node of 1,362.
//
// A block is the uvarint length and the bytes of each of its edges' texts,
// compressed with S2 (Snappy's successor: on these texts about as small as
// zstd's fastest level, in half the time); a block whose texts are all
// empty is stored as nothing.
type packedArgs struct {
	off  []int // block b is data[off[b]:off[b+1]]
	data []byte
}

// argsBlock is how many edges share a block: a few kilobytes of text,
// inflated in microseconds.
const argsBlock = 256

// packArgs compresses the Args of edges.
func packArgs(edges []schemas.Edge) packedArgs {
	blocks := (len(edges) + argsBlock - 1) / argsBlock
	p := packedArgs{off: make([]int, blocks+1)}
	var raw, buf []byte
	for b := range blocks {
		raw = raw[:0]
		empty := true
		for i := b * argsBlock; i < min(len(edges), (b+1)*argsBlock); i++ {
			a := edges[i].Args
			raw = binary.AppendUvarint(raw, uint64(len(a)))
			raw = append(raw, a...)
			empty = empty && a == ""
		}
		if !empty {
			buf = s2.Encode(buf[:cap(buf)], raw)
			p.data = append(p.data, buf...)
		}
		p.off[b+1] = len(p.data)
	}
	return p
}

// get returns the Args of edge i. The blocks are the engine's own
// bytes: one that does not inflate is a bug, and panics.
func (p *packedArgs) get(i int32) string {
	b := int(i) / argsBlock
	lo, hi := p.off[b], p.off[b+1]
	if lo == hi {
		return ""
	}
	raw, err := s2.Decode(nil, p.data[lo:hi])
	if err != nil {
		panic(fmt.Sprintf("query: arguments of edge %d: %v", i, err))
	}
	for range int(i) % argsBlock {
		n, w := binary.Uvarint(raw)
		raw = raw[w+int(n):]
	}
	n, w := binary.Uvarint(raw)
	return string(raw[w : w+int(n)])
}
