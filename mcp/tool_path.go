package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphsnap/snap/query"
)

type pathIn struct {
	FromID   *ID      `json:"from_id,omitempty" jsonschema:"id of the symbol the path starts at; takes precedence over from"`
	From     string   `json:"from,omitempty" jsonschema:"name of the symbol the path starts at (plain, dotted or qualified)"`
	FromFile string   `json:"from_file,omitempty" jsonschema:"file of the start symbol: a path or a path suffix"`
	ToID     *ID      `json:"to_id,omitempty" jsonschema:"id of the symbol the path ends at; takes precedence over to"`
	To       string   `json:"to,omitempty" jsonschema:"name of the symbol the path ends at"`
	ToFile   string   `json:"to_file,omitempty" jsonschema:"file of the end symbol"`
	Kinds    []string `json:"kinds,omitempty" enum:"contains,calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds to follow (default every kind but contains)"`
	// Direction and MaxDepth shape the search.
	Direction string `json:"direction,omitempty" enum:"out,in,both" jsonschema:"out (default): follow edges from the start; in: against them; both: either way"`
	MaxDepth  *int   `json:"max_depth,omitempty" jsonschema:"longest path to look for, in edges (default 10; above 30 counts as 30)"`
}

type hop struct {
	Kind    string `json:"kind"`
	At      string `json:"at"`
	Reverse bool   `json:"reverse,omitempty"`
}

type pathOut struct {
	header
	From  sym   `json:"from"`
	To    sym   `json:"to"`
	Found bool  `json:"found"`
	Path  []sym `json:"path,omitempty"`
	Edges []hop `json:"edges,omitempty"`
}

var pathTool = newTool(
	"snap_path", "Shortest path", ToolsetTraversal,
	"How two symbols connect: a shortest chain of edges from one to the other. path lists the symbols from start to "+
		"end; edges[i] joins path[i] to path[i+1] with its kind and where it is written, reverse when it points "+
		"backwards (direction both). Select each end by id or by name and file.",
	func(_ context.Context, e *query.Engine, in *pathIn) (*pathOut, *ToolError) {
		from, err := resolveSymbol(e, in.FromID, in.From, in.FromFile, "from_id", "from")
		if err != nil {
			return nil, err
		}
		to, err := resolveSymbol(e, in.ToID, in.To, in.ToFile, "to_id", "to")
		if err != nil {
			return nil, err
		}
		opt := query.PathOptions{Direction: query.Out, MaxDepth: query.DefaultPathDepth}
		if in.Direction != "" {
			d, ok := query.ParseDirection(in.Direction)
			if !ok {
				return nil, argErr("direction", "want out, in or both, got %q", in.Direction)
			}
			opt.Direction = d
		}
		if in.MaxDepth != nil {
			if *in.MaxDepth <= 0 {
				return nil, argErr("max_depth", "must be at least 1, got %d", *in.MaxDepth)
			}
			opt.MaxDepth = min(*in.MaxDepth, query.MaxPathDepth)
		}
		var names []string
		if opt.Kinds, names, err = edgeKinds("kinds", in.Kinds, query.DefaultPathKinds); err != nil {
			return nil, err
		}
		hops, ok := e.Path(from, to, opt)
		out := &pathOut{From: symOf(e, from), To: symOf(e, to), Found: ok}
		if !ok {
			out.Hint = fmt.Sprintf("no path over %s within %d edges in direction %s", strings.Join(names, ", "), opt.MaxDepth, opt.Direction)
			if opt.Direction != query.Both {
				out.Hint += "; try direction both"
			}
			return out, nil
		}
		out.Path = []sym{out.From}
		out.Edges = []hop{}
		for _, h := range hops {
			ed := e.Edge(h.Edge)
			out.Path = append(out.Path, symOf(e, h.To))
			out.Edges = append(out.Edges, hop{Kind: ed.Kind, At: siteLoc(ed), Reverse: h.Reverse})
		}
		return out, nil
	})
