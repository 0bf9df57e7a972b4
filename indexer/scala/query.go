package scala

import (
	_ "embed"

	tree_sitter_scala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kPkg kind = iota
	kPkgObj
	kClass
	kObject
	kTrait
	kEnum
	kDef
	kVal
	kVar
	kGiven
	kAlias
	kCase
	kCParam
	kScope
	kLoop
	kTry
	kCond
	kCall
	kGeneric
	kField
	kNew
	kParen
	kArgs
	kArg
	kParam
	kPList
	kPVar
	kSuper
	kImport
	kDoc
	kAnnot
	kTParam
	kTDef
	kTAnnot
	kTQual
	kTUse
	numKinds
)

var kindNames = [numKinds]string{
	"pkg", "pkgobj", "class", "object", "trait", "enum", "def", "val", "var", "given", "alias", "case",
	"cparam", "scope", "loop", "try", "cond", "call", "generic", "field", "new", "paren", "args", "arg",
	"param", "plist", "pvar", "super", "import", "doc", "annot",
	"tparam", "tdef", "tannot", "tqual", "tuse",
}

// isType reports whether k declares a template: a class, object, trait or enum.
func (k kind) isType() bool { return k >= kClass && k <= kEnum }

// isDecl reports whether k declares a symbol.
func (k kind) isDecl() bool { return k >= kPkgObj && k <= kCParam }

// rMods is the slot of Scala's own role, after those that indexer.Roles
// names: a definition's modifiers.
const rMods = indexer.NumSharedRoles

var roleSlots = indexer.Roles(map[string]int{"mods": rMods})

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_scala.Language, querySource, kindNames[:], roleSlots)
