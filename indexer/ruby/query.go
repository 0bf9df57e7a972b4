package ruby

import (
	_ "embed"

	tree_sitter_ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kModule kind = iota
	kClass
	kSClass
	kMethod
	kSMethod
	kLoop
	kTry
	kCond
	kCall
	kConst
	kAssign
	kLocal
	kBare
	kSuper
	kDoc
	kRescue
	numKinds
)

var kindNames = [numKinds]string{
	"module", "class", "sclass", "method", "smethod", "loop", "try", "cond", "call", "const", "assign",
	"local", "bare", "super", "doc", "rescue",
}

// The roles of Ruby's own, after those that indexer.Roles names.
const (
	rSuper = indexer.NumSharedRoles + iota // class.super, the superclass
	rBlock                                 // call.block, the block a call passes
)

var roleSlots = indexer.Roles(map[string]int{"super": rSuper, "block": rBlock})

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_ruby.Language, querySource, kindNames[:], roleSlots)
