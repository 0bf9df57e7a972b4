package mcp_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/mcp"
)

// TestServeHTTPConnections: no client holds a connection the server does
// not serve: one that sends no request, or half of one, or idles after
// its answer, or was refused its token, is closed; and past the most
// connections at once, a new one waits for a place instead of the server
// running out of file descriptors.
func TestServeHTTPConnections(t *testing.T) {
	const limit = 300 * time.Millisecond
	url := serveHTTPTest(t, mcp.Options{}, mcp.HTTPOptions{Token: "s3cr3t-token-0123456789", MaxConnections: 3,
		ReadTimeout: limit, IdleTimeout: limit})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// closed reports whether the server closes c within a few seconds,
	// reading (and dropping) whatever it sends before.
	closed := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.Copy(io.Discard, c)
		return err == nil || !errors.Is(err, os.ErrDeadlineExceeded)
	}
	request := func(token string, body string) string {
		return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, token, len(body), body)
	}
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

	silent := dial()
	half := dial()
	fmt.Fprintf(half, "POST /mcp HTTP/1.1\r\nHost: %s\r\n", addr) // and no more
	slow := dial()
	io.WriteString(slow, strings.TrimSuffix(request("s3cr3t-token-0123456789", ping), ping)+ping[:10]) // a tenth of the body
	start := time.Now()
	for name, c := range map[string]net.Conn{"silent": silent, "half a header": half, "half a body": slow} {
		if !closed(c) {
			t.Errorf("a connection that sent %s is still open after %v", name, time.Since(start))
		}
	}

	refused := dial()
	io.WriteString(refused, request("wrong-token-0123456789", ping))
	resp, err := http.ReadResponse(bufio.NewReader(refused), nil)
	if err != nil || resp.StatusCode != http.StatusUnauthorized || !closed(refused) {
		t.Errorf("a request with the wrong token: %v %v; want 401 and the connection closed", resp, err)
	}

	idle := dial()
	io.WriteString(idle, request("s3cr3t-token-0123456789", ping))
	r := bufio.NewReader(idle)
	if resp, err := http.ReadResponse(r, nil); err != nil || resp.StatusCode >= 500 {
		t.Fatalf("a ping: %v %v", resp, err) // 404 here: it names no session
	}
	start = time.Now()
	if !closed(idle) {
		t.Errorf("an idle connection is still open after %v", time.Since(start))
	}

	// Three connections that send nothing hold every place: a fourth
	// waits until the server closes one of them.
	for range 3 {
		dial()
	}
	time.Sleep(50 * time.Millisecond)
	start = time.Now()
	waiting := dial()
	io.WriteString(waiting, request("s3cr3t-token-0123456789", ping))
	if resp, err := http.ReadResponse(bufio.NewReader(waiting), nil); err != nil || resp.StatusCode >= 500 {
		t.Fatalf("a request past the most connections: %v %v", resp, err)
	}
	if took := time.Since(start); took < limit/2 {
		t.Errorf("a fourth connection was served in %v, beside three held ones: no limit", took)
	}
}
