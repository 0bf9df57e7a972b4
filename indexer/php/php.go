// Package php indexes PHP source (.php files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// the namespaces of the file, its classes, interfaces, traits and enums,
// their methods, constructors, properties (promoted constructor
// parameters included), class constants and enum cases, the functions
// and constants of namespaces, and raw references. PHP names resolve
// lexically, by the file's namespace and use declarations alone, so
// extraction writes every class and function name fully qualified (see
// expr.go); locals and parameters are replaced by their declared type or
// by the expression assigned to them.
//
// Resolution (resolve.go) sees only rows: it looks fully qualified names
// up (case-insensitively for classes and functions, as PHP does), follows
// parents, used traits and interfaces for members, and the declared types
// of properties and method results for receivers.
package php

import (
	tree_sitter_php "github.com/tree-sitter/tree-sitter-php/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// Name is the language name written in tables.
const Name = "php"

// grammarVersion is the module version of tree-sitter-php in go.mod.
const grammarVersion = "v0.25.0"

// New returns the PHP language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".php"},
		GrammarVersion: grammarVersion, Grammar: tree_sitter_php.LanguagePHP, Query: compiled, IsTest: isTestFile, Passes: newFileState, Resolve: resolve})
}
