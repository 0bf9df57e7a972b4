package mcp

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// graphEdge is an edge between two symbols, by id.
type graphEdge struct {
	From string `json:"from"` // id
	To   string `json:"to"`   // id
	Kind string `json:"kind"`
	At   string `json:"at"`
}

// subgraphOut is a set of symbols and a Mermaid flowchart of the edges
// among them: node nK of the flowchart is nodes[K], the symbols asked
// about first.
type subgraphOut struct {
	header
	Nodes     []sym  `json:"nodes"`
	Mermaid   string `json:"mermaid"`
	Edges     int    `json:"edges"`                // drawn
	EdgesLeft int    `json:"edges_left,omitempty"` // edges among the nodes not drawn: past the cap or the budget
	More      int    `json:"more,omitempty"`       // symbols reached but left out by the budget
	Tests     int    `json:"tests,omitempty"`      // test code among the symbols reached
	Truncated bool   `json:"truncated,omitempty"`  // max_nodes stopped the walk
}

// Subgraph bounds: the edges a flowchart draws (Mermaid renders up to
// 500 by default), and the budget of an answer.
const (
	maxGraphEdges      = 500
	defaultGraphEdges  = 150
	defaultGraphTokens = 3000
)

// subgraphOf draws g within maxEdges edges and tokens: the first nodes
// of g (the seeds, then the nearest) and the edges among them.
func subgraphOf(e *query.Engine, g query.Subgraph, maxEdges, tokens int) *subgraphOut {
	out := &subgraphOut{Truncated: g.Truncated}
	// The edges among all of g's nodes, drawn or not.
	kept := make(map[int32]bool, len(g.Nodes))
	for _, r := range g.Nodes {
		kept[r] = true
	}
	all := 0
	for _, ei := range g.Edges {
		if from, to := e.EdgeEnds(ei); kept[from] && kept[to] {
			all++
		}
	}
	show := func(k int) {
		sub := query.Subgraph{Nodes: g.Nodes[:k], Seeds: g.Seeds}
		in := make(map[int32]bool, k)
		for _, r := range sub.Nodes {
			in[r] = true
		}
		among := 0
		for _, ei := range g.Edges {
			if from, to := e.EdgeEnds(ei); in[from] && in[to] {
				if among++; among <= maxEdges {
					sub.Edges = append(sub.Edges, ei)
				}
			}
		}
		out.Nodes = make([]sym, k)
		for i, r := range sub.Nodes {
			out.Nodes[i] = symOf(e, r)
		}
		out.Mermaid, out.Edges, out.EdgesLeft = e.Mermaid(sub), len(sub.Edges), all-len(sub.Edges)
		out.More = len(g.Nodes) - k
	}
	show(len(g.Nodes))
	fitHead(out, len(g.Nodes), tokens, show)
	if out.More > 0 || out.EdgesLeft > 0 {
		out.Hint = fmt.Sprintf("left out %d symbols and %d edges: a larger max_tokens or max_edges, a smaller depth, "+
			"or fewer kinds shows the rest", out.More, out.EdgesLeft)
	}
	return out
}

// graphArgs bound a drawing.
type graphArgs struct {
	MaxEdges *int `json:"max_edges,omitempty" jsonschema:"edges drawn (default 150, max 500)"`
	budget
}

func (a *graphArgs) bounds() (edges, tokens int, terr *ToolError) {
	edges = defaultGraphEdges
	if a.MaxEdges != nil {
		if *a.MaxEdges < 1 {
			return 0, 0, argErr("max_edges", "must be at least 1, got %d", *a.MaxEdges)
		}
		edges = min(*a.MaxEdges, maxGraphEdges)
	}
	tokens, terr = a.tokens(defaultGraphTokens)
	return edges, tokens, terr
}

