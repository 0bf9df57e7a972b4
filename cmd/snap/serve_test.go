package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// serveLines runs snap serve over stdio with args, sends it lines, and
// returns the messages it answers, by id (null: "null").
func serveLines(t *testing.T, args []string, lines ...string) map[string]map[string]any {
	t.Helper()
	in := strings.Join(append([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, lines...), "\n") + "\n"
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), append([]string{"snap", "serve"}, args...), strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("snap serve %v: exit %d\n%s", args, code, stderr.String())
	}
	out := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout holds a line that is no message: %.200s", line)
		}
		if _, note := m["method"]; !note {
			out[fmt.Sprint(m["id"])] = m
		}
	}
	return out
}

// toolNamesOf returns the names a tools/list answer lists.
func toolNamesOf(m map[string]any) []string {
	res, _ := m["result"].(map[string]any)
	list, _ := res["tools"].([]any)
	var names []string
	for _, tool := range list {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	return names
}

// TestServeBounds runs snap serve with the flags that bound its clients,
// over stdio and HTTP: a message over --max-request-bytes is refused with
// LIMIT_EXCEEDED; --toolsets is the most a client may choose; over HTTP
// the tools that write are not offered unless --read-only=false; and
// snap_sync is offered with --sync only.
func TestServeBounds(t *testing.T) {
	dir, snap, _ := indexed(t, "../../testdata/go/shop")
	t.Chdir(dir)
	long := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 3<<10) + `"}}`
	got := serveLines(t, []string{"--snapshot", snap, "--no-overlay", "--max-request-bytes", "2KiB", "--toolsets", "symbols"},
		long,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"snap_config","arguments":{"toolsets":["memories"]}}}`,
	)
	if e, _ := got["<nil>"]["error"].(map[string]any); fmt.Sprint(e["data"]) != "map[code:LIMIT_EXCEEDED limit:2048]" {
		t.Errorf("a message of 3 KiB, --max-request-bytes 2KiB: %v", got["<nil>"])
	}
	if names := toolNamesOf(got["2"]); !slices.Contains(names, "snap_search") || !slices.Contains(names, "snap_config") ||
		slices.Contains(names, "snap_sync") || slices.Contains(names, "snap_calls") {
		t.Errorf("over stdio, --toolsets symbols, no --sync: %v", names)
	}
	if res, _ := got["3"]["result"].(map[string]any); res["isError"] != true || !strings.Contains(fmt.Sprint(res), "does not offer memories") {
		t.Errorf("a client choosing memories past --toolsets symbols: %v", got["3"])
	}

	post := func(url, session, body string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data), resp.Header
	}
	listOver := func(url string) []string {
		t.Helper()
		_, _, header := post(url, "", initialize)
		session := header.Get("Mcp-Session-Id")
		post(url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		_, body, _ := post(url, session, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("tools/list: %.200s", body)
		}
		return toolNamesOf(m)
	}
	for _, c := range []struct {
		args      []string
		writes    bool
		maxBytes  int
		toolsets  string
		wantTools []string
	}{
		{[]string{"--toolsets", "all"}, false, 512 << 10, "all", []string{"snap_read_memory", "snap_search"}},
		{[]string{"--toolsets", "symbols,memories", "--read-only=false", "--max-request-bytes", "4KiB"}, true, 4 << 10, "symbols,memories",
			[]string{"snap_write_memory", "snap_config", "snap_search"}},
	} {
		url, out, stop := serveHTTP(t, dir, append([]string{"--snapshot", snap, "--no-overlay"}, c.args...)...)
		names := listOver(url)
		for _, name := range c.wantTools {
			if !slices.Contains(names, name) {
				t.Errorf("serve --http %v: %s is not offered: %v", c.args, name, names)
			}
		}
		for _, name := range []string{"snap_write_memory", "snap_edit_memory", "snap_delete_memory", "snap_config"} {
			if slices.Contains(names, name) != c.writes {
				t.Errorf("serve --http %v: %s offered %v, want %v", c.args, name, !c.writes, c.writes)
			}
		}
		if slices.Contains(names, "snap_sync") {
			t.Errorf("serve --http %v without --sync offers snap_sync", c.args)
		}
		status, body, _ := post(url, "", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`+strings.Repeat("x", c.maxBytes)+`"}}`)
		if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, fmt.Sprintf(`"limit":%d`, c.maxBytes)) {
			t.Errorf("serve --http %v: a body past %d bytes: %d %.200s", c.args, c.maxBytes, status, body)
		}
		if code := stop(); code != 0 {
			t.Errorf("serve --http %v exited %d: %s", c.args, code, out)
		}
	}

	for _, c := range []struct{ flag, value, want string }{
		{"--max-request-bytes", "12", "1KiB to 1GiB"},
		{"--max-request-bytes", "lots", "1KiB to 1GiB"},
		{"--call-timeout", "1ms", "at least 1s"},
		{"--max-connections", "0", "at least 1"},
	} {
		if code, _, stderr := run(t, dir, "serve", "--snapshot", snap, c.flag, c.value); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("serve %s %s: exit %d, %q", c.flag, c.value, code, stderr)
		}
	}
}
