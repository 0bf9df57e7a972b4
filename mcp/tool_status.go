package mcp

import (
	"context"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type statusIn struct{}

type statusOut struct {
	header
	Repo          string         `json:"repo"`
	Branch        string         `json:"branch"`
	IndexedAt     time.Time      `json:"indexed_at"`
	BuildMS       int64          `json:"build_ms"`
	FormatVersion int            `json:"format_version"`
	Indexer       string         `json:"indexer"`
	Files         int            `json:"files"`
	Nodes         int            `json:"nodes"`
	Edges         int            `json:"edges"`
	Unresolved    int            `json:"unresolved"`
	ParseErrors   int            `json:"parse_errors"`
	Languages     map[string]int `json:"languages"`
	Sources       bool           `json:"sources"`
	Sync          *SyncStatus    `json:"sync,omitempty"`
}

var statusTool = newTool(
	"snap_status", "Snapshot status", ToolsetIndex,
	"What the server has loaded: repository, branch, commit and when it was indexed, build time, format version, "+
		"and counts of files (by language), symbols, edges, unresolved references and parse errors. "+
		"sources says whether file contents are available to snap_read_file and bodies. "+
		"sync (when the server syncs) tells the store's HEAD, when the last sync ran, and its error if any.",
	func(ctx context.Context, e *query.Engine, _ *statusIn) (*statusOut, *ToolError) {
		m, st := e.Manifest(), e.Stats()
		var sync *SyncStatus
		if s := syncerFrom(ctx); s != nil {
			ss := s.SyncStatus()
			sync = &ss
		}
		return &statusOut{
			Sync: sync,
			Repo: m.Repo, Branch: m.Branch, IndexedAt: m.IndexedAt, BuildMS: m.Build.DurationMS,
			FormatVersion: m.FormatVersion, Indexer: m.Indexer.Name + " " + m.Indexer.Version,
			Files: st.Files, Nodes: st.Nodes, Edges: st.Edges, Unresolved: st.Unresolved,
			ParseErrors: st.FilesByStatus[schemas.StatusParseError], Languages: st.FilesByLanguage,
			Sources: e.HasSources(),
		}, nil
	})
