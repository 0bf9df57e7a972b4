package lua

import (
	_ "embed"

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

// The roles of Lua's own, after those that indexer.Roles names.
const (
	rNames  = indexer.NumSharedRoles + iota // the variable list of a local or an assignment
	rValues                                 // its expression list
)

var roleSlots = indexer.Roles(map[string]int{"names": rNames, "values": rValues})

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_lua.Language, querySource, kindNames[:], roleSlots)
