package mcp

import (
	"context"

	"github.com/graphsnap/snap/query"
)

type calleesIn struct {
	target
	page
}

// unresolvedCall is a call the index could not tie to one symbol.
type unresolvedCall struct {
	Target     string `json:"target"`
	At         string `json:"at"`
	Resolution string `json:"resolution"`
	Reason     string `json:"reason,omitempty"`
}

type calleesOut struct {
	header
	Symbol     sym              `json:"symbol"`
	Callees    []site           `json:"callees"`
	Unresolved []unresolvedCall `json:"unresolved,omitempty"`
	Total      int              `json:"total"`
	Next       string           `json:"next_cursor,omitempty"`
}

var calleesTool = newTool(
	"snap_callees", "Callees", ToolsetCallGraph,
	"What this symbol calls or constructs, one entry per call site, in source order. Calls the index could not "+
		"resolve to one symbol are listed apart under unresolved, with the name as written and the reason "+
		"(ambiguous, not indexed, unknown receiver type). Pages run through callees, then unresolved; total counts both.",
	func(_ context.Context, e *query.Engine, in *calleesIn) (*calleesOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		resolved, unresolved := e.Callees(r)
		all := append(resolved[:len(resolved):len(resolved)], unresolved...)
		pg, next, err := paginate(e, &in.page, all)
		if err != nil {
			return nil, err
		}
		out := &calleesOut{Symbol: symOf(e, r), Callees: []site{}, Total: len(all), Next: next}
		for _, l := range pg {
			if l.Node >= 0 {
				out.Callees = append(out.Callees, siteOf(e, l))
				continue
			}
			ed := e.Edge(l.Edge)
			out.Unresolved = append(out.Unresolved, unresolvedCall{Target: ed.Target, At: siteLoc(ed), Resolution: ed.Resolution, Reason: ed.Reason})
		}
		if len(all) == 0 {
			out.Hint = "calls nothing: it may be a declaration without a body, or only reference other symbols (see snap_node's edges)"
		}
		return out, nil
	})
