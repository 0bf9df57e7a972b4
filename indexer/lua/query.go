package lua

import (
	_ "embed"
	"sync"

	tree_sitter_lua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kFunc kind = iota
	kLambda
	kScope
	kLoop
	kCond
	kVars
	kAssign
	kCall
	kParam
	kForVar
	kRet
	kDoc
	numKinds
)

var kindNames = [numKinds]string{
	"func", "lambda", "scope", "loop", "cond", "vars", "assign", "call", "param", "forvar", "ret", "doc",
}

// Roles: the slots of item.role that a kind's role captures fill: the
// roles languages share (see indexer.Roles), then this language's own.
const (
	rName   = indexer.RoleName
	rParams = indexer.RoleParams
	rBody   = indexer.RoleBody
	rArgs   = indexer.RoleArgs
)

// The roles of this language's own.
const (
	rNames = indexer.NumSharedRoles + iota
	rValues
)

var roleSlots = indexer.Roles(map[string]int{"names": rNames, "values": rValues})

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_lua.Language(), querySource, kindNames[:], roleSlots)
})
