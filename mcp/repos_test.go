package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languages"
	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/union"
)

// indexTree writes files under a new folder and indexes it.
func indexTree(t *testing.T, commit string, files map[string]string) *snapshot.Snapshot {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: languages.All(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &snapshot.Snapshot{Manifest: schemas.Manifest{FormatVersion: schemas.FormatVersion, Commit: commit},
		Nodes: g.Nodes, Edges: g.Edges, Files: g.Files, Sources: g.Sources, Refs: g.Refs}
}

// twoRepos serves a library and an application that calls it, as one
// engine.
func twoRepos(t *testing.T) *mcp.Registry {
	t.Helper()
	lib := indexTree(t, "1111111", map[string]string{
		"go.mod":         "module example.com/lib\n\ngo 1.22\n",
		"greet/greet.go": "package greet\n\n// Hello greets.\nfunc Hello(name string) string { return \"hello \" + name }\n",
		"main.go":        "package main\n\nfunc main() {}\n",
	})
	app := indexTree(t, "2222222", map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"example.com/lib/greet\"\n\nfunc main() { println(greet.Hello(\"x\")) }\n",
	})
	s, repos, _, err := union.Merge([]union.Part{
		{Repo: "github.com/x/lib", Branch: "main", Snapshot: lib},
		{Repo: "github.com/x/app", Branch: "main", Snapshot: app},
	}, languages.All())
	if err != nil {
		t.Fatal(err)
	}
	e, err := query.BuildWith(s, query.BuildOptions{Repos: repos})
	if err != nil {
		t.Fatal(err)
	}
	h := new(query.Holder)
	h.Store(e)
	r, err := mcp.NewRegistry(h)
	if err != nil {
		t.Fatal(err)
	}
	r.WithRepos([]string{"github.com/x/app", "github.com/x/lib"})
	return r
}

func callOK(t *testing.T, r *mcp.Registry, tool, args string) map[string]any {
	t.Helper()
	out, isErr := r.CallJSON(context.Background(), tool, json.RawMessage(args))
	if isErr {
		t.Fatalf("%s %s: %s", tool, args, out)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRepos(t *testing.T) {
	r := twoRepos(t)

	// A name both repositories declare is ambiguous until repo says
	// where to look.
	if code, _, details := errorOf(t, r, "snap_find_symbol", `{"name":"main"}`); code != mcp.CodeAmbiguousSymbol {
		t.Errorf("main without repo: %s %v, want AMBIGUOUS_SYMBOL", code, details)
	}
	// The library's function: its caller is in the other repository.
	got := callOK(t, r, "snap_calls", `{"name":"Hello","repo":"github.com/x/lib"}`)
	callers, _ := got["callers"].([]any)
	if len(callers) != 1 || !strings.Contains(jsonOf(callers[0]), "github.com/x/app/main.go") {
		t.Errorf("callers of Hello = %s, want app's main", jsonOf(got))
	}
	// Search spans both, each result named by its path.
	got = callOK(t, r, "snap_search", `{"query":"main","kinds":["function"]}`)
	if s := jsonOf(got["results"]); !strings.Contains(s, "github.com/x/app/main.go") || !strings.Contains(s, "github.com/x/lib/main.go") {
		t.Errorf("search main = %s, want both repositories' main", s)
	}
	got = callOK(t, r, "snap_search", `{"query":"main","kinds":["function"],"repo":"github.com/x/lib"}`)
	if s := jsonOf(got["results"]); strings.Contains(s, "github.com/x/app/") || !strings.Contains(s, "github.com/x/lib/main.go") {
		t.Errorf("search main in lib = %s, want lib's only", s)
	}
	// Paths relative to the repository.
	got = callOK(t, r, "snap_read_file", `{"file":"main.go","repo":"github.com/x/app"}`)
	if got["file"] != "github.com/x/app/main.go" || !strings.Contains(jsonOf(got), "greet.Hello") {
		t.Errorf("read_file main.go in app = %s", jsonOf(got))
	}
	// snap_status lists both, with their commits.
	got = callOK(t, r, "snap_status", `{}`)
	if s := jsonOf(got["repos"]); !strings.Contains(s, `"commit":"1111111"`) || !strings.Contains(s, `"commit":"2222222"`) {
		t.Errorf("status repos = %s", s)
	}
	// A repository the server does not have.
	if code, msg, _ := errorOf(t, r, "snap_calls", `{"name":"Hello","repo":"github.com/x/nope"}`); code != mcp.CodeInvalidArgument || !strings.Contains(msg, "github.com/x/lib") {
		t.Errorf("unknown repo: %s %q", code, msg)
	}
	// Every tool that looks names or paths up declares repo.
	for _, tool := range r.Tools() {
		has := strings.Contains(string(tool.InputSchema), `"repo"`)
		if want := !tool.Offline && tool.Toolset != mcp.ToolsetIndex; has != want {
			t.Errorf("%s: declares repo %v, want %v", tool.Name, has, want)
		}
	}
}

// TestReposSingle: a server of one snapshot neither declares nor takes
// repo.
func TestReposSingle(t *testing.T) {
	r := registry(t, holder(t))
	for _, tool := range r.Tools() {
		if strings.Contains(string(tool.InputSchema), `"repo"`) {
			t.Errorf("%s declares repo", tool.Name)
		}
	}
	if code, msg, _ := errorOf(t, r, "snap_search", `{"query":"Do","repo":"x"}`); code != mcp.CodeInvalidArgument || !strings.Contains(msg, `"repo"`) {
		t.Errorf("repo on a single snapshot: %s %q", code, msg)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
