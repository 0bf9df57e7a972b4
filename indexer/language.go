package indexer

import (
	"context"
	"path"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/graphsnap/snap/schemas"
)

// Language is one language family: a grammar, an extractor that turns one
// file into nodes and raw references, and a resolver that turns the raw
// references of every file into edges.
//
// Extraction sees one file at a time and runs in parallel; resolution sees
// every file of the snapshot and runs once. Resolution reads only rows
// (nodes and refs), never syntax trees, so the rows of an unchanged file can
// be reused from an earlier snapshot and resolved again without parsing.
type Language interface {
	// Name is the language's name as written in tables ("go", "python").
	Name() string
	// Extensions lists the file name suffixes the language claims (".go").
	Extensions() []string
	// Grammar is the tree-sitter grammar, and GrammarVersion its module version.
	Grammar() *sitter.Language
	GrammarVersion() string
	// NewExtractor returns an extractor for one worker. Extractors are not
	// safe for concurrent use; the tree describes the whole input.
	NewExtractor(t *Tree) (Extractor, error)
	// Resolve turns the raw references of this language into edges. nodes
	// holds every node extraction made (all languages), sorted by ID;
	// refs holds this language's refs. Resolve may set ParentID of this
	// language's nodes (a Go method declared apart from its type) and may
	// return nodes that belong to no single file (a Go package). The
	// languages resolve concurrently, so Resolve writes nothing else: refs
	// may be the very rows of the refs table, being written meanwhile.
	Resolve(nodes []schemas.Node, refs []schemas.Ref) (newNodes []schemas.Node, edges []schemas.Edge)
}

// PartsResolver is implemented by a Language whose resolver makes its
// edges in several slices, one per worker: the indexer then sorts them as
// they are, without first joining them (a copy of every edge, into memory
// as large as all of them). ResolveParts is Resolve with the edges so.
type PartsResolver interface {
	ResolveParts(nodes []schemas.Node, refs []schemas.Ref) (newNodes []schemas.Node, parts [][]schemas.Edge)
}

// FilesResolver is implemented by a Language that can resolve the
// references of a few files alone, after an edit that left what they
// declare to the rest of the tree as it was: the indexer then keeps the
// edges of every other file from its base (Options.BaseEdges).
//
// ResolveFiles is ResolveParts but for the edges: of those Resolve would
// find, it returns the ones whose File is in files. It reads every file's
// declarations, as Resolve does, and sets the same ParentIDs.
//
// DeclaresAlike reports whether two extractions of one file, a base's
// rows (nodes in id order, refs in table order) and a new parse's,
// declare the same to the resolution of any other file's references: if
// so, the edges of every other file are the same under either. It must
// err on the side of false.
type FilesResolver interface {
	ResolveFiles(nodes []schemas.Node, refs []schemas.Ref, files map[string]bool) (newNodes []schemas.Node, parts [][]schemas.Edge)
	DeclaresAlike(baseNodes, nodes []schemas.Node, baseRefs, refs []schemas.Ref) bool
}

// AllRefsResolver is implemented by a Language whose resolver skips the
// refs of files not in its language: where a tree's refs are of several
// languages, the one with the most is given the whole refs table, shared,
// rather than a copy of its own (on GOROOT/src, 75 MB of Go refs beside
// a few C and shell files').
type AllRefsResolver interface {
	TakesAllRefs()
}

// Family is implemented by languages that resolve together because their
// files use each other (TypeScript, TSX and JavaScript import one
// another). The indexer hands the refs of every language of a family, in
// file order, to the first of them in Options.Languages, and calls no
// other member's Resolve.
type Family interface {
	Family() string
}

// Relocator is implemented by a language whose refs hold paths of the
// tree (TypeScript's module specifiers made paths): Relocate rewrites a
// ref of the language as if the tree lay under the folder dir, as a join
// of several repositories puts each under its name.
type Relocator interface {
	Relocate(r *schemas.Ref, dir string)
}

// Extractor parses files of one language.
type Extractor interface {
	// Extract parses one file. It returns what it found even when the file
	// has syntax errors, and reports them in Result.ParseError. The
	// Result's strings may share src's memory: src must not change
	// afterwards. When ctx is done, it gives up soon after, parse and
	// query included, with an error wrapping ctx.Err().
	Extract(ctx context.Context, file string, src []byte) (*Result, error)
	Close()
}

// Stopped reports whether ctx is done, asking it only when i is a
// multiple of 64. An extractor's loops over a file's items call it with
// their index and give up when it says so: nested code can make a step
// cost as much as the file (the text of a call's arguments holds every
// call nested in it), and extraction must still stop soon after the
// file's time is up (see Options.MaxFileTime).
func Stopped(ctx context.Context, i int) bool { return i%64 == 0 && ctx.Err() != nil }

// Result is what extraction found in one file. The file node itself is
// made by the indexer; top-level symbols have ParentID FileID(file).
type Result struct {
	Nodes      []schemas.Node
	Refs       []schemas.Ref
	ParseError string // empty when the tree has no error nodes
	IsTest     bool   // a test file by the language's conventions
	Generated  bool   // a generated file by the language's conventions
}

// Tree is the set of paths being indexed, for extractors that need to know
// the project around a file (Go module paths, Python packages).
type Tree struct {
	// Root is the absolute path of the indexed directory.
	Root string
	// Paths holds every walked path, slash-separated and relative to Root.
	Paths map[string]bool
	// ReadFile reads a path relative to Root.
	ReadFile func(name string) ([]byte, error)
}

// Has reports whether name was walked.
func (t *Tree) Has(name string) bool { return t.Paths[name] }

// Dir reports whether some walked path lies under dir.
func (t *Tree) Dir(dir string) bool {
	if dir == "." || dir == "" {
		return true
	}
	prefix := dir + "/"
	for p := range t.Paths {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// Claimer is implemented by a language that shares a file extension with
// another and decides from the tree which of those files are its own
// (C++ may take the ".h" headers of a tree that has C++ sources, leaving
// the others to C).
type Claimer interface {
	Claims(t *Tree, name string) bool
}

// LanguageFor returns the language that takes name in t, or nil. Among
// the languages whose extensions match, the first Claimer that claims it
// takes it; otherwise the first of them. t may be nil.
func LanguageFor(langs []Language, t *Tree, name string) Language {
	ext := path.Ext(name)
	if ext == "" {
		return nil
	}
	var first Language
	for _, l := range langs {
		if !slices.Contains(l.Extensions(), ext) {
			continue
		}
		if c, ok := l.(Claimer); ok && t != nil && c.Claims(t, name) {
			return l
		}
		if first == nil {
			first = l
		}
	}
	return first
}
