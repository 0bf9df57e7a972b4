package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

// TestFilesConfinedToSnapshot asks the file tools and the file resource
// for paths that leave the repository root, in every spelling: they are
// refused (PATH_OUTSIDE_ROOT, or not found in the snapshot), and no byte
// of a file outside the snapshot comes back, even one at the path asked.
func TestFilesConfinedToSnapshot(t *testing.T) {
	// A file on disk where a traversal from the working directory leads.
	const marker = "MARKER-outside-the-snapshot"
	work := t.TempDir()
	secret := filepath.Join(filepath.Dir(work), "secret.go")
	if err := os.WriteFile(secret, []byte(marker), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(secret) })
	t.Chdir(work)

	c, r := connect(t, mcp.Options{Toolsets: []string{mcp.ToolsetFiles}})
	ctx := context.Background()
	for _, p := range []string{
		"../secret.go", "../../etc/passwd", "src/../../secret.go", "src/net/../../../secret.go", "/etc/passwd", secret,
		`..\secret.go`, `src\..\..\secret.go`, "C:/Windows/win.ini", `C:\Windows\win.ini`, "..", "./../secret.go",
		"src/net/http/server.go\x00../../secret.go", "..%2Fsecret.go", "%2e%2e/secret.go", "//etc/passwd",
	} {
		for _, tool := range []string{"snap_read_file", "snap_list_dir", "snap_find_file"} {
			arg := map[string]string{"snap_read_file": "file", "snap_list_dir": "dir", "snap_find_file": "pattern"}[tool]
			args, _ := json.Marshal(map[string]string{arg: p})
			out, isError := r.CallJSON(ctx, tool, args)
			if strings.Contains(string(out), marker) || strings.Contains(string(out), "root:x:0:0") {
				t.Errorf("%s %q: content from outside the snapshot: %s", tool, p, out)
			}
			if tool == "snap_read_file" && !isError {
				t.Errorf("%s %q answered: %s", tool, p, out)
			}
			if isError && tool != "snap_find_file" {
				var ans struct{ Error mcp.ToolError }
				json.Unmarshal(out, &ans)
				switch ans.Error.Code {
				case mcp.CodePathOutsideRoot, mcp.CodeFileNotFound, mcp.CodeInvalidArgument:
				default:
					t.Errorf("%s %q: %s", tool, p, out)
				}
				// list_dir takes \ and drive letters as parts of a name,
				// and finds no such folder in the snapshot.
				strict := tool == "snap_read_file" || !strings.ContainsAny(p, `\:`)
				if leaves(p) && strict && ans.Error.Code != mcp.CodePathOutsideRoot {
					t.Errorf("%s %q: %s, want %s", tool, p, ans.Error.Code, mcp.CodePathOutsideRoot)
				}
			}
		}
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
	for _, uri := range []string{
		"snap://file/../secret.go", "snap://file/..%2Fsecret.go", "snap://file/%2E%2E/secret.go", "snap://file/%2e%2e%2fsecret.go",
		"snap://file/src/..%2F..%2Fsecret.go", "snap://file//etc/passwd", "snap://file/%2Fetc%2Fpasswd", "snap://file/" + secret,
		"snap://file/src/net/http/server.go%00../../secret.go", "snap://file/..%5Csecret.go", "snap://file/C:%5Cx", "snap://file/%zz",
	} {
		text, err := read(uri)
		if err == nil || strings.Contains(text, marker) || strings.Contains(err.Error(), marker) {
			t.Errorf("%s: %q, %v", uri, text, err)
		}
	}
	// Paths of the snapshot read, escaped or not.
	for _, uri := range []string{"snap://file/src/net/http/server.go", "snap://file/src%2Fnet%2Fhttp%2Fserver.go", "snap://file/app/models/user%2Epy"} {
		if text, err := read(uri); err != nil || text == "" {
			t.Errorf("%s: %q, %v", uri, text, err)
		}
	}
}

