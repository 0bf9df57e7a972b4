package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/graphsnap/snap/mcp"
)

// intervalSyncer is a syncer whose interval can be set.
type intervalSyncer struct {
	countingSyncer
	interval time.Duration
}

func (s *intervalSyncer) SetInterval(d time.Duration) error { s.interval = d; return nil }

func TestConfig(t *testing.T) {
	r := registry(t, holder(t))
	get := func() map[string]any {
		t.Helper()
		out, isErr := r.CallJSON(context.Background(), "snap_config", nil)
		if isErr {
			t.Fatalf("get_config: %s", out)
		}
		var m map[string]any
		json.Unmarshal(out, &m)
		return m
	}
	update := func(args string) map[string]any {
		t.Helper()
		out, isErr := r.CallJSON(context.Background(), "snap_config", json.RawMessage(args))
		if isErr {
			t.Fatalf("update_config %s: %s", args, out)
		}
		var m map[string]any
		json.Unmarshal(out, &m)
		return m
	}
	if c := get(); c["default_limit"] != 50.0 || len(c["toolsets"].([]any)) != len(mcp.Toolsets) || c["sync_interval"] != nil {
		t.Errorf("defaults: %v", c)
	}

	// A default page length applies to calls that give no limit.
	update(`{"default_limit":1}`)
	out, _ := r.CallJSON(context.Background(), "snap_calls", json.RawMessage(`{"name":"Client.Do"}`))
	var callers struct {
		Callers []any  `json:"callers"`
		Next    string `json:"next_cursor"`
	}
	json.Unmarshal(out, &callers)
	if len(callers.Callers) != 1 || callers.Next == "" {
		t.Errorf("default_limit 1: %s", out)
	}

	// Toolsets narrow the tools; the settings tools stay.
	if c := update(`{"toolsets":["symbols"]}`); c["tools"].(float64) >= float64(len(toolNames(r))+1) || !slices.Contains(c["changed"].([]any), "toolsets") {
		t.Errorf("narrowed: %v", c)
	}
	names := toolNames(r)
	if slices.Contains(names, "snap_calls") || !slices.Contains(names, "snap_search") || !slices.Contains(names, "snap_config") {
		t.Errorf("tools after narrowing: %v", names)
	}
	if code, msg, _ := errorOf(t, r, "snap_calls", `{"name":"Client.Do"}`); code != mcp.CodeInvalidArgument || !strings.Contains(msg, "unknown tool") {
		t.Errorf("a tool of another toolset: %s %s", code, msg)
	}
	update(`{"toolsets":["all"]}`)
	if !slices.Contains(toolNames(r), "snap_calls") {
		t.Error("all did not bring the tools back")
	}

	// Nothing applies unless everything holds.
	for _, tc := range []struct{ args, mention string }{
		{`{"toolsets":["bogus"],"default_limit":5}`, "bogus"},
		{`{"toolsets":[]}`, "at least one"},
		{`{"default_limit":0}`, "default_limit"},
		{`{"default_limit":1001}`, "default_limit"},
		{`{"sync_interval":"1m"}`, "does not sync"},
		{`{"sync_interval":"soon"}`, "duration"},
		{`{"sync_interval":"5s"}`, "at least"},
		{`{"limits":3}`, `unknown argument "limits"`},
	} {
		if code, msg, _ := errorOf(t, r, "snap_config", tc.args); code != mcp.CodeInvalidArgument || !strings.Contains(msg, tc.mention) {
			t.Errorf("%s: %s %q", tc.args, code, msg)
		}
	}
	if c := get(); c["default_limit"] != 1.0 {
		t.Errorf("a refused update changed default_limit: %v", c["default_limit"])
	}

	// A syncing server's interval changes.
	s := &intervalSyncer{}
	r.WithSyncer(s)
	if c := update(`{"sync_interval":"2m"}`); s.interval != 2*time.Minute || !slices.Contains(c["changed"].([]any), "sync_interval") {
		t.Errorf("sync_interval: %v, syncer has %v", c, s.interval)
	}
	if code, msg, _ := errorOf(t, r, "snap_config", `{"sync_interval":"9s"}`); code != mcp.CodeInvalidArgument || !strings.Contains(msg, "at least 10s") {
		t.Errorf("short interval: %s %s", code, msg)
	}
}

// TestToolsListChanged: a client learns that the tools changed, and the
// new list is what tools/list answers.
func TestToolsListChanged(t *testing.T) {
	c, _ := connect(t, mcp.Options{})
	changed := make(chan struct{}, 4)
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == "notifications/tools/list_changed" {
			changed <- struct{}{}
		}
	})
	before, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if res := callTool(t, c, "snap_config", map[string]any{"toolsets": []string{"memories"}}); res.IsError {
		t.Fatalf("update_config: %s", text(t, res))
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no tools/list_changed notification")
	}
	after, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range after.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := "snap_config snap_delete_memory snap_edit_memory snap_list_memories snap_read_memory snap_write_memory"
	if got := strings.Join(names, " "); got != want || len(before.Tools) <= len(after.Tools) {
		t.Errorf("tools after update: %s (before: %d tools)", got, len(before.Tools))
	}
}
