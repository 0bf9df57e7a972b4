// Package csharp indexes C# source (.cs files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// the namespaces of the file (block and file-scoped), its types (classes,
// structs, records, interfaces, enums, delegates, nested ones), their
// methods, constructors, properties, fields, events and enum members, and
// raw references whose Expr (see expr.go) has the file's own scopes
// applied: locals and parameters are replaced by their declared type or by
// the expression they were initialized with.
//
// Resolution (resolve.go) sees only rows. It follows the enclosing
// namespaces, using directives (plain, static, aliases, global), nested
// types and the base types declared in the snapshot, and the declared
// types of fields, properties and method results. An overloaded method is
// chosen by the number of arguments, then by their types (convert.go)
// where the code tells them; otherwise the call stays unresolved as an
// ambiguous overload. Calls into
// types outside the snapshot (System.*) stay unresolved as external.
package csharp

import (
	tree_sitter_csharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// Name is the language name written in tables.
const Name = "csharp"

// grammarVersion is the module version of tree-sitter-c-sharp in go.mod.
const grammarVersion = "v0.23.1"

// New returns the C# language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".cs"},
		GrammarVersion: grammarVersion, Grammar: tree_sitter_csharp.Language, Query: compiled, IsTest: isTestFile, Passes: newFileState, Resolve: resolve})
}
