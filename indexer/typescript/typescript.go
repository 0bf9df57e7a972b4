// Package typescript indexes TypeScript (.ts, .mts, .cts), TSX (.tsx) and
// JavaScript (.js, .mjs, .cjs, .jsx): one Language per dialect, each with
// its own grammar, sharing extraction and resolution.
//
// Extraction runs one compiled tree-sitter query per file (common.scm with
// typescript.scm or javascript.scm, and jsx.scm) and walks its matches in
// document order, in Go, over byte ranges. It emits a module node per file,
// classes, interfaces, enums, type aliases, namespaces, functions (arrow
// functions and function expressions bound to a name too), methods,
// constructors, fields and module variables, and raw references whose Expr
// (see expr.go) has the file's own scopes applied: locals are replaced by
// what they hold, relative module specifiers are made paths of the tree,
// and tsconfig.json paths mappings are applied. Every module of a named
// npm package carries the package's facts (packages.go), so a bare
// specifier of a workspace package, or of another repository's, resolves.
//
// Resolution (resolve.go) sees only rows. The three dialects resolve
// together, since a TypeScript file may import a JavaScript one: each
// dialect's Resolve hands its refs to a rendezvous (family.go), and the
// last of the dialects present in the run resolves the refs of all of
// them. It follows ES imports and re-exports, CommonJS require and
// exports, class and interface heritage, this, super, constructors, and
// types as they flow through code (flow.go): the declared types of
// parameters, fields, variables and results, fluent this results,
// overloads, callback parameters typed by their callee, object literals
// and object types. What it cannot prove stays unresolved, with a reason;
// calls of JavaScript's builtins are dropped.
package typescript

import (
	"fmt"
	"path"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tree_sitter_typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Language names written in tables.
const (
	TypeScriptName = "typescript"
	TSXName        = "tsx"
	JavaScriptName = "javascript"
)

// Grammar module versions in go.mod.
const (
	typescriptGrammarVersion = "v0.23.2" // tree-sitter-typescript: typescript and tsx
	javascriptGrammarVersion = "v0.25.0" // tree-sitter-javascript
)

// dialect is one of the three languages.
type dialect struct {
	name       string
	exts       []string
	version    string
	grammar    func() *sitter.Language
	query      func() (*query, error)
	typed      bool // type annotations: the TypeScript grammars
	javascript bool // resolves imports the way JavaScript files do
}

var (
	typescriptDialect = &dialect{
		name: TypeScriptName, exts: []string{".ts", ".mts", ".cts"}, version: typescriptGrammarVersion,
		grammar: sync.OnceValue(func() *sitter.Language {
			return sitter.NewLanguage(tree_sitter_typescript.LanguageTypescript())
		}),
		query: compile(TypeScriptName, tree_sitter_typescript.LanguageTypescript, commonQuery, typescriptQuery),
		typed: true,
	}
	tsxDialect = &dialect{
		name: TSXName, exts: []string{".tsx"}, version: typescriptGrammarVersion,
		grammar: sync.OnceValue(func() *sitter.Language {
			return sitter.NewLanguage(tree_sitter_typescript.LanguageTSX())
		}),
		query: compile(TSXName, tree_sitter_typescript.LanguageTSX, commonQuery, typescriptQuery, jsxQuery),
		typed: true,
	}
	javascriptDialect = &dialect{
		name: JavaScriptName, exts: []string{".js", ".mjs", ".cjs", ".jsx"}, version: javascriptGrammarVersion,
		grammar: sync.OnceValue(func() *sitter.Language {
			return sitter.NewLanguage(tree_sitter_javascript.Language())
		}),
		query:      compile(JavaScriptName, tree_sitter_javascript.Language, commonQuery, javascriptQuery, jsxQuery),
		javascript: true,
	}
)

// TypeScript returns the TypeScript language (.ts, .mts, .cts; .d.ts
// declaration files included).
func TypeScript() indexer.Language { return lang{typescriptDialect} }

// TSX returns the TSX language (.tsx).
func TSX() indexer.Language { return lang{tsxDialect} }

// JavaScript returns the JavaScript language (.js, .mjs, .cjs, .jsx).
func JavaScript() indexer.Language { return lang{javascriptDialect} }

// All returns the three languages.
func All() []indexer.Language { return []indexer.Language{TypeScript(), TSX(), JavaScript()} }

type lang struct{ d *dialect }

// The optional interfaces of indexer that lang implements.
var (
	_ indexer.Contextual = lang{}
	_ indexer.Relocator  = lang{}
	_ indexer.Family     = lang{}
)

func (l lang) Name() string              { return l.d.name }
func (l lang) Extensions() []string      { return l.d.exts }
func (l lang) Grammar() *sitter.Language { return l.d.grammar() }
func (l lang) GrammarVersion() string    { return l.d.version }

// ContextFile reports the files whose content shapes the extraction of
// others: tsconfig*.json and jsconfig*.json, whose baseUrl and paths map
// module specifiers to files, and package.json, which names packages and
// their entries (see indexer.Contextual).
func (lang) ContextFile(p string) bool { return isConfigFile(p) || isPackageFile(p) }

func isConfigFile(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".json") && (strings.HasPrefix(b, "tsconfig") || strings.HasPrefix(b, "jsconfig"))
}

func (l lang) NewExtractor(t *indexer.Tree) (indexer.Extractor, error) {
	s, err := indexer.NewMatchScanner(l.d.query, indexer.KeepAll)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.d.name, err)
	}
	c := newConfigs(t)
	return &extractor{d: l.d, tree: t, MatchScanner: s, configs: c, packages: newPackages(t, c)}, nil
}

// Family puts the three dialects in one family: the indexer gives the
// refs of all three, in file order, to one of them (a TypeScript file
// imports JavaScript ones, a JavaScript barrel re-exports TypeScript).
func (l lang) Family() string { return "ecmascript" }

// Resolve resolves the refs of every dialect of the run.
func (l lang) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return nil, resolve(nodes, refs)
}

// grammarPointer is the raw grammar of a dialect, for tests that parse.
func grammarPointer(d *dialect) unsafe.Pointer {
	switch d {
	case javascriptDialect:
		return tree_sitter_javascript.Language()
	case tsxDialect:
		return tree_sitter_typescript.LanguageTSX()
	}
	return tree_sitter_typescript.LanguageTypescript()
}

func isOurs(language string) bool {
	return language == TypeScriptName || language == TSXName || language == JavaScriptName
}
