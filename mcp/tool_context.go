package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/graphsnap/snap/query"
)

// ToolsetContext holds the tools that take words: context, ask, verify.
const ToolsetContext = "context"

type contextIn struct {
	Task     string `json:"task" jsonschema:"the task in words"`
	Tokens   *int   `json:"tokens,omitempty" jsonschema:"code budget, in tokens (default 4000, max 100000)"`
	Limit    *int   `json:"limit,omitempty" jsonschema:"at most this many symbols (default 30)"`
	Language string `json:"language,omitempty" jsonschema:"keep symbols of this language"`
	File     string `json:"file,omitempty" jsonschema:"keep symbols of files matching this path or path suffix"`
	Format   string `json:"format,omitempty" enum:"json,markdown" jsonschema:"json (default) or one markdown document"`
}

type contextSym struct {
	sym
	Why   string `json:"why"`
	Shown string `json:"shown"` // body, truncated, signature, or inside (a body shown above holds it)
	Code  string `json:"code,omitempty"`
}

type contextOut struct {
	header
	Terms     []string     `json:"terms"`
	Unmatched []string     `json:"unmatched,omitempty"`
	Symbols   []contextSym `json:"symbols,omitempty"`
	Tests     []sym        `json:"tests,omitempty"` // the tests that rank among them, apart and without code
	Markdown  string       `json:"markdown,omitempty"`
	Tokens    int          `json:"tokens"`
	Budget    int          `json:"budget"`
	Truncated bool         `json:"truncated,omitempty"` // the budget or the limit left symbols out
}

var contextTool = newTool(
	"snap_context", "Context for a task", ToolsetContext,
	"The code a task in words is about: symbols ranked by how their names, bodies, paths and docs match the "+
		"words, functions first, then by the call graph, each with its body as far as the token budget goes; "+
		"matching tests come apart. Start here when you do not know the names yet.",
	func(_ context.Context, e *query.Engine, in *contextIn) (*contextOut, *ToolError) {
		if strings.TrimSpace(in.Task) == "" {
			return nil, argErr("task", "must not be empty")
		}
		opt := query.ContextOptions{Language: in.Language, File: in.File}
		if in.Tokens != nil {
			if *in.Tokens < 100 {
				return nil, argErr("tokens", "at least 100, got %d", *in.Tokens)
			}
			opt.Tokens = min(*in.Tokens, query.MaxContextTokens)
		}
		if in.Limit != nil {
			if *in.Limit < 1 {
				return nil, argErr("limit", "must be at least 1, got %d", *in.Limit)
			}
			opt.Limit = min(*in.Limit, MaxLimit)
		}
		if in.Format != "" && in.Format != "json" && in.Format != "markdown" {
			return nil, argErr("format", "want json or markdown, got %q", in.Format)
		}
		res := e.Context(in.Task, opt)
		out := &contextOut{Terms: res.Terms, Unmatched: res.Unmatched, Tokens: res.Tokens, Budget: res.Budget, Truncated: res.Truncated}
		if out.Terms == nil {
			out.Terms = []string{}
		}
		for i := range res.Symbols {
			s := &res.Symbols[i]
			out.Symbols = append(out.Symbols, contextSym{sym: symOf(e, s.Node), Why: s.Why(), Shown: s.Shown.String(), Code: s.Code})
		}
		for _, s := range res.Tests {
			out.Tests = append(out.Tests, symOf(e, s.Node))
		}
		if in.Format == "markdown" {
			out.Markdown = contextMarkdown(in.Task, out)
			out.Symbols, out.Tests = nil, nil
		}
		if len(res.Symbols) == 0 {
			out.Hint = "no symbol matches these words; snap_search matches names by prefix and spelling"
		}
		return out, nil
	})

// wordHits ranks symbols by the words of a search that names none, as
// snap_context does (query.SearchWords).
func wordHits(e *query.Engine, q string, opt query.SearchOptions) []query.Hit {
	var hits []query.Hit
	for _, r := range e.SearchWords(q, opt) {
		hits = append(hits, query.Hit{Node: r})
	}
	return hits
}

