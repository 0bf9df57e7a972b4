package languagetest

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// Figures is what a real project's index says of one language: the
// figures a closing note reports.
type Figures struct {
	Files, NotOK    int // files of the language, and those with a status other than ok
	Nodes, Edges    int // in the whole graph
	Calls, Resolved int // calls edges of the language's files, and those with a destination
	Elapsed         time.Duration
	Reasons         map[string]int // unresolved and ambiguous calls by resolution and first word(s) of reason
	Language        string
}

// Project indexes the tree named by $env with langs on two workers, checks
// the invariants, and logs the figures of the first language and the most
// common reasons calls were left unresolved. It skips when $env is unset:
// it is run by hand, on a real project.
func Project(t *testing.T, env string, langs ...indexer.Language) Figures {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		t.Skip(env + " not set")
	}
	start := time.Now()
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: langs, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	f := Figures{Language: langs[0].Name(), Elapsed: time.Since(start), Nodes: len(g.Nodes), Edges: len(g.Edges), Reasons: map[string]int{}}
	Invariants(t, g)
	mine := make(map[string]bool)
	for _, file := range g.Files {
		if file.Language == f.Language {
			mine[file.Path] = true
			f.Files++
			if file.Status != schemas.StatusOK {
				f.NotOK++
			}
		}
	}
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls || !mine[e.File] {
			continue
		}
		f.Calls++
		if e.Dst != 0 {
			f.Resolved++
			continue
		}
		r := e.Reason
		if i := strings.IndexByte(r, ' '); i > 0 && (strings.HasPrefix(r, "external") || strings.HasPrefix(r, "unknown")) {
			r = r[:strings.IndexByte(r[i+1:]+" ", ' ')+i+1]
		}
		f.Reasons[e.Resolution+": "+r]++
	}
	t.Logf("%s: %d files (%d not ok), %d nodes, %d edges, %d calls, %d resolved (%.1f%%), in %v",
		f.Language, f.Files, f.NotOK, f.Nodes, f.Edges, f.Calls, f.Resolved, 100*float64(f.Resolved)/float64(max(f.Calls, 1)), f.Elapsed.Round(time.Millisecond))
	keys := make([]string, 0, len(f.Reasons))
	for k := range f.Reasons {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return f.Reasons[keys[i]] > f.Reasons[keys[j]] })
	for _, k := range keys[:min(len(keys), 12)] {
		t.Logf("%6d %s", f.Reasons[k], k)
	}
	return f
}
