package mcp

import (
	"context"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type nodeIn struct {
	ID ID `json:"id" jsonschema:"the symbol's id, as a decimal string (or integer)"`
}

type degree struct {
	In  int `json:"in,omitempty"`
	Out int `json:"out,omitempty"`
}

type child struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Name string `json:"name"`
}

type nodeOut struct {
	header
	Symbol        info              `json:"symbol"`
	Edges         map[string]degree `json:"edges,omitempty"`
	Children      []child           `json:"children,omitempty"`
	ChildrenTotal int               `json:"children_total,omitempty"`
}

// maxChildren bounds the children snap_node lists.
const maxChildren = 200

var nodeTool = newTool(
	"snap_node", "Symbol by id", ToolsetSymbols,
	"The symbol with this id: its metadata, how many edges of each kind go in and out (unresolved ones included "+
		"in out), and what it contains (up to 200 children).",
	func(_ context.Context, e *query.Engine, in *nodeIn) (*nodeOut, *ToolError) {
		id := in.ID
		r, err := resolveSymbol(e, &id, "", "", "id", "id")
		if err != nil {
			return nil, err
		}
		out := &nodeOut{Symbol: infoOf(e, r), Edges: map[string]degree{}}
		for _, name := range schemas.EdgeKinds {
			k, _ := query.ParseEdgeKind(name)
			if d := (degree{In: e.Degree(r, k, query.In), Out: e.Degree(r, k, query.Out)}); d != (degree{}) {
				out.Edges[name] = d
			}
		}
		kids := e.Children(r)
		out.ChildrenTotal = len(kids)
		for _, c := range kids[:min(len(kids), maxChildren)] {
			n := e.Node(c)
			out.Children = append(out.Children, child{ID: idString(n.ID), Kind: n.Kind, Name: n.Name})
		}
		return out, nil
	})
