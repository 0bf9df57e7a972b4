package mcp

import (
	"context"

	"github.com/graphsnap/snap/query"
)

type overviewIn struct {
	File       string `json:"file" jsonschema:"the file: a path or a path suffix (net/http/server.go)"`
	Signatures bool   `json:"signatures,omitempty" jsonschema:"also give each symbol's signature"`
	page
}

// outline is a symbol of a file with what it contains.
type outline struct {
	ID        string     `json:"id"`
	Kind      string     `json:"kind"`
	Name      string     `json:"name"`
	Line      uint32     `json:"line"`
	EndLine   uint32     `json:"end_line"`
	Signature string     `json:"signature,omitempty"`
	Children  []*outline `json:"children,omitempty"`
}

type overviewOut struct {
	header
	File     string     `json:"file"`
	Language string     `json:"language,omitempty"`
	Status   string     `json:"status,omitempty"`
	Symbols  []*outline `json:"symbols"`
	Total    int        `json:"total"`
	Next     string     `json:"next_cursor,omitempty"`
}

var symbolsOverviewTool = newTool(
	"snap_symbols_overview", "File outline", ToolsetSymbols,
	"The symbols a file declares, in source order, nested under what contains them (methods under their type, "+
		"fields under their struct or class), with their line span. Pages (limit, cursor, total) count top-level symbols.",
	func(_ context.Context, e *query.Engine, in *overviewIn) (*overviewOut, *ToolError) {
		path, err := resolveFile(e, "file", in.File)
		if err != nil {
			return nil, err
		}
		rows := e.FileSymbols(path)
		byID := make(map[uint64]*outline, len(rows))
		for _, r := range rows {
			n := e.Node(r)
			o := &outline{ID: idString(n.ID), Kind: n.Kind, Name: n.Name, Line: n.StartLine, EndLine: n.EndLine}
			if in.Signatures {
				o.Signature = n.Signature
			}
			byID[n.ID] = o
		}
		var top []*outline
		for _, r := range rows {
			n := e.Node(r)
			if p, ok := byID[n.ParentID]; ok && n.ParentID != n.ID {
				p.Children = append(p.Children, byID[n.ID])
			} else {
				top = append(top, byID[n.ID])
			}
		}
		pg, next, err := paginate(e, &in.page, top)
		if err != nil {
			return nil, err
		}
		out := &overviewOut{File: path, Symbols: pg, Total: len(top), Next: next}
		if out.Symbols == nil {
			out.Symbols = []*outline{}
		}
		if f, ok := e.File(path); ok {
			out.Language = f.Language
			if f.Status != "ok" {
				out.Status = f.Status
			}
		}
		if len(top) == 0 {
			out.Hint = "no symbols indexed in this file"
			if out.Status != "" {
				out.Hint += " (status " + out.Status + ")"
			}
		}
		return out, nil
	})
