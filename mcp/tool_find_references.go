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
	Kinds []string `json:"kinds,omitempty" enum:"calls,imports,extends,implements,references,instantiates" jsonschema:"edge kinds that count (default all)"`
	tests
	page
	budget
}

// reference is a symbol whose edge reaches the one asked about.
type reference struct {
	site
	Edge string `json:"edge"`
}

type findReferencesOut struct {
	header
	Symbol sym         `json:"symbol"`
	Kinds  []string    `json:"kinds,omitempty"` // when the call chose them
	Refs   []reference `json:"references"`
	Tests  int         `json:"tests,omitempty"` // of total, how many are from test code
	listed
}

// referenceKinds are every edge kind but contains.
var referenceKinds = []query.EdgeKind{query.Calls, query.Imports, query.Extends, query.Implements, query.References, query.Instantiates}

var findReferencesTool = newTool(
	"snap_find_references", "Find references", ToolsetSymbols,
	"Every place that uses a symbol, by any edge (calls, imports, extends, implements, references, "+
		"instantiates), non-test code first; kinds narrows them.",
	func(_ context.Context, e *query.Engine, in *findReferencesIn) (*findReferencesOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		kinds, _, err := edgeKinds("kinds", in.Kinds, referenceKinds)
		if err != nil {
			return nil, err
		}
		mode, err := in.mode(testsInclude)
		if err != nil {
			return nil, err
		}
		out := &findReferencesOut{Symbol: subjectOf(e, r), Kinds: in.Kinds, Refs: []reference{}}
		links, tests := byTests(mode, e.References(r, kinds), func(l query.Link) bool { return e.IsTest(l.Node) })
		out.Tests = tests
		err = pageOf(e, &in.page, &in.budget, DefaultMaxTokens, out, &out.listed, links, func(pg []query.Link) {
			out.Refs = out.Refs[:0]
			for i, s := range sitesOf(e, pg) {
				out.Refs = append(out.Refs, reference{site: s, Edge: e.Edge(pg[i].Edge).Kind})
			}
		})
		if err != nil {
			return nil, err
		}
		if len(links) == 0 {
			out.Hint = "nothing in the snapshot resolves to this symbol by these kinds; it may be reached dynamically"
		}
		if h := testsHint(mode, tests); h != "" && out.Hint == "" {
			out.Hint = h
		}
		return out, nil
	})

type listDirIn struct {
	Dir string `json:"dir,omitempty" jsonschema:"a folder relative to the repository root (default: the root)"`
	tests
	page
	budget
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
	Dir     string     `json:"dir"`
	Entries []dirEntry `json:"entries"`
	Tests   int        `json:"tests,omitempty"` // of the files, how many are test files
	listed
}

var listDirTool = newTool(
	"snap_list_dir", "List a folder", ToolsetFiles,
	"The files and folders the snapshot holds in a folder (never the local disk): for each file its language, "+
		"status (ok, parse_error, skipped_…) and number of symbols.",
	func(_ context.Context, e *query.Engine, in *listDirIn) (*listDirOut, *ToolError) {
		dir := strings.Trim(path.Clean("/"+in.Dir), "/")
		if strings.HasPrefix(in.Dir, "/") || strings.Contains("/"+in.Dir+"/", "/../") {
			return nil, toolErr(CodePathOutsideRoot, map[string]string{"dir": in.Dir}, "dir must be relative to the repository root, without ..")
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
			return nil, toolErr(CodeFileNotFound, map[string]string{"dir": dir}, "the snapshot has no folder %s", dir)
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
		mode, terr := in.mode(testsInclude)
		if terr != nil {
			return nil, terr
		}
		out := &listDirOut{Dir: dir}
		entries, out.Tests = byTests(mode, entries, func(d dirEntry) bool { return !d.Dir && isTestFile(e, prefix+d.Name) })
		if err := pageOf(e, &in.page, &in.budget, DefaultMaxTokens, out, &out.listed, entries, func(pg []dirEntry) { out.Entries = pg }); err != nil {
			return nil, err
		}
		return out, nil
	})

type findFileIn struct {
	Pattern string `json:"pattern" jsonschema:"a glob over paths (**/*_test.go, src/**/cart.*) or, without glob characters, a part of a path (cart.py)"`
	tests
	page
	budget
}

type findFileOut struct {
	header
	Paths []string `json:"paths"`
	Tests int      `json:"tests,omitempty"` // of total, how many are test files
	listed
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
		mode, terr := in.mode(testsInclude)
		if terr != nil {
			return nil, terr
		}
		out := &findFileOut{}
		hits, out.Tests = byTests(mode, hits, func(p string) bool { return isTestFile(e, p) })
		if err := pageOf(e, &in.page, &in.budget, DefaultMaxTokens, out, &out.listed, hits, func(pg []string) { out.Paths = pg }); err != nil {
			return nil, err
		}
		if len(hits) == 0 {
			out.Hint = "no path matches; snap_list_dir shows what a folder holds"
		}
		return out, nil
	})

// isTestFile reports whether the snapshot marks the file at p as tests.
func isTestFile(e *query.Engine, p string) bool {
	f, ok := e.File(p)
	return ok && f.IsTest
}
