package indexer

import (
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Rows are the nodes and refs an extractor makes of one file, numbered
// by IDs (whose File is the file's path and Language the language's
// name). An extractor's per-file state embeds it.
//
// Positions in rows: lines are 1-based, columns 1-based byte offsets in
// their line (see srctext.Pos), byte offsets 0-based from the start of
// the file. What a symbol's range and its body hash cover is each
// language's to say.
type Rows struct {
	IDs   IDs
	Lines []uint32          // the file's line starts (see srctext.LineStarts)
	Docs  map[uint32]string // doc comments by the offset of what they document
	Nodes []schemas.Node
	Refs  []schemas.Ref
}

// AddNode appends the node of a symbol declared at s, a child of node
// parent (-1 for the file), with the doc comment Docs holds at s.Start,
// and returns its index.
func (r *Rows) AddNode(kind, name, qname string, parent int32, s Span) int32 {
	sl, sc := srctext.Pos(r.Lines, s.Start)
	el, ec := srctext.Pos(r.Lines, s.End)
	r.Nodes = append(r.Nodes, schemas.Node{
		ID: r.IDs.Next(kind, qname), Kind: kind, Name: name, QualifiedName: qname,
		Language: r.IDs.Language, File: r.IDs.File, StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec,
		StartByte: s.Start, EndByte: s.End, ParentID: r.SrcID(parent), Doc: r.Docs[s.Start],
	})
	return int32(len(r.Nodes) - 1)
}

// AddRef appends a ref of that kind from node id src, made at at, to
// target (capped by srctext.CapText), and returns it.
func (r *Rows) AddRef(kind string, src uint64, at Span, target, expr string) *schemas.Ref {
	line, col := srctext.Pos(r.Lines, at.Start)
	r.Refs = append(r.Refs, schemas.Ref{
		File: r.IDs.File, Src: src, Kind: kind, Target: srctext.CapText(target), Expr: expr, Line: line, Col: col,
	})
	return &r.Refs[len(r.Refs)-1]
}

// SrcID returns the id of node n, or the file's for -1.
func (r *Rows) SrcID(n int32) uint64 {
	if n < 0 {
		return FileID(r.IDs.File)
	}
	return r.Nodes[n].ID
}
