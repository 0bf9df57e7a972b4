package python

import (
	_ "embed"

	tree_sitter_python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range (scopes and regions) come first, so that of two items with the same
// range the container sorts before its content.
type kind uint8

const (
	kDecorated kind = iota
	kFunction
	kClass
	kLambda
	kComprehension
	kLoop
	kTry
	kCond
	kAlias
	kAssign
	kUnpack
	kDecorator
	kDoc
	kBase
	kBind
	kGlobal
	kNonlocal
	kParam
	kImport
	kCall
	kAnnot
	kExcept
	kIter
	kAs
	kReturn
	kYield
	kNarrow
	numKinds
)

var kindNames = [numKinds]string{
	"decorated", "function", "class", "lambda", "comprehension", "loop", "try", "cond",
	"alias", "assign", "unpack", "decorator", "doc", "base", "bind", "global", "nonlocal", "param",
	"import", "call", "annot", "except", "iter", "as", "return", "yield", "narrow",
}

// Roles: the slots of item.role that a kind's role captures fill.
const (
	rName   = 0 // function.name, class.name, alias.name
	rReturn = 1 // function.return
	rBody   = 2 // function.body, class.body
	rType   = 0 // assign.type, param.type
	rValue  = 1 // assign.value
	rAlias  = 0 // import.alias
	rModule = 1 // import.module
	rArgs   = 0 // call.args
	rClause = 2 // as.clause: the with statement or except clause

	numRoles = 3
)

var roleSlots = map[string]int{
	"name": rName, "return": rReturn, "body": rBody, "type": rType, "value": rValue,
	"alias": rAlias, "module": rModule, "args": rArgs, "clause": rClause,
}

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_python.Language, querySource, kindNames[:], roleSlots)
