// Package e2e drives the real snap binary from outside: it builds it,
// indexes a fixture repository, starts `snap serve` as a subprocess and
// talks to it over stdio with the official MCP Go SDK client, which
// nobody on this project wrote. It is its own module so that the SDK
// stays out of snap's dependencies.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var snapBin string

func TestMain(m *testing.M) {
	if bin := os.Getenv(replayEnv); bin != "" {
		os.Exit(replayMain(bin, os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "snap-e2e-")
	if err != nil {
		panic(err)
	}
	snapBin = filepath.Join(dir, "snap")
	os.Setenv("SNAP_CACHE_DIR", filepath.Join(dir, "cache")) // the binary's stat caches
	// SNAP_E2E_BIN runs a binary built before (benchmarks of a release
	// build); SNAP_E2E_RACE=1 builds the binary with the race detector.
	if bin := os.Getenv("SNAP_E2E_BIN"); bin != "" {
		snapBin, err = filepath.Abs(bin)
		if err != nil {
			panic(err)
		}
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	// -trimpath, as the action and the release build it: their builds,
	// in other folders, then find every package in the build cache.
	args := []string{"build", "-trimpath", "-o", snapBin}
	if os.Getenv("SNAP_E2E_RACE") != "" {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "./cmd/snap")...)
	build.Dir = ".."
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build snap: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixture copies a testdata repository and indexes it with the binary,
// returning the snapshot folder.
func fixture(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join("..", "testdata", name)
	dst := t.TempDir()
	cp := exec.Command("cp", "-R", src+"/.", dst)
	if out, err := cp.CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	cmd := exec.Command(snapBin, "index", "-q", "--store", filepath.Join(t.TempDir(), "store"), dst)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("snap index: %v\n%s", err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}

// serve starts `snap serve` on a snapshot and connects the SDK client.
func serve(t testing.TB, snapshot string, args ...string) (*mcp.ClientSession, *bytes.Buffer) {
	t.Helper()
	return serveCmd(t, exec.Command(snapBin, append([]string{"serve", "--snapshot", snapshot}, args...)...))
}

// serveCmd connects the official SDK client to cmd over its stdio.
func serveCmd(t testing.TB, cmd *exec.Cmd) (*mcp.ClientSession, *bytes.Buffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "snap-e2e", Version: "1"}, nil)
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to snap serve: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { sess.Close() })
	return sess, &stderr
}

// call calls a tool and decodes its JSON answer.
func call(t testing.TB, sess *mcp.ClientSession, tool string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := sess.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1", tool, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
		t.Fatalf("%s: answer is not JSON: %v\n%s", tool, err, text.Text)
	}
	return out, res.IsError
}

