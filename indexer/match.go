package indexer

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// Span is a byte range of a file: [Start, End).
type Span struct{ Start, End uint32 }

// Key packs s into one number, for maps keyed by range.
func (s Span) Key() uint64 { return uint64(s.Start)<<32 | uint64(s.End) }

// Contains reports whether t lies within s.
func (s Span) Contains(t Span) bool { return s.Start <= t.Start && t.End <= s.End }

// Match is the item a Collector makes of a main capture: its kind and
// range, and the ranges of the role captures of its match.
type Match[K cmp.Ordered] struct {
	Span
	Kind K
	Role [MaxRoles]Span // by role slot; see HasRole
	has  uint16
}

// HasRole reports whether role slot r was captured.
func (m *Match[K]) HasRole(r int) bool { return m.has&(1<<r) != 0 }

// SetMain sets the kind and the range of the main capture.
func (m *Match[K]) SetMain(k K, start, end uint32) { m.Kind, m.Span = k, Span{start, end} }

// SetRole sets the range of role slot r and marks the role present.
func (m *Match[K]) SetRole(r int, start, end uint32) {
	m.Role[r], m.has = Span{start, end}, m.has|1<<r
}

// Kind is the constraint on a language's capture kinds: small integers
// numbered from 0, in the order of the names given to CompileQuery.
type Kind interface {
	~uint8 | ~uint16 | ~int
}

// CompiledQuery is a language's query with what each of its captures
// stands for. It is immutable once compiled: every extractor shares it.
type CompiledQuery[K Kind] struct {
	Query    *Query
	Captures []CaptureInfo[K] // by capture index
}

// CompileQuery compiles source for the grammar lang (see NewQuery) and
// reads its capture names: "kind" names a main capture of the kind
// kinds[k], "kind.role" a role capture of the slot roles[role] (see
// Roles). A name it cannot read is an error. Errors begin with name, the
// language's.
func CompileQuery[K Kind](name string, lang unsafe.Pointer, source string, kinds []string, roles map[string]int) (*CompiledQuery[K], error) {
	q, err := NewQuery(lang, source)
	if err != nil {
		return nil, fmt.Errorf("%s query: %w", name, err)
	}
	out := &CompiledQuery[K]{Query: q}
	for _, capture := range q.CaptureNames() {
		k, role, _ := strings.Cut(capture, ".")
		unknown := K(len(kinds))
		ci := CaptureInfo[K]{Kind: unknown, Role: -1}
		for i, n := range kinds {
			if n == k {
				ci.Kind = K(i)
			}
		}
		if role != "" {
			slot, ok := roles[role]
			if !ok {
				ci.Kind = unknown
			}
			ci.Role = int8(slot)
		}
		if ci.Kind == unknown {
			return nil, fmt.Errorf("%s query: unknown capture @%s", name, capture)
		}
		out.Captures = append(out.Captures, ci)
	}
	return out, nil
}

// CompileOnce returns a function that compiles source for the grammar
// that grammar returns (see CompileQuery) on its first call and returns
// the same query, or error, on every call: a language's query, compiled
// once and shared by every extractor.
func CompileOnce[K Kind](name string, grammar func() unsafe.Pointer, source string, kinds []string, roles map[string]int) func() (*CompiledQuery[K], error) {
	return sync.OnceValues(func() (*CompiledQuery[K], error) {
		return CompileQuery[K](name, grammar(), source, kinds, roles)
	})
}

// MatchScanner parses files and collects the items of a CompiledQuery's
// matches: the first step of an extractor built on one query. It reuses
// its memory from file to file, so it is not safe for concurrent use:
// keep one per extractor.
type MatchScanner[K Kind] struct {
	scanner  *Scanner
	query    *CompiledQuery[K]
	col      Collector[K, Match[K], *Match[K]]
	lines    []uint32 // of the last Scan
	errAt    uint32
	hasError bool
}

// NewMatchScanner returns a scanner for the query compiled gives, whose
// items of one kind on one node are merged as merge says.
func NewMatchScanner[K Kind](compiled func() (*CompiledQuery[K], error), merge Merge) (*MatchScanner[K], error) {
	q, err := compiled()
	if err != nil {
		return nil, err
	}
	s, err := NewScanner(q.Query)
	if err != nil {
		return nil, fmt.Errorf("extractor: %w", err)
	}
	return &MatchScanner[K]{scanner: s, query: q, col: Collector[K, Match[K], *Match[K]]{Merge: merge}}, nil
}

// Scan parses src and returns the items of its matches in document order
// (see Collector.Collect), a slice valid until the next Scan.
func (s *MatchScanner[K]) Scan(ctx context.Context, src []byte) ([]Match[K], error) {
	caps, errAt, hasError, err := s.scanner.Scan(ctx, src)
	if err != nil {
		return nil, err
	}
	s.lines = srctext.LineStarts(s.lines[:0], src)
	s.errAt, s.hasError = errAt, hasError
	return s.col.Collect(caps, s.query.Captures), nil
}

// Lines returns the line starts (see srctext.LineStarts) of the file last
// scanned, a slice valid until the next Scan.
func (s *MatchScanner[K]) Lines() []uint32 { return s.lines }

// Result returns what the extraction of the file last scanned found:
// nodes and refs, with the first syntax error Scan met. When ctx is done
// it returns ctx's error instead, the extraction having given up.
func (s *MatchScanner[K]) Result(ctx context.Context, nodes []schemas.Node, refs []schemas.Ref, isTest bool) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	res := &Result{Nodes: nodes, Refs: refs, IsTest: isTest}
	if s.hasError {
		res.ParseError = SyntaxError(s.lines, s.errAt)
	}
	return res, nil
}

// SyntaxError is the Result.ParseError of a file whose first syntax error
// is at offset off, from the line starts of the file.
func SyntaxError(starts []uint32, off uint32) string {
	line, col := srctext.Pos(starts, off)
	return fmt.Sprintf("syntax error at line %d column %d", line, col)
}

// Close frees the scanner.
func (s *MatchScanner[K]) Close() { s.scanner.Close() }
