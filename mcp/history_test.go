package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas"
)

// library holds engines by commit, newest first.
type library struct {
	snaps   []mcp.StoredSnapshot
	engines map[string]*query.Engine
	err     error
	opened  []string
}

func (l *library) Snapshots(context.Context) ([]mcp.StoredSnapshot, error) { return l.snaps, l.err }

func (l *library) Open(_ context.Context, commit string) (*query.Engine, error) {
	l.opened = append(l.opened, commit)
	e, ok := l.engines[commit]
	if !ok {
		return nil, fmt.Errorf("%s: %w", commit, mcp.ErrSnapshotNotFound)
	}
	return e, nil
}

// twoSnapshots is the fixture (older) and the fixture with Client.Do's
// signature changed (newer, served).
func twoSnapshots(t *testing.T) (*query.Holder, *library) {
	t.Helper()
	return twoSnapshotsOld(t, schemas.FeatureVersion)
}

// twoSnapshotsOld is twoSnapshots with the older snapshot made at another
// feature version.
func twoSnapshotsOld(t *testing.T, feature int) (*query.Holder, *library) {
	t.Helper()
	old := querytest.Fixture()
	old.Manifest.FeatureVersion = feature
	newer := querytest.Fixture()
	newer.Manifest.Commit = "9a9b9c9d" + querytest.Commit[8:]
	newer.Manifest.IndexedAt = old.Manifest.IndexedAt.Add(time.Hour)
	newer.Manifest.Counts.Nodes++
	newer.Nodes = slices.Clone(newer.Nodes)
	found := false
	for i := range newer.Nodes {
		if newer.Nodes[i].QualifiedName == "net/http.(*Client).Do" {
			newer.Nodes[i].Signature = "func (c *Client) Do(ctx context.Context, req *Request) (*Response, error)"
			found = true
		}
	}
	if !found {
		t.Fatal("fixture has no Client.Do")
	}
	lib := &library{engines: map[string]*query.Engine{}}
	for _, s := range []*querytestSnapshot{{newer.Manifest, true}, {old.Manifest, false}} {
		lib.snaps = append(lib.snaps, mcp.StoredSnapshot{Manifest: s.m, Head: s.head, Bytes: 1000})
	}
	eOld, err := query.Build(old)
	if err != nil {
		t.Fatal(err)
	}
	eNew, err := query.Build(newer)
	if err != nil {
		t.Fatal(err)
	}
	lib.engines[old.Manifest.Commit], lib.engines[newer.Manifest.Commit] = eOld, eNew
	h := new(query.Holder)
	h.Store(eNew)
	return h, lib
}

type querytestSnapshot struct {
	m    schemas.Manifest
	head bool
}

// TestHistoryAcrossFeatureVersions: an older snapshot whose ids were made
// another way is refused by snap_diff, naming both versions, and ends a
// symbol's history with a hint instead of reading as a removal.
func TestHistoryAcrossFeatureVersions(t *testing.T) {
	h, lib := twoSnapshotsOld(t, 0)
	r := registry(t, h)
	r.WithLibrary(lib)
	code, msg, details := errorOf(t, r, "snap_diff", `{"from":"3f2c1e9a"}`)
	if code != mcp.CodeIncomparable || !strings.Contains(msg, "unrecorded") || details["to_feature_version"] != float64(schemas.FeatureVersion) {
		t.Errorf("diff across feature versions: %s %q %v", code, msg, details)
	}
	out, isErr := r.CallJSON(context.Background(), "snap_history", json.RawMessage(`{"name":"Client.Do"}`))
	var hist struct {
		Hint   string `json:"hint"`
		Points []any  `json:"points"`
	}
	json.Unmarshal(out, &hist)
	if isErr || len(hist.Points) != 1 || !strings.Contains(hist.Hint, "feature versions") {
		t.Errorf("history across feature versions: %s", out)
	}
}

