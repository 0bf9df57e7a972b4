package mcp

import (
	"context"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type resolveImportIn struct {
	Import   string `json:"import" jsonschema:"the import as written: net/http, ./utils, app.models.user, crate::store, <stdio.h>, App\\Models\\Order"`
	From     string `json:"from,omitempty" jsonschema:"the importing file (path or suffix): relative imports resolve from it, and its own imports come first"`
	Language string `json:"language,omitempty" jsonschema:"keep targets of this language"`
}

// importMatch is one thing an import may lead to.
type importMatch struct {
	// Match says how it was found: "import" (the indexer resolved imports
	// written this way to it), "qualified_name" (a module, package,
	// namespace or file of that name), "path" (a file at that path,
	// relative to from when it starts with . or ..), "suffix" (a module,
	// package or namespace whose name ends with it).
	Match string `json:"match"`
	sym
	Sites int    `json:"sites,omitempty"` // imports written this way that lead here
	At    string `json:"at,omitempty"`    // the first of them
}

type unresolvedImport struct {
	Reason string `json:"reason"`
	Sites  int    `json:"sites"`
	At     string `json:"at"`
}

type resolveImportOut struct {
	header
	Import      string             `json:"import"`
	Matches     []importMatch      `json:"matches"`
	Unresolved  []unresolvedImport `json:"unresolved,omitempty"`
	Suggestions []string           `json:"suggestions,omitempty"`
}

// maxImportMatches bounds the matches snap_resolve_import lists.
const maxImportMatches = 20

var resolveImportTool = newTool(
	"snap_resolve_import", "Resolve an import", ToolsetGraph,
	"Where an import, as written in any indexed language, leads: the files, modules, packages or namespaces "+
		"it resolves to, each with how it was matched (import: the indexer resolved it so; qualified_name; path; "+
		"suffix), how imports written this way were left unresolved and why (an external package), and "+
		"suggestions when nothing matches.",
	func(_ context.Context, e *query.Engine, in *resolveImportIn) (*resolveImportOut, *ToolError) {
		text := query.ImportText(in.Import)
		if text == "" {
			return nil, argErr("import", "must not be empty")
		}
		from := ""
		if in.From != "" {
			p, terr := resolveFile(e, "from", in.From)
			if terr != nil {
				return nil, terr
			}
			from = p
		}
		out := &resolveImportOut{Import: text, Matches: []importMatch{}}
		seen := map[int32]bool{}
		add := func(m importMatch, r int32) {
			n := e.Node(r)
			if seen[r] || in.Language != "" && n.Language != in.Language || len(out.Matches) >= maxImportMatches {
				return
			}
			seen[r] = true
			m.sym = symOf(e, r)
			out.Matches = append(out.Matches, m)
		}

		// What the indexer made of imports written this way: from's own
		// first, else everyone's.
		sites := e.ImportSites(text)
		if from != "" {
			if own := slices.DeleteFunc(slices.Clone(sites), func(i int32) bool { return e.Edge(i).File != from }); len(own) > 0 {
				sites = own
			}
		}
		type group struct {
			n     int
			first int32
		}
		resolved, unresolved := map[int32]*group{}, map[string]*group{}
		var order []int32
		var reasons []string
		for _, i := range sites {
			ed := e.Edge(i)
			if ed.DstRow >= 0 {
				g := resolved[ed.DstRow]
				if g == nil {
					g = &group{first: i}
					resolved[ed.DstRow] = g
					order = append(order, ed.DstRow)
				}
				g.n++
				continue
			}
			reason := ed.Reason
			if reason == "" {
				reason = ed.Resolution
			}
			g := unresolved[reason]
			if g == nil {
				g = &group{first: i}
				unresolved[reason] = g
				reasons = append(reasons, reason)
			}
			g.n++
		}
		sort.SliceStable(order, func(a, b int) bool { return resolved[order[a]].n > resolved[order[b]].n })
		for _, r := range order {
			g := resolved[r]
			add(importMatch{Match: "import", Sites: g.n, At: siteLoc(e.Edge(g.first))}, r)
		}
		for _, reason := range reasons {
			g := unresolved[reason]
			out.Unresolved = append(out.Unresolved, unresolvedImport{Reason: reason, Sites: g.n, At: siteLoc(e.Edge(g.first))})
		}

		// Modules, packages, namespaces and files of that name.
		for _, r := range e.Find(importName(text), "") {
			if isModuleLike(e.NodeKind(r)) {
				add(importMatch{Match: "qualified_name"}, r)
			}
		}
		// Files at that path.
		for _, p := range importPaths(e, text, from) {
			if r, ok := e.FileNode(p); ok {
				add(importMatch{Match: "path"}, r)
			}
		}
		// Names that end with it.
		if len(out.Matches) == 0 {
			for _, r := range e.Find(lastSegment(text), "") {
				n := e.Node(r)
				if isModuleLike(n.Kind) && n.Kind != schemas.KindFile && hasSegmentSuffix(n.QualifiedName, text) {
					add(importMatch{Match: "suffix"}, r)
				}
			}
		}
		if len(out.Matches) == 0 {
			out.Suggestions = e.Suggest(lastSegment(text), 5)
			out.Hint = "nothing in the snapshot matches: it may be external (a standard library or a dependency " +
				"outside the repository); snap_find_file finds files by pattern"
		}
		return out, nil
	})

// isModuleLike reports whether an import may name a node of kind k.
func isModuleLike(k string) bool {
	switch k {
	case schemas.KindFile, schemas.KindModule, schemas.KindPackage, schemas.KindNamespace:
		return true
	}
	return false
}

// importName is text as a qualified name: PHP's and C#'s namespaces
// separators aside, names are written as the languages write them.
func importName(text string) string {
	return strings.Trim(strings.ReplaceAll(text, `\`, "."), ".")
}

// lastSegment is the last name of text, whatever separates its names.
func lastSegment(text string) string {
	text = strings.TrimRight(text, "/.:\\")
	if i := strings.LastIndexAny(text, "/.:\\"); i >= 0 {
		return text[i+1:]
	}
	return text
}

// hasSegmentSuffix reports whether qname ends with text on a name
// boundary.
func hasSegmentSuffix(qname, text string) bool {
	text = importName(text)
	if qname == text {
		return true
	}
	rest, ok := strings.CutSuffix(qname, text)
	return ok && rest != "" && strings.ContainsRune("/.:", rune(rest[len(rest)-1]))
}

// importPaths returns the snapshot's files that text, read as a path
// (relative to from's folder when it starts with . or ..), may name: the
// path itself, with an extension, or a folder's index or init file.
func importPaths(e *query.Engine, text, from string) []string {
	p := strings.ReplaceAll(text, `\`, "/")
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." {
		if from == "" {
			return nil
		}
		p = path.Join(path.Dir(from), p)
	} else if strings.HasPrefix(p, "/") {
		return nil
	}
	p = path.Clean(p)
	if p == "." || strings.HasPrefix(p, "../") {
		return nil
	}
	all := e.AllPaths()
	var out []string
	for i := sort.SearchStrings(all, p); i < len(all) && strings.HasPrefix(all[i], p); i++ {
		rest := all[i][len(p):]
		switch {
		case rest == "",
			strings.HasPrefix(rest, ".") && !strings.Contains(rest[1:], "/") && !strings.Contains(rest[1:], "."),
			strings.HasPrefix(rest, "/") && isIndexFile(rest[1:]):
			out = append(out, all[i])
		}
	}
	return out
}

// isIndexFile reports whether name is the file a folder stands for when
// imported: index.ts, __init__.py, mod.rs, init.lua.
func isIndexFile(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	if strings.Contains(name, "/") {
		return false
	}
	switch base {
	case "index", "__init__", "mod", "init":
		return true
	}
	return false
}