// matchOf says how a search hit matched: as query.Match says, or "words"
// for a hit of wordHits.
func matchOf(h query.Hit, words bool) string {
	if words {
		return "words"
	}
	return h.Match.String()
}

// searchWordsHint says that a search ranked by words.
const searchWordsHint = "no symbol name matches; ranked by the words, as snap_context does"

// contextMarkdown writes a context answer as one document: a heading per
// symbol with where it is and why it was picked, then its code.
func contextMarkdown(task string, out *contextOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Context: %s\n\n", task)
	for _, s := range out.Symbols {
		fmt.Fprintf(&b, "## %s `%s`\n\n%s — %s\n\n", s.Kind, s.QName, s.Loc, s.Why)
		if s.Code != "" {
			fence := "```"
			for strings.Contains(s.Code, fence) {
				fence += "`"
			}
			fmt.Fprintf(&b, "%s\n%s\n%s\n\n", fence, strings.TrimRight(s.Code, "\n"), fence)
		}
	}
	if len(out.Tests) > 0 {
		b.WriteString("Tests:")
		for _, t := range out.Tests {
			fmt.Fprintf(&b, " `%s` (%s)", t.QName, t.Loc)
		}
		b.WriteString("\n\n")
	}
	if len(out.Unmatched) > 0 {
		fmt.Fprintf(&b, "Words that matched nothing: %s\n", strings.Join(out.Unmatched, ", "))
	}
	return b.String()
}

type askIn struct {
	Question string `json:"question" jsonschema:"a question in words: who calls X, what does X call, what breaks if I change X, how does A reach B, where is X defined, what implements X, what is in FILE"`
}

type askOut struct {
	header
	Intent    string          `json:"intent"`
	Tool      string          `json:"tool"`      // the tool that answered
	Arguments map[string]any  `json:"arguments"` // what it was asked
	Answer    json.RawMessage `json:"answer"`    // its answer, or its error
	IsError   bool            `json:"is_error,omitempty"`
}

var askTool = newTool(
	"snap_ask", "Ask in words", ToolsetContext,
	"A question in words, answered by the tool it is for: the question is routed by its form, the same way "+
		"every time, and the answer says which tool and arguments it chose, so the next call can go there directly. "+
		"Questions of no known form go to snap_context.",
	func(ctx context.Context, e *query.Engine, in *askIn) (*askOut, *ToolError) {
		if strings.TrimSpace(in.Question) == "" {
			return nil, argErr("question", "must not be empty")
		}
		q := query.ParseQuestion(in.Question)
		tool, args := route(q, in.Question)
		out := &askOut{Intent: q.Intent.String(), Tool: tool, Arguments: args}
		res, terr := callTool(ctx, e, tool, args)
		if terr != nil && q.Intent == query.IntentDefinition && terr.Code == CodeSymbolNotFound {
			// A word that names nothing is a task in words after all.
			tool, args = route(query.Question{Intent: query.IntentContext}, in.Question)
			out.Intent, out.Tool, out.Arguments = query.IntentContext.String(), tool, args
			res, terr = callTool(ctx, e, tool, args)
		}
		if terr != nil {
			out.Answer, out.IsError = encode(errorAnswer{Error: terr}), true
			return out, nil
		}
		out.Answer = encode(res)
		return out, nil
	})

// route turns a question into a tool call.
func route(q query.Question, text string) (string, map[string]any) {
	switch q.Intent {
	case query.IntentCallers:
		return callersTool.Name, map[string]any{"name": q.Subject}
	case query.IntentCallees:
		return calleesTool.Name, map[string]any{"name": q.Subject}
	case query.IntentImpact:
		return impactTool.Name, map[string]any{"name": q.Subject}
	case query.IntentPath:
		return pathTool.Name, map[string]any{"from": q.Subject, "to": q.Object}
	case query.IntentDefinition:
		return findSymbolTool.Name, map[string]any{"name": q.Subject}
	case query.IntentImplementations:
		return findReferencesTool.Name, map[string]any{"name": q.Subject, "kinds": []string{"implements", "extends"}}
	case query.IntentReferences:
		return findReferencesTool.Name, map[string]any{"name": q.Subject}
	case query.IntentDependencies:
		return dependenciesTool.Name, map[string]any{"name": q.Subject}
	case query.IntentDependents:
		return dependentsTool.Name, map[string]any{"name": q.Subject}
	case query.IntentOutline:
		return symbolsOverviewTool.Name, map[string]any{"file": q.Subject}
	}
	return contextTool.Name, map[string]any{"task": text}
}

