package clientconfig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

// setupHome gives the test a home and a configuration folder of its own,
// and a repository to set up; it returns the repository.
func setupHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("APPDATA", filepath.Join(home, "AppData", "Roaming"))
	t.Setenv("CODEX_HOME", "")
	return t.TempDir()
}

func readJSONC(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := decodeJSON(data)
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return tree.(map[string]any)
}

func readTOML(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := toml.Unmarshal(data, &tree); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return normalize(tree).(map[string]any)
}

func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// setup sets up client for the repository at root (example/shop, branch
// local), serving with command.
func setup(t *testing.T, root, client, command string, force bool) (Result, error) {
	t.Helper()
	cl, ok := Lookup(client)
	if !ok {
		t.Fatalf("no client %s", client)
	}
	return Setup(cl, target(root, command), Options{Name: "snap", Force: force})
}

// target is the repository at root (example/shop, branch local), served
// with command, and the user's folders as snap setup reads them from the
// environment setupHome made.
func target(root, command string) Target {
	user := UserDirs{CodexHome: os.Getenv("CODEX_HOME")}
	user.Home, _ = os.UserHomeDir()
	user.Config, _ = os.UserConfigDir()
	return Target{Root: root, Repo: "example/shop", Branch: "local", Command: command, User: user}
}

// mustSetup is setup that must succeed with the state want.
func mustSetup(t *testing.T, root, client, command string, want State) Result {
	t.Helper()
	res, err := setup(t, root, client, command, want == Updated)
	if err != nil || res.State != want {
		t.Fatalf("setup %s: state %v, %v; want %v", client, res.State, err, want)
	}
	return res
}

// Every client, set up twice: the first run writes its file in its
// format; the second changes nothing.
func TestSetupEveryClientIdempotent(t *testing.T) {
	const snapBin = "/opt/snap/bin/snap"
	for _, c := range []struct {
		client         string
		path           func(root string) string
		servers, entry string // the servers' key, and snap's entry as JSON
	}{
		{"claude", func(root string) string { return filepath.Join(root, ".mcp.json") },
			"mcpServers", `{"type": "stdio", "command": "/opt/snap/bin/snap", "args": ["serve"]}`},
		{"cursor", func(root string) string { return filepath.Join(root, ".cursor", "mcp.json") },
			"mcpServers", `{"command": "/opt/snap/bin/snap", "args": ["serve"]}`},
		{"vscode", func(root string) string { return filepath.Join(root, ".vscode", "mcp.json") },
			"servers", `{"type": "stdio", "command": "/opt/snap/bin/snap", "args": ["serve"], "cwd": "${workspaceFolder}"}`},
		{"codex", func(string) string { return filepath.Join(os.Getenv("HOME"), ".codex", "config.toml") },
			"mcp_servers", `{"command": "/opt/snap/bin/snap", "args": ["serve"], "cwd": "ROOT"}`},
		{"claude-desktop", func(string) string {
			dir, _ := os.UserConfigDir()
			return filepath.Join(dir, "Claude", "claude_desktop_config.json")
		}, "mcpServers", `{"command": "/opt/snap/bin/snap", "args": ["serve", "--store", "ROOT/.snap", "--repo", "REPO", "--branch", "local"]}`},
	} {
		t.Run(c.client, func(t *testing.T) {
			dir := setupHome(t)
			res := mustSetup(t, dir, c.client, snapBin, Added)
			path := c.path(dir)
			if res.Path != path || !strings.HasPrefix(res.Serve, snapBin+" serve") {
				t.Errorf("set up %s to run %q, want %s to run %s serve", res.Path, res.Serve, path, snapBin)
			}
			var tree map[string]any
			if strings.HasSuffix(path, ".toml") {
				tree = readTOML(t, path)
			} else {
				tree = readJSONC(t, path)
			}
			want := strings.NewReplacer("ROOT/.snap", filepath.Join(dir, ".snap"), "ROOT", dir, "REPO", "example/shop").Replace(c.entry)
			got := tree[c.servers].(map[string]any)["snap"]
			if !reflect.DeepEqual(got, jsonValue(t, want)) {
				t.Errorf("entry %v, want %s", got, want)
			}
			fi, _ := os.Stat(path)
			wantMode := os.FileMode(0o644)
			if c.client == "codex" || c.client == "claude-desktop" {
				wantMode = 0o600 // the user's own file
			}
			if fi.Mode().Perm() != wantMode {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), wantMode)
			}

			before, _ := os.ReadFile(path)
			mustSetup(t, dir, c.client, snapBin, Same)
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Errorf("again: the file changed:\n%s", after)
			}
		})
	}
}

