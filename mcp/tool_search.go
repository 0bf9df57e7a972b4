package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/graphsnap/snap/query"
)

type searchIn struct {
	Query    string   `json:"query" jsonschema:"a name, the start of one, words of one (serve http), a misspelling, or a dotted name (http.Server, User.sa)"`
	Kinds    []string `json:"kinds,omitempty" jsonschema:"keep these symbol kinds (function, method, struct, class, ...)"`
	File     string   `json:"file,omitempty" jsonschema:"keep symbols of this file: a path or a path suffix"`
	Language string   `json:"language,omitempty" jsonschema:"keep this language (go, python, ...)"`
	page
}

type searchHit struct {
	sym
	Match string `json:"match"`
}

type searchOut struct {
	header
	Results []searchHit `json:"results"`
	Next    string      `json:"next_cursor,omitempty"`
}

var searchTool = newTool(
	"snap_search", "Search symbols", ToolsetSymbols,
	"Ranked symbol search by name: exact matches first (ignoring case last), then names starting with the query, "+
		"then names holding all its words (camelCase and snake_case split), then close misspellings. "+
		"Each result says how it matched. Filters: kinds, file, language. Paged with limit and cursor.",
	func(_ context.Context, e *query.Engine, in *searchIn) (*searchOut, *ToolError) {
		if strings.TrimSpace(in.Query) == "" {
			return nil, argErr("query", "must not be empty")
		}
		off, limit, err := in.window(e)
		if err != nil {
			return nil, err
		}
		hits := e.Search(in.Query, query.SearchOptions{Kinds: in.Kinds, File: in.File, Language: in.Language, Limit: off + limit + 1})
		out := &searchOut{Results: []searchHit{}}
		if len(hits) > off+limit {
			out.Next = in.next(e, off+limit)
			hits = hits[:off+limit]
		}
		for _, h := range hits[min(off, len(hits)):] {
			out.Results = append(out.Results, searchHit{sym: symOf(e, h.Node), Match: h.Match.String()})
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
