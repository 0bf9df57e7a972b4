package indexer

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/graphsnap/snap/schemas"
)

// QueryLanguage describes a language built on one query and nothing else:
// its extractor scans each file with the query (see MatchScanner) and
// hands the items to Extract, or runs the Passes of a File made of them,
// neither of which needs state of its own from one file to the next; its
// resolver reads only rows. NewQueryLanguage makes the Language.
type QueryLanguage[K Kind] struct {
	Name           string
	Extensions     []string
	GrammarVersion string                // the grammar module's version in go.mod
	Grammar        func() unsafe.Pointer // the grammar module's Language
	Query          func() (*CompiledQuery[K], error)
	Merge          Merge // how the MatchScanner merges items
	// Extract makes the nodes and refs of one scanned file and says
	// whether it holds tests. It gives up when ctx is done (see Stopped).
	// When it is nil, Passes makes them.
	Extract func(ctx context.Context, f *Scanned[K]) (nodes []schemas.Node, refs []schemas.Ref, isTest bool)
	// Passes returns the per-file state that makes the rows of f (see
	// RunPasses), f made by NewFile with the language's Name and IsTest.
	Passes func(f File[K]) Passes
	IsTest func(path string) bool // whether a file holds tests, by its path
	// Resolve is Language.Resolve.
	Resolve func(nodes []schemas.Node, refs []schemas.Ref) (newNodes []schemas.Node, edges []schemas.Edge)
}

// Scanned is one file as a MatchScanner scanned it.
type Scanned[K Kind] struct {
	Path  string
	Src   []byte
	Items []Match[K] // in document order
	Lines []uint32   // line starts (see srctext.LineStarts)
}

// NewQueryLanguage returns the Language that l describes.
func NewQueryLanguage[K Kind](l QueryLanguage[K]) Language {
	return &queryLanguage[K]{LanguageInfo: NewLanguageInfo(l.Name, l.Extensions, l.GrammarVersion, l.Grammar), l: l}
}

type queryLanguage[K Kind] struct {
	*LanguageInfo
	l QueryLanguage[K]
}

func (q *queryLanguage[K]) NewExtractor(*Tree) (Extractor, error) {
	s, err := NewMatchScanner(q.l.Query, q.l.Merge)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q.l.Name, err)
	}
	extract := q.l.Extract
	if extract == nil {
		extract = q.runPasses
	}
	return &queryExtractor[K]{MatchScanner: s, extract: extract}, nil
}

func (q *queryLanguage[K]) runPasses(ctx context.Context, f *Scanned[K]) ([]schemas.Node, []schemas.Ref, bool) {
	return RunPasses(ctx, q.l.Passes(NewFile(f, q.l.Name, q.l.IsTest)))
}

func (q *queryLanguage[K]) Resolve(nodes []schemas.Node, refs []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return q.l.Resolve(nodes, refs)
}

type queryExtractor[K Kind] struct {
	*MatchScanner[K]
	extract func(ctx context.Context, f *Scanned[K]) ([]schemas.Node, []schemas.Ref, bool)
}

func (x *queryExtractor[K]) Extract(ctx context.Context, file string, src []byte) (*Result, error) {
	items, err := x.Scan(ctx, src)
	if err != nil {
		return nil, err
	}
	nodes, refs, isTest := x.extract(ctx, &Scanned[K]{Path: file, Src: src, Items: items, Lines: x.Lines()})
	return x.Result(ctx, nodes, refs, isTest)
}
