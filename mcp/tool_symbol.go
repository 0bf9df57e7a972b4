package mcp

import (
	"bytes"
	"context"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type symbolIn struct {
	target
	IncludeBody bool `json:"include_body,omitempty" jsonschema:"also return its source (at most 2000 lines)"`
}

type degree struct {
	In  int `json:"in,omitempty"`
	Out int `json:"out,omitempty"`
}

// child is a symbol another contains, as the symbol's answer lists it.
type child struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Line uint32 `json:"line"`
}

type symbolOut struct {
	header
	Symbol        info              `json:"symbol"`
	Edges         map[string]degree `json:"edges,omitempty"`
	Children      []child           `json:"children,omitempty"`
	ChildrenTotal int               `json:"children_total,omitempty"`
	Body          string            `json:"body,omitempty"`
	BodyTruncated bool              `json:"body_truncated,omitempty"`
}

// maxChildren bounds the children snap_symbol lists.
const maxChildren = 30

var symbolTool = newTool(
	"snap_symbol", "Symbol", ToolsetSymbols,
	"Everything about one symbol: signature, doc, location, parent, edges in and out by kind, what it contains; "+
		"with include_body, its source. A name that matches several fails listing them.",
	func(_ context.Context, e *query.Engine, in *symbolIn) (*symbolOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		out := &symbolOut{Symbol: infoOf(e, r), Edges: map[string]degree{}}
		for _, name := range schemas.EdgeKinds {
			k, _ := query.ParseEdgeKind(name)
			if d := (degree{In: e.Degree(r, k, query.In), Out: e.Degree(r, k, query.Out)}); d != (degree{}) && k != query.Contains {
				out.Edges[name] = d
			}
		}
		kids := e.Children(r)
		if len(kids) > maxChildren {
			out.ChildrenTotal = len(kids)
			out.Hint = "children cut at 30: snap_symbols_overview with within lists them all"
		}
		for _, c := range kids[:min(len(kids), maxChildren)] {
			out.Children = append(out.Children, child{Name: e.NodeName(c), Kind: e.NodeKind(c), Line: e.Node(c).StartLine})
		}
		if in.IncludeBody {
			body, ok := e.Body(r)
			if !ok {
				out.Hint = "the snapshot holds no source for this file"
				return out, nil
			}
			if i := nthLine(body, maxLines); i >= 0 {
				body, out.BodyTruncated = body[:i], true
				out.Hint = "body cut at 2000 lines: read the rest with snap_read_file"
			}
			out.Body = string(body)
		}
		return out, nil
	})

// maxLines bounds the lines of source one answer carries.
const maxLines = 2000

// nthLine returns the offset just past the n-th newline of b, or -1 if b
// has no more than n lines.
func nthLine(b []byte, n int) int {
	off := 0
	for range n {
		i := bytes.IndexByte(b[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	if off == len(b) {
		return -1
	}
	return off
}
