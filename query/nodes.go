package query

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/schemas"
)

// node is a row of the nodes table as the engine keeps it: 72 bytes
// against schemas.Node's 208. Its strings are places in one byte arena
// (a name that ends its qualified name takes no bytes of its own: see
// nameInQName); kind, language, visibility, file and decorators are
// numbers into small tables; the parent is a row. Node rebuilds the row.
type node struct {
	id, bodyHash                         uint64
	name, qname, sig, doc                uint32 // places in nodeTable.arena (see arena); for name, see nameInQName
	startLine, startCol, endLine, endCol uint32
	startByte, endByte                   uint32
	parent                               int32  // row; noParent, or outsideParent (see nodeTable.outside)
	file                                 uint32 // into nodeTable.files
	decorators                           uint32 // 1 + index into nodeTable.decorators; 0 for none
	kind, lang, vis, flags               uint8  // into nodeTable.words; flags: is*
}

const (
	noParent      = -1
	outsideParent = -2 // a ParentID that is no node of the snapshot

	isExported = 1 << iota
	isAsync
	isStatic
	isAbstract
	isTest
	isGenerated // of a generated file: set from the files table
)

// nameInQName, set in node.name, says that the name is the end of the
// qualified name, node.name's other bits its length: the name's length is
// then read from the node alone, as the searches do of many.
const nameInQName = 1 << 31

// arena holds strings end to end, each its bytes then its length, so
// that a string is where its length is: four bytes, where an offset and a
// length took eight. A length is a byte, or for 255 bytes or more four
// bytes, little-endian, then 255. The length goes last because strings
// are mostly compared by their ends (a name against the end of a
// qualified name): the end is then one miss of the cache, where a length
// in front of a long string would be a second. Offset 0 is the empty
// string.
type arena []byte

// longText marks a length of four bytes.
const longText = 0xff

func newArena(size int) arena { return append(make(arena, 0, 1+size), 0) }

// str returns the string whose length is at off.
func (a arena) str(off uint32) string {
	n, end := uint32(a[off]), off
	if n == longText {
		end -= 4
		n = binary.LittleEndian.Uint32(a[end:])
	}
	return unsafe.String(unsafe.SliceData(a[end-n:]), n)
}

// add appends s and returns where its length is.
func (a *arena) add(s string) uint32 {
	if s == "" {
		return 0
	}
	*a = append(*a, s...)
	if len(s) >= longText {
		*a = binary.LittleEndian.AppendUint32(*a, uint32(len(s)))
		*a = append(*a, longText)
	} else {
		*a = append(*a, byte(len(s)))
	}
	return uint32(len(*a) - 1)
}

// textRoom is the most an arena takes for a string besides its bytes.
const textRoom = 5

// nodeTable holds what node rows point into.
type nodeTable struct {
	arena      arena
	words      []string         // kinds, languages, visibilities; "" is 0
	files      []string         // paths, sorted
	decorators [][]string       // distinct lists
	outside    map[int32]uint64 // row → ParentID, for outsideParent
}

func (t *nodeTable) str(off uint32) string { return t.arena.str(off) }

// name returns x's name.
func (t *nodeTable) name(x *node) string {
	if x.name&nameInQName == 0 {
		return t.arena.str(x.name)
	}
	q := t.arena.str(x.qname)
	return q[len(q)-int(x.name&^nameInQName):]
}

// names returns x's name and qualified name, which a name that ends the
// qualified name is read from.
func (t *nodeTable) names(x *node) (name, qname string) {
	qname = t.arena.str(x.qname)
	if x.name&nameInQName == 0 {
		return t.arena.str(x.name), qname
	}
	return qname[len(qname)-int(x.name&^nameInQName):], qname
}

// nameLen returns the length of x's name.
func (t *nodeTable) nameLen(x *node) int {
	if x.name&nameInQName == 0 {
		return len(t.arena.str(x.name))
	}
	return int(x.name &^ nameInQName)
}

