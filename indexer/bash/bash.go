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
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_bash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Name is the language name written in tables.
const Name = "bash"

// grammarVersion is the module version of tree-sitter-bash in go.mod.
const grammarVersion = "v0.25.1"

// New returns the Bash language.
func New() indexer.Language { return lang{} }

type lang struct{}

func (lang) Name() string              { return Name }
func (lang) Extensions() []string      { return []string{".sh", ".bash"} }
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
	return sitter.NewLanguage(tree_sitter_bash.Language())
})
