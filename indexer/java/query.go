package java

import (
	_ "embed"
	"sync"

	tree_sitter_java "github.com/tree-sitter/tree-sitter-java/bindings/go"

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
	kInterface
	kEnum
	kRecord
	kAnnotype
	kMethod
	kCtor
	kFields
	kConst
	kInit
	kLocals
	kForeach
	kCatch
	kResource
	kLambda
	kScope
	kLoop
	kTry
	kCond
	kSpread
	kNew
	kInvoke
	kCtorCall
	kMref
	kField
	kCast
	kParen
	kIndex
	kTernary
	kAssign
	kBinary
	kUnary
	kNewArray
	kArgs
	kArg
	kPackage
	kImport
	kDoc
	kModifiers
	kDecorator
	kTParam
	kExtends
	kImplements
	kVar
	kParam
	kLParam
	kPattern
	kTUse
	numKinds

	kAnon = numKinds // frames only: the body of an anonymous class
)

var kindNames = [numKinds]string{
	"class", "interface", "enum", "record", "annotype", "method", "ctor", "fields", "const", "init",
	"locals", "foreach", "catch", "resource", "lambda", "scope", "loop", "try", "cond", "spread",
	"new", "invoke", "ctorcall", "mref", "field", "cast", "paren", "index", "ternary", "assign", "binary", "unary", "newarray", "args", "arg",
	"package", "import", "doc", "modifiers", "decorator", "tparam", "extends", "implements",
	"var", "param", "lparam", "pattern", "tuse",
}

// isType reports whether k declares a type.
func (k kind) isType() bool { return k <= kAnnotype }

// Roles: the slots of item.role that a kind's role captures fill: the
// roles languages share (see indexer.Roles), then this language's own.
const (
	rName   = indexer.RoleName   // the declared or invoked name; field.name, ctorcall.name (this or super)
	rType   = indexer.RoleType   // a declared type, new.type, cast.type
	rBody   = indexer.RoleBody   // a declaration's body, new.body, const.body
	rParams = indexer.RoleParams // method.params, ctor.params, record.params
	rValue  = indexer.RoleValue  // var.value, foreach.value, resource.value, cast.value, paren.value, index.value, assign.value
	rArgs   = indexer.RoleArgs   // invoke.args, new.args, ctorcall.args, const.args
	rObject = indexer.RoleObject // invoke.object, field.object, mref.object, assign.object
)

var roleSlots = indexer.Roles(nil)

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_java.Language(), querySource, kindNames[:], roleSlots)
})