// buildNodes packs rows, sorted by unique id, into node rows; ids are the
// rows' ids.
//
// The strings go into two arenas side by side, joined at the end: names
// and qualified names into one, signatures and docs into the other, each
// written by a goroutine of its own into places of its own (their rows
// would share cache lines), while this one fills the rest of the rows.
func buildNodes(rows []schemas.Node, ids []uint64) ([]node, nodeTable, error) {
	var t nodeTable
	out := make([]node, len(rows))
	// Files are numbered as met, then renumbered in path order.
	names, texts := 1, 0 // the arenas' sizes
	met := map[string]uint32{}
	for i := range rows {
		n := &rows[i]
		names += textRoom + len(n.QualifiedName)
		if !strings.HasSuffix(n.QualifiedName, n.Name) {
			names += textRoom + len(n.Name)
		}
		texts += 2*textRoom + len(n.Signature) + len(n.Doc)
		f, ok := met[n.File]
		if !ok {
			f = uint32(len(t.files))
			met[n.File] = f
			// A copy: the row's string may share its buffer with the
			// rest of a row group's dictionary, which would then stay.
			t.files = append(t.files, strings.Clone(n.File))
		}
		out[i].file = f
	}
	order := make([]uint32, len(t.files)) // path order → as met
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(t.files[a], t.files[b]) })
	renumber := make([]uint32, len(order)) // as met → path order
	sorted := make([]string, len(order))
	for i, m := range order {
		renumber[m], sorted[i] = uint32(i), t.files[m]
	}
	t.files = sorted
	if names+texts >= nameInQName { // an offset's top bit is nameInQName's
		return nil, t, fmt.Errorf("nodes: %d bytes of names, signatures and docs, more than an engine holds", names+texts)
	}
	var wg sync.WaitGroup
	nameAt := make([][2]uint32, len(rows)) // name, qualified name
	nameArena := newArena(names)
	wg.Go(func() {
		for i := range rows {
			n := &rows[i]
			at := &nameAt[i]
			at[1] = nameArena.add(n.QualifiedName)
			if n.Name != "" && strings.HasSuffix(n.QualifiedName, n.Name) {
				at[0] = nameInQName | uint32(len(n.Name))
			} else {
				at[0] = nameArena.add(n.Name)
			}
		}
	})
	// Signatures and docs repeat (a constant's type, a generated
	// comment): a table of recent ones, by hash, keeps most repeats once.
	// Their arena starts empty: a place in it is never 0 but for "".
	textAt := make([][2]uint32, len(rows)) // signature, doc
	textArena := make(arena, 0, texts)
	wg.Go(func() {
		var recent [1 << 16]uint32 // places of strings; 0 for none
		shared := func(s string) uint32 {
			if len(s) < 8 {
				return textArena.add(s)
			}
			slot := &recent[xxhash.Sum64String(s)&uint64(len(recent)-1)]
			if *slot != 0 && textArena.str(*slot) == s {
				return *slot
			}
			*slot = textArena.add(s)
			return *slot
		}
		for i := range rows {
			textAt[i] = [2]uint32{shared(rows[i].Signature), shared(rows[i].Doc)}
		}
	})
	// Each field has a handful of values: a scan of them beats a map.
	t.words = []string{""}
	tooMany := false
	type field struct {
		vals []string
		nums []uint8
	}
	var kinds, langs, viss field
	word := func(f *field, s string) uint8 {
		if s == "" {
			return 0
		}
		for i, v := range f.vals {
			if v == s {
				return f.nums[i]
			}
		}
		w := slices.Index(t.words, s)
		if w < 0 {
			if len(t.words) == 256 {
				tooMany = true
				return 0
			}
			w = len(t.words)
			t.words = append(t.words, s)
		}
		f.vals, f.nums = append(f.vals, s), append(f.nums, uint8(w))
		return uint8(w)
	}
	decoNum := map[string]uint32{}
	for i := range rows {
		n := &rows[i]
		x := &out[i]
		x.id, x.bodyHash = n.ID, n.BodyHash
		x.startLine, x.startCol, x.endLine, x.endCol = n.StartLine, n.StartCol, n.EndLine, n.EndCol
		x.startByte, x.endByte = n.StartByte, n.EndByte
		x.file = renumber[x.file]
		x.kind, x.lang, x.vis = word(&kinds, n.Kind), word(&langs, n.Language), word(&viss, n.Visibility)
		for _, f := range [...]struct {
			on  bool
			bit uint8
		}{{n.Exported, isExported}, {n.IsAsync, isAsync}, {n.IsStatic, isStatic}, {n.IsAbstract, isAbstract}, {n.IsTest, isTest}} {
			if f.on {
				x.flags |= f.bit
			}
		}
		if len(n.Decorators) > 0 {
			key := strings.Join(n.Decorators, "\x00")
			d, ok := decoNum[key]
			if !ok {
				t.decorators = append(t.decorators, n.Decorators)
				d = uint32(len(t.decorators))
				decoNum[key] = d
			}
			x.decorators = d
		}
		x.parent = noParent
		if n.ParentID != 0 {
			if r, ok := schemas.RowOf(ids, n.ParentID); ok {
				x.parent = int32(r)
			} else {
				x.parent = outsideParent
				if t.outside == nil {
					t.outside = map[int32]uint64{}
				}
				t.outside[int32(i)] = n.ParentID
			}
		}
	}
	wg.Wait()
	if tooMany {
		return nil, t, errors.New("nodes: more than 255 distinct kinds, languages and visibilities")
	}
	// One arena, without the room the repeats did not take: the texts'
	// places move past the names'.
	t.arena = make(arena, 0, len(nameArena)+len(textArena))
	t.arena = append(append(t.arena, nameArena...), textArena...)
	shift := func(off uint32) uint32 {
		if off == 0 {
			return 0
		}
		return off + uint32(len(nameArena))
	}
	for i := range out {
		x := &out[i]
		x.name, x.qname = nameAt[i][0], nameAt[i][1]
		x.sig, x.doc = shift(textAt[i][0]), shift(textAt[i][1])
	}
	return out, t, nil
}

