package mcp

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/graphsnap/snap/query"
)

type findReferencesIn struct {
	target
	Kinds []string `json:"kinds,omitempty" enum:"calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds that count as a reference (default all of them)"`
	page
}

// reference is a symbol whose edge reaches the one asked about.
type reference struct {
	site
	Edge string `json:"edge"`
}

type findReferencesOut struct {
	header
	Symbol sym         `json:"symbol"`
	Kinds  []string    `json:"kinds"`
	Refs   []reference `json:"references"`
	Total  int         `json:"total"`
	Next   string      `json:"next_cursor,omitempty"`
}

// referenceKinds are every edge kind but contains.
var referenceKinds = []query.EdgeKind{query.Calls, query.Imports, query.Extends, query.Implements, query.References, query.Instantiates}

var findReferencesTool = newTool(
	"snap_find_references", "Find references", ToolsetSymbols,
	"Every resolved edge that reaches this symbol, whatever its kind (calls, imports, extends, implements, "+
		"references, instantiates), with the symbol it comes from and where it is written; kinds narrows them.",
	func(_ context.Context, e *query.Engine, in *findReferencesIn) (*findReferencesOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		kinds, names, err := edgeKinds("kinds", in.Kinds, referenceKinds)
		if err != nil {
			return nil, err
		}
		links := e.References(r, kinds)
		pg, next, err := paginate(e, &in.page, links)
		if err != nil {
			return nil, err
		}
		out := &findReferencesOut{Symbol: symOf(e, r), Kinds: names, Refs: make([]reference, len(pg)), Total: len(links), Next: next}
		for i, l := range pg {
			out.Refs[i] = reference{site: siteOf(e, l), Edge: e.Edge(l.Edge).Kind}
		}
		if len(links) == 0 {
			out.Hint = "nothing in the snapshot resolves to this symbol by these kinds; it may be reached dynamically"
		}
		return out, nil
	})

type listDirIn struct {
	Path string `json:"path,omitempty" jsonschema:"a folder relative to the repository root (default: the root)"`
	page
}

// dirEntry is a file or folder of the snapshot.
type dirEntry struct {
	Name     string `json:"name"`
	Dir      bool   `json:"dir,omitempty"`
	Language string `json:"language,omitempty"`
	Status   string `json:"status,omitempty"`
	Symbols  int    `json:"symbols,omitempty"`
}

type listDirOut struct {
	header
	Path    string     `json:"path"`
	Entries []dirEntry `json:"entries"`
	Total   int        `json:"total"`
	Next    string     `json:"next_cursor,omitempty"`
}

var listDirTool = newTool(
	"snap_list_dir", "List a folder", ToolsetFiles,
	"The files and folders the snapshot holds in a folder (never the local disk): for each file its language, "+
		"status (ok, parse_error, skipped_…) and number of symbols.",
	func(_ context.Context, e *query.Engine, in *listDirIn) (*listDirOut, *ToolError) {
		dir := strings.Trim(path.Clean("/"+in.Path), "/")
		if strings.HasPrefix(in.Path, "/") || strings.Contains("/"+in.Path+"/", "/../") {
			return nil, toolErr(CodePathOutsideRoot, map[string]string{"path": in.Path}, "path must be relative to the repository root, without ..")
		}
		prefix := ""
		if dir != "" {
			prefix = dir + "/"
		}
		var entries []dirEntry
		seen := map[string]bool{}
		for _, p := range e.AllPaths() {
			if !strings.HasPrefix(p, prefix) {
				continue
			}
			rest := p[len(prefix):]
			name, _, isDir := strings.Cut(rest, "/")
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			ent := dirEntry{Name: name, Dir: isDir}
			if !isDir {
				if f, ok := e.File(p); ok {
					ent.Language, ent.Status = f.Language, f.Status
				}
				ent.Symbols = len(e.FileSymbols(p))
			}
			entries = append(entries, ent)
		}
		if len(entries) == 0 && dir != "" {
			return nil, toolErr(CodeFileNotFound, map[string]string{"path": dir}, "the snapshot has no folder %s", dir)
		}
		slices.SortFunc(entries, func(a, b dirEntry) int {
			if a.Dir != b.Dir {
				if a.Dir {
					return -1
				}
				return 1
			}
			return strings.Compare(a.Name, b.Name)
		})
		pg, next, err := paginate(e, &in.page, entries)
		if err != nil {
			return nil, err
		}
		if pg == nil {
			pg = []dirEntry{}
		}
		return &listDirOut{Path: dir, Entries: pg, Total: len(entries), Next: next}, nil
	})

type findFileIn struct {
	Pattern string `json:"pattern" jsonschema:"a glob over paths (**/*_test.go, src/**/cart.*) or, without glob characters, a part of a path (cart.py)"`
	page
}

type findFileOut struct {
	header
	Paths []string `json:"paths"`
	Total int      `json:"total"`
	Next  string   `json:"next_cursor,omitempty"`
}

var findFileTool = newTool(
	"snap_find_file", "Find files", ToolsetFiles,
	"Paths of the snapshot matching a glob (doublestar: ** crosses folders) or containing a text, sorted.",
	func(_ context.Context, e *query.Engine, in *findFileIn) (*findFileOut, *ToolError) {
		pat := strings.TrimSpace(in.Pattern)
		if pat == "" {
			return nil, argErr("pattern", "required")
		}
		glob := strings.ContainsAny(pat, "*?[{")
		if glob && !doublestar.ValidatePattern(pat) {
			return nil, argErr("pattern", "%q is not a valid glob", pat)
		}
		var hits []string
		for _, p := range e.AllPaths() {
			if glob {
				if ok, _ := doublestar.Match(pat, p); ok {
					hits = append(hits, p)
				}
			} else if strings.Contains(p, pat) {
				hits = append(hits, p)
			}
		}
		pg, next, err := paginate(e, &in.page, hits)
		if err != nil {
			return nil, err
		}
		out := &findFileOut{Paths: pg, Total: len(hits), Next: next}
		if out.Paths == nil {
			out.Paths = []string{}
			out.Hint = "no path matches; snap_list_dir shows what a folder holds"
		}
		return out, nil
	})
