// Package lua indexes Lua source (.lua files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// the tables a file declares at its top level (`local M = {}`, `M = {}`,
// `local C = setmetatable({}, {__index = Base})`) as modules, or as
// classes when they have methods (`function C:m()`) or an __index; their
// functions (`function M.f()`, `M.f = function`), methods (`function
// C:m()`, qualified C:m) and fields; and the file's local and global
// functions. A table a file returns (`return M`) is exported.
//
// Lua's scoping is lexical and declaration-ordered, so extraction replaces
// every local by what it is bound to as it goes: a table or function of
// the file (by node id), a required module, the result of a call. The
// resolver (resolve.go) then follows require() to files of the tree
// (a.b is a/b.lua or a/b/init.lua under the tree's top, lua/, src/ or
// lib/), the table each module returns, `self` in methods, the results
// of constructors (functions that return setmetatable(o, C)) and
// __index inheritance.
package lua

import (
	"fmt"
	"sync"

	tree_sitter_lua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Name is the language name written in tables.
const Name = "lua"

// grammarVersion is the module version of tree-sitter-lua in go.mod.
const grammarVersion = "v0.5.0"

// New returns the Lua language.
func New() indexer.Language { return lang{} }

type lang struct{}

func (lang) Name() string              { return Name }
func (lang) Extensions() []string      { return []string{".lua"} }
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
	return sitter.NewLanguage(tree_sitter_lua.Language())
})
