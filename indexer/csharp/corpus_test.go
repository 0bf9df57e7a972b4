package csharp_test

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/csharp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestCorpus indexes the C# tree named by $CSHARP_CORPUS, checks the
// invariants and logs figures: run by hand.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("CSHARP_CORPUS")
	if dir == "" {
		t.Skip("CSHARP_CORPUS not set")
	}
	start := time.Now()
	g, err := indexer.Index(context.Background(), dir, indexer.Options{Languages: []indexer.Language{csharp.New()}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	languagetest.Invariants(t, g)
	files, parseErrors := 0, 0
	for _, f := range g.Files {
		if f.Language == csharp.Name {
			files++
			if f.Status != "ok" {
				parseErrors++
			}
		}
	}
	calls, resolved := 0, 0
	reasons := map[string]int{}
	for _, e := range g.Edges {
		if e.Kind != "calls" {
			continue
		}
		calls++
		if e.Dst != 0 {
			resolved++
			continue
		}
		r := e.Reason
		if i := strings.IndexByte(r, ' '); i > 0 && (strings.HasPrefix(r, "external") || strings.HasPrefix(r, "unknown")) {
			r = r[:strings.IndexByte(r[i+1:]+" ", ' ')+i+1]
		}
		reasons[e.Resolution+": "+r]++
	}
	t.Logf("%d files (%d not ok), %d nodes, %d edges, %d calls, %d resolved (%.1f%%), in %v",
		files, parseErrors, len(g.Nodes), len(g.Edges), calls, resolved, 100*float64(resolved)/float64(max(calls, 1)), elapsed)
	var keys []string
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return reasons[keys[i]] > reasons[keys[j]] })
	for _, k := range keys[:min(len(keys), 12)] {
		t.Logf("%6d %s", reasons[k], k)
	}
}
