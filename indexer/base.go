package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"runtime"
	"slices"
	"sync"

	"github.com/graphsnap/snap/schemas"
)

// Base is an earlier snapshot of the same tree whose rows a run reuses for
// the files that have not changed, so only changed files are parsed. The
// result is the same, row for row, as a run without a base.
//
// A language's rows are reused only when the base was made with the same
// grammar version and the files that shape its extraction (its context
// files, see Contextual) are the same; otherwise its files are parsed
// again. The caller checks that the base was made by this indexer
// version: rows of another version may differ.
type Base struct {
	Files    []schemas.File
	Nodes    []schemas.Node
	Refs     []schemas.Ref
	Grammars map[string]string // language name → grammar version
}

// Contextual is implemented by a language whose extraction of one file
// reads other files of the tree: Go's go.mod files (module paths), Python's
// __init__.py files (package names). When any of them was added, removed
// or changed since the base, none of the language's rows is reused.
type Contextual interface {
	ContextFile(path string) bool
}

// reuse holds what a run takes from its base.
type reuse struct {
	files map[string]int    // path → row in base.Files, for reusable files
	refs  map[string][2]int // path → its run of rows in base.Refs, [lo, hi)
	// The rows in base.Nodes of the file at row f of base.Files (not its
	// file node) are nodeRows[nodeAt[f]:nodeAt[f+1]], in id order.
	nodeAt, nodeRows []int32
	// plain are the base's files whose rows are their file rows alone:
	// unsupported, binary, generated, too large. Their rows hang on their
	// content (and the options), and a file not read again (see
	// StatCache) takes its row from there.
	plain map[string]int
	base  *Base
}

// newReuse indexes the rows of b that the walked paths of a tree, whose
// files read reads, may reuse. Reuse is decided per language, then per
// file by content hash (in indexFile).
func newReuse(b *Base, read func(name string) ([]byte, error), paths []string, langs []Language) *reuse {
	if b == nil {
		return nil
	}
	ok := make(map[string]bool)
	for _, l := range langs {
		if b.Grammars[l.Name()] != l.GrammarVersion() {
			continue
		}
		if c, isC := l.(Contextual); isC && !sameContext(c, b.Files, read, paths) {
			continue
		}
		ok[l.Name()] = true
	}
	r := &reuse{files: make(map[string]int), refs: make(map[string][2]int), plain: make(map[string]int), base: b}
	for i, f := range b.Files {
		switch {
		case ok[f.Language] && (f.Status == schemas.StatusOK || f.Status == schemas.StatusParseError):
			r.files[f.Path] = i
		case f.Status == schemas.StatusUnsupported || f.Status == schemas.StatusSkippedBinary ||
			f.Status == schemas.StatusSkippedGenerated || f.Status == schemas.StatusSkippedLarge:
			r.plain[f.Path] = i
		}
	}
	r.indexNodes()
	// The refs are in table order, by file first: a file's are one run,
	// which its result shares rather than copies (Index only reads a
	// result's refs, copying them into the graph). A file whose refs come
	// in two runs is parsed again. The map is asked once a run.
	for lo := 0; lo < len(b.Refs); {
		file := b.Refs[lo].File
		hi := lo + 1
		for hi < len(b.Refs) && b.Refs[hi].File == file {
			hi++
		}
		if _, reusable := r.files[file]; reusable {
			if _, seen := r.refs[file]; seen {
				delete(r.files, file)
			} else {
				r.refs[file] = [2]int{lo, hi}
			}
		}
		lo = hi
	}
	return r
}

// indexNodes lists the base's nodes by reusable file (nodeAt, nodeRows).
// The nodes are in id order, their files all over: the file of each is
// looked up on every core, then the rows are counted out by file.
func (r *reuse) indexNodes() {
	nodes := r.base.Nodes
	fileOf := make([]int32, len(nodes)) // row in base.Files; -1 for none
	onEveryCore(len(nodes), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			fileOf[i] = -1
			if n := &nodes[i]; n.Kind != schemas.KindFile {
				if f, reusable := r.files[n.File]; reusable {
					fileOf[i] = int32(f)
				}
			}
		}
	})
	r.nodeAt = make([]int32, len(r.base.Files)+1)
	for _, f := range fileOf {
		if f >= 0 {
			r.nodeAt[f+1]++
		}
	}
	for f := range r.base.Files {
		r.nodeAt[f+1] += r.nodeAt[f]
	}
	r.nodeRows = make([]int32, r.nodeAt[len(r.base.Files)])
	next := slices.Clone(r.nodeAt)
	for i, f := range fileOf {
		if f >= 0 {
			r.nodeRows[next[f]] = int32(i)
			next[f]++
		}
	}
}

// nodes returns the base's rows of the nodes of the file at p (its file
// node aside), when p is reusable.
func (r *reuse) nodes(p string) []int32 {
	f, ok := r.files[p]
	if !ok {
		return nil
	}
	return r.nodeRows[r.nodeAt[f]:r.nodeAt[f+1]:r.nodeAt[f+1]]
}

// sameContext reports whether the context files of c among paths are the
// base's, by path and content.
func sameContext(c Contextual, base []schemas.File, read func(name string) ([]byte, error), paths []string) bool {
	then := make(map[string]string)
	for _, f := range base {
		if c.ContextFile(f.Path) {
			then[f.Path] = f.SHA256
		}
	}
	now := make(map[string]string)
	for _, p := range paths {
		if !c.ContextFile(p) {
			continue
		}
		data, err := read(p)
		if err != nil {
			return false
		}
		sum := sha256.Sum256(data)
		now[p] = hex.EncodeToString(sum[:])
	}
	return maps.Equal(then, now)
}

// lookup returns the base's row of the file at p when its rows can stand
// for a parse of content with digest sha.
func (r *reuse) lookup(p, sha string) (schemas.File, bool) {
	if r == nil {
		return schemas.File{}, false
	}
	i, ok := r.files[p]
	if !ok || r.base.Files[i].SHA256 != sha {
		return schemas.File{}, false
	}
	return r.base.Files[i], true
}

// result returns the extraction result the base's rows of p stand for,
// but for its nodes: those stay in the base, at the rows nodes gives, and
// Index copies them into the graph from there (copied into the result
// first, every node of the tree was copied twice).
func (r *reuse) result(p string, f schemas.File) *Result {
	res := &Result{IsTest: f.IsTest, Generated: f.IsGenerated}
	if f.Status == schemas.StatusParseError {
		res.ParseError = f.Error
	}
	if run, ok := r.refs[p]; ok {
		res.Refs = r.base.Refs[run[0]:run[1]:run[1]]
	}
	return res
}

// onEveryCore calls f on consecutive ranges [lo, hi) of [0, n), one for
// each CPU but none under least long, side by side, and returns when all
// have.
func onEveryCore(n, least int, f func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	size := max(least, (n+workers-1)/workers, 1)
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += size {
		wg.Go(func() { f(lo, min(lo+size, n)) })
	}
	wg.Wait()
}
