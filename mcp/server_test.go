package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query/querytest"
)

// connect starts the server in process and returns an initialized client.
func connect(t *testing.T, opt mcp.Options) (*client.Client, *mcp.Registry) {
	t.Helper()
	h := holder(t)
	srv, err := mcp.NewServer(h, opt)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewInProcessClient(srv.MCPServer)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ClientInfo = mcpgo.Implementation{Name: "test", Version: "0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c, registry(t, h)
}

func callTool(t *testing.T, c *client.Client, name string, args any) *mcpgo.CallToolResult {
	t.Helper()
	var req mcpgo.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(t *testing.T, res *mcpgo.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d contents", len(res.Content))
	}
	tc, ok := res.Content[0].(mcpgo.TextContent)
	if !ok {
		t.Fatalf("content %T", res.Content[0])
	}
	return tc.Text
}

func TestServerListsTools(t *testing.T) {
	c, _ := connect(t, mcp.Options{Version: "test"})
	list, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		// Every tool reads, answers the same when asked twice, and stays
		// in the snapshot, but for those that write memories.
		want := [4]bool{true, false, true, false} // read-only, destructive, idempotent, open world
		switch tool.Name {
		case "snap_write_memory", "snap_config", "snap_update_config":
			want = [4]bool{false, false, true, false}
		case "snap_edit_memory":
			want = [4]bool{false, false, false, false}
		case "snap_delete_memory":
			want = [4]bool{false, true, true, false}
		}
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil ||
			[4]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint} != want {
			t.Errorf("%s: annotations %+v, want read-only, destructive, idempotent, open world = %v", tool.Name, a, want)
		}
		if tool.Description == "" || tool.Title == "" {
			t.Errorf("%s: no description or title", tool.Name)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		if len(tool.RawInputSchema) > 0 {
			schema = tool.RawInputSchema
		}
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
			Additional *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(schema, &s); err != nil || s.Type != "object" || s.Properties == nil || s.Additional == nil || *s.Additional {
			t.Errorf("%s: input schema %s", tool.Name, schema)
		}
		for _, req := range s.Required {
			if _, ok := s.Properties[req]; !ok {
				t.Errorf("%s: required %s is not a property", tool.Name, req)
			}
		}
	}
	slices.Sort(names) // mcp-go lists tools by name
	want := "snap_ask snap_call_details snap_callees snap_callers snap_calls snap_config snap_context snap_delete_memory " +
		"snap_dependencies snap_dependents snap_diff snap_edit_memory snap_explore snap_file_nodes snap_find_file " +
		"snap_find_references snap_find_symbol snap_get_config snap_history snap_impact snap_list_dir snap_list_memories " +
		"snap_manifest snap_map snap_node snap_path snap_rank snap_read_file snap_read_memory snap_resolve_import " +
		"snap_search snap_snapshots snap_sql snap_stats snap_status snap_symbol snap_symbols_overview snap_update_config " +
		"snap_verify snap_write_memory"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools:\n got %s\nwant %s", got, want)
	}

	// Toolsets narrow the list.
	c, _ = connect(t, mcp.Options{Toolsets: []string{mcp.ToolsetTraversal}})
	list, err = c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
	if err != nil || len(list.Tools) != 4 { // impact, path, explore and snap_config
		t.Fatalf("traversal toolset: %d tools, %v", len(list.Tools), err)
	}
	if _, err := mcp.NewServer(holder(t), mcp.Options{Toolsets: []string{"nope"}}); err == nil {
		t.Error("unknown toolset accepted")
	}
}

// TestToolsListBudget holds the size of tools/list, which every client
// pays in tokens on every conversation: the default toolsets within
// 50 KB on the wire, and what a model reads of them (names, descriptions
// and input schemas) within 28 KB, about 7,000 tokens. A tool that
// grows the list past these says so here; trim before raising them
// (raised from 48 KB for snap_status's checkout and overlay).
func TestToolsListBudget(t *testing.T) {
	c, _ := connect(t, mcp.Options{Toolsets: mcp.DefaultToolsets})
	list, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	wire, err := json.Marshal(list.Tools)
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Tools {
		list.Tools[i].RawOutputSchema = nil
		list.Tools[i].OutputSchema = mcpgo.ToolOutputSchema{}
	}
	model, err := json.Marshal(list.Tools)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list, %d tools: %d bytes on the wire, %d without output schemas", len(list.Tools), len(wire), len(model))
	if len(wire) > 50_000 || len(model) > 28_000 {
		t.Errorf("tools/list of the default toolsets is %d bytes (%d without output schemas): over its budget of 50,000 (28,000)", len(wire), len(model))
	}
}

