package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

// stalledLibrary is a store that never answers, until the call gives up.
type stalledLibrary struct{}

func (stalledLibrary) Snapshots(ctx context.Context) ([]mcp.StoredSnapshot, error) {
	<-ctx.Done()
	return nil, fmt.Errorf("list snapshots: %w", ctx.Err())
}

func (stalledLibrary) Open(ctx context.Context, _ string) (*query.Engine, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestBounds drives each bound a client is held to, over stdio and over
// HTTP: what passes one is refused with LIMIT_EXCEEDED naming it, at
// once and before its work is done, and the server answers the next
// request as before. The calls are those that, unbounded, took the
// server down or held it: a memory edit that grew a memory past the
// machine's memory, a name of 15 MB echoed back 4 times, 40,000 seeds.
func TestBounds(t *testing.T) {
	const maxRequest = 384 << 10
	// The calls here answer in milliseconds on an idle machine; the limit
	// leaves room for a loaded one (make test runs packages in parallel),
	// so that each refusal is the one asked for, not the time limit's.
	const callTimeout = 2 * time.Second
	opt := mcp.Options{Toolsets: []string{mcp.ToolsetSymbols, mcp.ToolsetTraversal, mcp.ToolsetGraph, mcp.ToolsetHistory, mcp.ToolsetMemories},
		Library: stalledLibrary{}, CallTimeout: callTimeout, MaxRequestBytes: maxRequest, Memories: "memories"}
	peers(t, opt, func(t *testing.T, p peer) {
		limited := func(what string, toolErr map[string]any, arg string, took time.Duration) {
			t.Helper()
			details, _ := toolErr["details"].(map[string]any)
			if toolErr["code"] != mcp.CodeLimitExceeded || details["limit"] == nil || arg != "" && details["argument"] != arg {
				t.Errorf("%s: %v, want %s naming the limit and argument %q", what, toolErr, mcp.CodeLimitExceeded, arg)
			}
			if took > 5*time.Second {
				t.Errorf("%s: refused after %v", what, took)
			}
		}
		alive := func(what string) {
			t.Helper()
			if ans, terr, _ := callOver(t, p, "snap_search", `{"query":"Serve","limit":1}`); terr != nil || len(ans["results"].([]any)) != 1 {
				t.Fatalf("after %s: %v %v", what, ans, terr)
			}
		}

		// A message longer than the server takes.
		start := time.Now()
		m, _, status := p.ask(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxRequest) + `"}}`)
		_, msg, data := rpcErrorOf(m)
		if data["code"] != mcp.CodeLimitExceeded || data["limit"] != float64(maxRequest) || !strings.Contains(msg, "longer than") ||
			status != 0 && status != http.StatusRequestEntityTooLarge {
			t.Errorf("a message of %d bytes: HTTP %d %v", maxRequest+50, status, m)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("a long message refused after %v", took)
		}
		alive("a long message")

		// A string argument too long, and one within bounds that an
		// error quotes: it quotes a little.
		start = time.Now()
		_, terr, _ := callOver(t, p, "snap_find_references", fmt.Sprintf(`{"name":%q}`, strings.Repeat("x", 5000)))
		limited("a name of 5000 bytes", terr, "name", time.Since(start))
		_, terr, size := callOver(t, p, "snap_find_references", fmt.Sprintf(`{"name":%q}`, strings.Repeat("y", 4000)))
		if terr["code"] != mcp.CodeSymbolNotFound || size > 2000 {
			t.Errorf("a name of 4000 bytes matching nothing: %d bytes, %.200v", size, terr)
		}
		_, terr, _ = callOver(t, p, "snap_search", fmt.Sprintf(`{"query":"x","kinds":[%q]}`, strings.Repeat("k", 5000)))
		limited("a kind of 5000 bytes", terr, "kinds", time.Since(start))

		// A list argument too long.
		ids := make([]string, 101)
		for i := range ids {
			ids[i] = fmt.Sprint(i + 1)
		}
		start = time.Now()
		_, terr, _ = callOver(t, p, "snap_rank", `{"ids":[`+strings.Join(ids, ",")+`]}`)
		limited("101 seed ids", terr, "ids", time.Since(start))
		alive("101 seeds")

		// A memory too large, and an edit that would make one: refused
		// before it is made, and the memory is as it was.
		_, terr, _ = callOver(t, p, "snap_write_memory", fmt.Sprintf(`{"name":"big","content":%q}`, strings.Repeat("a", 256<<10+1)))
		limited("a memory of 256 KiB and a byte", terr, "content", 0)
		note := strings.Repeat("a", 200<<10)
		if _, terr, _ := callOver(t, p, "snap_write_memory", fmt.Sprintf(`{"name":"note","content":%q}`, note)); terr != nil {
			t.Fatalf("write a memory of 200 KiB: %v", terr)
		}
		start = time.Now()
		_, terr, _ = callOver(t, p, "snap_edit_memory", fmt.Sprintf(`{"name":"note","find":"a","replacement":%q,"all":true}`, strings.Repeat("b", 64<<10)))
		limited("an edit growing 200 KiB by 64 KiB a byte", terr, "replacement", time.Since(start))
		_, terr, _ = callOver(t, p, "snap_edit_memory", `{"name":"note","find":"(a)","replacement":"$1$1","mode":"regex","all":true}`)
		limited("a regular expression edit doubling 200 KiB", terr, "replacement", time.Since(start))
		_, terr, _ = callOver(t, p, "snap_edit_memory", `{"name":"note","find":"[\\s\\S]{1,1000}x","replacement":"y","mode":"regex"}`)
		limited("a regular expression whose matching would take seconds", terr, "find", time.Since(start))
		if ans, terr, _ := callOver(t, p, "snap_read_memory", `{"name":"note"}`); terr != nil || ans["content"] != note {
			t.Errorf("the memory changed: %.100v %v", ans, terr)
		}

		// A call that waits, past its time.
		start = time.Now()
		_, terr, _ = callOver(t, p, "snap_snapshots", `{}`)
		limited("a store that does not answer", terr, "", time.Since(start))
		if !strings.Contains(fmt.Sprint(terr["message"]), callTimeout.String()) {
			t.Errorf("the time limit is not named: %v", terr)
		}
		alive("a call past its time")
	})
}

