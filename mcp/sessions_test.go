package mcp_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graphsnap/snap/mcp"
)

// listTools returns the names of the tools p is offered.
func listTools(t *testing.T, p peer) []string {
	t.Helper()
	m, _, _ := p.ask(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	res, _ := m["result"].(map[string]any)
	list, ok := res["tools"].([]any)
	if !ok {
		t.Fatalf("tools/list: %.300v", m)
	}
	var names []string
	for _, tool := range list {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	return names
}

// TestHTTPSessionsSeparate: two clients of one HTTP server, at once. What
// one changes with snap_config (its toolsets, its page length) is
// its session's: the other keeps its tools and pages, calls in both run
// throughout. Neither can choose a toolset the operator did not offer,
// nor reach a session the server did not make.
func TestHTTPSessionsSeparate(t *testing.T) {
	url := serveHTTPTest(t, mcp.Options{
		Toolsets:    []string{mcp.ToolsetIndex, mcp.ToolsetSymbols, mcp.ToolsetCallGraph},
		MaxToolsets: []string{mcp.ToolsetIndex, mcp.ToolsetSymbols, mcp.ToolsetCallGraph, mcp.ToolsetFiles},
		Memories:    filepath.Join(t.TempDir(), ".snap", "memories"),
	}, mcp.HTTPOptions{})
	a, b := openSession(t, url), openSession(t, url)
	if a.session == b.session {
		t.Fatalf("two sessions, one id %s", a.session)
	}
	callers := func(p peer) int {
		t.Helper()
		ans, terr, _ := callOver(t, p, "snap_calls", `{"name":"Client.Do"}`)
		if terr != nil {
			t.Errorf("snap_calls: %v", terr)
		}
		list, _ := ans["callers"].([]any)
		return len(list)
	}
	before := callers(b)
	if before < 2 {
		t.Fatalf("the fixture has %d callers of Client.Do; the test wants 2 or more", before)
	}

	var wg sync.WaitGroup
	wg.Go(func() { // A narrows its tools and its pages, again and again
		for i := range 20 {
			if _, terr, _ := callOver(t, a, "snap_config", fmt.Sprintf(`{"toolsets":["index","callgraph"],"default_limit":%d}`, 1+i%2)); terr != nil {
				t.Errorf("A: update_config: %v", terr)
				return
			}
		}
	})
	wg.Go(func() { // B searches meanwhile, with its own tools and pages
		for range 20 {
			if ans, terr, _ := callOver(t, b, "snap_search", `{"query":"Serve","limit":1}`); terr != nil || ans == nil {
				t.Errorf("B: snap_search while A changes its settings: %v", terr)
				return
			}
		}
	})
	wg.Wait()

	if names := listTools(t, a); slices.Contains(names, "snap_search") || !slices.Contains(names, "snap_calls") {
		t.Errorf("A's tools after narrowing: %v", names)
	}
	if m, _, _ := a.ask(toolCall("snap_search", `{"query":"Serve"}`)); m["result"] != nil && !strings.Contains(fmt.Sprint(m), "isError:true") {
		t.Errorf("A called a tool of a toolset it dropped: %.200v", m)
	}
	if got := callers(a); got != 1 && got != 2 {
		t.Errorf("A's page after default_limit: %d callers", got)
	}
	if names := listTools(t, b); !slices.Contains(names, "snap_search") || !slices.Contains(names, "snap_calls") {
		t.Errorf("B's tools after A narrowed its own: %v", names)
	}
	if got := callers(b); got != before {
		t.Errorf("B's page after A's default_limit: %d callers, want %d", got, before)
	}
	if ans, _, _ := callOver(t, b, "snap_config", `{}`); ans["default_limit"] != 50.0 || len(ans["toolsets"].([]any)) != 3 {
		t.Errorf("B's settings: %v", ans)
	}

	// The operator's toolsets are the most a client may choose.
	for _, ts := range []string{`["memories"]`, `["files","history"]`} {
		_, terr, _ := callOver(t, b, "snap_config", `{"toolsets":`+ts+`}`)
		if terr["code"] != mcp.CodeInvalidArgument || !strings.Contains(fmt.Sprint(terr["message"]), "does not offer") {
			t.Errorf("B chose %s, past what is offered: %v", ts, terr)
		}
	}
	ans, terr, _ := callOver(t, b, "snap_config", `{"toolsets":["all"]}`)
	if terr != nil || fmt.Sprint(ans["toolsets"]) != "[index symbols callgraph files]" {
		t.Errorf("B chose all: %v %v", ans, terr)
	}
	if names := listTools(t, b); !slices.Contains(names, "snap_read_file") || slices.Contains(names, "snap_write_memory") || slices.Contains(names, "snap_history") {
		t.Errorf("B's tools, all that is offered: %v", names)
	}
	if names := listTools(t, a); slices.Contains(names, "snap_read_file") {
		t.Errorf("A's tools after B chose all: %v", names)
	}
}

// TestToolsetsBound: over stdio too, and calling the registry outside
// any session, a client chooses among the operator's toolsets only.
func TestToolsetsBound(t *testing.T) {
	opt := mcp.Options{Toolsets: []string{mcp.ToolsetSymbols}, MaxToolsets: []string{mcp.ToolsetSymbols, mcp.ToolsetCallGraph}}
	p := stdioPeer{serveStdio(t, opt)}
	if _, terr, _ := callOver(t, p, "snap_config", `{"toolsets":["memories"]}`); terr["code"] != mcp.CodeInvalidArgument {
		t.Errorf("memories, not offered: %v", terr)
	}
	if _, terr, _ := callOver(t, p, "snap_config", `{"toolsets":["callgraph"]}`); terr != nil {
		t.Errorf("callgraph, offered: %v", terr)
	}
	if names := listTools(t, p); !slices.Contains(names, "snap_calls") || slices.Contains(names, "snap_search") || slices.Contains(names, "snap_write_memory") {
		t.Errorf("tools after choosing callgraph: %v", names)
	}

	r := registry(t, holder(t))
	if err := r.Offer(false, mcp.ToolsetSymbols); err != nil {
		t.Fatal(err)
	}
	if names := toolNames(r); slices.Contains(names, "snap_calls") || !slices.Contains(names, "snap_search") {
		t.Errorf("a registry offering symbols: %v", names)
	}
	if code, msg, _ := errorOf(t, r, "snap_config", `{"toolsets":["all","memories"]}`); code != mcp.CodeInvalidArgument || !strings.Contains(msg, "memories") {
		t.Errorf("all and memories, offering symbols: %s %s", code, msg)
	}
}

// TestReadOnly: a read-only server offers no tool that writes, over
// HTTP and over stdio: no memory is written, no setting changed.
func TestReadOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".snap", "memories")
	opt := mcp.Options{ReadOnly: true, Memories: dir}
	peers(t, opt, func(t *testing.T, p peer) {
		names := listTools(t, p)
		for _, name := range []string{"snap_config", "snap_write_memory", "snap_edit_memory", "snap_delete_memory"} {
			if slices.Contains(names, name) {
				t.Errorf("read-only, %s is offered", name)
			}
			m, _, _ := p.ask(toolCall(name, `{"name":"x","content":"y","toolsets":["all"],"find":"a","replacement":"b"}`))
			if raw, _ := json.Marshal(m); m["error"] == nil && !strings.Contains(string(raw), `"isError":true`) {
				t.Errorf("read-only, %s answered: %.200s", name, raw)
			}
		}
		if !slices.Contains(names, "snap_read_memory") || !slices.Contains(names, "snap_get_config") {
			t.Errorf("read-only, the tools that read are gone too: %v", names)
		}
		if ans, _, _ := callOver(t, p, "snap_get_config", `{}`); ans["read_only"] != true {
			t.Errorf("settings of a read-only server: %v", ans)
		}
	})
}