// TestServerAnswersAsRegistry checks every golden call through the MCP
// server: the same bytes as the registry (what `snap query` prints), as
// text and as structured content.
func TestServerAnswersAsRegistry(t *testing.T) {
	c, r := connect(t, mcp.Options{})
	for _, call := range calls {
		if strings.Contains(call.args, "ID(") {
			continue
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(call.args), &args); err != nil {
			t.Fatal(err)
		}
		res := callTool(t, c, call.tool, args)
		want, isError := r.CallJSON(context.Background(), call.tool, json.RawMessage(call.args))
		if got := text(t, res); got != string(want) || res.IsError != isError {
			t.Errorf("%s %s:\nserver   %v %s\nregistry %v %s", call.tool, call.args, res.IsError, got, isError, want)
		}
		structured, err := json.Marshal(res.StructuredContent)
		if err != nil || !jsonEqual(structured, want) {
			t.Errorf("%s: structured content %s", call.tool, structured)
		}
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

func TestServerKeepsServing(t *testing.T) {
	c, _ := connect(t, mcp.Options{})
	for _, bad := range []struct {
		tool string
		args any
		code string
	}{
		{"snap_calls", map[string]any{}, mcp.CodeInvalidArgument},
		{"snap_calls", map[string]any{"name": "Serve"}, mcp.CodeAmbiguousSymbol},
		{"snap_calls", map[string]any{"name": "Server.Serve", "limit": -1}, mcp.CodeInvalidArgument},
		{"snap_calls", map[string]any{"name": "Server.Serve", "cursor": "bad"}, mcp.CodePagination},
		{"snap_node", map[string]any{"id": "7"}, mcp.CodeSymbolNotFound},
		{"snap_node", map[string]any{"id": true}, mcp.CodeInvalidArgument},
		{"snap_node", "not an object", mcp.CodeInvalidArgument},
		{"snap_read_file", map[string]any{"file": "../../../etc/passwd"}, mcp.CodePathOutsideRoot},
		{"snap_search", map[string]any{"query": "x", "extra": 1}, mcp.CodeInvalidArgument},
	} {
		res := callTool(t, c, bad.tool, bad.args)
		var a struct {
			Error mcp.ToolError `json:"error"`
		}
		if err := json.Unmarshal([]byte(text(t, res)), &a); err != nil || !res.IsError || a.Error.Code != bad.code {
			t.Errorf("%s %v: isError %v, %s; want %s", bad.tool, bad.args, res.IsError, text(t, res), bad.code)
		}
		// The next good call is answered.
		if res := callTool(t, c, "snap_status", nil); res.IsError {
			t.Fatalf("status after a bad call: %s", text(t, res))
		}
	}

	// Ids above 2^53 survive when the client sends them as JSON numbers.
	id := idOf(t, holder(t), "net/http.(*Client).Do") // same fixture, same ids
	res := callTool(t, c, "snap_node", json.RawMessage(`{"id":`+id+`}`))
	if res.IsError || !strings.Contains(text(t, res), `"id":"`+id+`"`) {
		t.Errorf("snap_node by numeric id: %s", text(t, res))
	}
}

// TestServeStdio speaks the protocol over pipes, as a client process would.
func TestServeStdio(t *testing.T) {
	srv, err := mcp.NewServer(holder(t), mcp.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mcp.ServeStdio(ctx, srv, inR, outW, nil) }()

	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	recv := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no response: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("stdout holds a non-protocol line %q", lines.Text())
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	if m := recv(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snap_calls","arguments":{"name":"Server.Serve","limit":1}}}`)
	m := recv()
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 || !strings.Contains(content[0].(map[string]any)["text"].(string), `"total":2`) {
		t.Fatalf("tools/call: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"snap_read_file","arguments":{"file":"/etc/passwd"}}}`)
	if m := recv(); m["result"].(map[string]any)["isError"] != true {
		t.Fatalf("tools/call outside root: %v", m)
	}

	inW.Close()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return")
	}
}

func TestResources(t *testing.T) {
	c, reg := connect(t, mcp.Options{Toolsets: []string{mcp.ToolsetCallGraph}})
	ctx := t.Context()
	list, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != "snap://manifest" {
		t.Fatalf("resources: %+v, %v", list, err)
	}
	tpl, err := c.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
	if err != nil || len(tpl.ResourceTemplates) != 2 {
		t.Fatalf("templates: %+v, %v", tpl, err)
	}
	read := func(uri string) (string, error) {
		var req mcpgo.ReadResourceRequest
		req.Params.URI = uri
		res, err := c.ReadResource(ctx, req)
		if err != nil {
			return "", err
		}
		if len(res.Contents) != 1 {
			t.Fatalf("%s: %d contents", uri, len(res.Contents))
		}
		return res.Contents[0].(mcpgo.TextResourceContents).Text, nil
	}
	if m, err := read("snap://manifest"); err != nil || !strings.Contains(m, `"commit": "`+querytest.Commit) {
		t.Errorf("manifest: %.200s %v", m, err)
	}
	if f, err := read("snap://file/src/net/http/client.go"); err != nil || !strings.Contains(f, "package http") {
		t.Errorf("file: %.200s %v", f, err)
	}
	if _, err := read("snap://file/no/such.go"); err == nil || !strings.Contains(err.Error(), "no content") {
		t.Errorf("missing file: %v", err)
	}
	// A node reads as snap_node answers, even when its toolset is off.
	id := idOf(t, holder(t), "net/http.Server")
	n, err := read("snap://node/" + id)
	want, _ := registry(t, holder(t)).CallJSON(ctx, "snap_node", json.RawMessage(`{"id":"`+id+`"}`))
	if err != nil || n != string(want) {
		t.Errorf("node:\n%s\nsnap_node:\n%s (%v)", n, want, err)
	}
	_ = reg
}
