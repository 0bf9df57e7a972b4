package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/graphsnap/snap/query"
)

// A server of several repositories (package union) answers from one
// engine whose paths begin with each repository's name. Every tool that
// looks names or paths up then takes "repo": the lookups keep that
// repository's symbols and files, and paths may be given relative to it.
// Answers still follow edges into the other repositories: callers of a
// library's function are found in the repositories that call it.

const repoArgName = "repo"

type repoScopeKey struct{}

// repoScoped reports whether the call may carry a repo argument: its
// engine serves several repositories.
func repoScoped(ctx context.Context) bool {
	v, _ := ctx.Value(repoScopeKey{}).(bool)
	return v
}

// WithRepos makes the tools that look names or paths up declare a "repo"
// argument naming one of repos: for a server whose engine joins several
// repositories. Calls take "repo" whenever the engine has repositories.
func (r *Registry) WithRepos(repos []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.repos = slices.Clone(repos)
	r.rebuild()
}

// scoped tools are those whose answers depend on where a name or path is
// looked up: every tool that reads the engine, but those that describe
// the whole engine.
func scoped(t *Tool) bool {
	return !t.Offline && t.Toolset != ToolsetIndex
}

// withRepo returns a copy of t whose input schema adds "repo".
func withRepo(t *Tool, repos []string) *Tool {
	var schema map[string]any
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
		panic(fmt.Sprintf("mcp: %s: input schema: %v", t.Name, err))
	}
	props, _ := schema["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		schema["properties"] = props
	}
	p := map[string]any{"type": "string",
		"description": "look names and paths up in this repository (paths may be relative to it); answers still cross into the others"}
	if len(repos) > 0 && len(repos) <= maxRepoEnum {
		p["enum"] = repos
	}
	props[repoArgName] = p
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("mcp: %s: input schema: %v", t.Name, err))
	}
	c := *t
	c.InputSchema = raw
	return &c
}

// maxRepoEnum bounds the repositories an input schema lists: past it, the
// list costs every client more tokens than a failed call.
const maxRepoEnum = 50

// scope returns the view of e a call's "repo" argument asks for, e itself
// when it names none.
func scope(e *query.Engine, args json.RawMessage) (*query.Engine, *ToolError) {
	if len(e.Repos()) == 0 || !bytes.Contains(args, []byte(`"`+repoArgName+`"`)) {
		return e, nil
	}
	var a struct {
		Repo *string `json:"repo"`
	}
	if err := json.Unmarshal(args, &a); err != nil || a.Repo == nil {
		return e, nil // decode says what is wrong with the arguments
	}
	repo, ok := e.Repo(*a.Repo)
	if !ok {
		names := make([]string, len(e.Repos()))
		for i, r := range e.Repos() {
			names[i] = r.Name
		}
		return nil, toolErr(CodeInvalidArgument, map[string]any{"argument": repoArgName, "repos": names},
			"no repository %q in this server; it serves %s", *a.Repo, strings.Join(names, ", "))
	}
	return e.Within(repo), nil
}

// repoInfo is one repository of a server that joins several.
type repoInfo struct {
	Name   string `json:"name"`
	Branch string `json:"branch,omitempty"`
	Commit string `json:"commit"`
	Files  int    `json:"files"`
	Nodes  int    `json:"nodes"`
	Edges  int    `json:"edges"`
}

func reposOf(e *query.Engine) []repoInfo {
	if e == nil || len(e.Repos()) == 0 {
		return nil
	}
	out := make([]repoInfo, len(e.Repos()))
	for i, r := range e.Repos() {
		out[i] = repoInfo{Name: r.Name, Branch: r.Branch, Commit: r.Commit, Files: r.Files, Nodes: r.Nodes, Edges: r.Edges}
	}
	return out
}
