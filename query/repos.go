package query

import (
	"fmt"
	"sort"
	"strings"
)

// Repo is one of the repositories an engine serves together (package
// union). Every path of it begins with its name and a slash.
type Repo struct {
	Name   string // its name in the store
	Branch string
	Commit string
	// Counts of its own rows.
	Nodes, Edges, Files int
}

// Prefix is what every path of the repository begins with.
func (r Repo) Prefix() string { return r.Name + "/" }

// sortRepos returns a copy of repos sorted by name, or nil for none, and
// checks that no repository's name is a folder of another's.
func sortRepos(repos []Repo) ([]Repo, error) {
	if len(repos) == 0 {
		return nil, nil
	}
	repos = append([]Repo(nil), repos...)
	sort.Slice(repos, func(i, j int) bool { return repos[i].Name < repos[j].Name })
	for i := 1; i < len(repos); i++ {
		if a, b := repos[i-1].Prefix(), repos[i].Prefix(); a == b || strings.HasPrefix(b, a) {
			return nil, fmt.Errorf("repository %s lies inside %s: their paths would mix", repos[i].Name, repos[i-1].Name)
		}
	}
	return repos, nil
}

// Repos returns the repositories the engine serves together, sorted by
// name, or nil for an engine of one snapshot. The result must not be
// modified.
func (e *Engine) Repos() []Repo { return e.repos }

// Repo returns the repository named name.
func (e *Engine) Repo(name string) (Repo, bool) {
	name = strings.TrimSuffix(name, "/")
	i := sort.Search(len(e.repos), func(i int) bool { return e.repos[i].Name >= name })
	if i < len(e.repos) && e.repos[i].Name == name {
		return e.repos[i], true
	}
	return Repo{}, false
}

// RepoOf returns the repository a path of the engine belongs to: a path
// under its name, or its name itself.
func (e *Engine) RepoOf(path string) (Repo, bool) {
	if len(e.repos) == 0 {
		return Repo{}, false
	}
	// Names may hold slashes (github.com/x/a): try each folder of path,
	// and path itself (a package at a repository's top).
	for i := 0; i <= len(path); i++ {
		if i == len(path) || path[i] == '/' {
			if r, ok := e.Repo(path[:i]); ok {
				return r, true
			}
		}
	}
	return Repo{}, false
}

// Within returns a view of e for lookups in one of its repositories:
// names (Find, Search), paths (Paths, AllPaths), and the filters of
// Context and Rank keep what lies in repo only. Everything else, the
// graph above all, is e's: callers and impact still cross into other
// repositories. The view shares e's indexes; its fingerprint differs, so
// a cursor of one repository's answer is not taken for another's.
func (e *Engine) Within(repo Repo) *Engine {
	v := *e
	v.scope = repo.Prefix()
	v.fingerprint = e.fingerprint + "@" + repo.Name
	return &v
}

// InScope reports whether path lies in the repository of a Within view;
// every path does for an engine that is not one.
func (e *Engine) InScope(path string) bool {
	return e.scope == "" || strings.HasPrefix(path, e.scope) || path+"/" == e.scope
}
