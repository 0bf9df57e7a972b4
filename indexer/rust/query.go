package rust

import (
	_ "embed"
	"sync"

	tree_sitter_rust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kMod kind = iota
	kFn
	kStruct
	kUnion
	kEnum
	kTrait
	kImpl
	kConst
	kStatic
	kBlock
	kLetScope
	kLoop
	kCond
	kTry
	kFor
	kMatch
	kArm
	kClosure
	kLet
	kLetCond
	kVariant
	kField
	kTField
	kAlias
	kMacro
	kGenerics
	kWhere
	kAttr
	kInnerAttr
	kDoc
	kInnerDoc
	kUse
	kExtern
	kParam
	kCall
	kMacroCall
	kNew
	kTDef
	kTQual
	kTUse
	numKinds
)

var kindNames = [numKinds]string{
	"mod", "fn", "struct", "union", "enum", "trait", "impl", "const", "static", "block",
	"letscope", "loop", "cond", "try", "for", "match", "arm", "closure", "let", "letcond", "variant",
	"field", "tfield", "alias", "macro", "generics", "where", "attr", "innerattr", "doc",
	"innerdoc", "use", "extern", "param", "call", "mcall", "new",
	"tdef", "tqual", "tuse",
}

// Roles: the slots of item.role that a kind's role captures fill: the
// roles languages share (see indexer.Roles), then this language's own.
const (
	rName   = indexer.RoleName   // the name of a definition; impl.name is the trait
	rBody   = indexer.RoleBody   // a definition's body, for.body
	rType   = indexer.RoleType   // a declared type; fn.type is the result, trait.type the supertraits
	rValue  = indexer.RoleValue  // an initializer, a use tree, extern.value the alias
	rParams = indexer.RoleParams // fn.params
	rArgs   = indexer.RoleArgs   // call.args, mcall.args
)

// The roles of this language's own.
const (
	rPattern = indexer.NumSharedRoles + iota // what a let, parameter, closure, for or match arm binds
)

var roleSlots = indexer.Roles(map[string]int{"pattern": rPattern})

type query = indexer.CompiledQuery[kind]

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	return indexer.CompileQuery[kind](Name, tree_sitter_rust.Language(), querySource, kindNames[:], roleSlots)
})