type exploreIn struct {
	target
	Depth     *int     `json:"depth,omitempty" jsonschema:"edges away (default 1, max 3)"`
	Direction string   `json:"direction,omitempty" enum:"in,out,both" jsonschema:"both (default), out (what it uses) or in (what uses it)"`
	Kinds     []string `json:"kinds,omitempty" enum:"contains,calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds (default all but contains)"`
	MaxNodes  *int     `json:"max_nodes,omitempty" jsonschema:"stop at this many symbols (default 50, max 500)"`
	tests
	graphArgs
}

var exploreTool = newTool(
	"snap_explore", "Neighbourhood", ToolsetTraversal,
	"To see a symbol's neighbourhood at a glance: the symbols within depth edges and a Mermaid flowchart of "+
		"the edges among them.",
	func(_ context.Context, e *query.Engine, in *exploreIn) (*subgraphOut, *ToolError) {
		r, terr := in.resolve(e)
		if terr != nil {
			return nil, terr
		}
		opt := query.ExploreOptions{Direction: query.Both}
		if in.Depth != nil {
			if *in.Depth < 1 {
				return nil, argErr("depth", "must be at least 1, got %d", *in.Depth)
			}
			opt.Depth = min(*in.Depth, query.MaxExploreDepth)
		}
		if in.MaxNodes != nil {
			if *in.MaxNodes < 1 {
				return nil, argErr("max_nodes", "must be at least 1, got %d", *in.MaxNodes)
			}
			opt.MaxNodes = min(*in.MaxNodes, query.MaxExploreNodes)
		}
		if in.Direction != "" {
			d, ok := query.ParseDirection(in.Direction)
			if !ok {
				return nil, argErr("direction", "want in, out or both, got %q", in.Direction)
			}
			opt.Direction = d
		}
		var err *ToolError
		if opt.Kinds, _, err = edgeKinds("kinds", in.Kinds, query.DefaultPathKinds); err != nil {
			return nil, err
		}
		maxEdges, tokens, terr := in.bounds()
		if terr != nil {
			return nil, terr
		}
		mode, terr := in.mode(testsInclude)
		if terr != nil {
			return nil, terr
		}
		g := e.Explore([]int32{r}, opt)
		var tests int
		g.Nodes, tests = byTests(mode, g.Nodes, func(v int32) bool { return v != r && e.IsTest(v) })
		out := subgraphOf(e, g, maxEdges, tokens)
		out.Tests = tests
		if h := testsHint(mode, tests); h != "" && out.Hint == "" {
			out.Hint = h
		}
		if out.Edges == 0 {
			out.Hint = "no edges of those kinds: try direction both, or other kinds"
		}
		return out, nil
	})

type mapIn struct {
	Names []string `json:"names,omitempty" jsonschema:"the symbols to draw, by name (plain, dotted or qualified); each must name one symbol"`
	IDs   []ID     `json:"ids,omitempty" jsonschema:"the symbols to draw, by id"`
	Kinds []string `json:"kinds,omitempty" enum:"contains,calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds to draw (default every kind but contains)"`
	graphArgs
}

// maxMapSymbols bounds the symbols snap_map draws.
const maxMapSymbols = 100

