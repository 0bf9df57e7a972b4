package query

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/graphsnap/snap/schemas"
)

// packedArgs keeps the edges' argument texts (schemas.Edge.Args: what a
// call passes, as written) compressed, argsBlock edges to a block: only
// the call details read them, one callee's sites at a time, and as
// strings they would take more memory than any other column of the
// edges.
//
// A block is the uvarint length and the bytes of each of its edges' texts,
// compressed with zstd; a block whose texts are all empty is stored as
// nothing.
type packedArgs struct {
	off  []int // block b is data[off[b]:off[b+1]]
	data []byte
}

// argsBlock is how many edges share a block: a few kilobytes of text,
// inflated in microseconds.
const argsBlock = 256

var (
	argsEncoder = sync.OnceValue(func() *zstd.Encoder {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
		if err != nil {
			panic(err) // only for invalid options
		}
		return enc
	})
	argsDecoder = sync.OnceValue(func() *zstd.Decoder {
		dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
		if err != nil {
			panic(err) // only for invalid options
		}
		return dec
	})
)

// packArgs compresses the Args of edges.
func packArgs(edges []schemas.Edge) packedArgs {
	blocks := (len(edges) + argsBlock - 1) / argsBlock
	p := packedArgs{off: make([]int, blocks+1)}
	enc := argsEncoder()
	var raw []byte
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
			p.data = enc.EncodeAll(raw, p.data)
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
	raw, err := argsDecoder().DecodeAll(p.data[lo:hi], nil)
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
