package query

import "slices"

// DefaultSearchWordsLimit is how many symbols SearchWords returns when
// SearchOptions.Limit is 0.
const DefaultSearchWordsLimit = 50

// SearchWords ranks symbols by the words of text as Context does, without
// code, tests last: the answer to a search in words ("where are expired
// sessions removed") that names no symbol. Kinds, Language and File filter
// as in Search.
func (e *Engine) SearchWords(text string, opt SearchOptions) []int32 {
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultSearchWordsLimit
	}
	copt := ContextOptions{Language: opt.Language, File: opt.File, Limit: limit}
	if len(opt.Kinds) > 0 {
		// Ranked first, then kept by kind: rank more than kept.
		copt.Limit = 4 * limit
	}
	res, _ := e.context(text, copt, -1, false)
	var out []int32
	for _, syms := range [][]ContextSymbol{res.Symbols, res.Tests} {
		for _, s := range syms {
			if len(out) < limit && (len(opt.Kinds) == 0 || slices.Contains(opt.Kinds, e.NodeKind(s.Node))) {
				out = append(out, s.Node)
			}
		}
	}
	return out
}
