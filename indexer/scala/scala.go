// Package scala indexes Scala source (.scala and .sc files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// classes and case classes (class), objects and companion objects (class,
// static: the term of the same name), traits (trait), Scala 3 enums
// (enum) and their cases (constant), package objects (module, named
// p.package), defs (method in a template, function at the top level or
// in a package object), secondary constructors (constructor, named this),
// vals and givens (constant in an object or package, field in a class or
// trait), vars (field, variable at the top level), class parameters
// (field; private unless val, var or of a case class) and type aliases.
// Raw references carry an Expr (see expr.go) with the file's locals,
// parameters and pattern variables replaced by their declared type or
// initializer.
//
// Resolution (resolve.go) sees only rows. It makes one package node per
// package, and follows Scala's two namespaces: types (classes, traits,
// enums, aliases) and terms (objects, defs, vals). Names are looked up in
// the enclosing templates and their parents, the enclosing packages
// (chained clauses open each), explicit, renamed and wildcard imports of
// the file. Calls on receivers of declared or constructed type, this,
// super, objects and companion objects resolve; a case class applied
// without a companion apply instantiates it. Overloads are chosen by
// argument count, then by the arguments' types where no implicit
// conversion can be in play (convert.go); when several remain the call is
// ambiguous. Calls into
// types outside the snapshot stay unresolved as external.
package scala

import (
	tree_sitter_scala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// Name is the language name written in tables.
const Name = "scala"

// grammarVersion is the module version of tree-sitter-scala in go.mod.
const grammarVersion = "v0.25.0"

// New returns the Scala language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".scala", ".sc"},
		GrammarVersion: grammarVersion, Grammar: tree_sitter_scala.Language, Query: compiled, Merge: indexer.MergeEarliest, IsTest: isTestFile, Passes: newFileState, Resolve: resolve})
}
