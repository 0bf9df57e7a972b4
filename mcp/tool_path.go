package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphsnap/snap/query"
)

// ends select two symbols, each by id or by name and file.
type ends struct {
	FromID   *ID    `json:"from_id,omitempty" jsonschema:"first symbol's id"`
	From     string `json:"from,omitempty" jsonschema:"first symbol's name"`
	FromFile string `json:"from_file,omitempty" jsonschema:"first symbol's file"`
	ToID     *ID    `json:"to_id,omitempty" jsonschema:"second symbol's id"`
	To       string `json:"to,omitempty" jsonschema:"second symbol's name"`
	ToFile   string `json:"to_file,omitempty" jsonschema:"second symbol's file"`
}

// resolve finds the two symbols.
func (in *ends) resolve(e *query.Engine) (from, to int32, terr *ToolError) {
	if from, terr = resolveSymbol(e, in.FromID, in.From, in.FromFile, "from_id", "from"); terr != nil {
		return -1, -1, terr
	}
	to, terr = resolveSymbol(e, in.ToID, in.To, in.ToFile, "to_id", "to")
	return from, to, terr
}

type pathIn struct {
	ends
	Kinds []string `json:"kinds,omitempty" enum:"contains,calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds (default all but contains)"`
	// Direction and MaxDepth shape the search.
	Direction string `json:"direction,omitempty" enum:"out,in,both" jsonschema:"out (default), in or both"`
	MaxDepth  *int   `json:"max_depth,omitempty" jsonschema:"longest path in edges (default 10, max 30)"`
}

type hop struct {
	Kind    string `json:"kind"`
	At      string `json:"at"`
	Reverse bool   `json:"reverse,omitempty" jsonschema:"the edge points from path[i+1] to path[i] (direction both)"`
}

// pathOut names the two ends when no path joins them; a path found
// starts and ends with them.
type pathOut struct {
	header
	Found bool  `json:"found"`
	From  *sym  `json:"from,omitempty"`
	To    *sym  `json:"to,omitempty"`
	Path  []sym `json:"path,omitempty"`
	Edges []hop `json:"edges,omitempty"`
}

var pathTool = newTool(
	"snap_path", "Shortest path", ToolsetTraversal,
	"How one symbol reaches another: a shortest chain of edges (edges[i] joins path[i] and path[i+1]).",
	func(_ context.Context, e *query.Engine, in *pathIn) (*pathOut, *ToolError) {
		from, to, err := in.resolve(e)
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
		out := &pathOut{Found: ok}
		if !ok {
			f, t := subjectOf(e, from), subjectOf(e, to)
			out.From, out.To = &f, &t
			out.Hint = fmt.Sprintf("no path over %s within %d edges in direction %s", strings.Join(names, ", "), opt.MaxDepth, opt.Direction)
			if opt.Direction != query.Both {
				out.Hint += "; try direction both"
			}
			return out, nil
		}
		out.Path = []sym{symOf(e, from)}
		out.Edges = []hop{}
		for _, h := range hops {
			ed := e.Edge(h.Edge)
			out.Path = append(out.Path, symOf(e, h.To))
			out.Edges = append(out.Edges, hop{Kind: ed.Kind, At: siteLoc(ed), Reverse: h.Reverse})
		}
		return out, nil
	})
