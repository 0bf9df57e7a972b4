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
	e.fileNodes = map[string]int32{}
	e.stats.Files = len(s.Files)
	e.stats.Sources = len(s.Sources)
	if e.sourceFiles = s.SourceFiles; e.sourceFiles != nil {
		e.stats.Sources = e.sourceFiles.Len()
	}
	e.stats.FilesByLanguage = map[string]int{}
	e.stats.FilesByStatus = map[string]int{}
	// Every path gets a slot, in order of appearance: one map lookup per
	// node finds its file's slot, which counts its symbols.
	slots := make(map[string]int32, len(s.Files))
	var slotPaths []string
	slot := func(p string) int32 {
		i, ok := slots[p]
		if !ok {
			i = int32(len(slotPaths))
			slots[p] = i
			slotPaths = append(slotPaths, p)
			if p != "" {
				e.paths = append(e.paths, p)
			}
		}
		return i
	}
	for i := range s.Files {
		f := &s.Files[i]
		e.fileByPath[f.Path] = int32(i)
		if f.Language != "" {
			e.stats.FilesByLanguage[f.Language]++
		}
		e.stats.FilesByStatus[f.Status]++
		slot(f.Path)
	}
	for _, src := range s.Sources {
		e.sources[src.Path] = src.Content
		slot(src.Path)
	}
	if e.sourceFiles != nil {
		for _, p := range e.sourceFiles.Paths() {
			slot(p)
		}
	}
	fileOf := make([]int32, len(e.nodes)) // row → its file's slot, -1 for a file node
	var symbols []uint32                  // by slot
	for r := range e.nodes {
		file := e.NodeFile(int32(r))
		i := slot(file)
		if e.NodeKind(int32(r)) == schemas.KindFile {
			e.fileNodes[file] = int32(r)
			fileOf[r] = -1
			continue
		}
		fileOf[r] = i
		if fi, ok := e.fileByPath[file]; ok && s.Files[fi].IsGenerated {
			e.nodes[r].flags |= isGenerated
		}
		if int(i) >= len(symbols) {
			symbols = append(symbols, make([]uint32, len(slotPaths)-len(symbols))...)
		}
		symbols[i]++
	}
	slices.Sort(e.paths)

	// The symbols of all files share one array, each file's capped.
	off := make([]uint32, len(symbols)+1)
	for i, c := range symbols {
		off[i+1] = off[i] + c
	}
	rows := make([]int32, off[len(symbols)])
	next := slices.Clone(off[:len(symbols)])
	for r, i := range fileOf {
		if i >= 0 {
			rows[next[i]] = int32(r)
			next[i]++
		}
	}
	e.fileSymbols = make(map[string][]int32, len(symbols))
	type key struct {
		start, end uint64 // end complemented: enclosing before enclosed
		row        int32
	}
	var keys []key
	for i, c := range symbols {
		if c == 0 {
			continue
		}
		file := rows[off[i]:off[i+1]:off[i+1]]
		keys = keys[:0]
		for _, r := range file {
			n := &e.nodes[r]
			keys = append(keys, key{uint64(n.startLine)<<32 | uint64(n.startCol), ^(uint64(n.endLine)<<32 | uint64(n.endCol)), r})
		}
		slices.SortFunc(keys, func(a, b key) int {
			return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.row, b.row))
		})
		for j, k := range keys {
			file[j] = k.row
		}
		e.fileSymbols[slotPaths[i]] = file
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
func (e *Engine) HasSources() bool { return e.stats.Sources > 0 }

// Source returns the content of the file at path, as indexed. The bytes are
// shared: do not modify them.
func (e *Engine) Source(path string) ([]byte, bool) {
	if e.sourceFiles != nil {
		return e.sourceFiles.Content(path)
	}
	b, ok := e.sources[path]
	return b, ok
}

// Body returns the source text of node r, from its file's content and its
// byte range, if the snapshot holds that content and the range fits it.
func (e *Engine) Body(r int32) ([]byte, bool) {
	n := &e.nodes[r]
	src, ok := e.Source(e.nt.files[n.file])
	if !ok || n.startByte > n.endByte || int(n.endByte) > len(src) {
		return nil, false
	}
	return src[n.startByte:n.endByte], true
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
