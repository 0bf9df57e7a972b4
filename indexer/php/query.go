package php

import (
	_ "embed"

	tree_sitter_php "github.com/tree-sitter/tree-sitter-php/bindings/go"

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
	kInterface
	kTrait
	kEnum
	kAnon
	kMethod
	kFunc
	kClosure
	kProps
	kConsts
	kProp
	kConst
	kCase
	kPromo
	kParam
	kAssign
	kCatch
	kUnk
	kLoop
	kTry
	kCond
	kCall
	kMcall
	kScall
	kNew
	kField
	kParen
	kArg
	kUse
	kRequire
	kDoc
	kModifier
	kBase
	kImpl
	kTraitUse
	kTAnnot
	kTUse
	numKinds
)

var kindNames = [numKinds]string{
	"ns", "class", "interface", "trait", "enum", "anon", "method", "func", "closure", "props", "consts",
	"prop", "const", "case", "promo", "param", "assign", "catch", "unk", "loop", "try", "cond",
	"call", "mcall", "scall", "new", "field", "paren", "arg", "use", "require", "doc", "modifier",
	"base", "impl", "traituse", "tannot", "tuse",
}

// isType reports whether k declares a class-like type (anonymous classes
// included).
func (k kind) isType() bool { return k >= kClass && k <= kAnon }

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_php.LanguagePHP, querySource, kindNames[:], indexer.Roles(nil))
