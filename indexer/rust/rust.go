// Package rust indexes Rust source (.rs files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges. Every file
// is a module whose qualified name follows Cargo's layout
// (`crate::a::b` for src/a/b.rs or src/a/b/mod.rs, the crate named by the
// nearest Cargo.toml); inside it come inline modules, structs, unions and
// their fields, enums and their variants (constants), traits, functions,
// methods and associated functions of impl blocks, constants, statics,
// type aliases and macro_rules! macros. References are written as refs
// whose Expr (see expr.go) has the file's own scopes applied already:
// local variables are replaced by what they hold, generic parameters by
// their bounds.
//
// Resolution (resolve.go) sees only rows. It builds each crate's module
// tree from `mod x;` declarations, follows use declarations (groups,
// globs, renames, re-exports), impl blocks (inherent first, then trait
// impls, then trait default methods), field, parameter, local and result
// types, and the standard containers (Option, Result, Vec, HashMap, Box,
// Rc, Arc, RefCell, Mutex) far enough to see through them. What it cannot
// prove stays unresolved, with a reason; calls into crates outside the
// snapshot name the crate ("external crate std").
package rust

import (
	"fmt"
	"path"

	tree_sitter_rust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Name is the language name written in tables.
const Name = "rust"

// grammarVersion is the module version of tree-sitter-rust in go.mod.
const grammarVersion = "v0.24.0"

// New returns the Rust language.
func New() indexer.Language { return lang{info} }

var info = indexer.NewLanguageInfo(Name, []string{".rs"}, grammarVersion, tree_sitter_rust.Language)

type lang struct{ *indexer.LanguageInfo }

// The optional interface of indexer that lang implements.
var _ indexer.Contextual = lang{}

// ContextFile reports the files whose content shapes the extraction of
// others: Cargo.toml names the crate of the files below it (see
// indexer.Contextual).
func (lang) ContextFile(p string) bool { return path.Base(p) == "Cargo.toml" }

func (lang) NewExtractor(t *indexer.Tree) (indexer.Extractor, error) {
	s, err := indexer.NewMatchScanner(compiled, indexer.KeepAll)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return &extractor{tree: t, MatchScanner: s, manifests: make(map[string]string)}, nil
}

func (lang) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return nil, resolve(nodes, refs)
}