// leaves reports whether p, as a path relative to the repository root,
// leads out of it.
func leaves(p string) bool {
	s := strings.ReplaceAll(p, `\`, "/")
	return strings.HasPrefix(s, "/") || len(s) > 1 && s[1] == ':' || s == ".." ||
		strings.HasPrefix(filepath.Clean(s), "../") || filepath.Clean(s) == ".."
}

// TestMemoriesConfined: memory names cannot leave the memories' folder,
// and neither can symbolic links planted in it (a checkout may carry
// .snap/memories/): reading or editing through one is refused, listing
// skips it, writing replaces the link and deleting removes it, and the
// file it points at is never read nor changed.
func TestMemoriesConfined(t *testing.T) {
	r, err := mcp.NewRegistry(new(query.Holder))
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	dir := filepath.Join(base, ".snap", "memories")
	r.WithMemories(dir)
	ctx := context.Background()
	call := func(tool string, args map[string]any) (string, string) {
		t.Helper()
		raw, _ := json.Marshal(args)
		out, isError := r.CallJSON(ctx, tool, raw)
		if !isError {
			return "", string(out)
		}
		var ans struct{ Error mcp.ToolError }
		json.Unmarshal(out, &ans)
		return ans.Error.Code, string(out)
	}

	for _, name := range []string{"../escape", "../../escape", "a/b", `a\b`, "..", "/tmp/escape", "x/../../escape", "..md", "./x"} {
		for tool, args := range map[string]map[string]any{
			"snap_write_memory":  {"name": name, "content": "x", "overwrite": true},
			"snap_read_memory":   {"name": name},
			"snap_delete_memory": {"name": name},
			"snap_edit_memory":   {"name": name, "find": "x", "replacement": "y"},
		} {
			code, out := call(tool, args)
			if code != mcp.CodePathOutsideRoot && code != mcp.CodeInvalidArgument {
				t.Errorf("%s %q: %s", tool, name, out)
			}
		}
	}
	var outside []string
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			outside = append(outside, p)
		}
		return nil
	})
	if len(outside) > 0 {
		t.Errorf("files written outside %s: %q", dir, outside)
	}

	// Symbolic links, relative and absolute, to a note outside.
	const marker = "MARKER-outside-the-memories"
	target := filepath.Join(base, "outside.md")
	if err := os.WriteFile(target, []byte(marker), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := call("snap_write_memory", map[string]any{"name": "inside", "content": "# Inside\nkept"}); code != "" {
		t.Fatal(out)
	}
	for name, to := range map[string]string{"relative": "../../outside.md", "absolute": target, "inner": "inside.md"} {
		if err := os.Symlink(to, filepath.Join(dir, name+".md")); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"relative", "absolute"} {
		for tool, args := range map[string]map[string]any{
			"snap_read_memory": {"name": name},
			"snap_edit_memory": {"name": name, "find": "MARKER", "replacement": "changed"},
		} {
			code, out := call(tool, args)
			if code != mcp.CodePathOutsideRoot || strings.Contains(out, marker) {
				t.Errorf("%s through a link %s: %s", tool, name, out)
			}
		}
	}
	// A link within the folder is followed.
	if code, out := call("snap_read_memory", map[string]any{"name": "inner"}); code != "" || !strings.Contains(out, "kept") {
		t.Errorf("read through a link inside the folder: %s", out)
	}
	if _, out := call("snap_list_memories", map[string]any{}); strings.Contains(out, marker) || strings.Contains(out, `"relative"`) || strings.Contains(out, `"absolute"`) {
		t.Errorf("list shows links out of the folder: %s", out)
	}
	if code, out := call("snap_write_memory", map[string]any{"name": "relative", "content": "new", "overwrite": true}); code != "" {
		t.Errorf("overwrite a link: %s", out)
	}
	if code, out := call("snap_delete_memory", map[string]any{"name": "absolute"}); code != "" {
		t.Errorf("delete a link: %s", out)
	}
	if data, err := os.ReadFile(target); err != nil || string(data) != marker {
		t.Errorf("the file outside changed: %q, %v", data, err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "relative.md")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("an overwritten link is not a file of the folder: %v, %v", fi, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "absolute.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a deleted link is still there: %v", err)
	}
}

// TestServeHTTPGuards serves over HTTP with a token: requests without it
// get 401 with a WWW-Authenticate challenge, browser requests from other
// origins get 403, and a request with the token from a local page works.
func TestServeHTTPGuards(t *testing.T) {
	url := serveHTTPTest(t, mcp.Options{}, mcp.HTTPOptions{Token: "s3cr3t-token-0123456789"})
	for _, c := range []struct {
		auth, origin string
		want         int
	}{
		{"", "", http.StatusUnauthorized},
		{"Bearer nope", "", http.StatusUnauthorized},
		{"Bearer  s3cr3t-token-0123456789 ", "", http.StatusOK},
		{"Bearer s3cr3t-token-0123456789", "http://127.0.0.1:3000", http.StatusOK},
		{"Bearer s3cr3t-token-0123456789", "http://[::1]:3000", http.StatusOK},
		{"Bearer s3cr3t-token-0123456789", "https://localhost", http.StatusOK},
		{"Bearer s3cr3t-token-0123456789", "https://example.com", http.StatusForbidden},
		{"Bearer s3cr3t-token-0123456789", "http://127.0.0.1.example.com", http.StatusForbidden},
		{"Bearer s3cr3t-token-0123456789", "http://localhost.example.com", http.StatusForbidden},
		{"Bearer s3cr3t-token-0123456789", "null", http.StatusForbidden},
		{"Bearer s3cr3t-token-0123456789", "file://", http.StatusForbidden},
		{"", "https://example.com", http.StatusUnauthorized},
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		hc := http.Client{Timeout: 10 * time.Second}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Authorization %q, Origin %q: %d %s, want %d", c.auth, c.origin, resp.StatusCode, body, c.want)
		}
		if resp.StatusCode == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
			t.Error("401 without a WWW-Authenticate challenge")
		}
		if strings.Contains(string(body), "s3cr3t") {
			t.Errorf("the token in an answer: %s", body)
		}
	}

	// A body larger than any call needs is not read whole.
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 17<<20) + `"}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(big))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer s3cr3t-token-0123456789")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), mcp.CodeLimitExceeded) {
		t.Errorf("a 17 MiB request: %d %.200s", resp.StatusCode, body)
	}
}
