package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
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
	big, _ := json.Marshal(map[string]string{"name": "big", "content": strings.Repeat("x", 256<<10+1)})
	fails("snap_write_memory", string(big), mcp.CodeLimitExceeded, "at most 262144")

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

// TestMemoriesLinkedFolder: a checkout that carries .snap/memories, or
// .snap itself, as a symbolic link (to a folder elsewhere, or to one of
// its own): the memory tools refuse to list, read, write, edit or delete
// through it, saying why, and nothing where it points is read or
// touched.
func TestMemoriesLinkedFolder(t *testing.T) {
	const marker = "MARKER-not-a-memory"
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, repo, outside string) // makes repo/.snap/memories lead to outside
	}{
		{"memories a link out", func(t *testing.T, repo, outside string) {
			os.MkdirAll(filepath.Join(repo, ".snap"), 0o755)
			mustLink(t, outside, filepath.Join(repo, ".snap", "memories"))
		}},
		{".snap a link out", func(t *testing.T, repo, outside string) {
			os.MkdirAll(filepath.Join(filepath.Dir(outside), "cache", "memories"), 0o755)
			os.Rename(outside, filepath.Join(filepath.Dir(outside), "cache", "memories"))
			mustLink(t, filepath.Join(filepath.Dir(outside), "cache"), filepath.Join(repo, ".snap"))
		}},
		{"memories a link within the checkout", func(t *testing.T, repo, outside string) {
			os.MkdirAll(filepath.Join(repo, ".snap"), 0o755)
			docs := filepath.Join(repo, "docs")
			os.Rename(outside, docs)
			mustLink(t, "../docs", filepath.Join(repo, ".snap", "memories"))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			repo, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
			os.MkdirAll(repo, 0o755)
			os.MkdirAll(outside, 0o755)
			if err := os.WriteFile(filepath.Join(outside, "README.md"), []byte("# "+marker+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			c.plant(t, repo, outside)
			before := snapshotTree(t, base)
			r, err := mcp.NewRegistry(new(query.Holder))
			if err != nil {
				t.Fatal(err)
			}
			r.WithMemories(filepath.Join(repo, ".snap", "memories"))
			for _, call := range []struct{ tool, args string }{
				{"snap_list_memories", `{}`},
				{"snap_read_memory", `{"name":"README"}`},
				{"snap_write_memory", `{"name":"planted","content":"x"}`},
				{"snap_write_memory", `{"name":"README","content":"x","overwrite":true}`},
				{"snap_edit_memory", `{"name":"README","find":"MARKER","replacement":"changed"}`},
				{"snap_edit_memory", `{"name":"README","find":"(M)","replacement":"$1","mode":"regex"}`},
				{"snap_delete_memory", `{"name":"README"}`},
			} {
				code, msg, _ := errorOf(t, r, call.tool, call.args)
				if code != mcp.CodePathOutsideRoot || !strings.Contains(msg, "symbolic link") || strings.Contains(msg, marker) {
					t.Errorf("%s %s through a linked folder: %s %s", call.tool, call.args, code, msg)
				}
			}
			if after := snapshotTree(t, base); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the memory tools changed files through a link:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// snapshotTree lists every path below dir, links not followed, with what
// it holds: a file's content, a link's target.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			out[p], _ = os.Readlink(p)
		case d.Type().IsRegular():
			data, _ := os.ReadFile(p)
			out[p] = string(data)
		default:
			out[p] = d.Type().String()
		}
		return nil
	})
	return out
}
