package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/mcp"
)

// A peer is a raw client of a server over one transport: it sends one
// JSON-RPC message, as a line on stdin or an HTTP body, and reads the
// answer to it. The tests below send the same messages both ways and
// hold the answers to the same rules.
type peer interface {
	// ask sends msg and returns the answer to it (notifications the
	// server sends meanwhile are skipped), its size, and over HTTP its
	// status (0 over stdio).
	ask(msg string) (answer map[string]any, size, status int)
}

type stdioPeer struct{ p *stdioPipe }

func (s stdioPeer) ask(msg string) (map[string]any, int, int) {
	s.p.t.Helper()
	s.p.sendLater(msg) // a long message: the pipe takes it as the server reads
	for {
		m := s.p.recv()
		if _, note := m["method"]; !note {
			return m, len(s.p.lines.Bytes()), 0
		}
	}
}

// httpPeer is one session over HTTP.
type httpPeer struct {
	t       *testing.T
	url     string
	session string
}

// serveHTTPTest serves opt over HTTP on a loopback port, in process,
// until the test ends, and returns its endpoint.
func serveHTTPTest(t *testing.T, opt mcp.Options, hopt mcp.HTTPOptions) string {
	t.Helper()
	srv, err := mcp.NewServer(holder(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcp.ServeHTTP(ctx, srv, ln, hopt) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// openSession initializes a session at url.
func openSession(t *testing.T, url string) *httpPeer {
	t.Helper()
	p := &httpPeer{t: t, url: url}
	m, _, status, header := p.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	if status != http.StatusOK || m["result"] == nil || header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize over HTTP: %d %v", status, m)
	}
	p.session = header.Get("Mcp-Session-Id")
	if _, _, status, _ := p.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", status)
	}
	return p
}

func (p *httpPeer) ask(msg string) (map[string]any, int, int) {
	p.t.Helper()
	m, size, status, _ := p.post(msg)
	return m, size, status
}

// post sends msg and reads the answer: JSON, or an event stream whose
// last message with an id is the answer.
func (p *httpPeer) post(msg string) (map[string]any, int, int, http.Header) {
	p.t.Helper()
	req, err := http.NewRequest(http.MethodPost, p.url, strings.NewReader(msg))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if p.session != "" {
		req.Header.Set("Mcp-Session-Id", p.session)
	}
	hc := http.Client{Timeout: 20 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		p.t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		p.t.Fatalf("read the answer: %v", err)
	}
	var m map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			var e map[string]any
			if ok && json.Unmarshal([]byte(data), &e) == nil && e["id"] != nil && e["method"] == nil {
				m, body = e, []byte(data)
			}
		}
	} else if len(bytes.TrimSpace(body)) > 0 && json.Unmarshal(body, &m) != nil {
		m = map[string]any{"not json": string(body)}
	}
	return m, len(body), resp.StatusCode, resp.Header
}

// peers starts a server of opt over stdio and over HTTP, and gives an
// initialized peer of each to fn. A server that keeps memories (any
// opt.Memories) keeps them in a folder of its own.
func peers(t *testing.T, opt mcp.Options, fn func(t *testing.T, p peer)) {
	own := func(t *testing.T) mcp.Options {
		if opt.Memories != "" {
			opt.Memories = filepath.Join(t.TempDir(), ".snap", "memories")
		}
		return opt
	}
	t.Run("stdio", func(t *testing.T) { fn(t, stdioPeer{serveStdio(t, own(t))}) })
	t.Run("http", func(t *testing.T) {
		fn(t, openSession(t, serveHTTPTest(t, own(t), mcp.HTTPOptions{})))
	})
}

var callID int

// toolCall is the message of a tools/call.
func toolCall(tool, args string) string {
	callID++
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, callID, tool, args)
}

// callTool asks p to call tool, and returns the tool's answer, or its
// error (code, message and details), and the size of what came.
func callOver(t *testing.T, p peer, tool, args string) (answer, toolErr map[string]any, size int) {
	t.Helper()
	m, size, status := p.ask(toolCall(tool, args))
	res, ok := m["result"].(map[string]any)
	if !ok || status > 299 {
		t.Fatalf("%s: no result (HTTP %d): %.300v", tool, status, m)
	}
	answer, _ = res["structuredContent"].(map[string]any)
	if res["isError"] == true {
		toolErr, _ = answer["error"].(map[string]any)
		if toolErr == nil {
			t.Fatalf("%s: an error result without an error: %.300v", tool, res)
		}
	}
	return answer, toolErr, size
}

// rpcErrorOf returns the JSON-RPC error of an answer.
func rpcErrorOf(m map[string]any) (code float64, message string, data map[string]any) {
	e, _ := m["error"].(map[string]any)
	code, _ = e["code"].(float64)
	message, _ = e["message"].(string)
	data, _ = e["data"].(map[string]any)
	return code, message, data
}
