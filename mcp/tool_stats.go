package mcp

import (
	"slices"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type notIndexed struct {
	Path   string `json:"path"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

type reasonCount struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// statsDetail is what snap_status adds with detail stats.
type statsDetail struct {
	Sources         int            `json:"sources"`
	NodesByKind     map[string]int `json:"nodes_by_kind"`
	NodesByLanguage map[string]int `json:"nodes_by_language"`
	FilesByStatus   map[string]int `json:"files_by_status"`
	EdgesByKind     map[string]int `json:"edges_by_kind"`
	// TopUnresolved are the most frequent reasons calls stayed unresolved.
	TopUnresolved []reasonCount `json:"top_unresolved"`
	// NotIndexed lists files that were not indexed, or indexed with a
	// syntax error, with why: every status but ok.
	NotIndexed []notIndexed `json:"not_indexed"`
	listed
}

// topReasons is how many unresolved reasons the stats list.
const topReasons = 20

// statsOf counts the snapshot, and lists a page of the files of status
// (every status but ok when "") that were not indexed.
func statsOf(e *query.Engine, status string, p *page) (*statsDetail, *ToolError) {
	if status != "" && !slices.Contains(schemas.FileStatuses, status) {
		return nil, toolErr(CodeInvalidArgument, map[string]any{"argument": "file_status", "statuses": schemas.FileStatuses}, "unknown file_status %q", status)
	}
	st := e.Stats()
	all := make([]notIndexed, 0, st.Files-st.FilesByStatus[schemas.StatusOK])
	for _, f := range e.Files() {
		if f.Status != schemas.StatusOK && (status == "" || f.Status == status) {
			all = append(all, notIndexed{Path: f.Path, Status: f.Status, Error: f.Error})
		}
	}
	out := &statsDetail{
		Sources: st.Sources, NodesByKind: st.NodesByKind, NodesByLanguage: st.NodesByLanguage,
		FilesByStatus: st.FilesByStatus, EdgesByKind: st.EdgesByKind, TopUnresolved: []reasonCount{},
	}
	if err := pageOf(e, p, &budget{}, MaxMaxTokens, out, &out.listed, all, func(pg []notIndexed) { out.NotIndexed = pg }); err != nil {
		return nil, err
	}
	reasons := e.UnresolvedReasons()
	for _, r := range reasons[:min(len(reasons), topReasons)] {
		out.TopUnresolved = append(out.TopUnresolved, reasonCount{r.Reason, r.Count})
	}
	if out.NotIndexed == nil {
		out.NotIndexed = []notIndexed{}
	}
	return out, nil
}
