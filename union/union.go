// Package union joins the snapshots of several repositories into one code
// graph, so that one server answers for all of them and a caller in one
// repository of a function in another is found.
//
// Each repository keeps its own rows as its snapshot has them: every path
// is put under the repository's name (github.com/x/a/pkg/f.go), every id
// is made distinct (a file's id is the id of its new path), and nothing a
// snapshot resolved is resolved again. What no single snapshot can know is
// then added: the edges a language makes provable across repositories. The
// resolvers of those languages run over the repositories together, and an
// edge they find is taken only when it starts in one repository and ends in
// another, at a site its own snapshot left unresolved (or, for implements
// and extends, where its own snapshot had nothing to say), and when the
// symbol it reaches is declared in one loaded repository only: a module
// present twice (a fork beside its original) links to neither.
package union

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Part is one repository's snapshot.
type Part struct {
	Repo, Branch string
	// Snapshot must hold its refs: they are what cross-repository
	// resolution reads. It is not modified.
	Snapshot *snapshot.Snapshot
}

// CrossLanguages are the languages whose references are linked across
// repositories, because their imports name what they reach the same way
// wherever a repository is put: Go import paths (which go.mod ties to a
// module), Java and Kotlin packages, npm package names (a package.json's
// name and its exports, types and main: the entry facts) and Python
// module names. An npm or Python link also needs the importing module's
// distribution to declare the one it reaches (the dist facts of
// package.json and pyproject.toml): a Python module name alone proves
// nothing, two repositories may both have a utils package.
var CrossLanguages = []string{"go", "java", "kotlin", "typescript", "tsx", "javascript", "python"}

// pathNamed are the languages whose qualified names are paths of the
// tree, so two repositories declare the same one by layout alone
// (src/index.main): a symbol of theirs is told apart by its file.
var pathNamed = map[string]bool{"typescript": true, "tsx": true, "javascript": true}

// Stats say what a merge found.
type Stats struct {
	Cross int // edges from one repository to another
}

// Merge joins parts into one snapshot, without refs, with the
// repositories it holds, for query.BuildOptions.Repos. langs are the
// indexer's languages; those named in CrossLanguages are run across the
// parts.
func Merge(parts []Part, langs []indexer.Language) (*snapshot.Snapshot, []query.Repo, Stats, error) {
	var st Stats
	if len(parts) == 0 {
		return nil, nil, st, fmt.Errorf("no repository to serve")
	}
	parts = slices.Clone(parts)
	slices.SortFunc(parts, func(a, b Part) int { return cmp.Compare(a.Repo, b.Repo) })
	for i, p := range parts {
		if err := checkName(p.Repo); err != nil {
			return nil, nil, st, err
		}
		if i > 0 && strings.HasPrefix(p.Repo+"/", parts[i-1].Repo+"/") {
			return nil, nil, st, fmt.Errorf("repository %s lies inside %s: their paths would mix", p.Repo, parts[i-1].Repo)
		}
	}
	out := &snapshot.Snapshot{Manifest: manifest(parts)}
	repos := make([]query.Repo, len(parts))
	// By row of out.Nodes: the part it comes from, and whether a resolver
	// made it (a package, a module: its file is not a file of the
	// snapshot).
	var partOf []int
	var linker []bool
	movers := relocators(langs)
	for i, p := range parts {
		s := p.Snapshot
		m := s.Manifest
		repos[i] = query.Repo{Name: p.Repo, Branch: cmp.Or(p.Branch, m.Branch), Commit: m.Commit,
			Nodes: len(s.Nodes), Edges: len(s.Edges), Files: len(s.Files)}
		pre := p.Repo + "/"
		files := make(map[string]bool, len(s.Files))
		langOf := make(map[string]string, len(s.Files))
		for _, f := range s.Files {
			files[f.Path] = true
			langOf[f.Path] = f.Language
			f.Path = pre + f.Path
			out.Files = append(out.Files, f)
		}
		for _, src := range s.Sources {
			src.Path = pre + src.Path
			out.Sources = append(out.Sources, src)
		}
		ids := make(map[uint64]uint64, len(s.Nodes))
		for _, n := range s.Nodes {
			if n.Kind == schemas.KindFile {
				ids[n.ID] = indexer.FileID(pre + n.File)
			} else {
				ids[n.ID] = mix(pre, n.ID)
			}
		}
		for _, n := range s.Nodes {
			made := !files[n.File]
			n.ID = ids[n.ID]
			if n.ParentID != 0 {
				id, ok := ids[n.ParentID]
				if !ok {
					return nil, nil, st, fmt.Errorf("%s: node %s (%s): parent %d is not a node", p.Repo, n.QualifiedName, n.File, n.ParentID)
				}
				n.ParentID = id
			}
			n.File = under(pre, n.File)
			if n.Kind == schemas.KindFile {
				n.QualifiedName = n.File
			}
			out.Nodes = append(out.Nodes, n)
			partOf = append(partOf, i)
			linker = append(linker, made)
		}
		for _, e := range s.Edges {
			src, ok := ids[e.Src]
			if !ok {
				return nil, nil, st, fmt.Errorf("%s: edge %s at %s:%d: source %d is not a node", p.Repo, e.Kind, e.File, e.Line, e.Src)
			}
			e.Src = src
			if e.Dst != 0 {
				if e.Dst, ok = ids[e.Dst]; !ok {
					return nil, nil, st, fmt.Errorf("%s: edge %s at %s:%d: destination is not a node", p.Repo, e.Kind, e.File, e.Line)
				}
			}
			e.File = pre + e.File
			out.Edges = append(out.Edges, e)
		}
		for _, r := range s.Refs {
			if id, ok := ids[r.Src]; ok {
				r.Src = id
			} else {
				r.Src = mix(pre, r.Src)
			}
			if m := movers[langOf[r.File]]; m != nil {
				m.Relocate(&r, p.Repo)
			}
			r.File = pre + r.File
			out.Refs = append(out.Refs, r)
		}
	}
	if len(parts) > 1 {
		st.Cross = cross(out, partOf, linker, langs)
	}
	// The join is served, never written, and no resolver reads it again.
	out.Refs = nil
	if err := finish(out); err != nil {
		return nil, nil, st, err
	}
	out.Manifest.Counts = counts(out)
	return out, repos, st, nil
}

