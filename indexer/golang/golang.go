// Package golang is the Go language of the indexer: packages, types,
// functions, methods, fields, constants and variables, with calls resolved
// through imports, receivers, parameters, locals, struct fields, composite
// literals and embedded-field promotion, and implements edges decided by
// method sets.
package golang

import (
	_ "embed"
	"fmt"
	"path"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/graphsnap/snap/indexer"
)

// GrammarVersion is the version of github.com/tree-sitter/tree-sitter-go.
const GrammarVersion = "v0.25.0"

//go:embed query.scm
var querySource string

// Language is Go.
type Language struct {
	once     sync.Once
	grammar  *sitter.Language
	query    *indexer.Query
	captures []string
	err      error

	mu      sync.Mutex
	modules map[string]module // by folder
}

// The optional interfaces of indexer that Language implements.
var (
	_ indexer.PartsResolver   = (*Language)(nil)
	_ indexer.FilesResolver   = (*Language)(nil)
	_ indexer.AllRefsResolver = (*Language)(nil)
	_ indexer.Contextual      = (*Language)(nil)
)

// New returns the Go language.
func New() *Language {
	return &Language{modules: make(map[string]module)}
}

func (l *Language) Name() string           { return "go" }
func (l *Language) Extensions() []string   { return []string{".go"} }
func (l *Language) GrammarVersion() string { return GrammarVersion }

// ContextFile reports the files whose content shapes the extraction of
// others: go.mod gives import paths (see indexer.Contextual).
func (l *Language) ContextFile(p string) bool { return path.Base(p) == "go.mod" }

func (l *Language) Grammar() *sitter.Language {
	l.init()
	return l.grammar
}

func (l *Language) init() {
	l.once.Do(func() {
		l.grammar = sitter.NewLanguage(tsgo.Language())
		q, err := indexer.NewQuery(tsgo.Language(), querySource, "param", "var", "const", "field")
		if err != nil {
			l.err = fmt.Errorf("go query: %w", err)
			return
		}
		l.query = q
		l.captures = q.CaptureNames()
	})
}

// NewExtractor returns an extractor with its own parser and query cursor.
func (l *Language) NewExtractor(t *indexer.Tree) (indexer.Extractor, error) {
	l.init()
	if l.err != nil {
		return nil, l.err
	}
	s, err := indexer.NewScanner(l.query)
	if err != nil {
		return nil, fmt.Errorf("go extractor: %w", err)
	}
	return &extractor{lang: l, tree: t, scanner: s}, nil
}

// module is the Go module a folder belongs to.
type module struct {
	dir  string // folder of go.mod, "" for the root or when there is none
	path string // module path; "" when there is no go.mod
}

// moduleOf finds the go.mod governing dir (a slash path relative to the root).
func (l *Language) moduleOf(t *indexer.Tree, dir string) module {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.moduleOfLocked(t, dir)
}

func (l *Language) moduleOfLocked(t *indexer.Tree, dir string) module {
	if m, ok := l.modules[dir]; ok {
		return m
	}
	var m module
	gomod := "go.mod"
	if dir != "." {
		gomod = dir + "/go.mod"
	}
	if t.Has(gomod) {
		if data, err := t.ReadFile(gomod); err == nil {
			m = module{dir: dir, path: modulePath(data)}
		}
	} else if dir != "." {
		m = l.moduleOfLocked(t, parentDir(dir))
	}
	l.modules[dir] = m
	return m
}

func parentDir(dir string) string {
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		return dir[:i]
	}
	return "."
}

func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// importPath is the import path of the package in folder dir.
func (l *Language) importPath(t *indexer.Tree, dir string) string {
	m := l.moduleOf(t, dir)
	rel := dir
	if m.dir != "" && m.dir != "." {
		rel = strings.TrimPrefix(strings.TrimPrefix(dir, m.dir), "/")
	}
	if rel == "." {
		rel = ""
	}
	switch {
	case m.path == "std":
		// GOROOT/src: import paths are folders; vendored packages drop vendor/.
		rel = strings.TrimPrefix(rel, "vendor/")
		if rel == "" {
			return "std"
		}
		return rel
	case m.path == "":
		if rel == "" {
			return "main"
		}
		return rel
	case rel == "":
		return m.path
	case strings.HasPrefix(rel, "vendor/"):
		return strings.TrimPrefix(rel, "vendor/")
	default:
		return m.path + "/" + rel
	}
}
