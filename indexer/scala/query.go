package scala

import (
	_ "embed"
	"sync"

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
)

var roleSlots = indexer.Roles(map[string]int{"mods": rMods})

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_scala.Language(), querySource, kindNames[:], roleSlots)
})
