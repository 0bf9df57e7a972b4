package e2e

import (
	"context"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeHTTP serves a snapshot over streamable HTTP to several SDK
// clients at once, and answers as stdio does.
func TestServeHTTP(t *testing.T) {
	snap := fixture(t, "go/shop")
	cmd, endpoint, logged := serveHTTP(t, snap)

	// The same question over stdio, for comparison.
	stdio, _ := serve(t, snap)
	want, _ := call(t, stdio, "snap_calls", map[string]any{"name": "Lookup"})

	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "snap-e2e-http", Version: "1"}, nil)
			sess, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
			if err != nil {
				t.Errorf("connect over HTTP: %v", err)
				return
			}
			defer sess.Close()
			for range 5 {
				got, isErr := call(t, sess, "snap_calls", map[string]any{"name": "Lookup"})
				if isErr || mustJSON(got) != mustJSON(want) {
					t.Errorf("over HTTP:\n%s\nover stdio:\n%s", mustJSON(got), mustJSON(want))
					return
				}
			}
		})
	}
	wg.Wait()

	// A page from another origin (DNS rebinding) is turned away.
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Host = "evil.example.com"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("request with a foreign Host: %v %v, want 403", resp.Status, err)
	}

	// SIGTERM stops it cleanly and at once, even with a client still
	// connected and holding its event stream open.
	held := mcp.NewClient(&mcp.Implementation{Name: "snap-e2e-held", Version: "1"}, nil)
	hctx, hcancel := context.WithCancel(context.Background())
	defer hcancel()
	hsess, err := held.Connect(hctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	defer hsess.Close()
	call(t, hsess, "snap_status", map[string]any{"detail": "stats"})
	time.Sleep(200 * time.Millisecond) // the client opens its event stream
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Logf("stopped %v after SIGTERM", time.Since(start).Round(time.Millisecond))
		if err != nil {
			t.Errorf("snap serve --http after SIGTERM: %v\n%s", err, logged)
		}
	case <-time.After(30 * time.Second):
		t.Error("snap serve --http did not stop on SIGTERM")
	}
}

// TestServeHTTPSessionsApart: two SDK clients of one snap serve --http.
// The toolsets one chooses are its own: the other keeps its tools and
// calls them meanwhile; neither chooses past --toolsets. Without
// --read-only=false no tool that writes is offered, and a body past
// --max-request-bytes gets 413.
func TestServeHTTPSessionsApart(t *testing.T) {
	snap := fixture(t, "go/shop")
	_, endpoint, _ := serveHTTP(t, snap, "--read-only=false", "--toolsets", "index,symbols,callgraph")
	// Sessions are MCP's before 2026-07-28; that version has none.
	connect := func(version string) *mcp.ClientSession {
		t.Helper()
		client := mcp.NewClient(&mcp.Implementation{Name: "snap-e2e-sessions", Version: "1"}, nil)
		sess, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint},
			&mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("connect over HTTP: %v", err)
		}
		t.Cleanup(func() { sess.Close() })
		return sess
	}
	tools := func(sess *mcp.ClientSession) string {
		t.Helper()
		list, err := sess.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		return strings.Join(names, " ")
	}
	a, b := connect("2025-11-25"), connect("2025-06-18")
	var wg sync.WaitGroup
	wg.Go(func() {
		if ans, isErr := call(t, a, "snap_config", map[string]any{"toolsets": []string{"index"}}); isErr {
			t.Errorf("A narrows its toolsets: %v", ans)
		}
	})
	wg.Go(func() {
		for range 10 {
			if ans, isErr := call(t, b, "snap_search", map[string]any{"query": "Lookup"}); isErr {
				t.Errorf("B searches while A narrows its toolsets: %v", ans)
				return
			}
		}
	})
	wg.Wait()
	if got := tools(a); strings.Contains(got, "snap_search") {
		t.Errorf("A's tools after it chose index: %s", got)
	}
	if got := tools(b); !strings.Contains(got, "snap_search") || !strings.Contains(got, "snap_calls") {
		t.Errorf("B's tools after A chose index: %s", got)
	}
	if ans, isErr := call(t, b, "snap_config", map[string]any{"toolsets": []string{"memories"}}); !isErr {
		t.Errorf("B chose memories past --toolsets: %v", ans)
	}
	// A request of MCP 2026-07-28 comes in no session: its settings
	// could last for nobody, and change nobody's.
	c := connect("")
	if ans, isErr := call(t, c, "snap_config", map[string]any{"toolsets": []string{"index"}}); !isErr || !strings.Contains(mustJSON(ans), "no sessions") {
		t.Errorf("a client of no session chose toolsets: %v", ans)
	}
	if got := tools(b); !strings.Contains(got, "snap_search") {
		t.Errorf("B's tools after a client of no session chose index: %s", got)
	}

	_, endpoint, _ = serveHTTP(t, snap, "--toolsets", "all", "--max-request-bytes", "64KiB")
	if got := tools(connect("")); strings.Contains(got, "snap_config") || strings.Contains(got, "snap_write_memory") || !strings.Contains(got, "snap_read_memory") {
		t.Errorf("over HTTP, read-only by default: %s", got)
	}
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`+strings.Repeat("x", 64<<10)+`"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body past --max-request-bytes 64KiB: %s", resp.Status)
	}
}

// serveHTTP starts snap serve --http on a free loopback port, with args,
// and returns the process, its MCP endpoint, and what it logs.
func serveHTTP(t *testing.T, snap string, args ...string) (*exec.Cmd, string, *lineLog) {
	t.Helper()
	cmd := exec.Command(snapBin, append([]string{"serve", "--snapshot", snap, "--http", "127.0.0.1:0"}, args...)...)
	logged := &lineLog{match: regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/mcp)`), found: make(chan string, 1)}
	cmd.Stderr = logged
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	select {
	case endpoint := <-logged.found:
		return cmd, endpoint, logged
	case <-time.After(time.Minute):
		t.Fatalf("snap serve --http did not say where it listens:\n%s", logged)
	}
	return nil, "", nil
}

// lineLog keeps what a process writes to stderr, and sends the first
// submatch of match it sees to found.
type lineLog struct {
	mu    sync.Mutex
	buf   strings.Builder
	match *regexp.Regexp
	found chan string
	sent  bool
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if !l.sent {
		if m := l.match.FindStringSubmatch(l.buf.String()); m != nil {
			l.found <- m[1]
			l.sent = true
		}
	}
	return len(p), nil
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