// checkName refuses a repository name that cannot head paths.
func checkName(name string) error {
	if name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || path.Clean(name) != name ||
		name == "." || name == ".." || strings.HasPrefix(name, "../") {
		return fmt.Errorf("repository name %q cannot head paths: want a clean relative name like github.com/owner/repo", name)
	}
	return nil
}

// under puts a path of a repository under its prefix; "." is the
// repository's own folder.
func under(pre, p string) string {
	if p == "." || p == "" {
		return strings.TrimSuffix(pre, "/")
	}
	return pre + p
}

// mix makes a node id distinct to its repository: ids hash names and
// paths, which two repositories may share (two main.go, a fork).
func mix(pre string, id uint64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], id)
	d := xxhash.New()
	d.WriteString(pre)
	d.Write(b[:])
	if v := d.Sum64(); v != 0 {
		return v
	}
	return 1
}

// siteKey names an edge by where it is and what it reads, not by what it
// reached.
type siteKey struct {
	src        uint64
	kind, file string
	line, col  uint32
	target     string
}

func siteOf(e *schemas.Edge) siteKey {
	return siteKey{e.Src, e.Kind, e.File, e.Line, e.Col, e.Target}
}

// symKey is what a reached symbol must be the only one of across the
// repositories (file is set for pathNamed languages only).
type symKey struct{ language, kind, qname, file string }

func symOf(n *schemas.Node) symKey {
	k := symKey{n.Language, n.Kind, n.QualifiedName, ""}
	if pathNamed[n.Language] {
		k.file = n.File
	}
	return k
}

// relocators returns the languages of langs whose refs hold tree paths.
func relocators(langs []indexer.Language) map[string]indexer.Relocator {
	out := make(map[string]indexer.Relocator)
	for _, l := range langs {
		if r, ok := l.(indexer.Relocator); ok {
			out[l.Name()] = r
		}
	}
	return out
}

// dist is a module's dist fact: its distribution and those it depends on.
type dist struct{ name, requires string }

// distGate reports whether an edge from a module of file from to one of
// file to may cross repositories: when the target belongs to a
// distribution, the source's must declare it; Python code outside any
// distribution is never reached (its module names prove nothing).
func distGate(dists map[string]dist, from, to *schemas.Node) bool {
	d, ok := dists[to.File]
	if !ok {
		return to.Language != "python"
	}
	s, ok := dists[from.File]
	return ok && slices.Contains(strings.Fields(s.requires), d.name)
}

