package ruby

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	tree_sitter_ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for. Kinds that open a
// range come first, so that of two items with the same range the
// container sorts before its content.
type kind uint8

const (
	kModule kind = iota
	kClass
	kSClass
	kMethod
	kSMethod
	kLoop
	kTry
	kCond
	kCall
	kConst
	kAssign
	kLocal
	kBare
	kSuper
	kDoc
	kRescue
	numKinds
)

var kindNames = [numKinds]string{
	"module", "class", "sclass", "method", "smethod", "loop", "try", "cond", "call", "const", "assign",
	"local", "bare", "super", "doc", "rescue",
}

// Roles: the slots of item.role that a kind's role captures fill.
const (
	rName   = 0
	rBody   = 1
	rParams = 2
	rObject = 3
	rArgs   = 4
	rSuper  = 5
	rValue  = 6
	rBlock  = 7

	numRoles = 8
)

var roleSlots = map[string]int{
	"name": rName, "body": rBody, "params": rParams, "object": rObject, "args": rArgs,
	"super": rSuper, "value": rValue, "block": rBlock,
}

type query struct {
	q        *indexer.Query
	captures []indexer.CaptureInfo[kind] // by capture index
}

// compiled returns the query, compiled once and shared by every extractor.
var compiled = sync.OnceValues(func() (*query, error) {
	q, err := indexer.NewQuery(tree_sitter_ruby.Language(), querySource)
	if err != nil {
		return nil, fmt.Errorf("ruby query: %w", err)
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
			return nil, fmt.Errorf("ruby query: unknown capture @%s", name)
		}
		out.captures = append(out.captures, ci)
	}
	return out, nil
})
