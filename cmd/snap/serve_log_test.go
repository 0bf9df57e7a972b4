package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestServeLogFlushedAtExit runs snap serve over stdio with a tool call
// and the end of its input: the log lines of the call, kept to be
// written later, are written before it returns.
func TestServeLogFlushedAtExit(t *testing.T) {
	dir, snap, _ := indexed(t, "../../testdata/go/shop")
	t.Chdir(dir)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snap_status","arguments":{}}}`,
	}, "\n") + "\n"
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), []string{"snap", "serve", "--snapshot", snap, "--no-overlay"}, strings.NewReader(in), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"id":2,"result"`) {
		t.Fatalf("no answer to the call:\n%s", stdout.String())
	}
	tool := strings.Index(stderr.String(), "msg=mcp.tool mcp.tool.name=snap_status")
	if tool < 0 || !strings.Contains(stderr.String()[tool:], "msg=mcp.request mcp.method=tools/call") {
		t.Fatalf("the call's log lines are missing from stderr:\n%s", stderr.String())
	}
}
