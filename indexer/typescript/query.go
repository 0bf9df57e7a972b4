package typescript

import (
	_ "embed"
	"strings"
	"unsafe"

	"github.com/graphsnap/snap/indexer"
)

var (
	//go:embed common.scm
	commonQuery string
	//go:embed javascript.scm
	javascriptQuery string
	//go:embed typescript.scm
	typescriptQuery string
	//go:embed jsx.scm
	jsxQuery string
)

// kind is what a main capture of the query stands for. Kinds that open a
// range (regions, then scopes and other containers) come first, so that of
// two items with the same range the container sorts before its content,
// and a region before the function it holds.
type kind uint8

const (
	kExport kind = iota
	kTopDecl
	kImport
	kLoop
	kTry
	kCond
	kObject
	kPair
	kClass
	kInterface
	kEnum
	kNamespace
	kFunction
	kLambda
	kMethod
	kPattern
	kVar
	kField
	kParam
	kAlias
	kMember
	kTypeParam
	kExtends
	kImplements
	kSpec
	kNsExport
	kDefImport
	kNsImport
	kShorthand
	kAssign
	kBind
	kDecorator
	kComment
	kTypeArgs
	kCall
	kNew
	kJSX
	kTUse
	kInstanceof
	kWrap
	kNarrow
	numKinds
)

var kindNames = [numKinds]string{
	"export", "topdecl", "import", "loop", "try", "cond", "object", "pair", "class", "interface", "enum",
	"namespace", "function", "lambda", "method", "pattern", "var", "field", "param", "alias", "member", "tparam",
	"extends", "implements", "spec", "nsexport", "defimport", "nsimport", "shorthand", "assign", "bind",
	"decorator", "comment", "targs", "call", "new", "jsx", "tuse", "instanceof", "wrap", "narrow",
}

// Roles: the slots of item.role that a kind's role captures fill.
const (
	rName   = 0 // function, method, class, interface, enum, namespace, alias, field, var, param, spec, narrow
	rBody   = 1 // function, method, class, interface, enum, namespace
	rReturn = 2 // function, method
	rType   = 1 // field, var, param, narrow, tparam (its constraint)
	rValue  = 2 // field, var, alias, assign, pair, export, bind (a for-of loop)
	rDecl   = 0 // export
	rSource = 1 // export, import
	rAlias  = 1 // spec
	rArgs   = 0 // call, new
	rKey    = 0 // pair, bind
	rInner  = 0 // wrap
)

var roleSlots = map[string]int{
	"name": rName, "body": rBody, "return": rReturn, "type": rType, "value": rValue, "decl": rDecl,
	"source": rSource, "alias": rAlias, "args": rArgs, "key": rKey, "inner": rInner,
}

type query = indexer.CompiledQuery[kind]

// compile returns the query of one grammar, made of its pattern files and
// compiled once (see indexer.CompileOnce).
func compile(name string, grammar func() unsafe.Pointer, sources ...string) func() (*query, error) {
	return indexer.CompileOnce[kind](name, grammar, strings.Join(sources, "\n"), kindNames[:], roleSlots)
}