func TestHistoryTools(t *testing.T) {
	h, lib := twoSnapshots(t)
	r := registry(t, h)
	r.WithLibrary(lib)
	call := func(tool, args string) map[string]any {
		t.Helper()
		out, isErr := r.CallJSON(context.Background(), tool, json.RawMessage(args))
		if isErr {
			t.Fatalf("%s %s: %s", tool, args, out)
		}
		var m map[string]any
		json.Unmarshal(out, &m)
		return m
	}
	snaps := call("snap_snapshots", `{}`)["snapshots"].([]any)
	if len(snaps) != 2 || snaps[0].(map[string]any)["serving"] != true || snaps[0].(map[string]any)["head"] != true ||
		snaps[1].(map[string]any)["commit"] != querytest.Commit {
		t.Errorf("snapshots: %v", snaps)
	}

	d := call("snap_diff", `{"from":"3f2c1e9a"}`)
	if sum := d["summary"].(map[string]any); sum["signatures_changed"] != 1.0 || sum["symbols_added"] != 0.0 {
		t.Errorf("diff summary: %v", sum)
	}
	if got, _ := json.Marshal(d["symbols"]); !strings.Contains(string(got), "net/http.(*Client).Do") {
		t.Errorf("diff symbols: %s", got)
	}
	// The same snapshot twice: nothing changed, and it says so.
	if d := call("snap_diff", `{"from":"3f2c1e9a","to":"3f2c"}`); d["hint"] == nil {
		t.Errorf("same snapshot: %v", d)
	}

	hist := call("snap_history", `{"name":"Client.Do"}`)
	points := hist["points"].([]any)
	if len(points) != 2 {
		t.Fatalf("history: %v", hist)
	}
	p0, p1 := points[0].(map[string]any), points[1].(map[string]any)
	if p0["change"] != "signature" || p0["present"] != true || !strings.Contains(p0["signature"].(string), "ctx") || p1["change"] != nil {
		t.Errorf("history points: %v", points)
	}
	m := call("snap_history", `{"metric":"nodes"}`)
	vals := m["points"].([]any)
	if len(vals) != 2 || vals[0].(map[string]any)["value"].(float64) != vals[1].(map[string]any)["value"].(float64)+1 {
		t.Errorf("metric history: %v", m)
	}

	for _, tc := range []struct{ tool, args, code, mention string }{
		{"snap_diff", `{"from":"3f"}`, mcp.CodeInvalidArgument, "at least 4"},
		{"snap_diff", `{"from":"ffff"}`, mcp.CodeSnapshotNotFound, "ffff"},
		{"snap_diff", `{}`, mcp.CodeInvalidArgument, "from"},
		{"snap_diff", `{"from":"3f2c","depth":0}`, mcp.CodeInvalidArgument, "depth"},
		{"snap_history", `{"name":"Client.Do","metric":"nodes"}`, mcp.CodeInvalidArgument, "not both"},
		{"snap_history", `{"metric":"lines"}`, mcp.CodeInvalidArgument, "metric"},
		{"snap_history", `{"name":"Nowhere"}`, mcp.CodeSymbolNotFound, "Nowhere"},
	} {
		if code, msg, _ := errorOf(t, r, tc.tool, tc.args); code != tc.code || !strings.Contains(msg, tc.mention) {
			t.Errorf("%s %s: %s %q, want %s mentioning %q", tc.tool, tc.args, code, msg, tc.code, tc.mention)
		}
	}

	// A store that cannot be reached, and a server with one snapshot.
	lib.err = fmt.Errorf("dial tcp: %w", mcp.ErrStoreUnavailable)
	if code, _, _ := errorOf(t, r, "snap_snapshots", `{}`); code != mcp.CodeStoreUnavailable {
		t.Errorf("unreachable store: %s", code)
	}
	if code, msg, _ := errorOf(t, registry(t, h), "snap_diff", `{"from":"3f2c"}`); code != mcp.CodeSnapshotNotFound || !strings.Contains(msg, "one snapshot") {
		t.Errorf("no library: %s %s", code, msg)
	}
}
