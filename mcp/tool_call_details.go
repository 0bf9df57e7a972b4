package mcp

import (
	"context"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type callDetailsIn struct {
	FromID   *ID    `json:"from_id,omitempty" jsonschema:"id of the caller; takes precedence over from"`
	From     string `json:"from,omitempty" jsonschema:"name of the caller (plain, dotted or qualified)"`
	FromFile string `json:"from_file,omitempty" jsonschema:"file of the caller: a path or a path suffix"`
	ToID     *ID    `json:"to_id,omitempty" jsonschema:"id of the callee; takes precedence over to"`
	To       string `json:"to,omitempty" jsonschema:"name of the callee"`
	ToFile   string `json:"to_file,omitempty" jsonschema:"file of the callee"`
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
	"snap_call_details", "Call sites between two symbols", ToolsetCallGraph,
	"Every place the first symbol calls (or constructs) the second: file:line:col, the argument text as written, "+
		"and whether the call sits in a loop, a try block or a condition. Only resolved calls count.",
	func(_ context.Context, e *query.Engine, in *callDetailsIn) (*callDetailsOut, *ToolError) {
		from, err := resolveSymbol(e, in.FromID, in.From, in.FromFile, "from_id", "from")
		if err != nil {
			return nil, err
		}
		to, err := resolveSymbol(e, in.ToID, in.To, in.ToFile, "to_id", "to")
		if err != nil {
			return nil, err
		}
		out := &callDetailsOut{From: symOf(e, from), To: symOf(e, to), Sites: []callSite{}}
		for _, l := range e.Callers(to) {
			if l.Node != from {
				continue
			}
			x := e.Edge(l.Edge)
			out.Sites = append(out.Sites, callSite{Kind: x.Kind, At: siteLoc(x), Args: e.EdgeArgs(l.Edge),
				InLoop: x.InLoop, InTry: x.InTry, Conditional: x.Conditional})
		}
		if len(out.Sites) == 0 {
			out.Hint = "no resolved call from the first to the second; snap_path finds how they connect, if they do"
		}
		return out, nil
	})

type manifestIn struct{}

type manifestOut struct {
	header
	Manifest *schemas.Manifest `json:"manifest"`
}

var manifestTool = newTool(
	"snap_manifest", "Snapshot manifest", ToolsetIndex,
	"The served snapshot's manifest.json: repository, branch, commit, parents, when and how it was built (indexer "+
		"version, grammar versions, files parsed and reused), counts, and each table with its SHA-256.",
	func(_ context.Context, e *query.Engine, _ *manifestIn) (*manifestOut, *ToolError) {
		m := *e.Manifest() // a copy: answers are made whole before they are sent
		return &manifestOut{Manifest: &m}, nil
	})
