package java

import (
	_ "embed"

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

// compiled returns the query, compiled once and shared by every extractor.
// Its role captures fill the slots that indexer.Roles names:
//
//   - name: the declared or invoked name; field.name, ctorcall.name (this or super)
//   - type: a declared type, new.type, cast.type
//   - body: a declaration's body, new.body, const.body
//   - params: method.params, ctor.params, record.params
//   - value: var.value, foreach.value, resource.value, cast.value, paren.value, index.value, assign.value
//   - args: invoke.args, new.args, ctorcall.args, const.args
//   - object: invoke.object, field.object, mref.object, assign.object
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_java.Language, querySource, kindNames[:], indexer.Roles(nil))
