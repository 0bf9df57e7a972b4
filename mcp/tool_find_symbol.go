package mcp

import (
	"bytes"
	"context"

	"github.com/graphsnap/snap/query"
)

type findSymbolIn struct {
	target
	IncludeBody bool `json:"include_body,omitempty" jsonschema:"also return the symbol's source text (at most 2000 lines)"`
}

type findSymbolOut struct {
	header
	Symbol        info   `json:"symbol"`
	Body          string `json:"body,omitempty"`
	BodyTruncated bool   `json:"body_truncated,omitempty"`
}

var findSymbolTool = newTool(
	"snap_find_symbol", "Find a symbol", ToolsetSymbols,
	"One symbol with everything the index knows of it: kind, qualified name, location and extent, signature, doc, "+
		"visibility, flags, decorators, parent, and how many call sites it has in and out; with include_body, its source. "+
		"Select it by id, or by name (plain, dotted like Server.Serve, or qualified) with an optional file. "+
		"A name matching several symbols fails with AMBIGUOUS_SYMBOL listing them.",
	func(_ context.Context, e *query.Engine, in *findSymbolIn) (*findSymbolOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		out := &findSymbolOut{Symbol: infoOf(e, r)}
		if in.IncludeBody {
			body, ok := e.Body(r)
			if !ok {
				out.Hint = "the snapshot holds no source for this file"
				return out, nil
			}
			if i := nthLine(body, maxLines); i >= 0 {
				body, out.BodyTruncated = body[:i], true
				out.Hint = "body cut at 2000 lines: read the rest with snap_read_file"
			}
			out.Body = string(body)
		}
		return out, nil
	})

// maxLines bounds the lines of source one answer carries.
const maxLines = 2000

// nthLine returns the offset just past the n-th newline of b, or -1 if b
// has no more than n lines.
func nthLine(b []byte, n int) int {
	off := 0
	for range n {
		i := bytes.IndexByte(b[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	if off == len(b) {
		return -1
	}
	return off
}