// cross runs the resolvers of CrossLanguages over every part at once and
// takes the edges from one repository to another (see the package
// comment). partOf and linker describe out.Nodes row by row. It returns
// how many edges it took.
func cross(out *snapshot.Snapshot, partOf []int, linker []bool, langs []indexer.Language) int {
	var use []indexer.Language
	for _, l := range langs {
		if slices.Contains(CrossLanguages, l.Name()) {
			use = append(use, l)
		}
	}
	if len(use) == 0 {
		return 0
	}
	fileLang := make(map[string]string, len(out.Files))
	for _, f := range out.Files {
		fileLang[f.Path] = f.Language
	}
	row := make(map[uint64]int, len(out.Nodes))
	for i, n := range out.Nodes {
		row[n.ID] = i
	}
	// The resolvers see the nodes extraction made, as a fresh run would:
	// file nodes without a parent, and no package a resolver made.
	var scratch []schemas.Node
	for i, n := range out.Nodes {
		if linker[i] || !slices.ContainsFunc(use, func(l indexer.Language) bool { return l.Name() == n.Language }) {
			continue
		}
		if n.Kind == schemas.KindFile {
			n.ParentID = 0
		} else if n.ParentID != 0 {
			if r, ok := row[n.ParentID]; !ok || linker[r] {
				n.ParentID = indexer.FileID(n.File)
			}
		}
		scratch = append(scratch, n)
	}
	slices.SortFunc(scratch, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
	refs := make(map[indexer.Language][]schemas.Ref)
	dists := make(map[string]dist)
	for _, r := range out.Refs {
		if r.Kind == schemas.RefDist {
			dists[r.File] = dist{r.Target, r.Expr}
		}
		for _, l := range use {
			if fileLang[r.File] == l.Name() {
				refs[l] = append(refs[l], r)
			}
		}
	}
	newNodes, edges := indexer.Resolve(scratch, use, refs)

	// A node a resolver made here stands for the one the repository's
	// own snapshot has: the same language, kind, name and folder.
	type madeKey struct{ language, kind, qname, file string }
	own := make(map[madeKey]uint64)
	declared := make(map[symKey]int) // the part declaring it; -1 for several
	for i, n := range out.Nodes {
		if linker[i] {
			own[madeKey{n.Language, n.Kind, n.QualifiedName, n.File}] = n.ID
		}
		k := symOf(&n)
		if p, ok := declared[k]; ok && p != partOf[i] {
			declared[k] = -1
		} else {
			declared[k] = partOf[i]
		}
	}
	alias := make(map[uint64]uint64, len(newNodes))
	for _, n := range newNodes {
		if id, ok := own[madeKey{n.Language, n.Kind, n.QualifiedName, n.File}]; ok {
			alias[n.ID] = id
		}
	}
	open := make(map[siteKey]int)
	have := make(map[siteKey]bool)
	for i := range out.Edges {
		e := &out.Edges[i]
		if e.Dst == 0 {
			open[siteOf(e)] = i
		} else {
			have[siteOf(e)] = true
		}
	}
	n := 0
	for _, e := range edges {
		if e.Dst == 0 {
			continue
		}
		if id, ok := alias[e.Dst]; ok {
			e.Dst = id
		}
		from, ok1 := row[e.Src]
		to, ok2 := row[e.Dst]
		if !ok1 || !ok2 || partOf[from] == partOf[to] {
			continue
		}
		dst := &out.Nodes[to]
		if declared[symOf(dst)] < 0 {
			continue // declared in two repositories: a fork, a copy
		}
		if !distGate(dists, &out.Nodes[from], dst) {
			continue // no declared dependency between their distributions
		}
		site := siteOf(&e)
		if i, ok := open[site]; ok {
			o := &out.Edges[i]
			o.Dst, o.Resolution, o.Confidence, o.Reason = e.Dst, e.Resolution, e.Confidence, ""
			delete(open, site)
			n++
			continue
		}
		if (e.Kind == schemas.EdgeImplements || e.Kind == schemas.EdgeExtends) && !have[site] {
			out.Edges = append(out.Edges, e)
			have[site] = true
			n++
		}
	}
	return n
}

// finish sorts every table in its order and fills the rows of the edges'
// ends.
func finish(s *snapshot.Snapshot) error {
	slices.SortFunc(s.Nodes, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
	ids, err := indexer.NodeIDs(s.Nodes)
	if err != nil {
		return err
	}
	if _, err := indexer.FillRows(s.Edges, ids); err != nil {
		return err
	}
	s.Edges = indexer.SortEdges(s.Edges)
	slices.SortFunc(s.Files, func(a, b schemas.File) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortFunc(s.Sources, func(a, b schemas.Source) int { return cmp.Compare(a.Path, b.Path) })
	return nil
}

// manifest describes the union: no one repository's, so no commit of its
// own; the parts are listed by query.Engine.Repos.
func manifest(parts []Part) schemas.Manifest {
	m := parts[0].Snapshot.Manifest
	names := make([]string, len(parts))
	h := xxhash.New()
	for i, p := range parts {
		names[i] = p.Repo
		h.WriteString(p.Repo + "\x00" + p.Snapshot.Manifest.Commit + "\x00")
	}
	out := schemas.Manifest{
		FormatVersion: m.FormatVersion, FeatureVersion: m.FeatureVersion,
		Repo:      strings.Join(names, ","),
		Commit:    fmt.Sprintf("repos-%016x", h.Sum64()),
		IndexedAt: m.IndexedAt,
		Indexer:   m.Indexer,
		Grammars:  map[string]string{},
	}
	for _, p := range parts {
		pm := p.Snapshot.Manifest
		if pm.FeatureVersion != out.FeatureVersion {
			out.FeatureVersion = 0 // parts made differently: the union compares with nothing
		}
		if pm.IndexedAt.After(out.IndexedAt) {
			out.IndexedAt = pm.IndexedAt
		}
		for k, v := range pm.Grammars {
			out.Grammars[k] = v
		}
		out.Dirty = out.Dirty || pm.Dirty
	}
	return out
}

func counts(s *snapshot.Snapshot) schemas.Counts {
	c := schemas.Counts{Files: len(s.Files), Nodes: len(s.Nodes), Edges: len(s.Edges), Languages: map[string]int{}}
	for _, f := range s.Files {
		if f.Language != "" {
			c.Languages[f.Language]++
		}
		if f.Status == schemas.StatusParseError {
			c.ParseErrors++
		}
	}
	for _, e := range s.Edges {
		if e.Dst == 0 {
			c.Unresolved++
		}
	}
	return c
}
