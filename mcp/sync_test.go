package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/graphsnap/snap/mcp"
)

// countingSyncer reports what it was asked.
type countingSyncer struct{ calls int }

func (s *countingSyncer) SyncStatus() mcp.SyncStatus {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return mcp.SyncStatus{Store: "s3://b/p", Interval: "1m0s", Head: "abc", LastSync: &at, LastError: "boom", Failures: 2, Swaps: s.calls}
}

func (s *countingSyncer) SyncNow(context.Context) mcp.SyncStatus {
	s.calls++
	return s.SyncStatus()
}

func toolNames(r *mcp.Registry) []string {
	var names []string
	for _, t := range r.Tools() {
		names = append(names, t.Name)
	}
	return names
}

func TestSyncTool(t *testing.T) {
	ctx := context.Background()
	r, err := mcp.NewRegistry(holder(t))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(toolNames(r), "snap_sync") {
		t.Fatal("snap_sync offered without a syncer")
	}
	out, _ := r.CallJSON(ctx, "snap_status", nil)
	var st map[string]any
	json.Unmarshal(out, &st)
	if _, ok := st["sync"]; ok {
		t.Errorf("status reports a sync without a syncer: %s", out)
	}

	s := &countingSyncer{}
	r.WithSyncer(s)
	r.WithSyncer(s) // twice adds it once
	if n := len(slices.DeleteFunc(toolNames(r), func(n string) bool { return n != "snap_sync" })); n != 1 {
		t.Fatalf("snap_sync offered %d times", n)
	}
	out, isErr := r.CallJSON(ctx, "snap_sync", nil)
	var ans struct {
		Commit string
		Sync   mcp.SyncStatus
	}
	if err := json.Unmarshal(out, &ans); err != nil || isErr || s.calls != 1 || ans.Sync.Swaps != 1 || ans.Sync.LastError != "boom" || ans.Commit == "" {
		t.Fatalf("snap_sync: %s (calls %d)", out, s.calls)
	}
	out, _ = r.CallJSON(ctx, "snap_status", nil)
	var status struct{ Sync *mcp.SyncStatus }
	json.Unmarshal(out, &status)
	if status.Sync == nil || status.Sync.Head != "abc" || status.Sync.Failures != 2 || s.calls != 1 {
		t.Fatalf("status with a syncer: %s", out)
	}

	// A registry without the index toolset offers no snap_sync.
	r, _ = mcp.NewRegistry(holder(t), mcp.ToolsetSymbols)
	r.WithSyncer(s)
	if slices.Contains(toolNames(r), "snap_sync") {
		t.Error("snap_sync offered outside the index toolset")
	}
}
