package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphsnap/snap/query"
)

type impactIn struct {
	target
	Direction string   `json:"direction,omitempty" enum:"in,out,both" jsonschema:"in (default): what depends on the symbol, which a change to it may break; out: what it depends on; both"`
	Depth     *int     `json:"depth,omitempty" jsonschema:"how many edges away to look (default 3; above 10 counts as 10)"`
	MaxNodes  *int     `json:"max_nodes,omitempty" jsonschema:"stop after this many symbols (default 200; above 1000 counts as 1000)"`
	Kinds     []string `json:"kinds,omitempty" enum:"contains,calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds to follow (default calls, references, instantiates, implements, extends)"`
}

// Impact bounds.
const (
	defaultImpactNodes = 200
	maxImpactNodes     = 1000
)

// impacted is a symbol an impact reached: from which symbol of the level
// before, over which edge, written where.
type impacted struct {
	sym
	Via  string `json:"via"`
	From string `json:"from"`
	At   string `json:"at"`
}

type impactLevel struct {
	Depth   int        `json:"depth"`
	Symbols []impacted `json:"symbols"`
}

type impactOut struct {
	header
	Symbol    sym           `json:"symbol"`
	Direction string        `json:"direction"`
	Depth     int           `json:"depth"`
	Kinds     []string      `json:"kinds"`
	Levels    []impactLevel `json:"levels"`
	Total     int           `json:"total"`
	Truncated bool          `json:"truncated,omitempty"`
}

var impactTool = newTool(
	"snap_impact", "Impact", ToolsetTraversal,
	"The blast radius of a change: symbols reachable from this one over the chosen edge kinds, grouped by distance "+
		"(depth 1 = direct). direction in (default) finds dependents (callers, implementers, subclasses, referrers); "+
		"out finds dependencies. Each symbol says which symbol of the level before reached it (from), over which edge "+
		"(via) and where (at). Cycles are visited once. truncated says max_nodes stopped the walk.",
	func(_ context.Context, e *query.Engine, in *impactIn) (*impactOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		opt := query.ImpactOptions{Direction: query.In, Depth: query.DefaultImpactDepth, MaxNodes: defaultImpactNodes}
		if in.Direction != "" {
			d, ok := query.ParseDirection(in.Direction)
			if !ok {
				return nil, argErr("direction", "want in, out or both, got %q", in.Direction)
			}
			opt.Direction = d
		}
		if in.Depth != nil {
			if *in.Depth <= 0 {
				return nil, argErr("depth", "must be at least 1, got %d", *in.Depth)
			}
			opt.Depth = *in.Depth
		}
		if in.MaxNodes != nil {
			if *in.MaxNodes <= 0 {
				return nil, argErr("max_nodes", "must be at least 1, got %d", *in.MaxNodes)
			}
			opt.MaxNodes = min(*in.MaxNodes, maxImpactNodes)
		}
		var names []string
		if opt.Kinds, names, err = edgeKinds("kinds", in.Kinds, query.DefaultImpactKinds); err != nil {
			return nil, err
		}
		res := e.Impact([]int32{r}, opt)
		out := &impactOut{
			Symbol: symOf(e, r), Direction: res.Direction.String(), Depth: res.Depth, Kinds: names,
			Levels: []impactLevel{}, Truncated: res.Truncated,
		}
		for _, lv := range res.Levels {
			l := impactLevel{Depth: lv.Depth, Symbols: make([]impacted, len(lv.Nodes))}
			for i, v := range lv.Nodes {
				ed := e.Edge(lv.Edges[i])
				from := ed.Src
				if ed.SrcRow == v {
					from = ed.Dst
				}
				l.Symbols[i] = impacted{sym: symOf(e, v), Via: ed.Kind, From: idString(from), At: siteLoc(ed)}
			}
			out.Levels = append(out.Levels, l)
			out.Total += len(lv.Nodes)
		}
		if out.Total == 0 {
			other := "out"
			if res.Direction == query.Out {
				other = "in"
			}
			out.Hint = fmt.Sprintf("nothing reached over %s in direction %s; try direction %s, or more kinds", strings.Join(names, ", "), res.Direction, other)
		}
		return out, nil
	})
