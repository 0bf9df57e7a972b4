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
// Overloads are chosen by the types of the arguments, by Kotlin's rules
// (overloads.go); when several remain the call stays ambiguous. A
// constructor call is an instantiates edge to the class and a calls edge
// to the constructor. Calls into types outside the snapshot stay
// unresolved as external.
package kotlin

import (
	tree_sitter_kotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// Name is the language name written in tables.
const Name = "kotlin"

// grammarVersion is the module version of tree-sitter-kotlin in go.mod.
const grammarVersion = "v1.1.0"

// New returns the Kotlin language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".kt", ".kts"},
		GrammarVersion: grammarVersion, Grammar: tree_sitter_kotlin.Language, Query: compiled, Merge: indexer.MergeFirst, IsTest: isTestFile, Passes: newFileState, Resolve: resolve})
}
