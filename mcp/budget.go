package mcp

import (
	"fmt"

	"github.com/graphsnap/snap/query"
)

// Answer budgets, in tokens of about 4 bytes of the encoded answer.
const (
	// DefaultMaxTokens bounds a listing answer when the call gives no
	// max_tokens: an agent reads the head of a list, and asks for the rest.
	DefaultMaxTokens = 2000
	// MaxMaxTokens is the largest max_tokens a call may ask for.
	MaxMaxTokens = 100_000
	// maxSlack is what a cut answer's cursor, counts and hint may add
	// after the cut.
	maxSlack = 320
)

// room is the bytes a list may fill within tokens: the budget less what
// the answer adds once cut (at most a quarter of it).
func room(tokens int) int { return tokens*4 - min(maxSlack, tokens) }

// budget is the size argument of a tool that lists things.
type budget struct {
	MaxTokens *int `json:"max_tokens,omitempty" jsonschema:"answer cap, in tokens"`
}

// tokens returns the budget asked for, or def.
func (b *budget) tokens(def int) (int, *ToolError) {
	if b.MaxTokens == nil {
		return def, nil
	}
	if *b.MaxTokens < 100 {
		return 0, argErr("max_tokens", "at least 100, got %d", *b.MaxTokens)
	}
	return min(*b.MaxTokens, MaxMaxTokens), nil
}

// fit cuts *items to the longest head (one item at least) with which out
// encodes within tokens, and returns how many items it cut.
func fit[T any](out any, items *[]T, tokens int) int {
	all := *items
	k := fitHead(out, len(all), tokens, func(k int) { *items = all[:k] })
	return len(all) - k
}

// fitHead returns the longest head of n items (one at least) with which
// out encodes within tokens, and leaves out showing it: show(k) makes out
// list the first k items.
func fitHead(out any, n, tokens int, show func(k int)) int {
	limit := room(tokens)
	if n <= 1 || len(encode(out)) <= limit {
		return n
	}
	lo, hi := 1, n-1 // the longest head that fits is in [lo, hi], or is lo
	for lo < hi {
		mid := (lo + hi + 1) / 2
		show(mid)
		if len(encode(out)) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	show(lo)
	return lo
}

// listed ends the answer of a paged list: how many items there are in
// all, how many come after this page, and the cursor of the next page.
type listed struct {
	Total int    `json:"total"`
	More  int    `json:"more,omitempty"`
	Next  string `json:"next_cursor,omitempty"`
}

// pageOf makes out list the page of items the call asks for (show(pg)
// fills out's lists from the page), cut to the budget, and says in l
// what is left.
func pageOf[R any](e *query.Engine, p *page, b *budget, defTokens int, out any, l *listed, items []R, show func(pg []R)) *ToolError {
	off, limit, terr := p.window(e)
	if terr != nil {
		return terr
	}
	tokens, terr := b.tokens(defTokens)
	if terr != nil {
		return terr
	}
	l.Total = len(items)
	pg := items[min(off, len(items)):min(off+limit, len(items))]
	show(pg)
	k := fitHead(out, len(pg), tokens, func(k int) { show(pg[:k]) })
	if end := min(off, len(items)) + k; end < len(items) {
		l.More, l.Next = len(items)-end, p.next(e, end)
	}
	return nil
}

// Which code a list shows, by the tests argument.
const (
	testsInclude = "include"
	testsExclude = "exclude"
	testsOnly    = "only"
)

// tests is the argument that keeps or leaves out test code (a test, or a
// symbol of a test file).
type tests struct {
	Tests string `json:"tests,omitempty" enum:"include,exclude,only" jsonschema:"test code"`
}

// mode returns the tests argument, or def.
func (t *tests) mode(def string) (string, *ToolError) {
	switch t.Tests {
	case "":
		return def, nil
	case testsInclude, testsExclude, testsOnly:
		return t.Tests, nil
	}
	return "", argErr("tests", "want include, exclude or only, got %q", t.Tests)
}

// byTests orders items by mode: non-test code first then tests
// (include), non-test code alone (exclude), tests alone (only). It
// returns them and how many of all the items are tests.
func byTests[T any](mode string, items []T, isTest func(T) bool) (kept []T, n int) {
	var code, test []T
	for _, it := range items {
		if isTest(it) {
			test = append(test, it)
		} else {
			code = append(code, it)
		}
	}
	switch mode {
	case testsExclude:
		return code, len(test)
	case testsOnly:
		return test, len(test)
	}
	return append(code, test...), len(test)
}

// testsHint says what tests an answer left out, and how to list them.
func testsHint(mode string, n int) string {
	if mode != testsExclude || n == 0 {
		return ""
	}
	return fmt.Sprintf("%d from tests left out: tests include or only lists them", n)
}
