package mcp

import (
	"bytes"
	"context"
	"path"
	"sort"
	"strings"

	"github.com/graphsnap/snap/query"
)

type readFileIn struct {
	File      string `json:"file" jsonschema:"path from the repository root, or a unique path suffix"`
	StartLine *int   `json:"start_line,omitempty" jsonschema:"first line to return, from 1 (default 1)"`
	EndLine   *int   `json:"end_line,omitempty" jsonschema:"last line to return, inclusive (default: the end, at most 2000 lines per answer)"`
	budget
}

// defaultReadTokens bounds a file's lines in one answer unless max_tokens
// says otherwise.
const defaultReadTokens = 6000

type readFileOut struct {
	header
	File      string `json:"file"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Lines     int    `json:"lines"`
	Content   string `json:"content"`
	Truncated bool   `json:"truncated,omitempty"`
	NextStart int    `json:"next_start,omitempty"`
}

var readFileTool = newTool(
	"snap_read_file", "Read a file", ToolsetFiles,
	"A file's content as indexed in the snapshot (never the local disk), whole or a line range; lines counts the "+
		"file's lines. An answer carries at most 2000 lines: truncated and next_start say where to go on. "+
		"Paths are relative to the repository root; absolute paths and paths leaving it are refused.",
	func(_ context.Context, e *query.Engine, in *readFileIn) (*readFileOut, *ToolError) {
		p, err := resolveFile(e, "file", in.File)
		if err != nil {
			return nil, err
		}
		src, ok := e.Source(p)
		if !ok {
			details := map[string]string{"file": p}
			msg := "the snapshot holds no content for " + p
			if f, ok := e.File(p); ok && f.Status != "ok" {
				details["status"] = f.Status
				msg += " (status " + f.Status + ")"
			} else if !e.HasSources() {
				msg += ": it was indexed without sources"
			}
			return nil, toolErr(CodeFileNotFound, details, "%s", msg)
		}
		lines := bytes.Count(src, []byte("\n"))
		if len(src) > 0 && src[len(src)-1] != '\n' {
			lines++
		}
		start, end := 1, lines
		if in.StartLine != nil {
			start = *in.StartLine
		}
		if in.EndLine != nil {
			end = min(*in.EndLine, lines)
		}
		switch {
		case start < 1:
			return nil, argErr("start_line", "must be at least 1, got %d", start)
		case start > max(lines, 1):
			return nil, argErr("start_line", "%d is past the end of %s (%d lines)", start, p, lines)
		case in.EndLine != nil && *in.EndLine < start:
			return nil, argErr("end_line", "%d is before start_line %d", *in.EndLine, start)
		}
		tokens, err := in.tokens(defaultReadTokens)
		if err != nil {
			return nil, err
		}
		out := &readFileOut{File: p, Start: start, Lines: lines}
		if end-start+1 > maxLines {
			end = start + maxLines - 1
			out.Truncated, out.NextStart = true, end+1
		}
		// Whole lines, one at least, within the budget.
		from := lineOffset(src, start)
		if lineOffset(src, end+1)-from > room(tokens) {
			n := sort.Search(end-start+1, func(n int) bool { return lineOffset(src, start+n+1)-from > room(tokens) })
			end = start + max(n-1, 0)
			out.Truncated, out.NextStart = true, end+1
		}
		out.End = end
		out.Content = string(src[from:lineOffset(src, end+1)])
		return out, nil
	})

// lineOffset returns the offset where line n (from 1) of b starts, or
// len(b) past the last line.
func lineOffset(b []byte, n int) int {
	if n <= 1 {
		return 0
	}
	if i := nthLine(b, n-1); i >= 0 {
		return i
	}
	return len(b)
}

// resolveFile maps a path argument to a path of the snapshot: the path
// itself, else the one path ending with it. It refuses paths that leave
// the repository root.
func resolveFile(e *query.Engine, arg, p string) (string, *ToolError) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", argErr(arg, "must not be empty")
	}
	slashed := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(slashed, "/") || len(slashed) > 1 && slashed[1] == ':' {
		return "", toolErr(CodePathOutsideRoot, map[string]string{arg: p}, "%s is absolute; give a path relative to the repository root", p)
	}
	clean := path.Clean(slashed)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", toolErr(CodePathOutsideRoot, map[string]string{arg: p}, "%s leaves the repository root", p)
	}
	switch paths := e.Paths(clean); len(paths) {
	case 1:
		return paths[0], nil
	case 0:
		details := map[string]any{arg: p}
		if similar := e.Paths(path.Base(clean)); len(similar) > 0 {
			details["did_you_mean"] = similar[:min(len(similar), 5)]
		}
		return "", toolErr(CodeFileNotFound, details, "no file %s in the snapshot", clean)
	default:
		return "", toolErr(CodeInvalidArgument, map[string]any{"argument": arg, "candidates": paths[:min(len(paths), maxCandidates)], "total": len(paths)},
			"%d files end with %s; give more of the path", len(paths), clean)
	}
}
