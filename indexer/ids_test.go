package indexer

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// TestNodeIDFormat holds NodeID to FORMAT.md's definition: the top 20 bits
// of the file's hash, then the top 44 of the hash of the four parts and
// the ordinal.
func TestNodeIDFormat(t *testing.T) {
	for _, c := range []struct {
		lang, kind, qname, file string
		ordinal                 int
	}{
		{"go", "function", "net/http.Get", "net/http/client.go", 0},
		{"go", "method", "net/http.(*Server).Serve", "net/http/server.go", 3},
		{"", "file", "a.py", "a.py", 0},
		{"python", "class", "pkg.mod.C", "pkg/mod.py", 1 << 40},
	} {
		var b []byte
		for _, s := range []string{c.lang, c.kind, c.qname, c.file} {
			b = append(append(b, s...), 0)
		}
		b = binary.LittleEndian.AppendUint64(b, uint64(c.ordinal))
		want := xxhash.Sum64String(c.file)&^(1<<44-1) | xxhash.Sum64(b)>>20
		if got := NodeID(c.lang, c.kind, c.qname, c.file, c.ordinal); got != want {
			t.Errorf("NodeID(%q, %q, %q, %q, %d) = %#x, want %#x", c.lang, c.kind, c.qname, c.file, c.ordinal, got, want)
		}
	}
}

// TestNodeIDsGroupByFile checks what the file's bits are for: sorted by
// id, the symbols of each file come together, and no two ids are equal.
func TestNodeIDsGroupByFile(t *testing.T) {
	type sym struct {
		id   uint64
		file string
	}
	var syms []sym
	for f := range 200 {
		file := fmt.Sprintf("pkg%d/file%d.go", f%7, f)
		ids := IDs{Language: "go", File: file}
		syms = append(syms, sym{FileID(file), file})
		for s := range 50 {
			syms = append(syms, sym{ids.Next("function", fmt.Sprintf("pkg%d.F%d", f%7, s%40)), file})
		}
	}
	slices.SortFunc(syms, func(a, b sym) int { return cmp.Compare(a.id, b.id) })
	seen := map[string]bool{}
	for i, s := range syms {
		if i > 0 && s.id == syms[i-1].id {
			t.Fatalf("two symbols with id %#x", s.id)
		}
		if i > 0 && s.file != syms[i-1].file {
			if seen[s.file] {
				t.Fatalf("the symbols of %s are not together in id order", s.file)
			}
		}
		seen[s.file] = true
	}
}

// TestIDsCollision: a symbol whose id its file already has takes the id
// of its ordinal plus 2^32, then twice that, as FORMAT.md says.
func TestIDsCollision(t *testing.T) {
	const lang, kind, qname, file = "go", "function", "p.F", "p/a.go"
	id := func(ordinal int) uint64 { return NodeID(lang, kind, qname, file, ordinal) }
	for _, c := range []struct {
		taken []uint64
		want  uint64
	}{
		{nil, id(0)},
		{[]uint64{id(0)}, id(1 << 32)},
		{[]uint64{id(0), id(1 << 32)}, id(2 << 32)},
	} {
		g := IDs{Language: lang, File: file}
		g.Next("variable", "p.init") // the maps made
		for _, x := range c.taken {
			g.taken[x] = true
		}
		if got := g.Next(kind, qname); got != c.want {
			t.Errorf("taken %x: Next = %#x, want %#x", c.taken, got, c.want)
		}
		if len(c.taken) == 0 && g.Next(kind, qname) != id(1) {
			t.Error("the second F is not ordinal 1's")
		}
	}
}
