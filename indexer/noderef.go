package indexer

import (
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// AddNodeRef appends a ref of that kind from node n, made at at, to
// target as it is (AddRef caps it), and returns it.
func (r *Rows) AddNodeRef(kind string, n int32, at Span, target, expr string) *schemas.Ref {
	line, col := srctext.Pos(r.Lines, at.Start)
	r.Refs = append(r.Refs, schemas.Ref{
		File: r.IDs.File, Src: r.Nodes[n].ID, Kind: kind, Target: target, Expr: expr, Line: line, Col: col,
	})
	return &r.Refs[len(r.Refs)-1]
}
