package rust

import (
	_ "embed"

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

// rPattern is the slot of Rust's own role, after those that indexer.Roles
// names: what a let, parameter, closure, for or match arm binds.
const rPattern = indexer.NumSharedRoles

var roleSlots = indexer.Roles(map[string]int{"pattern": rPattern})

// compiled returns the query, compiled once and shared by every extractor.
// Its role captures fill rPattern and the slots that indexer.Roles names:
//
//   - name: the name of a definition; impl.name is the trait
//   - type: a declared type; fn.type is the result, trait.type the supertraits
//   - body: a definition's body, for.body
//   - params: fn.params
//   - value: an initializer, a use tree, extern.value the alias
//   - args: call.args, mcall.args
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_rust.Language, querySource, kindNames[:], roleSlots)
