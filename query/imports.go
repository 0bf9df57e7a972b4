package query

import (
	"strings"
	"sync"
)

// lazyIndex is an index an engine builds on first use: most sessions
// never ask for it.
type lazyIndex struct {
	once sync.Once
	m    map[string][]int32
}

// ImportText is an import as written with its quotes or angle brackets
// taken off: "net/http", <stdio.h> and 'os' read net/http, stdio.h, os.
func ImportText(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		switch {
		case s[0] == '"' && s[len(s)-1] == '"', s[0] == '\'' && s[len(s)-1] == '\'',
			s[0] == '`' && s[len(s)-1] == '`', s[0] == '<' && s[len(s)-1] == '>':
			s = s[1 : len(s)-1]
		}
	}
	return s
}

// ImportSites returns the imports edges whose target, as written, is
// text (see ImportText), in edge order: resolved ones lead where the
// indexer found the import goes, unresolved ones say why not.
func (e *Engine) ImportSites(text string) []int32 {
	e.later.importTexts.once.Do(func() {
		m := make(map[string][]int32)
		for i := range e.edges {
			if ed := &e.edges[i]; ed.kind == Imports {
				t := ImportText(e.targets.str(ed.target))
				m[t] = append(m[t], int32(i))
			}
		}
		e.later.importTexts.m = m
	})
	return e.later.importTexts.m[ImportText(text)]
}
