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
	want, _ := call(t, stdio, "snap_callers", map[string]any{"name": "Lookup"})

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
				got, isErr := call(t, sess, "snap_callers", map[string]any{"name": "Lookup"})
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
	call(t, hsess, "snap_stats", map[string]any{})
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

// serveHTTP starts snap serve --http on a free loopback port and returns
// the process, its MCP endpoint, and what it logs.
func serveHTTP(t *testing.T, snap string) (*exec.Cmd, string, *lineLog) {
	t.Helper()
	cmd := exec.Command(snapBin, "serve", "--snapshot", snap, "--http", "127.0.0.1:0")
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