func TestSetupMergeKeepsOtherServers(t *testing.T) {
	dir := setupHome(t)
	path := filepath.Join(dir, ".mcp.json")
	old := `{
  "mcpServers": {
    "github": {
      "command": "docker",
      "args": ["run", "-i", "ghcr.io/github/github-mcp-server"],
      "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}
    }
  },
  "someOtherKey": [1, 2, 3]
}
`
	os.WriteFile(path, []byte(old), 0o640)
	mustSetup(t, dir, "claude", "/usr/local/bin/snap", Added)
	got, _ := os.ReadFile(path)
	want := `{
  "mcpServers": {
    "github": {
      "command": "docker",
      "args": ["run", "-i", "ghcr.io/github/github-mcp-server"],
      "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}
    },
    "snap": {
      "type": "stdio",
      "command": "/usr/local/bin/snap",
      "args": [
        "serve"
      ]
    }
  },
  "someOtherKey": [1, 2, 3]
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.snap-*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestSetupVSCodeKeepsComments(t *testing.T) {
	dir := setupHome(t)
	path := filepath.Join(dir, ".vscode", "mcp.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	old := "{\n" +
		"\t// Servers of this workspace.\n" +
		"\t\"servers\": {\n" +
		"\t\t\"github\": {\n" +
		"\t\t\t\"type\": \"http\",\n" +
		"\t\t\t\"url\": \"https://api.githubcopilot.com/mcp/\", // remote\n" +
		"\t\t}, // GitHub's\n" +
		"\t},\n" +
		"\t/* inputs for secrets */\n" +
		"\t\"inputs\": [],\n" +
		"}\n"
	os.WriteFile(path, []byte(old), 0o644)
	mustSetup(t, dir, "vscode", "/usr/local/bin/snap", Added)
	got, _ := os.ReadFile(path)
	want := "{\n" +
		"\t// Servers of this workspace.\n" +
		"\t\"servers\": {\n" +
		"\t\t\"github\": {\n" +
		"\t\t\t\"type\": \"http\",\n" +
		"\t\t\t\"url\": \"https://api.githubcopilot.com/mcp/\", // remote\n" +
		"\t\t}, // GitHub's\n" +
		"\t\t\"snap\": {\n" +
		"\t\t\t\"type\": \"stdio\",\n" +
		"\t\t\t\"command\": \"/usr/local/bin/snap\",\n" +
		"\t\t\t\"args\": [\n" +
		"\t\t\t\t\"serve\"\n" +
		"\t\t\t],\n" +
		"\t\t\t\"cwd\": \"${workspaceFolder}\"\n" +
		"\t\t},\n" +
		"\t},\n" +
		"\t/* inputs for secrets */\n" +
		"\t\"inputs\": [],\n" +
		"}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSetupCodexKeepsTables(t *testing.T) {
	setupHome(t)
	dir := t.TempDir()
	codexHome := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", codexHome)
	os.MkdirAll(codexHome, 0o700)
	path := filepath.Join(codexHome, "config.toml")
	old := `# my settings
model = "o3" # the model

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]

