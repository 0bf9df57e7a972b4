package kotlin

import (
	_ "embed"
	"sync"

	tree_sitter_kotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kClass kind = iota
	kObject
	kCompanion
	kFun
	kCtor
	kPctor
	kCparam
	kProp
	kAlias
	kEntry
	kInit
	kAnon
	kLambda
	kScope
	kLoop
	kTry
	kCond
	kCall
	kNav
	kParen
	kDeleg
	kArgs
	kArg
	kLambdaArg
	kPackage
	kImport
	kDoc
	kDecorator
	kSuper
	kParam
	kVar
	kTParam
	kAnnot
	kUse
	numKinds
)

var kindNames = [numKinds]string{
	"class", "object", "companion", "fun", "ctor", "pctor", "cparam", "prop", "alias", "entry", "init",
	"anon", "lambda", "scope", "loop", "try", "cond", "call", "nav", "paren", "deleg", "args", "arg",
	"lambdaarg", "package", "import", "doc", "decorator", "super", "param", "var",
	"tparam", "annot", "use",
}

// isType reports whether k declares a class-like type.
func (k kind) isType() bool { return k <= kCompanion }

// Roles: the slots of item.role that a kind's role captures fill: the
// roles languages share (see indexer.Roles), then this language's own.
const (
	rName   = indexer.RoleName
	rType   = indexer.RoleType
	rBody   = indexer.RoleBody
	rParams = indexer.RoleParams
	rValue  = indexer.RoleValue
	rArgs   = indexer.RoleArgs
	rObject = indexer.RoleObject
)

// The roles of this language's own.
const (
	rMods = indexer.NumSharedRoles + iota
	rRecv
)

var roleSlots = indexer.Roles(map[string]int{"mods": rMods, "recv": rRecv})

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_kotlin.Language(), querySource, kindNames[:], roleSlots)
})
