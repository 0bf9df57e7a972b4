package snapshot_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// synthetic returns a snapshot of n nodes, 3n edges, n/20 files with
// sources and 2n refs, shaped roughly like a real one.
func synthetic(n int) *snapshot.Snapshot {
	s := &snapshot.Snapshot{}
	nf := max(n/20, 1)
	for i := range nf {
		p := fmt.Sprintf("pkg%03d/file%06d.go", i/100, i)
		s.Files = append(s.Files, schemas.File{Path: p, Language: "go", SHA256: strings.Repeat("a", 64), Size: 4000, Lines: 120, Status: schemas.StatusOK})
		s.Sources = append(s.Sources, schemas.Source{Path: p, Content: []byte(strings.Repeat(fmt.Sprintf("func f%d() { return }\n", i), 150))})
	}
	for i := range n {
		f := s.Files[i%nf].Path
		s.Nodes = append(s.Nodes, schemas.Node{
			ID: uint64(i)*2654435761 + 1, Kind: schemas.KindFunction, Name: fmt.Sprintf("f%d", i),
			QualifiedName: fmt.Sprintf("pkg.f%d", i), Language: "go", File: f, StartLine: uint32(i % 500), EndLine: uint32(i%500 + 9),
			EndByte: uint32(i), Signature: "func()", Visibility: schemas.Public, Exported: i%2 == 0, BodyHash: uint64(i) * 31,
		})
	}
	for i := range s.Nodes {
		for k := range 3 {
			dst := s.Nodes[(i*7+k*13)%n].ID
			s.Edges = append(s.Edges, schemas.Edge{Src: s.Nodes[i].ID, Dst: dst, Kind: schemas.EdgeCalls, File: s.Nodes[i].File,
				Line: uint32(k + 1), Target: "g", Resolution: schemas.ResolvedScope, Confidence: 1, SrcRow: int32(i)})
		}
	}
	for i := range 2 * n {
		s.Refs = append(s.Refs, schemas.Ref{File: s.Files[i*nf/(2*n)].Path, Src: uint64(i), Kind: schemas.EdgeCalls, Target: "g", Expr: "g", Line: uint32(i + 1)})
	}
	sortSnapshot(s)
	return s
}

func sortSnapshot(s *snapshot.Snapshot) {
	slicesSortFunc(s.Nodes, func(a, b schemas.Node) bool { return a.ID < b.ID })
	slicesSortFunc(s.Edges, func(a, b schemas.Edge) bool {
		if a.Src != b.Src {
			return a.Src < b.Src
		}
		if a.Dst != b.Dst {
			return a.Dst < b.Dst
		}
		return a.Line < b.Line
	})
}

func BenchmarkWriteRead(b *testing.B) {
	ctx := context.Background()
	s := synthetic(100_000)
	st := memstore.New()
	b.Run("Write", func(b *testing.B) {
		for b.Loop() {
			if _, err := snapshot.Write(ctx, st, prefix, s); err != nil {
				b.Fatal(err)
			}
		}
	})
	m, err := snapshot.Write(ctx, st, prefix, s)
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	for _, t := range m.Tables {
		total += t.Bytes
		b.Logf("%s: %d rows, %d bytes", t.Name, t.Rows, t.Bytes)
	}
	b.Run("Read", func(b *testing.B) {
		b.SetBytes(total)
		for b.Loop() {
			if _, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func slicesSortFunc[T any](s []T, less func(a, b T) bool) {
	sort.Slice(s, func(i, j int) bool { return less(s[i], s[j]) })
}
