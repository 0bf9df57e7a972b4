// Package python indexes Python source (.py and .pyi files).
//
// Extraction runs one compiled tree-sitter query per file (query.scm) and
// walks its matches in document order, in Go, over byte ranges: it emits a
// module node per file, classes, functions, methods, fields and module
// variables, and raw references whose Expr (see expr.go) has the file's own
// scopes already applied: locals are replaced by what they hold, relative
// imports are made absolute.
//
// Resolution (resolve.go) sees only rows. It follows imports and
// re-exports across modules, class bases (C3 order), self, cls and super(),
// constructors, and the types of fields, module variables and annotated
// results. What it cannot prove stays unresolved, with a reason; calls to
// Python builtins are dropped.
package python

import (
	"fmt"
	"path"

	tree_sitter_python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Name is the language name written in tables.
const Name = "python"

// grammarVersion is the module version of tree-sitter-python in go.mod.
const grammarVersion = "v0.25.0"

// New returns the Python language.
func New() indexer.Language { return lang{info} }

var info = indexer.NewLanguageInfo(Name, []string{".py", ".pyi"}, grammarVersion, tree_sitter_python.Language)

type lang struct{ *indexer.LanguageInfo }

// The optional interface of indexer that lang implements.
var _ indexer.Contextual = lang{}

// ContextFile reports the files whose presence shapes the extraction of
// others: __init__.py makes a folder a package and names its modules, and
// pyproject.toml names the distribution of the modules below it (see
// indexer.Contextual).
func (lang) ContextFile(p string) bool {
	b := path.Base(p)
	return b == "__init__.py" || b == "__init__.pyi" || b == "pyproject.toml"
}

func (lang) NewExtractor(t *indexer.Tree) (indexer.Extractor, error) {
	s, err := indexer.NewMatchScanner(compiled, indexer.KeepAll)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return &extractor{tree: t, MatchScanner: s, dists: distributions{tree: t}}, nil
}

func (lang) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return nil, resolve(nodes, refs)
}
