package snapshot

import (
	"cmp"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/schemas"
)

// Realistic returns a snapshot shaped like a large Go repository's:
// distinct names and signatures, docs on some symbols, decorators on a
// few, edges to resolved and unresolved targets with call arguments, and
// sources of about 1.6 KB per file. Exported for the external tests'
// benchmarks.
func Realistic(nodes, edges, files int) *Snapshot {
	r := rand.New(rand.NewPCG(1, 2))
	s := &Snapshot{}
	words := []string{"read", "write", "Server", "handle", "conn", "Buffer", "parse", "token", "Node", "walk", "init", "Close", "state", "enc", "dec", "Value"}
	word := func() string { return words[r.IntN(len(words))] }
	kinds := []string{schemas.KindFunction, schemas.KindMethod, schemas.KindField, schemas.KindStruct, schemas.KindConstant, schemas.KindVariable, schemas.KindInterface}
	edgeKinds := []string{schemas.EdgeCalls, schemas.EdgeCalls, schemas.EdgeCalls, schemas.EdgeContains, schemas.EdgeReferences, schemas.EdgeImports}
	resolutions := []string{schemas.ResolvedImport, schemas.ResolvedReceiver, schemas.ResolvedScope, schemas.ResolvedLocal, schemas.Unresolved}

	line := []byte("\tif err := s.handleConn(ctx, c); err != nil { return fmt.Errorf(\"x: %w\", err) }\n")
	for i := range files {
		p := "src/" + word() + strconv.Itoa(i/40) + "/" + word() + "_" + strconv.Itoa(i) + ".go"
		sum := make([]byte, 32)
		for k := range sum {
			sum[k] = byte(r.Uint32())
		}
		f := schemas.File{Path: p, Language: "go", SHA256: hex.EncodeToString(sum), Size: int64(r.IntN(4000)), Lines: uint32(r.IntN(300)), Status: schemas.StatusOK,
			IsTest: i%5 == 0, IsGenerated: i%50 == 0}
		if i%100 == 0 {
			f.Status, f.Error = schemas.StatusParseError, "syntax error: unexpected newline"
		}
		s.Files = append(s.Files, f)
		n := 10 + r.IntN(30)
		content := make([]byte, 0, n*len(line)+16)
		content = append(content, "package "+word()+"\n"...)
		for range n {
			content = append(content, line...)
		}
		s.Sources = append(s.Sources, schemas.Source{Path: p, Content: content})
	}
	slices.SortFunc(s.Files, func(a, b schemas.File) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortFunc(s.Sources, func(a, b schemas.Source) int { return cmp.Compare(a.Path, b.Path) })

	ids := make(map[uint64]bool, nodes)
	for len(s.Nodes) < nodes {
		id := r.Uint64() | 1
		if ids[id] {
			continue
		}
		ids[id] = true
		f := &s.Files[r.IntN(files)]
		name := word() + word() + strconv.Itoa(len(s.Nodes)%997)
		n := schemas.Node{ID: id, Kind: kinds[r.IntN(len(kinds))], Name: name,
			QualifiedName: f.Path[:strings.LastIndexByte(f.Path, '/')] + "." + word() + "." + name, Language: "go", File: f.Path,
			StartLine: uint32(r.IntN(2000)), StartCol: uint32(r.IntN(40)), EndLine: uint32(r.IntN(2000)), EndCol: uint32(r.IntN(80)),
			StartByte: r.Uint32() >> 12, EndByte: r.Uint32() >> 12, ParentID: r.Uint64() >> uint(r.IntN(64)),
			Signature:  "func (s *" + word() + ") " + name + "(ctx context.Context, " + word() + " int) error",
			Visibility: schemas.Public, Exported: r.IntN(2) == 0, IsTest: r.IntN(20) == 0, IsStatic: r.IntN(30) == 0,
			IsAsync: r.IntN(40) == 0, IsAbstract: r.IntN(50) == 0, BodyHash: r.Uint64(), Decorators: []string{}}
		if r.IntN(3) == 0 {
			n.Doc = name + " " + word() + "s the " + word() + " of the " + word() + ", returning the first error it meets."
		}
		if r.IntN(20) == 0 {
			n.Decorators = []string{"@" + word(), word() + "(1)"}
		}
		s.Nodes = append(s.Nodes, n)
	}
	slices.SortFunc(s.Nodes, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })

	for range edges {
		si := r.IntN(nodes)
		e := schemas.Edge{Src: s.Nodes[si].ID, Kind: edgeKinds[r.IntN(len(edgeKinds))], File: s.Nodes[si].File,
			Line: uint32(r.IntN(2000)), Col: uint32(r.IntN(80)), Target: word() + "." + word(),
			Resolution: resolutions[r.IntN(len(resolutions))], SrcRow: int32(si), DstRow: -1,
			InLoop: r.IntN(5) == 0, InTry: r.IntN(9) == 0, Conditional: r.IntN(3) == 0}
		if e.Resolution == schemas.Unresolved {
			e.Reason = "no_import"
		} else {
			di := r.IntN(nodes)
			e.Dst, e.DstRow, e.Confidence = s.Nodes[di].ID, int32(di), 1-float32(r.IntN(4))/8
		}
		if e.Kind == schemas.EdgeCalls {
			e.Args = "ctx, " + word() + ", " + strconv.Itoa(r.IntN(100))
		}
		s.Edges = append(s.Edges, e)
	}
	slices.SortFunc(s.Edges, func(a, b schemas.Edge) int {
		return cmp.Or(cmp.Compare(a.Src, b.Src), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Dst, b.Dst),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Target, b.Target), cmp.Compare(a.File, b.File))
	})

	for i := range 2 * nodes {
		e := &s.Edges[i%len(s.Edges)]
		s.Refs = append(s.Refs, schemas.Ref{File: e.File, Src: e.Src, Kind: e.Kind, Target: e.Target, Expr: e.Target + "()",
			Line: e.Line, Col: e.Col, Args: e.Args, InLoop: e.InLoop})
	}
	slices.SortFunc(s.Refs, func(a, b schemas.Ref) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Src, b.Src), cmp.Compare(a.Expr, b.Expr))
	})
	return s
}
