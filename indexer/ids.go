package indexer

import (
	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/schemas"
)

// NodeID is the stable id of a symbol: a hash of its language, kind,
// qualified name, file and ordinal (the how-many-th symbol with the same
// four in that file, for overloads and redefinitions). Line numbers are
// not part of it, so a symbol keeps its id when code above it moves.
// The result is never 0, which edges use for "unresolved".
//
// Its top fileIDBits are those of the hash of the file alone, so that a
// file's symbols are neighbours in every table sorted by id: their names,
// signatures and lines sit together for the compressor, and an edit of
// the file changes the row groups that hold it, not rows all over the
// table.
func NodeID(language, kind, qualifiedName, file string, ordinal int) uint64 {
	d := xxhash.New()
	for _, s := range [...]string{language, kind, qualifiedName, file} {
		d.WriteString(s)
		d.Write([]byte{0})
	}
	var b [8]byte
	for i := range b {
		b[i] = byte(ordinal >> (8 * i))
	}
	d.Write(b[:])
	id := xxhash.Sum64String(file)>>(64-fileIDBits)<<(64-fileIDBits) | d.Sum64()>>fileIDBits
	if id == 0 {
		id = 1
	}
	return id
}

// fileIDBits is how many of an id's top bits come from its file: enough
// that files rarely share them (a million files, a few to a value), few
// enough that the 44 left for the symbol make two symbols of one file
// with one id a chance of n²/2^45 for a file of n symbols.
const fileIDBits = 20

// FileID is the id of the file node of path.
func FileID(path string) uint64 {
	return NodeID("", schemas.KindFile, path, path, 0)
}

// IDs hands out node ids for one file, counting ordinals.
type IDs struct {
	Language string
	File     string
	seen     map[[2]string]int
	taken    map[uint64]bool // the ids handed out, and the file node's
}

// Next returns the id of the next symbol of that kind and qualified name.
// Should it be one the file already has (a chance of n²/2^45 for a file
// of n symbols: see fileIDBits), it is the id of the ordinal plus 2^32,
// then twice that, …: the first free.
func (g *IDs) Next(kind, qualifiedName string) uint64 {
	if g.seen == nil {
		g.seen = make(map[[2]string]int)
		g.taken = map[uint64]bool{FileID(g.File): true}
	}
	k := [2]string{kind, qualifiedName}
	n := g.seen[k]
	g.seen[k] = n + 1
	id := NodeID(g.Language, kind, qualifiedName, g.File, n)
	for again := 1; g.taken[id]; again++ {
		id = NodeID(g.Language, kind, qualifiedName, g.File, n+again<<32)
	}
	g.taken[id] = true
	return id
}
