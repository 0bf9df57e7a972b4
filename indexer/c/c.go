// Package c indexes C source (.c files, and the .h headers C++ does not
// claim). Extraction and resolution are those of package cfamily, which
// C shares with C++ (package cpp): the two resolve together.
package c

import (
	tree_sitter_c "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/cfamily"
)

// Name is the language name written in tables.
const Name = "c"

// grammarVersion is the module version of tree-sitter-c in go.mod.
const grammarVersion = "v0.24.2"

// New returns the C language.
func New() indexer.Language {
	return cfamily.New(cfamily.Config{
		Name: Name, Extensions: []string{".c", ".h"}, Grammar: tree_sitter_c.Language(), Version: grammarVersion,
	})
}
