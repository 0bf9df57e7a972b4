package ruby

import (
	_ "embed"
	"sync"

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

// Roles: the slots of item.role that a kind's role captures fill.
const (
	rName   = 0
	rBody   = 1
	rParams = 2
	rObject = 3
	rArgs   = 4
	rSuper  = 5
	rValue  = 6
	rBlock  = 7
)

var roleSlots = map[string]int{
	"name": rName, "body": rBody, "params": rParams, "object": rObject, "args": rArgs,
	"super": rSuper, "value": rValue, "block": rBlock,
}

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_ruby.Language(), querySource, kindNames[:], roleSlots)
})
