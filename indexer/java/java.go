// Package java indexes Java source (.java files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. It emits
// the types of the file (classes, interfaces, enums, records, annotation
// types, nested, inner, local and anonymous ones), their methods, constructors
// (named <init>), fields, enum constants and record components, and raw
// references whose Expr (see expr.go) has the file's own scopes applied:
// locals and parameters are replaced by their declared type or by the
// expression they were initialized with, type variables by their bound.
//
// Resolution (resolve.go) sees only rows. It makes one package node per
// package name, follows single-type, on-demand and static imports, the
// same package, java.lang and fully qualified names, the superclass and
// interface chains and the lexically enclosing classes, and the declared
// types of fields and method results, with their type arguments
// substituted (generic.go). An overloaded method is chosen by
// the number and the types of the arguments, by Java's phases of
// applicability and its most specific method (convert.go and the package
// overload); when the facts cannot tell, the call stays unresolved as an
// ambiguous overload. Calls into types outside
// the snapshot stay unresolved, with the external type as the reason.
package java

import (
	"fmt"

	tree_sitter_java "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Name is the language name written in tables.
const Name = "java"

// grammarVersion is the module version of tree-sitter-java in go.mod.
const grammarVersion = "v0.23.5"

// RefParams is the fact kind of refs.parquet that lists a method's or
// constructor's parameter types (see expr.go): overloads are told apart by
// it.
const RefParams = schemas.RefParams

// New returns the Java language.
func New() indexer.Language { return lang{info} }

var info = indexer.NewLanguageInfo(Name, []string{".java"}, grammarVersion, tree_sitter_java.Language)

type lang struct{ *indexer.LanguageInfo }

func (lang) NewExtractor(*indexer.Tree) (indexer.Extractor, error) {
	s, err := indexer.NewMatchScanner(compiled, indexer.KeepAll)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return &extractor{MatchScanner: s}, nil
}

func (lang) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return resolve(nodes, refs)
}
