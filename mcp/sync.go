package mcp

import (
	"context"
	"time"

	"github.com/graphsnap/snap/query"
)

// Syncer keeps the served snapshot fresh: `snap serve --sync` polls the
// store's HEAD and swaps in newer snapshots. snap_status reports on it and
// snap_sync triggers it.
type Syncer interface {
	// SyncStatus reports the last sync without waiting for one running.
	SyncStatus() SyncStatus
	// SyncNow syncs at once (or joins the sync running) and reports it.
	SyncNow(ctx context.Context) SyncStatus
}

// SyncStatus describes a Syncer's work.
type SyncStatus struct {
	Store    string `json:"store"`              // where HEAD is read, without credentials
	Interval string `json:"interval,omitempty"` // between polls; "" when only snap_sync syncs
	// Head is the commit the store's HEAD named at the last successful
	// sync; the served snapshot is that commit's once it has loaded.
	Head        string     `json:"head,omitempty"`
	LastSync    *time.Time `json:"last_sync,omitempty"`    // when the last sync ended
	LastSuccess *time.Time `json:"last_success,omitempty"` // when a sync last succeeded
	LastError   string     `json:"last_error,omitempty"`   // the last sync's error; "" when it succeeded
	Failures    int        `json:"failures,omitempty"`     // syncs failed in a row
	NextSync    *time.Time `json:"next_sync,omitempty"`
	Swaps       int        `json:"swaps"` // snapshots swapped in since start
	// Repos, for a server of several repositories, is each one's sync.
	Repos []RepoSync `json:"repos,omitempty"`
}

// RepoSync is the sync of one repository of a server of several.
type RepoSync struct {
	Repo   string `json:"repo"`
	Branch string `json:"branch"`
	Head   string `json:"head,omitempty"` // the commit served
	// Skipped says why the repository is not served (a memory budget);
	// LastError why its last sync failed.
	Skipped   string `json:"skipped,omitempty"`
	LastError string `json:"last_error,omitempty"`
}

// WithSyncer makes r report on s in snap_status and offer snap_sync (when
// r offers the index toolset).
func (r *Registry) WithSyncer(s Syncer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.syncer, r.noSyncTool = s, false
	r.rebuild()
}

// WithSyncStatus makes r report on s in snap_status, as WithSyncer does,
// but offer no snap_sync: for a server that syncs with no store, whose
// syncer only reports on its checkout.
func (r *Registry) WithSyncStatus(s Syncer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.syncer, r.noSyncTool = s, true
	r.rebuild()
}

func syncerFrom(ctx context.Context) Syncer {
	if r := registryFrom(ctx); r != nil {
		return r.syncer
	}
	return nil
}

type syncIn struct{}

type syncOut struct {
	header
	Sync SyncStatus `json:"sync"`
}

var syncTool = waiting(newTool(
	"snap_sync", "Sync now", ToolsetIndex,
	"Check the store for a newer snapshot of this branch now, and swap it in when there is one "+
		"(the server also does this on its own every sync interval). Answers the sync status; "+
		"commit is the snapshot that answered this call, sync.head the store's HEAD.",
	func(ctx context.Context, e *query.Engine, _ *syncIn) (*syncOut, *ToolError) {
		s := syncerFrom(ctx)
		if s == nil {
			return nil, toolErr(CodeInvalidArgument, nil, "this server does not sync: start snap serve with --sync")
		}
		return &syncOut{Sync: s.SyncNow(ctx)}, nil
	}))
