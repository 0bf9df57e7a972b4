package mcp

import (
	"context"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type statusIn struct {
	Detail     string `json:"detail,omitempty" enum:"stats,manifest" jsonschema:"stats (counts, files not indexed) or manifest"`
	FileStatus string `json:"file_status,omitempty" jsonschema:"with stats: list only files of this status (parse_error, …)"`
	page
}

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
	// Stats and Manifest are the details asked for.
	Stats    *statsDetail      `json:"stats,omitempty"`
	Manifest *schemas.Manifest `json:"manifest,omitempty"`
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
	"Start here: what the snapshot holds (repository, commit, counts by language, parse errors) and how fresh it is "+
		"(sync, checkout, overlay). detail stats or manifest says more.",
	func(ctx context.Context, e *query.Engine, in *statusIn) (*statusOut, *ToolError) {
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
		out := &statusOut{
			Sync: sync, Checkout: checkout, Overlay: ov,
			Repo: m.Repo, Branch: m.Branch, IndexedAt: m.IndexedAt, BuildMS: m.Build.DurationMS,
			FormatVersion: m.FormatVersion, Indexer: m.Indexer.Name + " " + m.Indexer.Version,
			Files: st.Files, Nodes: st.Nodes, Edges: st.Edges, Unresolved: st.Unresolved,
			ParseErrors: st.FilesByStatus[schemas.StatusParseError], Languages: st.FilesByLanguage,
			Sources: e.HasSources(), Repos: reposOf(e),
		}
		switch in.Detail {
		case "":
		case "stats":
			st, terr := statsOf(e, in.FileStatus, &in.page)
			if terr != nil {
				return nil, terr
			}
			out.Stats = st
		case "manifest":
			m := *e.Manifest() // a copy: answers are made whole before they are sent
			out.Manifest = &m
		default:
			return nil, argErr("detail", "want stats or manifest, got %q", in.Detail)
		}
		return out, nil
	})
