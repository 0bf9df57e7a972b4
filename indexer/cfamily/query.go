package cfamily

import (
	_ "embed"
	"unsafe"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query_c.scm
var querySourceC string

//go:embed query_cpp.scm
var querySourceCpp string

// kind is what a main capture of the query stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kNs kind = iota
	kClass
	kEnum
	kFunc
	kDecl
	kFields
	kTypedef
	kAlias
	kFriend
	kTParam
	kRange
	kScope
	kLoop
	kTry
	kCond
	kDeclarator
	kFdecl
	kInit
	kParam
	kMember
	kBases
	kAccess
	kUsing
	kInclude
	kDefine
	kDoc
	kCall
	kNew
	kField
	kParen
	kCast
	kTDef
	kSpec
	kTUse
	numKinds
)

var kindNames = [numKinds]string{
	"ns", "class", "enum", "func", "decl", "fields", "typedef", "alias", "friend", "tparam", "range",
	"scope", "loop", "try", "cond", "declarator", "fdecl", "init", "param", "member",
	"bases", "access", "using", "include", "define", "doc", "call", "new", "field", "paren", "cast",
	"tdef", "spec", "tuse",
}

type query = indexer.CompiledQuery[kind]

// compileQuery compiles the query of a dialect for its grammar.
func compileQuery(grammar unsafe.Pointer, cpp bool) (*query, error) {
	src := querySourceC
	if cpp {
		src += querySourceCpp
	}
	return indexer.CompileQuery[kind]("cfamily", grammar, src, kindNames[:], indexer.Roles(nil))
}
