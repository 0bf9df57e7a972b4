package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphsnap/snap/query"
)

type searchIn struct {
	Query    string   `json:"query" jsonschema:"a name, its start, its words (serve http) or a dotted name (http.Server)"`
	Kinds    []string `json:"kinds,omitempty" jsonschema:"symbol kinds to keep (function, class, …)"`
	File     string   `json:"file,omitempty" jsonschema:"file path or suffix to keep"`
	Language string   `json:"language,omitempty" jsonschema:"language to keep"`
	tests
	page
	budget
}

type searchHit struct {
	sym
	Signature string `json:"signature,omitempty"`
	Match     string `json:"match"`
}

type searchOut struct {
	header
	Results []searchHit `json:"results"`
	Tests   int         `json:"tests,omitempty"` // of total, how many hits are test code
	listed
}

// Search bounds: the hits a page gives when the call says no limit, and
// the hits ranked to count them and set tests apart.
const (
	defaultSearchLimit = 15
	searchScan         = 1000
)

var searchTool = newTool(
	"snap_search", "Search symbols", ToolsetSymbols,
	"Find symbols by name when you know a name or part of one: exact matches first, then prefixes, then "+
		"all words (camelCase split), then misspellings; non-test code first.",
	func(_ context.Context, e *query.Engine, in *searchIn) (*searchOut, *ToolError) {
		if strings.TrimSpace(in.Query) == "" {
			return nil, argErr("query", "must not be empty")
		}
		mode, err := in.mode(testsInclude)
		if err != nil {
			return nil, err
		}
		if in.Limit == nil && in.def == DefaultLimit {
			in.def = defaultSearchLimit
		}
		off, limit, err := in.window(e)
		if err != nil {
			return nil, err
		}
		hits := e.Search(in.Query, query.SearchOptions{Kinds: in.Kinds, File: in.File, Language: in.Language, Limit: max(searchScan, off+limit+1)})
		words := len(hits) == 0 && len(strings.Fields(in.Query)) > 1
		if words {
			// A sentence that names no symbol: ranked by its words.
			hits = wordHits(e, in.Query, query.SearchOptions{Kinds: in.Kinds, File: in.File, Language: in.Language, Limit: max(searchScan, off+limit+1)})
		}
		out := &searchOut{Results: []searchHit{}}
		hits, out.Tests = byTests(mode, hits, func(h query.Hit) bool { return e.IsTest(h.Node) })
		err = pageOf(e, &in.page, &in.budget, DefaultMaxTokens, out, &out.listed, hits, func(pg []query.Hit) {
			out.Results = out.Results[:0]
			for _, h := range pg {
				out.Results = append(out.Results, searchHit{sym: symOf(e, h.Node), Signature: signatureOf(e, h.Node), Match: matchOf(h, words)})
			}
		})
		if err != nil {
			return nil, err
		}
		if words && len(out.Results) > 0 {
			out.Hint = strings.TrimSuffix(searchWordsHint+"; "+out.Hint, "; ")
		}
		if len(out.Results) == 0 && off == 0 {
			out.Hint = "no symbol matches"
			if dym := e.Suggest(in.Query, 5); len(dym) > 0 {
				out.Hint += fmt.Sprintf("; did you mean %s?", strings.Join(dym, ", "))
			} else if in.File != "" || in.Language != "" || len(in.Kinds) > 0 {
				out.Hint += "; try without filters"
			}
		}
		return out, nil
	})
