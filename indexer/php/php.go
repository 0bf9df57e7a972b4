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
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_php "github.com/tree-sitter/tree-sitter-php/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Name is the language name written in tables.
const Name = "php"

// grammarVersion is the module version of tree-sitter-php in go.mod.
const grammarVersion = "v0.25.0"

// New returns the PHP language.
func New() indexer.Language { return lang{} }

type lang struct{}

func (lang) Name() string              { return Name }
func (lang) Extensions() []string      { return []string{".php"} }
func (lang) Grammar() *sitter.Language { return grammar() }
func (lang) GrammarVersion() string    { return grammarVersion }

func (lang) NewExtractor(*indexer.Tree) (indexer.Extractor, error) {
	s, err := indexer.NewMatchScanner(compiled, indexer.KeepAll)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return &extractor{MatchScanner: s}, nil
}

func (lang) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return nil, resolve(nodes, refs)
}

var grammar = sync.OnceValue(func() *sitter.Language {
	return sitter.NewLanguage(tree_sitter_php.LanguagePHP())
})
