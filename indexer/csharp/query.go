package csharp

import (
	_ "embed"

	tree_sitter_csharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kNs kind = iota
	kClass
	kStruct
	kRecord
	kInterface
	kEnum
	kDelegate
	kMethod
	kCtor
	kDtor
	kProp
	kEvent
	kFields
	kEFields
	kMember
	kLocalFn
	kLocals
	kForeach
	kCatch
	kPattern
	kScope
	kLoop
	kTry
	kCond
	kNew
	kInvoke
	kCtorCall
	kField
	kCast
	kParen
	kAwait
	kArgs
	kArg
	kUsing
	kDoc
	kModifier
	kAttr
	kBase
	kVar
	kParam
	kLParam
	kTParam
	kUse
	kIsType
	kConvOp
	numKinds
)

var kindNames = [numKinds]string{
	"ns", "class", "struct", "record", "interface", "enum", "delegate", "method", "ctor", "dtor",
	"prop", "event", "fields", "efields", "member", "localfn", "locals", "foreach", "catch", "pattern",
	"scope", "loop", "try", "cond", "new", "invoke", "ctorcall", "field", "cast", "paren", "await",
	"args", "arg", "using", "doc", "modifier", "attr", "base", "var", "param", "lparam", "tparam",
	"use", "istype", "convop",
}

// isType reports whether k declares a type.
func (k kind) isType() bool { return k >= kClass && k <= kDelegate }

// isMember reports whether k declares a member of a type (a node).
func (k kind) isMember() bool { return k >= kMethod && k <= kMember }

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_csharp.Language, querySource, kindNames[:], indexer.Roles(nil))
