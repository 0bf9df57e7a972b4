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

// Roles: the slots of item.role that a kind's role captures fill.
const (
	rName   = 0
	rParams = 1
	rBody   = 2
	rNames  = 3
	rValues = 4
	rArgs   = 5
)

var roleSlots = map[string]int{
	"name": rName, "params": rParams, "body": rBody, "names": rNames, "values": rValues, "args": rArgs,
}

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_lua.Language(), querySource, kindNames[:], roleSlots)
})
