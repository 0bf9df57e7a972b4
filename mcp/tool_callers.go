package mcp

import (
	"context"

	"github.com/graphsnap/snap/query"
)

type callersIn struct {
	target
	page
}

// site is a symbol at the other end of an edge, and where the edge is
// written.
type site struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	QName string `json:"qname"`
	At    string `json:"at"`
}

func siteOf(e *query.Engine, l query.Link) site {
	n := e.Node(l.Node)
	return site{ID: idString(n.ID), Kind: n.Kind, Name: n.Name, QName: n.QualifiedName, At: siteLoc(e.Edge(l.Edge))}
}

type callersOut struct {
	header
	Symbol  sym    `json:"symbol"`
	Callers []site `json:"callers"`
	Total   int    `json:"total"`
	Next    string `json:"next_cursor,omitempty"`
}

var callersTool = newTool(
	"snap_callers", "Callers", ToolsetCallGraph,
	"Who calls this symbol, one entry per call site (at: file:line:col), ordered by file and line. "+
		"A class's or struct's callers are the places that construct it. Only calls the index resolved are counted: "+
		"for dynamic calls, interface dispatch and references, see snap_impact.",
	func(_ context.Context, e *query.Engine, in *callersIn) (*callersOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		links := e.Callers(r)
		pg, next, err := paginate(e, &in.page, links)
		if err != nil {
			return nil, err
		}
		out := &callersOut{Symbol: symOf(e, r), Callers: make([]site, len(pg)), Total: len(links), Next: next}
		for i, l := range pg {
			out.Callers[i] = siteOf(e, l)
		}
		if len(links) == 0 {
			out.Hint = "no resolved call sites: it may be an entry point, unused, or reached through an interface, " +
				"a function value or reflection; snap_impact also follows references and implementations"
		}
		return out, nil
	})
