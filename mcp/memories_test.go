package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

func TestMemories(t *testing.T) {
	// Memories need no snapshot: the holder is empty.
	r, err := mcp.NewRegistry(new(query.Holder))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "memories")
	r.WithMemories(dir)
	ok := func(tool, args string) map[string]any {
		t.Helper()
		out, isErr := r.CallJSON(context.Background(), tool, json.RawMessage(args))
		if isErr {
			t.Fatalf("%s %s: %s", tool, args, out)
		}
		var m map[string]any
		json.Unmarshal(out, &m)
		return m
	}
	fails := func(tool, args, code, mention string) {
		t.Helper()
		c, msg, _ := errorOf(t, r, tool, args)
		if c != code || !strings.Contains(msg, mention) {
			t.Errorf("%s %s: %s %q, want %s mentioning %q", tool, args, c, msg, code, mention)
		}
	}

	if m := ok("snap_list_memories", `{}`); len(m["memories"].([]any)) != 0 || m["hint"] == nil {
		t.Errorf("empty list: %v", m)
	}
	ok("snap_write_memory", `{"name":"plan","content":"# Plan\nretry the client\nretry the server\n"}`)
	fails("snap_write_memory", `{"name":"plan","content":"other"}`, mcp.CodeInvalidArgument, "exists")
	if m := ok("snap_read_memory", `{"name":"plan.md"}`); m["content"] != "# Plan\nretry the client\nretry the server\n" {
		t.Errorf("read: %v", m)
	}
	m := ok("snap_list_memories", `{}`)
	list := m["memories"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["name"] != "plan" || list[0].(map[string]any)["title"] != "Plan" {
		t.Errorf("list: %v", m)
	}

	// An edit must match once, unless all is set.
	fails("snap_edit_memory", `{"name":"plan","find":"retry","replacement":"add"}`, mcp.CodeInvalidArgument, "2 times")
	fails("snap_edit_memory", `{"name":"plan","find":"nowhere","replacement":"x"}`, mcp.CodeInvalidArgument, "matches nothing")
	fails("snap_edit_memory", `{"name":"plan","find":"(","replacement":"x","mode":"regex"}`, mcp.CodeInvalidArgument, "regular expression")
	fails("snap_edit_memory", `{"name":"plan","find":"x","replacement":"y","mode":"glob"}`, mcp.CodeInvalidArgument, "mode")
	ok("snap_edit_memory", `{"name":"plan","find":"retry the client","replacement":"time out the client"}`)
	if m := ok("snap_edit_memory", `{"name":"plan","find":"(\\w+) the (server|client)","replacement":"$1 every $2","mode":"regex","all":true}`); m["replaced"] != 2.0 {
		t.Errorf("regex edit: %v", m)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "plan.md"))
	if string(data) != "# Plan\ntime out every client\nretry every server\n" {
		t.Errorf("after edits:\n%s", data)
	}
	// A literal edit takes $ as it is.
	ok("snap_edit_memory", `{"name":"plan","find":"# Plan","replacement":"# Plan $1"}`)
	if m := ok("snap_read_memory", `{"name":"plan"}`); !strings.HasPrefix(m["content"].(string), "# Plan $1\n") {
		t.Errorf("literal edit: %v", m["content"])
	}

	// Names stay in their folder.
	for _, name := range []string{"../x", "..", "a/b", `a\b`, "/etc/passwd", "../../etc/cron.d/x"} {
		args, _ := json.Marshal(map[string]string{"name": name, "content": "x"})
		fails("snap_write_memory", string(args), mcp.CodePathOutsideRoot, "plain file name")
		args, _ = json.Marshal(map[string]string{"name": name})
		fails("snap_read_memory", string(args), mcp.CodePathOutsideRoot, "plain file name")
	}
	for _, name := range []string{"", ".hidden", "a b", "-x", strings.Repeat("n", 101)} {
		args, _ := json.Marshal(map[string]string{"name": name, "content": "x"})
		fails("snap_write_memory", string(args), mcp.CodeInvalidArgument, "name")
	}
	if ents, _ := os.ReadDir(root); len(ents) != 1 {
		t.Errorf("the memories' parent holds %d entries, want only memories/", len(ents))
	}
	big, _ := json.Marshal(map[string]string{"name": "big", "content": strings.Repeat("x", 1<<20+1)})
	fails("snap_write_memory", string(big), mcp.CodeInvalidArgument, "at most")

	ok("snap_delete_memory", `{"name":"plan"}`)
	fails("snap_delete_memory", `{"name":"plan"}`, mcp.CodeFileNotFound, "plan")
	fails("snap_read_memory", `{"name":"plan"}`, mcp.CodeFileNotFound, "snap_list_memories")
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("memories left behind: %v", ents)
	}

	// A server without a memory folder says so.
	bare, _ := mcp.NewRegistry(new(query.Holder))
	if c, msg, _ := errorOf(t, bare, "snap_list_memories", `{}`); c != mcp.CodeInvalidArgument || !strings.Contains(msg, "keeps no memories") {
		t.Errorf("no folder: %s %s", c, msg)
	}
}
