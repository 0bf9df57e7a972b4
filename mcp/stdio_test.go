package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/mcp"
)

// blockingSyncer's SyncNow waits until release is closed.
type blockingSyncer struct{ started, release chan struct{} }

func (s *blockingSyncer) SyncStatus() mcp.SyncStatus { return mcp.SyncStatus{Store: "test"} }
func (s *blockingSyncer) SyncNow(ctx context.Context) mcp.SyncStatus {
	close(s.started)
	select {
	case <-s.release:
	case <-ctx.Done():
	}
	return mcp.SyncStatus{Store: "test", Swaps: 1}
}

// stdioPipe serves s over pipes; send writes a line, recv reads one
// message.
type stdioPipe struct {
	t     *testing.T
	in    *os.File
	lines *bufio.Scanner
	done  chan error
}

func serveStdio(t *testing.T, opt mcp.Options) *stdioPipe {
	t.Helper()
	p := startStdio(t, opt)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	if m := p.recv(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// startStdio serves opt over pipes, not initialized.
func startStdio(t *testing.T, opt mcp.Options) *stdioPipe {
	t.Helper()
	srv, err := mcp.NewServer(holder(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	// OS pipes, buffered as a client process's are.
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &stdioPipe{t: t, in: inW, lines: bufio.NewScanner(outR), done: make(chan error, 1)}
	p.lines.Buffer(nil, 4<<20)
	go func() { p.done <- mcp.ServeStdio(t.Context(), srv, inR, outW, nil); outW.Close() }()
	t.Cleanup(func() { inW.Close(); outR.Close(); inR.Close() })
	return p
}

func (p *stdioPipe) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// sendLater writes line while the test reads the answer: a line longer
// than the pipe holds. Its error is not the test's to report (t.Fatal
// belongs to the test's goroutine): the answer read says what happened.
func (p *stdioPipe) sendLater(line string) {
	go io.WriteString(p.in, line+"\n")
}

func (p *stdioPipe) call(id int, tool, args string) {
	p.t.Helper()
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
}

func (p *stdioPipe) recv() map[string]any {
	p.t.Helper()
	got := make(chan map[string]any, 1)
	go func() {
		if !p.lines.Scan() {
			got <- nil
			return
		}
		var m map[string]any
		if err := json.Unmarshal(p.lines.Bytes(), &m); err != nil {
			m = map[string]any{"not json": p.lines.Text()}
		}
		got <- m
	}()
	select {
	case m := <-got:
		if m == nil {
			p.t.Fatalf("stdout ended: %v", p.lines.Err())
		}
		if _, bad := m["not json"]; bad {
			p.t.Fatalf("stdout holds a non-protocol line: %.200s", m["not json"])
		}
		return m
	case <-time.After(10 * time.Second):
		p.t.Fatal("no message on stdout in 10s")
		return nil
	}
}

// TestServeStdioWaitingCall: a call that waits (snap_sync on a store)
// holds up no other message, and its answer comes once it is done, even
// when stdin has ended meanwhile.
func TestServeStdioWaitingCall(t *testing.T) {
	s := &blockingSyncer{started: make(chan struct{}), release: make(chan struct{})}
	p := serveStdio(t, mcp.Options{Sync: s})
	p.call(1, "snap_sync", `{}`)
	<-s.started
	p.call(2, "snap_calls", `{"name":"Server.Serve","limit":1}`)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	for _, want := range []float64{2, 3} {
		if m := p.recv(); m["id"] != want || m["result"] == nil {
			t.Fatalf("want the answer to %v while snap_sync waits, got %v", want, m)
		}
	}
	p.in.Close()
	close(s.release)
	m := p.recv()
	if m["id"] != float64(1) || !strings.Contains(fmt.Sprint(m["result"]), "swaps:1") {
		t.Fatalf("snap_sync: %v", m)
	}
	if err := <-p.done; err != nil {
		t.Fatalf("ServeStdio after stdin ended: %v", err)
	}
}

// TestServeStdioBadLines: a line that is no JSON, or longer than a
// message may be, gets a parse error, and the next message its answer.
func TestServeStdioBadLines(t *testing.T) {
	p := serveStdio(t, mcp.Options{})
	p.send(`{"jsonrpc":"2.0","id":1,"method":`)
	if m := p.recv(); m["error"] == nil {
		t.Fatalf("broken JSON: %v", m)
	}
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", 17<<20) + `"}}`
	p.sendLater(long)
	m := p.recv()
	e, _ := m["error"].(map[string]any)
	if msg, _ := e["message"].(string); !strings.Contains(msg, fmt.Sprintf("longer than %d bytes", mcp.DefaultMaxRequestBytes)) {
		t.Fatalf("long line: %v", m)
	}
	p.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if m := p.recv(); m["id"] != float64(3) || m["result"] == nil {
		t.Fatalf("ping after a long line: %v", m)
	}
	// A response from the client, to nothing the server asked, gets none.
	p.send(`{"jsonrpc":"2.0","id":99,"result":{}}`)
	p.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if m := p.recv(); m["id"] != float64(4) {
		t.Fatalf("after a stray response: %v", m)
	}
}

// TestServeStdioNotifies: a change of tools reaches the client over
// stdout as tools/list_changed.
func TestServeStdioNotifies(t *testing.T) {
	p := serveStdio(t, mcp.Options{})
	p.call(1, "snap_config", `{"toolsets":["memories"]}`)
	seen := map[string]bool{}
	for len(seen) < 2 {
		m := p.recv()
		switch {
		case m["method"] == "notifications/tools/list_changed":
			seen["notification"] = true
		case m["id"] == float64(1) && m["result"] != nil:
			seen["answer"] = true
		default:
			t.Fatalf("unexpected %v", m)
		}
	}
}