// TestProtocolRules sends messages that break JSON-RPC's and MCP's rules
// over stdio and over HTTP: each gets an error that says in words what is
// wrong (never Go's decoder), with the code the specifications give, the
// same both ways; over HTTP, what is no request at all gets 400.
func TestProtocolRules(t *testing.T) {
	longName := strings.Repeat("n", 1000)
	cases := []struct {
		msg     string
		code    float64 // the JSON-RPC error; 0 for a tool's error
		mention string
		noID    bool // answered with the id null
	}{
		{`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, -32600, "never null", true},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "never an object", true},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "string or an integer", true},
		{`{"jsonrpc":"2.0","id":7}`, -32600, "names no method", false},
		{`{"jsonrpc":"2.0"}`, -32600, "names no method", true},
		{`{"jsonrpc":"2.0","id":8,"method":5}`, -32600, "method: want a string", false},
		{`{"jsonrpc":"1.0","id":9,"method":"ping"}`, -32600, `want "2.0"`, false},
		{`[{"jsonrpc":"2.0","id":10,"method":"ping"}]`, -32600, "not an array", true},
		{`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":123}}`, -32602, "params.name: want a string, got number", false},
		{`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":"x"}`, -32602, "params: want an object", false},
		{`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{}}`, -32602, "params.name: required", false},
		{`{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"` + longName + `"}}`, -32602, "longer than any tool's name", false},
		{`{"jsonrpc":"2.0","id":15,"method":"resources/read","params":{"uri":5}}`, -32602, "params.uri: want a string", false},
		{`{"jsonrpc":"2.0","id":16,"method":"tools/list","params":{"cursor":[]}}`, -32602, "params.cursor: want a string", false},
		{`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"snap_search","_meta":3}}`, -32602, "params._meta: want an object", false},
		{`{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"snap_search","arguments":"x"}}`, 0, "arguments must be a JSON object of named arguments, got a string; snap_search takes query", false},
		{`{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"snap_search","arguments":[1]}}`, 0, "got an array", false},
		{`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"snap_status","arguments":{"x":1}}}`, 0, `unknown argument \"x\"; snap_status takes detail`, false},
	}
	answers := map[string][]any{}
	peers(t, mcp.Options{}, func(t *testing.T, p peer) {
		for _, c := range cases {
			m, size, status := p.ask(c.msg)
			raw, _ := json.Marshal(m)
			if strings.Contains(string(raw), "json:") || strings.Contains(string(raw), "Go ") || size > 4000 {
				t.Errorf("%.80s: answered in Go's words, or at length (%d bytes): %.300s", c.msg, size, raw)
			}
			if c.code == 0 {
				res, _ := m["result"].(map[string]any)
				if res["isError"] != true || !strings.Contains(string(raw), c.mention) {
					t.Errorf("%.80s: %.300s, want a tool error mentioning %q", c.msg, raw, c.mention)
				}
				continue
			}
			code, msg, _ := rpcErrorOf(m)
			if code != c.code || !strings.Contains(msg, c.mention) || c.noID != (m["id"] == nil) {
				t.Errorf("%.80s: %.300s, want error %v mentioning %q", c.msg, raw, c.code, c.mention)
			}
			if wantStatus := map[float64]int{-32600: 400, -32602: 200}[c.code]; status != 0 && status != wantStatus {
				t.Errorf("%.80s: HTTP %d, want %d", c.msg, status, wantStatus)
			}
			answers[c.msg] = append(answers[c.msg], m["error"])
		}
		// A notification gets no answer (202 over HTTP), and the next
		// request its own.
		const note = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`
		switch p := p.(type) {
		case stdioPeer:
			p.p.send(note)
		case *httpPeer:
			if _, _, status, _ := p.post(note); status != http.StatusAccepted {
				t.Errorf("a notification: HTTP %d", status)
			}
		}
		if m, _, _ := p.ask(`{"jsonrpc":"2.0","id":21,"method":"ping"}`); m["id"] != 21.0 || m["result"] == nil {
			t.Errorf("after a notification: %v", m)
		}
	})
	for msg, errs := range answers {
		if len(errs) == 2 && fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
			t.Errorf("%.80s: stdio and HTTP disagree:\n%v\n%v", msg, errs[0], errs[1])
		}
	}
}

// TestStdioInitializeFirst: over stdio, a request before initialize is
// refused, but for ping; over HTTP, a request in no session, or in one
// the server did not make, gets 404 or 400 from the transport.
func TestStdioInitializeFirst(t *testing.T) {
	p := startStdio(t, mcp.Options{})
	sp := stdioPeer{p}
	m, _, _ := sp.ask(toolCall("snap_search", `{"query":"Serve"}`))
	if code, msg, _ := rpcErrorOf(m); code != -32600 || !strings.Contains(msg, "initialize first") || m["id"] != float64(callID) {
		t.Errorf("tools/call before initialize: %v", m)
	}
	if m, _, _ := sp.ask(`{"jsonrpc":"2.0","id":"p","method":"ping"}`); m["result"] == nil {
		t.Errorf("ping before initialize: %v", m)
	}
	if m, _, _ := sp.ask(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	if ans, terr, _ := callOver(t, sp, "snap_search", `{"query":"Serve"}`); terr != nil || ans == nil {
		t.Errorf("tools/call after initialize: %v", terr)
	}

	url := serveHTTPTest(t, mcp.Options{}, mcp.HTTPOptions{})
	for _, session := range []string{"", "mcp-session-6f1c1e9e-2d7b-4f0e-9a51-3d2c9b0a7e11", "snap-MADEUP"} {
		hp := &httpPeer{t: t, url: url, session: session}
		if m, _, status := hp.ask(toolCall("snap_search", `{"query":"Serve"}`)); status != http.StatusNotFound && status != http.StatusBadRequest {
			t.Errorf("tools/call in session %q: %d %v", session, status, m)
		}
	}
}

// TestBadArgumentsInWords gives every argument of every tool a value of
// each wrong kind: the error names the argument and the kind it takes,
// in words, never in Go's decoder's; and arguments that are no object,
// or that a tool does not take, say what the tool takes.
func TestBadArgumentsInWords(t *testing.T) {
	r := registry(t, holder(t))
	r.WithMemories(filepath.Join(t.TempDir(), ".snap", "memories"))
	values := map[string]string{"string": `"x"`, "number": `1.5`, "integer": `7`, "boolean": `true`, "object": `{"a":1}`,
		"array": `[1]`, "array of objects": `[{"a":1}]`, "array of strings": `["x"]`}
	goWords := []string{"json:", "Go ", "Go struct", "map[", "unmarshal"}
	for _, tool := range r.Tools() {
		if tool.Toolset == mcp.ToolsetSettings {
			continue // a call would change the settings the next ones run with
		}
		var schema struct {
			Properties map[string]struct {
				Type  string `json:"type"`
				Items *struct {
					Type string `json:"type"`
				} `json:"items"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(tool.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			for kind, v := range values {
				fits := kind == p.Type || kind == "integer" && p.Type == "number" ||
					p.Type == "array" && p.Items != nil && kind == "array of "+p.Items.Type+"s" ||
					strings.HasSuffix(name, "id") || strings.HasSuffix(name, "ids") // ids take numbers and strings
				if fits {
					continue
				}
				out, isError := r.CallJSON(context.Background(), tool.Name, json.RawMessage(fmt.Sprintf(`{%q:%s}`, name, v)))
				msg := string(out)
				if !isError {
					continue // a kind the argument takes after all (a number for an integer)
				}
				for _, w := range goWords {
					if strings.Contains(msg, w) {
						t.Errorf("%s %s=%s: in Go's words: %s", tool.Name, name, v, msg)
					}
				}
				if strings.Contains(msg, `"INVALID_ARGUMENT"`) && !strings.Contains(msg, name) && !strings.Contains(msg, "required") {
					t.Errorf("%s %s=%s: the error does not name %s: %s", tool.Name, name, v, name, msg)
				}
			}
		}
		for _, args := range []string{`"x"`, `[1]`, `7`, `{"no_such_argument":1}`} {
			out, _ := r.CallJSON(context.Background(), tool.Name, json.RawMessage(args))
			if !strings.Contains(string(out), tool.Name+" takes ") || strings.Contains(string(out), "takes ;") || strings.Contains(string(out), `takes "`) || strings.Contains(string(out), "json:") {
				t.Errorf("%s %s: %s", tool.Name, args, out)
			}
		}
	}
}
