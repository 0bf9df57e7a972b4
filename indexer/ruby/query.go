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

// Roles: the slots of item.role that a kind's role captures fill: the
// roles languages share (see indexer.Roles), then this language's own.
const (
	rName   = indexer.RoleName
	rBody   = indexer.RoleBody
	rParams = indexer.RoleParams
	rObject = indexer.RoleObject
	rArgs   = indexer.RoleArgs
	rValue  = indexer.RoleValue
)

// The roles of this language's own.
const (
	rSuper = indexer.NumSharedRoles + iota
	rBlock
)

var roleSlots = indexer.Roles(map[string]int{"super": rSuper, "block": rBlock})

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_ruby.Language(), querySource, kindNames[:], roleSlots)
})