var mapTool = newTool(
	"snap_map", "Map of symbols", ToolsetGraph,
	"How chosen symbols connect: the edges among them, and a symbol in between when two connect only through "+
		"one (a → m → b), with a Mermaid flowchart of it. Give names or ids, up to 100.",
	func(_ context.Context, e *query.Engine, in *mapIn) (*subgraphOut, *ToolError) {
		if len(in.Names)+len(in.IDs) == 0 {
			return nil, argErr("names", "give the symbols to draw, by names or ids")
		}
		if len(in.Names)+len(in.IDs) > maxMapSymbols {
			return nil, argErr("names", "at most %d symbols, got %d", maxMapSymbols, len(in.Names)+len(in.IDs))
		}
		var rows []int32
		for i := range in.IDs {
			r, terr := resolveSymbol(e, &in.IDs[i], "", "", "ids", "names")
			if terr != nil {
				return nil, terr
			}
			rows = append(rows, r)
		}
		for _, name := range in.Names {
			r, terr := resolveSymbol(e, nil, name, "", "ids", "names")
			if terr != nil {
				return nil, terr
			}
			rows = append(rows, r)
		}
		kinds, _, terr := edgeKinds("kinds", in.Kinds, query.DefaultPathKinds)
		if terr != nil {
			return nil, terr
		}
		maxEdges, tokens, terr := in.bounds()
		if terr != nil {
			return nil, terr
		}
		out := subgraphOf(e, e.Map(rows, kinds), maxEdges, tokens)
		if out.Edges == 0 {
			out.Hint = "these symbols do not connect directly or through one other; snap_path finds longer ways"
		}
		return out, nil
	})

type rankIn struct {
	Names    []string `json:"names,omitempty" jsonschema:"rank around these symbols (personalised PageRank), by name; default: the whole graph"`
	IDs      []ID     `json:"ids,omitempty" jsonschema:"the same by id"`
	Kinds    []string `json:"kinds,omitempty" jsonschema:"keep symbols of these kinds (function, method, class, …)"`
	Language string   `json:"language,omitempty" jsonschema:"keep symbols of this language"`
	File     string   `json:"file,omitempty" jsonschema:"keep symbols of files matching this path or path suffix"`
	Limit    *int     `json:"limit,omitempty" jsonschema:"how many (default 20, at most 200)"`
}

type rankedSym struct {
	sym
	// Weight is the symbol's PageRank times the number of symbols: 1 is
	// the average, 10 ten times it.
	Weight float64 `json:"weight"`
}

type rankOut struct {
	header
	Seeds  []sym       `json:"seeds,omitempty"`
	Ranked []rankedSym `json:"ranked"`
}

var rankTool = newTool(
	"snap_rank", "Central symbols", ToolsetGraph,
	"The symbols the code graph leans on most (PageRank over calls, references, inheritance and imports): "+
		"where to start reading unfamiliar code. With seeds, what matters most around them. weight 1 is average.",
	func(_ context.Context, e *query.Engine, in *rankIn) (*rankOut, *ToolError) {
		opt := query.RankOptions{Language: in.Language, File: in.File, NodeKinds: in.Kinds}
		for _, k := range in.Kinds {
			if !slices.Contains(schemas.NodeKinds, k) {
				return nil, toolErr(CodeInvalidArgument, map[string]any{"argument": "kinds", "kinds": schemas.NodeKinds}, "kinds: unknown kind %q", k)
			}
		}
		opt.Limit = query.DefaultRankLimit
		if in.Limit != nil {
			if *in.Limit < 1 {
				return nil, argErr("limit", "must be at least 1, got %d", *in.Limit)
			}
			opt.Limit = min(*in.Limit, 200)
		}
		out := &rankOut{Ranked: []rankedSym{}}
		for i := range in.IDs {
			r, terr := resolveSymbol(e, &in.IDs[i], "", "", "ids", "names")
			if terr != nil {
				return nil, terr
			}
			opt.Seeds = append(opt.Seeds, r)
		}
		for _, name := range in.Names {
			r, terr := resolveSymbol(e, nil, name, "", "ids", "names")
			if terr != nil {
				return nil, terr
			}
			opt.Seeds = append(opt.Seeds, r)
		}
		for _, r := range opt.Seeds {
			out.Seeds = append(out.Seeds, symOf(e, r))
		}
		n := float64(e.NumNodes())
		for _, rk := range e.Rank(opt) {
			out.Ranked = append(out.Ranked, rankedSym{sym: symOf(e, rk.Node), Weight: math.Round(rk.Score*n*100) / 100})
		}
		if len(out.Ranked) == 0 {
			out.Hint = "no symbols pass the filters"
		}
		return out, nil
	})
