package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphsnap/snap/query"
)

type impactIn struct {
	target
	Direction string   `json:"direction,omitempty" enum:"in,out,both" jsonschema:"in (default): what depends on it; out: what it depends on"`
	Depth     *int     `json:"depth,omitempty" jsonschema:"edges away (default 3, max 10)"`
	MaxNodes  *int     `json:"max_nodes,omitempty" jsonschema:"stop the walk after this many symbols (default 200)"`
	Kinds     []string `json:"kinds,omitempty" enum:"contains,calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds (default all but contains, imports)"`
	tests
	budget
}

// Impact bounds.
const (
	defaultImpactNodes  = 200
	maxImpactNodes      = 1000
	defaultImpactTokens = 3000
)

// impacted is a symbol an impact reached: over which edge (via, left out
// for calls), from which symbol of the level before (left out when that
// level holds one symbol), written where.
type impacted struct {
	QName string `json:"qname"`
	Name  string `json:"name,omitempty"`
	Kind  string `json:"kind"`
	Via   string `json:"via,omitempty"`
	From  string `json:"from,omitempty"`
	At    string `json:"at"`
	ID    string `json:"id,omitempty"`
}

type impactLevel struct {
	Depth   int        `json:"depth"`
	Count   int        `json:"count"`           // symbols reached at this depth, those listed and those cut
	Tests   int        `json:"tests,omitempty"` // test code reached at this depth
	Symbols []impacted `json:"symbols"`
}

type impactOut struct {
	header
	Symbol    sym           `json:"symbol"`
	Direction string        `json:"direction"`
	Kinds     []string      `json:"kinds,omitempty"` // when the call chose them
	Levels    []impactLevel `json:"levels"`
	Total     int           `json:"total"`           // symbols of the levels' counts
	Tests     int           `json:"tests,omitempty"` // test code reached, of total unless tests exclude
	More      int           `json:"more,omitempty"`  // symbols the budget cut from the levels
	Truncated bool          `json:"truncated,omitempty"`
}

var impactTool = newTool(
	"snap_impact", "Impact", ToolsetTraversal,
	"Before changing a symbol: what depends on it (direction in) or what it depends on (out), over calls, "+
		"references and inheritance, grouped by distance. Tests are counted apart.",
	func(_ context.Context, e *query.Engine, in *impactIn) (*impactOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		mode, err := in.mode(testsExclude)
		if err != nil {
			return nil, err
		}
		tokens, err := in.tokens(defaultImpactTokens)
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
		out := &impactOut{Symbol: subjectOf(e, r), Direction: res.Direction.String(), Kinds: in.Kinds, Levels: []impactLevel{}, Truncated: res.Truncated}
		before := []int32{r} // what the level before lists: the subject, at first
		for _, lv := range res.Levels {
			type reached struct{ node, edge int32 }
			all := make([]reached, len(lv.Nodes))
			for i, v := range lv.Nodes {
				all[i] = reached{v, lv.Edges[i]}
			}
			kept, tests := byTests(mode, all, func(x reached) bool { return e.IsTest(x.node) })
			l := impactLevel{Depth: lv.Depth, Count: len(kept), Tests: tests, Symbols: make([]impacted, len(kept))}
			edges := make([]int32, len(kept))
			for i, x := range kept {
				edges[i] = x.edge
			}
			at := siteLocs(e, edges)
			for i, x := range kept {
				ed := e.Edge(x.edge)
				s := symOf(e, x.node)
				m := impacted{QName: s.QName, Name: s.Name, Kind: s.Kind, Via: ed.Kind, At: at[i], ID: s.ID}
				if m.Via == "calls" {
					m.Via = ""
				}
				from := ed.SrcRow
				if from == x.node {
					from = ed.DstRow
				}
				if len(before) != 1 || before[0] != from {
					m.From = e.NodeQName(from)
				}
				l.Symbols[i] = m
			}
			before = before[:0]
			for _, x := range kept {
				before = append(before, x.node)
			}
			out.Levels = append(out.Levels, l)
			out.Total += l.Count
			out.Tests += tests
		}
		// The budget cuts the deepest symbols first.
		var n int
		for _, l := range out.Levels {
			n += len(l.Symbols)
		}
		full := make([][]impacted, len(out.Levels))
		for i := range out.Levels {
			full[i] = out.Levels[i].Symbols
		}
		kept := fitHead(out, n, tokens, func(k int) {
			for i := range out.Levels {
				c := min(k, len(full[i]))
				out.Levels[i].Symbols = full[i][:c]
				k -= c
			}
		})
		out.More = n - kept
		switch {
		case out.Total+out.Tests == 0:
			other := "out"
			if res.Direction == query.Out {
				other = "in"
			}
			out.Hint = fmt.Sprintf("nothing reached over %s in direction %s; try direction %s, or more kinds", strings.Join(names, ", "), res.Direction, other)
		case out.More > 0:
			out.Hint = fmt.Sprintf("%d more symbols left out: give a smaller depth, fewer kinds or a larger max_tokens", out.More)
		case out.Total == 0:
			out.Hint = testsHint(mode, out.Tests)
		}
		if h := testsHint(mode, out.Tests); h != "" && out.Hint == "" {
			out.Hint = h
		}
		return out, nil
	})
