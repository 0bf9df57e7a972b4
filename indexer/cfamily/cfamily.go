// Package cfamily indexes C and C++ source: the extractor and resolver the
// c and cpp packages share. The two languages resolve together (one
// Family), so that C++ calls into C functions declared in headers resolve.
//
// Extraction runs one compiled tree-sitter query per file (query_c.scm,
// plus query_cpp.scm for C++) and walks its matches in document order, in
// Go, over byte ranges. It emits namespaces, classes, structs, unions,
// enums and their enumerators, typedefs and aliases, function and method
// definitions, methods declared in a class body, fields, global
// variables and macros, and raw references whose Expr (see expr.go) has
// the file's own scopes applied: locals and parameters are replaced by
// their declared type or by the expression they were initialized with.
//
// A function declared without a body outside a class (a prototype, in a
// header or not) makes no node: it is a declares fact of its file, so
// that a call through it lands on the one definition. A method declared
// in a class body is a node (the class's member) and, when it has no
// body, also a declares fact: calls land on its definition when the
// snapshot has one, else on the declaration.
//
// Resolution (resolve.go) sees only rows. It resolves #include against
// the files of the snapshot, and a name only when the file sees its
// declaration: in the file itself or in a header it includes, directly
// or not. It follows namespaces, using directives and declarations,
// classes and their bases, and the declared types of locals, parameters,
// fields and function results.
package cfamily

import (
	"path"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Family is the family name of C and C++.
const Family = "cfamily"

// Config describes one dialect.
type Config struct {
	Name       string
	Extensions []string
	Grammar    unsafe.Pointer // the grammar module's Language()
	Version    string         // the grammar module's version
	Cpp        bool
}

// Lang is a C or C++ language.
type Lang struct {
	cfg     Config
	grammar func() *sitter.Language
	query   func() (*query, error)
}

// The optional interfaces of indexer that Lang implements.
var (
	_ indexer.Family  = (*Lang)(nil)
	_ indexer.Claimer = (*Lang)(nil)
)

// New returns the language of cfg.
func New(cfg Config) *Lang {
	return &Lang{
		cfg:     cfg,
		grammar: sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(cfg.Grammar) }),
		query:   sync.OnceValues(func() (*query, error) { return compileQuery(cfg.Grammar, cfg.Cpp) }),
	}
}

// Name is the language name written in tables.
func (l *Lang) Name() string { return l.cfg.Name }

// Extensions lists the file suffixes of the dialect.
func (l *Lang) Extensions() []string { return l.cfg.Extensions }

// Grammar is the tree-sitter grammar.
func (l *Lang) Grammar() *sitter.Language { return l.grammar() }

// GrammarVersion is the grammar module's version.
func (l *Lang) GrammarVersion() string { return l.cfg.Version }

// Family makes C and C++ resolve together.
func (l *Lang) Family() string { return Family }

// Claims decides who takes a .h header: C++ when CppHeader says so, C
// otherwise. Other extensions are not shared.
func (l *Lang) Claims(t *indexer.Tree, name string) bool {
	if path.Ext(name) != ".h" {
		return true
	}
	return CppHeader(t, name) == l.cfg.Cpp
}

// NewExtractor returns an extractor for one worker.
func (l *Lang) NewExtractor(*indexer.Tree) (indexer.Extractor, error) {
	s, err := indexer.NewMatchScanner(l.query, indexer.KeepAll)
	if err != nil {
		return nil, err
	}
	return &extractor{MatchScanner: s, lang: l.cfg.Name, cpp: l.cfg.Cpp}, nil
}

// Resolve resolves the refs of both languages of the family.
func (l *Lang) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return nil, resolve(nodes, refs)
}

var cppSources = []string{".cc", ".cpp", ".cxx", ".c++"}

// dirCounts is what CppHeader knows of a tree: the C and C++ sources of
// each folder and of the whole tree.
type dirCounts struct {
	c, cpp map[string]int
	nc     int
	ncpp   int
}

var (
	claimMu   sync.Mutex
	claimTree *indexer.Tree
	claimInfo *dirCounts
)

func countsOf(t *indexer.Tree) *dirCounts {
	claimMu.Lock()
	defer claimMu.Unlock()
	if claimTree == t && claimInfo != nil {
		return claimInfo
	}
	d := &dirCounts{c: map[string]int{}, cpp: map[string]int{}}
	for p := range t.Paths {
		ext := path.Ext(p)
		switch {
		case ext == ".c":
			d.c[path.Dir(p)]++
			d.nc++
		case isCppSource(ext):
			d.cpp[path.Dir(p)]++
			d.ncpp++
		}
	}
	claimTree, claimInfo = t, d
	return d
}

func isCppSource(ext string) bool {
	for _, e := range cppSources {
		if ext == e {
			return true
		}
	}
	return false
}

// CppHeader reports whether the .h header name is C++ in t: its folder
// has more C++ sources (.cc .cpp .cxx .c++) than C sources (.c); or,
// when its folder has neither, the nearest folder above that has some
// does; or, when none does, the whole tree has more C++ than C sources.
// The counts are computed once per tree.
func CppHeader(t *indexer.Tree, name string) bool {
	if t == nil {
		return false
	}
	d := countsOf(t)
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		if c, cpp := d.c[dir], d.cpp[dir]; c+cpp > 0 {
			return cpp > c
		}
		if dir == "." || dir == "/" {
			break
		}
	}
	return d.ncpp > d.nc
}
