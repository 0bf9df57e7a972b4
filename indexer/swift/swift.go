// Package swift indexes Swift source (.swift files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// classes and actors (class), structs, enums and their cases (constant),
// protocols (interface), functions and methods, initializers
// (constructor, named init), properties (field; let ones constant;
// variable or constant at the top level) and type aliases. Members of an
// extension are nodes named after the extended type (Order.extra) at the
// top level of their file, with a receiver fact naming that type. Raw
// references carry an Expr (see expr.go) with the file's locals and
// parameters replaced by their declared type or initializer, and
// argument labels kept: they are part of a Swift function's name.
//
// Access levels: public and open are public and exported; private and
// fileprivate are private; internal (the default) is internal and not
// exported. Members of a protocol take the protocol's level.
//
// Resolution (resolve.go) sees only rows. Swift imports modules, not
// files: a module is the target folder T of Sources/T/ or Tests/T/ (the
// Swift Package Manager's layout), or else the whole tree. It makes one
// module node per target, and resolves names in the enclosing types and
// the extended type (implicit self), their supertypes and extensions,
// the file's module and the modules it imports. T(...) instantiates T and
// calls the initializer its arguments select; overloads are chosen by
// labels and argument count, then by argument types, and stay ambiguous
// when several remain.
// Calls on a protocol-typed receiver land on the protocol's requirement.
package swift

import (
	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/swift/grammar"
)

// Name is the language name written in tables.
const Name = "swift"

// New returns the Swift language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".swift"},
		GrammarVersion: grammar.Version, Grammar: grammar.Language, Query: compiled, Merge: indexer.MergeEarliest, IsTest: isTestFile, Passes: newFileState, Resolve: resolve})
}
