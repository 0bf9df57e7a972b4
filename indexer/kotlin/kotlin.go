// Package kotlin indexes Kotlin source (.kt and .kts files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// classes (data, sealed, abstract, enum), interfaces, objects and
// companion objects (kind class), functions and extension functions,
// properties (field), enum entries (constant), primary and secondary
// constructors (constructor, named <init>) and type aliases, and raw
// references whose Expr (see expr.go) has the file's local variables and
// parameters replaced by their declared type or initializer.
//
// Resolution (resolve.go) sees only rows. It makes one package node per
// package, follows explicit, aliased and star imports, the same package
// and the lexically enclosing classes, the supertypes declared in the
// snapshot and the declared types of properties and function results.
// Overloads are chosen by argument count (default values and varargs
// widen the range); when several remain the call stays ambiguous. Calls
// into types outside the snapshot stay unresolved as external.
package kotlin

import (
	"fmt"
	"sync"

	tree_sitter_kotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Name is the language name written in tables.
const Name = "kotlin"

// grammarVersion is the module version of tree-sitter-kotlin in go.mod.
const grammarVersion = "v1.1.0"

// New returns the Kotlin language.
func New() indexer.Language { return lang{} }

type lang struct{}

func (lang) Name() string              { return Name }
func (lang) Extensions() []string      { return []string{".kt", ".kts"} }
func (lang) Grammar() *sitter.Language { return grammar() }
func (lang) GrammarVersion() string    { return grammarVersion }

func (lang) NewExtractor(*indexer.Tree) (indexer.Extractor, error) {
	s, err := indexer.NewMatchScanner(compiled, indexer.MergeFirst)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return &extractor{MatchScanner: s}, nil
}

func (lang) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return resolve(nodes, refs)
}

var grammar = sync.OnceValue(func() *sitter.Language {
	return sitter.NewLanguage(tree_sitter_kotlin.Language())
})
