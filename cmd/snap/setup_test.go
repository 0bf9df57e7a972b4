package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupSays runs setup as a user does: what it says when it adds an
// entry, when the entry is there already, when one of that name differs
// (exit code 1, naming --force) and when --force updates it.
func TestSetupSays(t *testing.T) {
	dir := t.TempDir() // the clients of the repository: no user file is touched
	path := filepath.Join(dir, ".cursor", "mcp.json")
	for _, c := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"--command", "/old/snap"}, 0, path + `: added MCP server "snap": /old/snap serve` + "\nCursor loads it when it next opens this folder; its MCP settings list it.\n" +
			"There is no snapshot in " + filepath.Join(dir, ".snap"), ""},
		{[]string{"--command", "/old/snap"}, 0, `MCP server "snap" is already set up: /old/snap serve`, ""},
		{[]string{"--command", "/new/snap"}, 1, "", `command is "/old/snap"; snap's is "/new/snap"` + "\nrun setup again with --force"},
		{[]string{"--force", "--command", "/new/snap"}, 0, `updated MCP server "snap": /new/snap serve (command was "/old/snap")`, ""},
	} {
		code, stdout, stderr := run(t, dir, append(append([]string{"setup"}, c.args...), "cursor")...)
		if code != c.code || !strings.Contains(stdout, c.out) || !strings.Contains(stderr, c.err) {
			t.Errorf("setup %v: exit %d, stdout %q, stderr %q; want %d, %q and %q", c.args, code, stdout, stderr, c.code, c.out, c.err)
		}
	}
}

// TestSetupPrint prints the file as it would be on stdout, says on
// stderr that it was not written, and writes nothing.
func TestSetupPrint(t *testing.T) {
	dir := t.TempDir() // the clients of the repository: no user file is touched
	code, stdout, stderr := run(t, dir, "setup", "--print", "--command", "/opt/snap", "cursor")
	want := "{\n  \"mcpServers\": {\n    \"snap\": {\n      \"command\": \"/opt/snap\",\n      \"args\": [\n        \"serve\"\n      ]\n    }\n  }\n}\n"
	if code != 0 || stdout != want || !strings.Contains(stderr, "was not written") {
		t.Errorf("--print cursor: exit %d, stdout\n%s\nstderr %q; want stdout\n%s", code, stdout, stderr, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("--print wrote %v", entries)
	}
	// Flags may follow the client.
	code, stdout, stderr = run(t, dir, "setup", "vscode", "--print", "--command", "/opt/snap")
	if code != 0 || !strings.Contains(stdout, `"servers"`) || !strings.Contains(stderr, "was not written") {
		t.Errorf("setup vscode --print: exit %d, stdout\n%s\nstderr %q", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("setup vscode --print wrote %v", entries)
	}
}

func TestSetupUsage(t *testing.T) {
	dir := t.TempDir() // the clients of the repository: no user file is touched
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"setup"}, "name a client: claude, cursor, vscode, codex, claude-desktop"},
		{[]string{"setup", "emacs"}, `unknown client "emacs" (have claude, cursor, vscode, codex, claude-desktop)`},
		{[]string{"setup", "claude", "cursor"}, "takes 1 argument"},
		{[]string{"setup", "--name", "my server", "claude"}, `--name "my server"`},
		{[]string{"setup", "--command", "snap", "claude-desktop"}, "give an absolute path"},
	} {
		code, _, stderr := run(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("snap %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("usage errors wrote %v", entries)
	}
}