// callTool runs a catalog tool on e, whatever toolsets are offered.
func callTool(ctx context.Context, e *query.Engine, name string, args map[string]any) (any, *ToolError) {
	i := slices.IndexFunc(catalog, func(t *Tool) bool { return t.Name == name })
	raw, err := json.Marshal(args)
	if i < 0 || err != nil {
		return nil, toolErr(CodeInvalidArgument, nil, "route to %s: %v", name, err)
	}
	res, terr := catalog[i].Handler(ctx, e, raw)
	if a, ok := res.(answer); ok && terr == nil {
		a.head().Commit = e.Commit()
	}
	return res, terr
}

type verifyIn struct {
	Claim string `json:"claim" jsonschema:"a structural claim: A calls B, A reaches B, A imports B, A extends B, A implements B, changing A affects B, A contains B"`
}

type verifyOut struct {
	header
	Claim    string      `json:"claim"`   // as understood
	Verdict  string      `json:"verdict"` // corroborated, contradicted or inconclusive
	Reason   string      `json:"reason"`
	Subject  []sym       `json:"subject,omitempty"` // what the first name designates (several: ambiguous)
	Object   []sym       `json:"object,omitempty"`
	Evidence []graphEdge `json:"evidence,omitempty"` // edges that prove it
	Path     []pathStep  `json:"path,omitempty"`     // a chain that proves it
	Missed   []graphEdge `json:"missed,omitempty"`   // unresolved edges that might have been it
}

type pathStep struct {
	Symbol sym    `json:"symbol"`
	Kind   string `json:"kind,omitempty"` // the edge to the next step; none on the last
	At     string `json:"at,omitempty"`
}

var verifyTool = newTool(
	"snap_verify", "Check a claim", ToolsetContext,
	"Check a structural claim about the code against the graph: corroborated (with the edges or the chain "+
		"that prove it), contradicted (both symbols found, the graph searched, nothing found, and no unresolved "+
		"call could have been it), or inconclusive (with why). Use it before stating such a claim.",
	func(_ context.Context, e *query.Engine, in *verifyIn) (*verifyOut, *ToolError) {
		c, err := query.ParseClaim(in.Claim)
		if err != nil {
			return nil, argErr("claim", "%v", err)
		}
		v := e.Verify(c, func(name string) ([]int32, error) { return e.Find(name, ""), nil })
		out := &verifyOut{Claim: v.Claim.String(), Verdict: v.Outcome.String(), Reason: v.Reason}
		for _, r := range v.Subject {
			out.Subject = append(out.Subject, symOf(e, r))
		}
		for _, r := range v.Object {
			out.Object = append(out.Object, symOf(e, r))
		}
		edge := func(i int32) graphEdge {
			ed := e.Edge(i)
			return graphEdge{From: idString(ed.Src), To: idString(ed.Dst), Kind: ed.Kind, At: siteLoc(ed)}
		}
		for _, i := range v.Edges {
			out.Evidence = append(out.Evidence, edge(i))
		}
		for _, i := range v.Missed {
			g := edge(i)
			g.To = e.Edge(i).Target
			out.Missed = append(out.Missed, g)
		}
		for _, h := range v.Path {
			ed := e.Edge(h.Edge)
			out.Path = append(out.Path, pathStep{Symbol: symOf(e, h.From), Kind: ed.Kind, At: siteLoc(ed)})
		}
		if n := len(v.Path); n > 0 {
			out.Path = append(out.Path, pathStep{Symbol: symOf(e, v.Path[n-1].To)})
		}
		return out, nil
	})
