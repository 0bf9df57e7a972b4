package mcp

import (
	"context"
	"slices"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type statsIn struct {
	Status string `json:"status,omitempty" jsonschema:"list only the files of this status (skipped_vendored, parse_error, …)"`
	page
}

type notIndexed struct {
	Path   string `json:"path"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

type reasonCount struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

type statsOut struct {
	header
	Nodes           int            `json:"nodes"`
	Edges           int            `json:"edges"`
	Files           int            `json:"files"`
	Sources         int            `json:"sources"`
	Unresolved      int            `json:"unresolved"`
	NodesByKind     map[string]int `json:"nodes_by_kind"`
	NodesByLanguage map[string]int `json:"nodes_by_language"`
	FilesByLanguage map[string]int `json:"files_by_language"`
	FilesByStatus   map[string]int `json:"files_by_status"`
	EdgesByKind     map[string]int `json:"edges_by_kind"`
	// TopUnresolved are the most frequent reasons calls stayed unresolved.
	TopUnresolved []reasonCount `json:"top_unresolved"`
	// NotIndexed lists files that were not indexed, or indexed with a
	// syntax error, with why: every status but ok.
	NotIndexed      []notIndexed `json:"not_indexed"`
	NotIndexedTotal int          `json:"not_indexed_total"`
	Next            string       `json:"next_cursor,omitempty"`
}

// topReasons is how many unresolved reasons snap_stats lists.
const topReasons = 20

var statsTool = newTool(
	"snap_stats", "Snapshot statistics", ToolsetIndex,
	"Counts of the snapshot by node kind, language, edge kind and file status, the unresolved references by "+
		"reason (the 20 most frequent), and the files that were not indexed (vendored, generated, minified, too large, binary, unsupported, "+
		"unreadable) or indexed around a syntax error, each with its status and error. status narrows the list.",
	func(_ context.Context, e *query.Engine, in *statsIn) (*statsOut, *ToolError) {
		if in.Status != "" && !slices.Contains(schemas.FileStatuses, in.Status) {
			return nil, toolErr(CodeInvalidArgument, map[string]any{"statuses": schemas.FileStatuses}, "unknown status %q", in.Status)
		}
		st := e.Stats()
		all := make([]notIndexed, 0, st.Files-st.FilesByStatus[schemas.StatusOK])
		for _, f := range e.Files() {
			if f.Status != schemas.StatusOK && (in.Status == "" || f.Status == in.Status) {
				all = append(all, notIndexed{Path: f.Path, Status: f.Status, Error: f.Error})
			}
		}
		pg, next, terr := paginate(e, &in.page, all)
		if terr != nil {
			return nil, terr
		}
		out := &statsOut{
			Nodes: st.Nodes, Edges: st.Edges, Files: st.Files, Sources: st.Sources, Unresolved: st.Unresolved,
			NodesByKind: st.NodesByKind, NodesByLanguage: st.NodesByLanguage, FilesByLanguage: st.FilesByLanguage,
			FilesByStatus: st.FilesByStatus, EdgesByKind: st.EdgesByKind, TopUnresolved: []reasonCount{},
			NotIndexed: pg, NotIndexedTotal: len(all), Next: next,
		}
		reasons := e.UnresolvedReasons()
		for _, r := range reasons[:min(len(reasons), topReasons)] {
			out.TopUnresolved = append(out.TopUnresolved, reasonCount{r.Reason, r.Count})
		}
		if out.NotIndexed == nil {
			out.NotIndexed = []notIndexed{}
		}
		if len(all) == 0 {
			out.Hint = "every file was indexed"
		}
		return out, nil
	})
