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
	tree_sitter_lua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// Name is the language name written in tables.
const Name = "lua"

// grammarVersion is the module version of tree-sitter-lua in go.mod.
const grammarVersion = "v0.5.0"

// New returns the Lua language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".lua"},
		GrammarVersion: grammarVersion, Grammar: tree_sitter_lua.Language, Query: compiled, IsTest: isTestFile, Passes: newFileState, Resolve: resolve})
}