func errCode(ans map[string]any) string {
	e, _ := ans["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func qnames(list any) []string {
	var out []string
	items, _ := list.([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		if q, ok := m["qname"].(string); ok {
			out = append(out, q)
		}
	}
	slices.Sort(out)
	return out
}

func TestServeGoFixture(t *testing.T) {
	snap := fixture(t, "go/shop")
	sess, stderr := serve(t, snap)
	ctx := context.Background()

	tools, err := sess.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		// Every tool but the settings' writer only reads.
		readOnly := tool.Name != "snap_config"
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != readOnly || !tool.Annotations.IdempotentHint ||
			tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint {
			t.Errorf("%s: annotations %+v, want read-only %v, idempotent, closed-world", tool.Name, tool.Annotations, readOnly)
		}
		if tool.InputSchema == nil {
			t.Errorf("%s: no input schema", tool.Name)
		}
	}
	slices.Sort(names)
	want := []string{"snap_calls", "snap_config", "snap_context", "snap_explore", "snap_find_references", "snap_impact", "snap_path",
		"snap_search", "snap_status", "snap_symbol", "snap_symbols_overview"}
	for _, w := range want {
		if !slices.Contains(names, w) {
			t.Errorf("tools/list lacks %s; has %v", w, names)
		}
	}

	status, isErr := call(t, sess, "snap_status", nil)
	commit, _ := status["commit"].(string)
	if isErr || !strings.HasPrefix(commit, "tree-") || !strings.Contains(snap, commit) {
		t.Errorf("snap_status = %v (error %v), want the snapshot's commit", status, isErr)
	}

	// Who calls Lookup: main, at the call site.
	ans, isErr := call(t, sess, "snap_calls", map[string]any{"name": "Lookup"})
	if isErr || !slices.Equal(qnames(ans["callers"]), []string{"example.com/shop/cmd/shop.main"}) {
		t.Errorf("callers of Lookup = %v", ans)
	}
	// What Fill calls: resolved through receivers, fields, locals, promotion.
	ans, _ = call(t, sess, "snap_calls", map[string]any{"name": "Fill", "direction": "out", "max_tokens": 10000})
	got := qnames(ans["callees"])
	for _, w := range []string{"example.com/shop/server.(*Base).Logf", "example.com/shop/store.(*MemStore).Put",
		"example.com/shop/store.MemStore.Len", "example.com/shop/store.NewMemStore", "example.com/shop/store.Store.Put"} {
		if !slices.Contains(got, w) {
			t.Errorf("callees of Fill lack %s: %v", w, got)
		}
	}
	// The path from main to Total goes through Lookup.
	ans, isErr = call(t, sess, "snap_path", map[string]any{"from": "main", "from_file": "cmd/shop/main.go", "to": "Total"})
	if isErr || !strings.Contains(mustJSON(ans), "Lookup") {
		t.Errorf("path main → Total = %v", ans)
	}

	// Bad input gets structured errors, and the server keeps serving.
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"snap_symbol", map[string]any{"name": "Get"}, "AMBIGUOUS_SYMBOL"},
		{"snap_calls", map[string]any{}, "INVALID_ARGUMENT"},
		{"snap_calls", map[string]any{"name": 42}, "INVALID_ARGUMENT"},
		{"snap_symbol", map[string]any{"id": "12345"}, "SYMBOL_NOT_FOUND"},
		{"snap_search", map[string]any{"query": "Store", "limit": -1}, "INVALID_ARGUMENT"},
		{"snap_search", map[string]any{"query": "Store", "cursor": "garbage"}, "PAGINATION_ERROR"},
		{"snap_symbols_overview", map[string]any{"file": "../../etc/passwd"}, "PATH_OUTSIDE_ROOT"},
		{"snap_symbols_overview", map[string]any{"file": "nope.go"}, "FILE_NOT_FOUND"},
	} {
		ans, isErr := call(t, sess, c.tool, c.args)
		if !isErr || errCode(ans) != c.code {
			t.Errorf("%s %v: error %v, answer %v; want %s", c.tool, c.args, isErr, ans, c.code)
		}
	}
	ans, isErr = call(t, sess, "snap_symbol", map[string]any{"name": "Get"})
	if e, _ := ans["error"].(map[string]any); isErr && !strings.Contains(mustJSON(e["details"]), "MemStore") {
		t.Errorf("ambiguous Get: details %v should list the candidates", e["details"])
	}
	// Still serving: a file's outline from the snapshot, not the disk.
	ans, isErr = call(t, sess, "snap_symbols_overview", map[string]any{"file": "store/store.go"})
	if isErr || !strings.Contains(mustJSON(ans), "func NewMemStore") {
		t.Errorf("read_file after errors = %v", ans)
	}
	if !strings.Contains(stderr.String(), "serving") {
		t.Errorf("stderr has no startup log: %q", stderr.String())
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestServePythonFixture(t *testing.T) {
	snap := fixture(t, "python/app")
	sess, _ := serve(t, snap, "--toolsets", "callgraph,symbols")
	tools, err := sess.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "snap_read_file" || tool.Name == "snap_status" {
			t.Errorf("--toolsets callgraph,symbols still offers %s", tool.Name)
		}
	}
	// Repository.save is reached through self, a subclass instance and an
	// attribute typed by annotation.
	ans, isErr := call(t, sess, "snap_calls", map[string]any{"name": "shop.repository.Repository.save"})
	got := qnames(ans["callers"])
	for _, w := range []string{"shop.repository.OrderRepository.new_order", "shop.services.billing.BillingService._record"} {
		if isErr || !slices.Contains(got, w) {
			t.Errorf("callers of Repository.save lack %s: %v", w, ans)
		}
	}
	// Constructors: callers of a class are the places that instantiate it.
	ans, _ = call(t, sess, "snap_calls", map[string]any{"name": "StripeGateway"})
	if !slices.Contains(qnames(ans["callers"]), "shop.services.billing.BillingService.__init__") {
		t.Errorf("callers of StripeGateway = %v", ans)
	}
	// Unresolved calls are listed apart, with their reason.
	ans, _ = call(t, sess, "snap_calls", map[string]any{"name": "shop.cli.fetch", "direction": "out"})
	if !strings.Contains(mustJSON(ans), "not in snapshot") {
		t.Errorf("callees of fetch should list requests.get as unresolved: %v", ans)
	}
}

// A snapshot that fails verification stops the server with the reason,
// even though the protocol started before the load finished.
func TestServeRefusesTamperedSnapshot(t *testing.T) {
	snap := fixture(t, "go/shop")
	nodes := filepath.Join(snap, "nodes.parquet")
	data, err := os.ReadFile(nodes)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/3] ^= 0x01
	if err := os.WriteFile(nodes, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(snapBin, "serve", "--snapshot", snap)
	stdin, _ := cmd.StdinPipe() // kept open: the server must stop by itself
	defer stdin.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("serve on a tampered snapshot: %v, want exit status 1", err)
		}
		if !strings.Contains(stderr.String(), "nodes") || !strings.Contains(stderr.String(), "sha256") {
			t.Errorf("stderr does not name the table and the check: %q", stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("serve kept running on a tampered snapshot")
	}
}