// Node returns node row r, as the snapshot has it.
func (e *Engine) Node(r int32) schemas.Node {
	x := &e.nodes[r]
	t := &e.nt
	n := schemas.Node{
		ID: x.id, Kind: t.words[x.kind], Name: t.name(x), QualifiedName: t.str(x.qname),
		Language: t.words[x.lang], File: t.files[x.file],
		StartLine: x.startLine, StartCol: x.startCol, EndLine: x.endLine, EndCol: x.endCol,
		StartByte: x.startByte, EndByte: x.endByte,
		Signature: t.str(x.sig), Doc: t.str(x.doc), Visibility: t.words[x.vis],
		Exported: x.flags&isExported != 0, IsAsync: x.flags&isAsync != 0, IsStatic: x.flags&isStatic != 0,
		IsAbstract: x.flags&isAbstract != 0, IsTest: x.flags&isTest != 0,
		BodyHash: x.bodyHash,
	}
	switch x.parent {
	case noParent:
	case outsideParent:
		n.ParentID = t.outside[r]
	default:
		n.ParentID = e.nodes[x.parent].id
	}
	if x.decorators > 0 {
		n.Decorators = t.decorators[x.decorators-1]
	}
	return n
}

// NodeID, NodeName, NodeQName, NodeKind and NodeFile read one field of
// node row r without rebuilding the row.
func (e *Engine) NodeID(r int32) uint64    { return e.nodes[r].id }
func (e *Engine) NodeName(r int32) string  { return e.nt.name(&e.nodes[r]) }
func (e *Engine) NodeQName(r int32) string { return e.nt.str(e.nodes[r].qname) }
func (e *Engine) NodeKind(r int32) string  { return e.nt.words[e.nodes[r].kind] }
func (e *Engine) NodeFile(r int32) string  { return e.nt.files[e.nodes[r].file] }
func (e *Engine) nodeLang(r int32) string  { return e.nt.words[e.nodes[r].lang] }
func (e *Engine) nodeSig(r int32) string   { return e.nt.str(e.nodes[r].sig) }

// IsTest reports whether row r is test code: a test by its language's
// conventions (Node.IsTest), or any symbol of a test file (File.IsTest).
func (e *Engine) IsTest(r int32) bool {
	if e.nodes[r].flags&isTest != 0 {
		return true
	}
	f, ok := e.File(e.NodeFile(r))
	return ok && f.IsTest
}

// IsGenerated reports whether row r is generated code: a symbol of a file
// marked is_generated.
func (e *Engine) IsGenerated(r int32) bool { return e.nodes[r].flags&isGenerated != 0 }

// Nodes returns the node rows, sorted by id, in a new slice.
func (e *Engine) Nodes() []schemas.Node {
	out := make([]schemas.Node, len(e.nodes))
	for r := range out {
		out[r] = e.Node(int32(r))
	}
	return out
}
