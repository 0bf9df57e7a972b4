// Package ruby indexes Ruby source (.rb, .rake and .gemspec files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// the modules and classes of the file with their qualified names in Ruby's
// form (Shop::Cart, also for `class Shop::Cart` and nesting), their
// methods (Shop::Cart#add for instance methods, Shop::Cart.build for
// singleton ones: `def self.m` and `class << self`), initialize as the
// constructor, attr_accessor/reader/writer as fields, constants, and
// top-level methods as functions. Visibility follows `private`,
// `protected` and `public`, bare, with method definitions
// (`private def m`) or with symbols (`private :m`).
//
// Resolution (resolve.go) sees only rows. Constants resolve by Ruby's
// rules: the lexical nesting of the code, the ancestors of the innermost
// class, then the top level. Methods resolve along the ancestors of the
// receiver's class (prepended modules, the class, included modules, the
// superclass, ...) for self, for constants (singleton methods and
// extended modules) and for locals assigned from `C.new` in the same
// method. `require` and `require_relative` resolve to files of the tree
// (require by the load path: the lib/, test/ and spec/ folders and the
// top). Anything else, duck-typed receivers above all, stays unresolved
// with a reason. Ruby has no type positions: the uses of a class are
// C.new (instantiates), a superclass (extends), include, extend and
// prepend (references refs "include M"), and the classes a rescue clause
// names (references refs "rescue C", an edge to the class or module).
package ruby

import (
	tree_sitter_ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// Name is the language name written in tables.
const Name = "ruby"

// grammarVersion is the module version of tree-sitter-ruby in go.mod.
const grammarVersion = "v0.23.1"

// New returns the Ruby language.
func New() indexer.Language {
	return indexer.NewQueryLanguage(indexer.QueryLanguage[kind]{Name: Name, Extensions: []string{".rb", ".rake", ".gemspec"},
		GrammarVersion: grammarVersion, Grammar: tree_sitter_ruby.Language, Query: compiled, IsTest: isTestFile, Passes: newFileState, Resolve: resolve})
}
