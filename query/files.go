package query

import (
	"cmp"
	"slices"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

func (e *Engine) buildFiles(s *snapshot.Snapshot) {
	e.fileByPath = make(map[string]int32, len(s.Files))
	e.sources = make(map[string][]byte, len(s.Sources))
	e.fileSymbols = map[string][]int32{}
	e.fileNodes = map[string]int32{}
	e.stats.Files = len(s.Files)
	e.stats.Sources = len(s.Sources)
	e.stats.FilesByLanguage = map[string]int{}
	e.stats.FilesByStatus = map[string]int{}
	known := map[string]bool{}
	add := func(p string) {
		if p != "" && !known[p] {
			known[p] = true
			e.paths = append(e.paths, p)
		}
	}
	for i := range s.Files {
		f := &s.Files[i]
		e.fileByPath[f.Path] = int32(i)
		if f.Language != "" {
			e.stats.FilesByLanguage[f.Language]++
		}
		e.stats.FilesByStatus[f.Status]++
		add(f.Path)
	}
	for _, src := range s.Sources {
		e.sources[src.Path] = src.Content
		add(src.Path)
	}
	for r := range e.nodes {
		n := &e.nodes[r]
		add(n.File)
		if n.Kind != schemas.KindFile {
			e.fileSymbols[n.File] = append(e.fileSymbols[n.File], int32(r))
		} else {
			e.fileNodes[n.File] = int32(r)
		}
	}
	slices.Sort(e.paths)
	for _, rows := range e.fileSymbols {
		slices.SortFunc(rows, func(a, b int32) int {
			x, y := &e.nodes[a], &e.nodes[b]
			return cmp.Or(
				cmp.Compare(x.StartLine, y.StartLine),
				cmp.Compare(x.StartCol, y.StartCol),
				cmp.Compare(y.EndLine, x.EndLine), // enclosing before enclosed
				cmp.Compare(y.EndCol, x.EndCol),
				cmp.Compare(a, b))
		})
	}
}

// FileNode returns the row of the file node of path.
func (e *Engine) FileNode(path string) (int32, bool) {
	r, ok := e.fileNodes[path]
	return r, ok
}

// File returns the files-table row of path.
func (e *Engine) File(path string) (*schemas.File, bool) {
	i, ok := e.fileByPath[path]
	if !ok {
		return nil, false
	}
	return &e.files[i], true
}

// Paths returns the paths the snapshot knows (files, sources, symbols'
// files) that filter designates: filter itself if known, else every path
// ending with it at a '/' (see MatchFile), sorted.
func (e *Engine) Paths(filter string) []string {
	if _, ok := slices.BinarySearch(e.paths, filter); ok && e.InScope(filter) {
		return []string{filter}
	}
	if e.scope != "" {
		// A path relative to the repository the lookup is scoped to.
		if _, ok := slices.BinarySearch(e.paths, e.scope+filter); ok {
			return []string{e.scope + filter}
		}
	}
	var out []string
	for _, p := range e.AllPaths() {
		if MatchFile(p, filter) {
			out = append(out, p)
		}
	}
	return out
}

// HasSources reports whether the snapshot carries file contents.
func (e *Engine) HasSources() bool { return len(e.sources) > 0 }

// Source returns the content of the file at path, as indexed. The bytes are
// shared: do not modify them.
func (e *Engine) Source(path string) ([]byte, bool) {
	b, ok := e.sources[path]
	return b, ok
}

// Body returns the source text of node r, from its file's content and its
// byte range, if the snapshot holds that content and the range fits it.
func (e *Engine) Body(r int32) ([]byte, bool) {
	n := &e.nodes[r]
	src, ok := e.sources[n.File]
	if !ok || n.StartByte > n.EndByte || int(n.EndByte) > len(src) {
		return nil, false
	}
	return src[n.StartByte:n.EndByte], true
}

// FileSymbols returns the rows of the symbols declared in the file at path
// (every node but the file's own), in source order: by start position, an
// enclosing symbol before those it encloses. ParentID gives the nesting.
// The slice is shared: do not modify it.
func (e *Engine) FileSymbols(path string) []int32 {
	return e.fileSymbols[path]
}

// Files returns the files table, sorted by path. The rows are shared: do
// not modify them.
func (e *Engine) Files() []schemas.File { return e.files }

// AllPaths returns every path the snapshot knows (within the repository
// of a Within view), sorted. The slice is shared: do not modify it.
func (e *Engine) AllPaths() []string {
	if e.scope == "" {
		return e.paths
	}
	lo, _ := slices.BinarySearch(e.paths, e.scope)
	hi, _ := slices.BinarySearch(e.paths, e.scope[:len(e.scope)-1]+"0") // '0' follows '/'
	return e.paths[lo:hi]
}
