package kotlin

import (
	_ "embed"

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

// The roles of Kotlin's own, after those that indexer.Roles names.
const (
	rMods = indexer.NumSharedRoles + iota // a declaration's modifiers
	rRecv                                 // the receiver type of an extension
)

var roleSlots = indexer.Roles(map[string]int{"mods": rMods, "recv": rRecv})

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_kotlin.Language, querySource, kindNames[:], roleSlots)
