package mcp

import (
	"context"
	"fmt"

	"github.com/graphsnap/snap/query"
)

type callDetailsIn struct {
	ends
}

// callSite is one place a caller calls a callee, with how.
type callSite struct {
	Kind        string `json:"kind"` // calls or instantiates
	At          string `json:"at"`
	Args        string `json:"args,omitempty"`
	InLoop      bool   `json:"in_loop,omitempty"`
	InTry       bool   `json:"in_try,omitempty"`
	Conditional bool   `json:"conditional,omitempty"`
}

type callDetailsOut struct {
	header
	From  sym        `json:"from"`
	To    sym        `json:"to"`
	Sites []callSite `json:"sites"`
}

var callDetailsTool = newTool(
	"snap_call_details", "Call sites between two symbols", ToolsetGraph,
	"Every place the first symbol calls (or constructs) the second: file:line:col, the argument text as written, "+
		"and whether the call sits in a loop, a try block or a condition. Only resolved calls count.",
	func(_ context.Context, e *query.Engine, in *callDetailsIn) (*callDetailsOut, *ToolError) {
		from, to, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		out := &callDetailsOut{From: subjectOf(e, from), To: subjectOf(e, to), Sites: []callSite{}}
		for _, l := range e.Callers(to) {
			if l.Node != from {
				continue
			}
			x := e.Edge(l.Edge)
			out.Sites = append(out.Sites, callSite{Kind: x.Kind, At: loc(x.File, x.Line) + fmt.Sprintf(":%d", x.Col), Args: e.EdgeArgs(l.Edge),
				InLoop: x.InLoop, InTry: x.InTry, Conditional: x.Conditional})
		}
		if len(out.Sites) == 0 {
			out.Hint = "no resolved call from the first to the second; snap_path finds how they connect, if they do"
		}
		return out, nil
	})
