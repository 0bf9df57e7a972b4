package query

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/schemas"
)

// node is a row of the nodes table as the engine keeps it: 88 bytes
// against schemas.Node's 208. Its strings are spans of one byte arena
// (a name that ends its qualified name takes no bytes of its own); kind,
// language, visibility, file and decorators are numbers into small
// tables; the parent is a row. Node rebuilds the row.
type node struct {
	id, bodyHash                         uint64
	name, qname, sig, doc                text
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
)

// text is a string of an arena.
type text struct{ off, len uint32 }

// arena holds strings end to end.
type arena []byte

func (a arena) str(s text) string {
	if s.len == 0 {
		return ""
	}
	return unsafe.String(&a[s.off], s.len)
}

// nodeTable holds what node rows point into.
type nodeTable struct {
	arena      arena
	words      []string         // kinds, languages, visibilities; "" is 0
	files      []string         // paths, sorted
	decorators [][]string       // distinct lists
	outside    map[int32]uint64 // row → ParentID, for outsideParent
}

func (t *nodeTable) str(s text) string { return t.arena.str(s) }

// buildNodes packs rows, sorted by unique id, into node rows; ids are the
// rows' ids.
func buildNodes(rows []schemas.Node, ids []uint64) ([]node, nodeTable, error) {
	var t nodeTable
	out := make([]node, len(rows))
	// Files are numbered as met, then renumbered in path order.
	size := 0
	met := map[string]uint32{}
	for i := range rows {
		n := &rows[i]
		size += len(n.QualifiedName) + len(n.Signature) + len(n.Doc)
		if !strings.HasSuffix(n.QualifiedName, n.Name) {
			size += len(n.Name)
		}
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
	if size > 1<<32-1 {
		return nil, t, fmt.Errorf("nodes: %d bytes of names, signatures and docs, more than an engine holds", size)
	}
	t.arena = make([]byte, 0, size)
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
	add := func(s string) text {
		off := len(t.arena)
		t.arena = append(t.arena, s...)
		return text{uint32(off), uint32(len(s))}
	}
	// Signatures and docs repeat (a constant's type, a generated
	// comment): a table of recent ones, by hash, keeps most repeats once.
	var recent [1 << 16]text
	shared := func(s string) text {
		if len(s) < 8 {
			return add(s)
		}
		slot := &recent[xxhash.Sum64String(s)&uint64(len(recent)-1)]
		if x := *slot; x.len == uint32(len(s)) && t.arena.str(x) == s {
			return x
		}
		*slot = add(s)
		return *slot
	}
	for i := range rows {
		n := &rows[i]
		x := &out[i]
		x.id, x.bodyHash = n.ID, n.BodyHash
		x.qname = add(n.QualifiedName)
		if strings.HasSuffix(n.QualifiedName, n.Name) {
			x.name = text{x.qname.off + x.qname.len - uint32(len(n.Name)), uint32(len(n.Name))}
		} else {
			x.name = add(n.Name)
		}
		x.sig, x.doc = shared(n.Signature), shared(n.Doc)
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
	if tooMany {
		return nil, t, errors.New("nodes: more than 255 distinct kinds, languages and visibilities")
	}
	if len(t.arena) < cap(t.arena) {
		t.arena = slices.Clone(t.arena) // without the room the repeats did not take
	}
	return out, t, nil
}

// Node returns node row r, as the snapshot has it.
func (e *Engine) Node(r int32) schemas.Node {
	x := &e.nodes[r]
	t := &e.nt
	n := schemas.Node{
		ID: x.id, Kind: t.words[x.kind], Name: t.str(x.name), QualifiedName: t.str(x.qname),
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
func (e *Engine) NodeName(r int32) string  { return e.nt.str(e.nodes[r].name) }
func (e *Engine) NodeQName(r int32) string { return e.nt.str(e.nodes[r].qname) }
func (e *Engine) NodeKind(r int32) string  { return e.nt.words[e.nodes[r].kind] }
func (e *Engine) NodeFile(r int32) string  { return e.nt.files[e.nodes[r].file] }
func (e *Engine) nodeLang(r int32) string  { return e.nt.words[e.nodes[r].lang] }
func (e *Engine) nodeSig(r int32) string   { return e.nt.str(e.nodes[r].sig) }

// Nodes returns the node rows, sorted by id, in a new slice.
func (e *Engine) Nodes() []schemas.Node {
	out := make([]schemas.Node, len(e.nodes))
	for r := range out {
		out[r] = e.Node(int32(r))
	}
	return out
}
