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
	// Checkout and Overlay describe the working-tree overlay of a server
	// run inside a checkout (see package overlay).
	Checkout *CheckoutStatus `json:"checkout,omitempty"`
	Overlay  *overlayOut     `json:"overlay,omitempty"`
	// Repos lists the repositories of a server that joins several; their
	// paths begin with their names.
	Repos []repoInfo `json:"repos,omitempty"`
}

// Checkout is implemented by a Syncer that also keeps a working-tree
// overlay: snap_status reports how far the checkout is from the snapshot,
// and snap_sync re-checks the checkout.
type Checkout interface {
	CheckoutStatus() CheckoutStatus
}

// CheckoutStatus tells how far the checkout is from the snapshot served
// beneath the overlay, as of the last check.
type CheckoutStatus struct {
	Head string `json:"head,omitempty"` // the checkout's HEAD commit; "" outside git
	// CommitsBehind counts the commits HEAD has that the snapshot's commit
	// lacks; CommitsAhead the reverse. -1 when git cannot tell (the
	// commit is unknown to this clone, or there is no git).
	CommitsBehind int `json:"commits_behind"`
	CommitsAhead  int `json:"commits_ahead"`
	// FilesDiffering counts the files whose content differs from the
	// snapshot's (modified, added or deleted; uncommitted included).
	FilesDiffering int        `json:"files_differing"`
	LastCheck      *time.Time `json:"last_check,omitempty"`
	LastError      string     `json:"last_error,omitempty"`
	Watching       bool       `json:"watching"` // the tree is watched for changes
}

// overlayOut names the files the answering engine indexed from the
// checkout rather than taking from the snapshot.
type overlayOut struct {
	Base       string    `json:"base"` // the snapshot's commit beneath the overlay
	BuiltAt    time.Time `json:"built_at"`
	AgeSeconds int64     `json:"age_seconds"`
	Modified   []string  `json:"modified,omitempty"`
	Added      []string  `json:"added,omitempty"`
	Deleted    []string  `json:"deleted,omitempty"`
}

var statusTool = newTool(
	"snap_status", "Snapshot status", ToolsetIndex,
	"What the server has loaded: repository, branch, commit and when it was indexed, build time, format version, "+
		"and counts of files (by language), symbols, edges, unresolved references and parse errors. "+
		"sources says whether file contents are available to snap_read_file and bodies. "+
		"sync (when the server syncs) tells the store's HEAD, when the last sync ran, and its error if any. "+
		"checkout (when the server runs in a checkout) tells how far the checkout is from the snapshot: commits behind and ahead, files differing; "+
		"overlay (when files differ) names the files answered from the checkout instead of the snapshot, and the overlay's age. "+
		"An overlay's answers name the commit as BASE+overlay-DIGEST. "+
		"repos (a server of several repositories) lists each with its commit; their paths begin with their names.",
	func(ctx context.Context, e *query.Engine, _ *statusIn) (*statusOut, *ToolError) {
		m, st := e.Manifest(), e.Stats()
		var sync *SyncStatus
		var checkout *CheckoutStatus
		if s := syncerFrom(ctx); s != nil {
			ss := s.SyncStatus()
			sync = &ss
			if c, ok := s.(Checkout); ok {
				cs := c.CheckoutStatus()
				checkout = &cs
			}
		}
		var ov *overlayOut
		if o := e.Overlay(); o != nil {
			ov = &overlayOut{Base: o.Base, BuiltAt: o.BuiltAt, AgeSeconds: int64(time.Since(o.BuiltAt).Seconds()),
				Modified: o.Modified, Added: o.Added, Deleted: o.Deleted}
		}
		return &statusOut{
			Sync: sync, Checkout: checkout, Overlay: ov,
			Repo: m.Repo, Branch: m.Branch, IndexedAt: m.IndexedAt, BuildMS: m.Build.DurationMS,
			FormatVersion: m.FormatVersion, Indexer: m.Indexer.Name + " " + m.Indexer.Version,
			Files: st.Files, Nodes: st.Nodes, Edges: st.Edges, Unresolved: st.Unresolved,
			ParseErrors: st.FilesByStatus[schemas.StatusParseError], Languages: st.FilesByLanguage,
			Sources: e.HasSources(), Repos: reposOf(e),
		}, nil
	})