[profiles.fast]
model = "gpt-5-mini"
`
	os.WriteFile(path, []byte(old), 0o600)
	mustSetup(t, dir, "codex", "/usr/local/bin/snap", Added)
	got, _ := os.ReadFile(path)
	want := old + "\n[mcp_servers.snap]\ncommand = '/usr/local/bin/snap'\nargs = ['serve']\ncwd = '" + dir + "'\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// An entry of that name that differs is left alone without Force;
// --force sets snap's keys and keeps the others.
func TestSetupDiffersNeedsForce(t *testing.T) {
	t.Run("json", func(t *testing.T) {
		dir := setupHome(t)
		path := filepath.Join(dir, ".cursor", "mcp.json")
		os.MkdirAll(filepath.Dir(path), 0o755)
		old := `{"mcpServers": {"snap": {"command": "/old/snap", "args": ["serve"], "env": {"SNAP_STORE": "s3://graphs"}}}}`
		os.WriteFile(path, []byte(old), 0o644)
		res := mustSetup(t, dir, "cursor", "/new/snap", Differs)
		if len(res.Diffs) != 1 || res.Diffs[0].String() != `command is "/old/snap"; snap's is "/new/snap"` {
			t.Errorf("differences %v", res.Diffs)
		}
		if got, _ := os.ReadFile(path); string(got) != old {
			t.Errorf("the file changed without Force:\n%s", got)
		}
		if res := mustSetup(t, dir, "cursor", "/new/snap", Updated); len(res.Diffs) != 1 || res.Diffs[0].Was() != `command was "/old/snap"` {
			t.Errorf("--force: differences %v", res.Diffs)
		}
		got := readJSONC(t, path)["mcpServers"].(map[string]any)["snap"]
		want := jsonValue(t, `{"command": "/new/snap", "args": ["serve"], "env": {"SNAP_STORE": "s3://graphs"}}`)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Force: entry %v, want %v", got, want)
		}
	})
	t.Run("toml", func(t *testing.T) {
		dir := setupHome(t)
		path := filepath.Join(os.Getenv("HOME"), ".codex", "config.toml")
		os.MkdirAll(filepath.Dir(path), 0o700)
		old := "[mcp_servers.snap]\n" +
			"command = \"/old/snap\" # by hand\n" +
			"args = [\n  \"serve\",\n  \"--sync\", \"2m\",\n]\n" +
			"startup_timeout_sec = 30\n" +
			"\n[mcp_servers.snap.env]\nSNAP_STORE = \"s3://graphs\"\n"
		os.WriteFile(path, []byte(old), 0o600)
		res := mustSetup(t, dir, "codex", "/new/snap", Differs)
		if len(res.Diffs) == 0 || !strings.Contains(fmt.Sprint(res.Diffs), `args is ["serve","--sync","2m"]; snap's is ["serve"]`) {
			t.Errorf("differences %v", res.Diffs)
		}
		if got, _ := os.ReadFile(path); string(got) != old {
			t.Errorf("the file changed without Force:\n%s", got)
		}
		mustSetup(t, dir, "codex", "/new/snap", Updated)
		root := dir
		got, _ := os.ReadFile(path)
		want := "[mcp_servers.snap]\n" +
			"command = '/new/snap' # by hand\n" +
			"args = ['serve']\n" +
			"startup_timeout_sec = 30\n" +
			"cwd = '" + root + "'\n" +
			"\n[mcp_servers.snap.env]\nSNAP_STORE = \"s3://graphs\"\n"
		if string(got) != want {
			t.Errorf("Force: got\n%s\nwant\n%s", got, want)
		}
	})
}

func TestSetupBadFileUnchanged(t *testing.T) {
	for _, c := range []struct {
		client, file, content, says string
	}{
		{"claude", ".mcp.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",,}\n  }\n}\n", "line 3, column 26"},
		{"claude", ".mcp.json", `["not", "an", "object"]`, "the top level is not an object"},
		{"vscode", ".vscode/mcp.json", `{"servers": ["a list"]}`, `"servers" is not an object`},
		{"codex", "HOME/.codex/config.toml", "model = \n", "line 1, column 9"},
	} {
		t.Run(c.client, func(t *testing.T) {
			dir := setupHome(t)
			path := filepath.Join(dir, c.file)
			if home, ok := strings.CutPrefix(c.file, "HOME/"); ok {
				path = filepath.Join(os.Getenv("HOME"), home)
			}
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(c.content), 0o644)
			_, err := setup(t, dir, c.client, "/opt/snap", false)
			if err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "nothing was changed") {
				t.Errorf("%v; want %q and nothing was changed", err, c.says)
			}
			if got, _ := os.ReadFile(path); string(got) != c.content {
				t.Errorf("the file changed:\n%s", got)
			}
			if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.snap-*")); len(leftovers) > 0 {
				t.Errorf("temporary files left: %v", leftovers)
			}
		})
	}
}

