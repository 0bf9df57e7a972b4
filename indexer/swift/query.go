package swift

import (
	_ "embed"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/swift/grammar"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kType kind = iota
	kProto
	kFn
	kInit
	kProp
	kAlias
	kCase
	kScope
	kLoop
	kTry
	kCond
	kCall
	kNav
	kParen
	kBin
	kArgs
	kArg
	kClosure
	kParam
	kLParam
	kBind
	kSuper
	kImport
	kDoc
	kAnnot
	kMods
	kTParam
	kTAnnot
	kTUse
	numKinds
)

var kindNames = [numKinds]string{
	"type", "proto", "fn", "init", "prop", "alias", "case", "scope", "loop", "try", "cond", "call", "nav",
	"paren", "bin", "args", "arg", "closure", "param", "lparam", "bind", "super", "import", "doc", "annot", "mods",
	"tparam", "tannot", "tuse",
}

// isType reports whether k declares a type (or an extension).
func (k kind) isType() bool { return k <= kProto }

// isDecl reports whether k declares a symbol.
func (k kind) isDecl() bool { return k <= kCase }

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, grammar.Language, querySource, kindNames[:], indexer.Roles(nil))
