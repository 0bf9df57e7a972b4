package mcp

import (
	"context"

	"github.com/graphsnap/snap/query"
)

type callsIn struct {
	target
	Direction string `json:"direction,omitempty" enum:"in,out" jsonschema:"in (default): its callers; out: its callees"`
	tests
	page
	budget
}

// site is a symbol at the other end of an edge, and where the edge is
// written.
type site struct {
	QName string `json:"qname"`
	Name  string `json:"name,omitempty"`
	Kind  string `json:"kind"`
	At    string `json:"at"`
	ID    string `json:"id,omitempty"`
}

// sitesOf are the symbols at the other end of links, each with where its
// edge is written.
func sitesOf(e *query.Engine, links []query.Link) []site {
	edges := make([]int32, len(links))
	for i, l := range links {
		edges[i] = l.Edge
	}
	at := siteLocs(e, edges)
	out := make([]site, len(links))
	for i, l := range links {
		s := symOf(e, l.Node)
		out[i] = site{QName: s.QName, Name: s.Name, Kind: s.Kind, At: at[i], ID: s.ID}
	}
	return out
}

// unresolvedCall is a call the index could not tie to one symbol.
type unresolvedCall struct {
	Target string `json:"target"`
	At     string `json:"at"`
	Reason string `json:"reason,omitempty"` // why, or how it was left (ambiguous, external, …)
}

type callsOut struct {
	header
	Symbol     sym              `json:"symbol"`
	Callers    []site           `json:"callers,omitempty"`
	Callees    []site           `json:"callees,omitempty"`
	Unresolved []unresolvedCall `json:"unresolved,omitempty"`
	Tests      int              `json:"tests,omitempty"` // of total, how many sites are in test code
	listed
}

var callsTool = newTool(
	"snap_calls", "Calls", ToolsetCallGraph,
	"Who calls a symbol (direction in) or what it calls (out), one entry per call site, non-test code first. "+
		"Only resolved calls; snap_impact also follows references and implementations.",
	func(_ context.Context, e *query.Engine, in *callsIn) (*callsOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		mode, err := in.mode(testsInclude)
		if err != nil {
			return nil, err
		}
		out := &callsOut{Symbol: subjectOf(e, r)}
		isTest := func(l query.Link) bool {
			if l.Node >= 0 {
				return e.IsTest(l.Node)
			}
			return e.IsTest(e.Edge(l.Edge).SrcRow)
		}
		var links []query.Link
		var show func(pg []query.Link)
		switch in.Direction {
		case "", "in":
			links, out.Tests = byTests(mode, e.Callers(r), isTest)
			show = func(pg []query.Link) { out.Callers = sitesOf(e, pg) }
			if len(links) == 0 {
				out.Hint = "no resolved call sites: it may be an entry point, unused, or reached through an interface, " +
					"a function value or reflection; snap_impact also follows references and implementations"
			}
		case "out":
			resolved, unresolved := e.Callees(r)
			links, out.Tests = byTests(mode, append(resolved[:len(resolved):len(resolved)], unresolved...), isTest)
			show = func(pg []query.Link) {
				var known []query.Link
				out.Unresolved = nil
				for _, l := range pg {
					if l.Node >= 0 {
						known = append(known, l)
						continue
					}
					ed := e.Edge(l.Edge)
					reason := ed.Reason
					if reason == "" {
						reason = ed.Resolution
					}
					out.Unresolved = append(out.Unresolved, unresolvedCall{Target: ed.Target, At: siteLoc(ed), Reason: reason})
				}
				out.Callees = sitesOf(e, known)
			}
			if len(links) == 0 {
				out.Hint = "calls nothing: it may be a declaration without a body, or only reference other symbols"
			}
		default:
			return nil, argErr("direction", "want in or out, got %q", in.Direction)
		}
		if err := pageOf(e, &in.page, &in.budget, DefaultMaxTokens, out, &out.listed, links, show); err != nil {
			return nil, err
		}
		if h := testsHint(mode, out.Tests); h != "" && out.Hint == "" {
			out.Hint = h
		}
		return out, nil
	})
