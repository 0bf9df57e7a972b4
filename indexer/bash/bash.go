// Package bash indexes Bash scripts (.sh and .bash files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm). It
// emits the file's functions (both `f() {}` and `function f {}`), its
// top-level variables (exported ones marked so, readonly ones and
// `declare -r` as constants), imports refs for `source file` and `. file`
// with literal paths, and calls refs for the command words that are not
// Bash builtins or keywords.
//
// Resolution (resolve.go) sees only rows. A command word becomes a calls
// edge only when some file of the snapshot defines a function of that
// name: the other command words run programs (ls, grep, git), and an edge
// for each would flood the graph with targets no index could resolve. The
// call resolves to the function defined in the same file, else in the
// files it sources, transitively; a name defined only in files it does
// not source stays unresolved (the script may be sourced by one that
// defines it: Bash looks functions up when the call runs).
package bash

import (
	tree_sitter_bash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// Name is the language name written in tables.
const Name = "bash"

// grammarVersion is the module version of tree-sitter-bash in go.mod.
const grammarVersion = "v0.25.1"

// New returns the Bash language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".sh", ".bash"},
		GrammarVersion: grammarVersion, Grammar: tree_sitter_bash.Language, Query: compiled, Extract: extract, Resolve: resolve})
}
