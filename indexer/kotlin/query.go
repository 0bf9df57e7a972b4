package kotlin

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

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

// Roles: the slots of item.role that a kind's role captures fill.
const (
	rName   = 0
	rType   = 1
	rBody   = 2
	rParams = 3
	rValue  = 4
	rArgs   = 5
	rObject = 6
	rMods   = 7
	rRecv   = 8

	numRoles = 9
)

var roleSlots = map[string]int{
	"name": rName, "type": rType, "body": rBody, "params": rParams, "value": rValue,
	"args": rArgs, "object": rObject, "mods": rMods, "recv": rRecv,
}

type query struct {
	q        *indexer.Query
	captures []indexer.CaptureInfo[kind] // by capture index
}

var compiled = sync.OnceValues(func() (*query, error) {
	q, err := indexer.NewQuery(tree_sitter_kotlin.Language(), querySource)
	if err != nil {
		return nil, fmt.Errorf("kotlin query: %w", err)
	}
	out := &query{q: q}
	for _, name := range q.CaptureNames() {
		k, role, _ := strings.Cut(name, ".")
		ci := indexer.CaptureInfo[kind]{Kind: numKinds, Role: -1}
		for i, n := range kindNames {
			if n == k {
				ci.Kind = kind(i)
			}
		}
		if role != "" {
			slot, ok := roleSlots[role]
			if !ok {
				ci.Kind = numKinds
			}
			ci.Role = int8(slot)
		}
		if ci.Kind == numKinds {
			return nil, fmt.Errorf("kotlin query: unknown capture @%s", name)
		}
		out.captures = append(out.captures, ci)
	}
	return out, nil
})