// With DryRun, Setup says what the file would be and writes nothing.
func TestSetupDryRunWritesNothing(t *testing.T) {
	dir := setupHome(t)
	for _, cl := range Clients {
		res, err := Setup(cl, target(dir, "/opt/snap"), Options{Name: "snap", DryRun: true})
		if err != nil || res.State != Added || !strings.Contains(string(res.Content), "/opt/snap") {
			t.Errorf("%s: %v, %v\n%s", cl.Name, res.State, err, res.Content)
		}
	}
	var files []string
	for _, root := range []string{dir, os.Getenv("HOME")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return err
		})
	}
	if len(files) > 0 {
		t.Errorf("DryRun wrote %v", files)
	}
}

// A configuration file that is a symbolic link (to a dotfiles
// repository, say) has its target updated; the link stays.
func TestSetupFollowsSymlink(t *testing.T) {
	dir := setupHome(t)
	target := filepath.Join(t.TempDir(), "dotfiles-mcp.json")
	os.WriteFile(target, []byte(`{"mcpServers": {}}`), 0o644)
	link := filepath.Join(dir, ".mcp.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	mustSetup(t, dir, "claude", "/opt/snap", Added)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link", link)
	}
	if _, ok := readJSONC(t, target)["mcpServers"].(map[string]any)["snap"]; !ok {
		t.Errorf("the link's target has no snap server")
	}
}

func TestSetupJSONSet(t *testing.T) {
	for _, c := range []struct {
		name, src string
		path      []string
		val       any
		want      string
	}{
		{"empty object", "{}", []string{"a"}, "x",
			"{\n  \"a\": \"x\"\n}"},
		{"missing parents", "{\n    \"k\": 1\n}\n", []string{"s", "n"}, []string{"v"},
			"{\n    \"k\": 1,\n    \"s\": {\n        \"n\": [\n            \"v\"\n        ]\n    }\n}\n"},
		{"one line", `{"s": {"a": 1}}`, []string{"s", "b"}, "x",
			`{"s": {"a": 1, "b": "x"}}`},
		{"crlf", "{\r\n  \"a\": 1\r\n}\r\n", []string{"b"}, "x",
			"{\r\n  \"a\": 1,\r\n  \"b\": \"x\"\r\n}\r\n"},
		{"trailing comma and comment", "{\n  \"a\": 1, // one\n}\n", []string{"b"}, "x",
			"{\n  \"a\": 1, // one\n  \"b\": \"x\",\n}\n"},
		{"comment without comma", "{\n  \"a\": 1 // one\n}\n", []string{"b"}, "x",
			"{\n  \"a\": 1, // one\n  \"b\": \"x\"\n}\n"},
		{"replace", "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n", []string{"a", "b"}, []string{"x"},
			"{\n  \"a\": {\n    \"b\": [\n      \"x\"\n    ]\n  }\n}\n"},
		{"duplicate names, the last counts", `{"a": 1, "a": 2}`, []string{"a"}, "x",
			`{"a": 1, "a": "x"}`},
	} {
		got, err := jsonSet([]byte(c.src), c.path, c.val)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// A client whose file is the user's cannot be set up when the user's
// folders are not known.
func TestSetupNoUserDirs(t *testing.T) {
	for _, name := range []string{"codex", "claude-desktop"} {
		cl, _ := Lookup(name)
		if _, err := Setup(cl, Target{Root: t.TempDir(), Command: "/opt/snap"}, Options{Name: "snap"}); err == nil || !strings.Contains(err.Error(), "is not known") {
			t.Errorf("%s without the user's folders: %v", name, err)
		}
	}
}
