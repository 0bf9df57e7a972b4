package query

import (
	"fmt"
	"math"
	"os"
	"path"
	"reflect"
	"testing"

	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/snapshot"
)

func TestStem(t *testing.T) {
	for _, group := range [][]string{
		{"handle", "handles", "handling", "handled"},
		{"parse", "parses", "parsing", "parsed"},
		{"redirect", "redirects", "redirecting", "redirected"},
		{"cache", "caches", "caching", "cached"},
		{"map", "maps", "mapping", "mapped"},
		{"entry", "entries"},
		{"index", "indexes", "indexed"},
		{"call", "calls", "calling", "called"},
		{"file", "files"},
	} {
		want := stem(group[0])
		for _, w := range group[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", w, got, group[0], want)
			}
		}
	}
	for _, pair := range [][2]string{{"server", "serve"}, {"string", "str"}, {"status", "statu"}, {"class", "clas"}} {
		if stem(pair[0]) == stem(pair[1]) {
			t.Errorf("stem(%q) = stem(%q) = %q", pair[0], pair[1], stem(pair[0]))
		}
	}
}

// BenchmarkContextIndexSnapshot builds the context index of the snapshot
// folder SNAP_BENCH_SNAPSHOT names, as BenchmarkWarm reads it, and reports
// its size:
//
//	SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench ContextIndexSnapshot ./query/
func BenchmarkContextIndexSnapshot(b *testing.B) {
	dir := os.Getenv("SNAP_BENCH_SNAPSHOT")
	if dir == "" {
		b.Skip("set SNAP_BENCH_SNAPSHOT to a snapshot folder")
	}
	s, err := snapshot.ReadDir(b.Context(), dir, snapshot.ReadOptions{SkipRefs: true})
	if err != nil {
		b.Fatal(err)
	}
	e, err := Build(s)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var x *ctxIndex
	for b.Loop() {
		x = e.buildContextIndex()
	}
	b.ReportMetric(float64(len(x.terms)), "terms")
	b.ReportMetric(float64(len(x.docs)), "postings")
	b.ReportMetric(float64(len(x.docs)*6+len(x.off)*4+len(x.lens)*7)/1e6, "MB")
}

func BenchmarkContextIndex(b *testing.B) {
	for _, n := range []int{200_000} {
		e, err := Build(querytest.Synthetic(n, 1))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var x *ctxIndex
			for b.Loop() {
				x = e.buildContextIndex()
			}
			b.ReportMetric(float64(len(x.terms)), "terms")
			b.ReportMetric(float64(len(x.docs)), "postings")
			b.ReportMetric(float64(len(x.docs)*6+len(x.off)*4+len(x.lens)*2)/1e6, "MB")
		})
	}
}

// TestContextBound checks that bounding common terms changes no answer:
// over tasks of a synthetic graph, as the load test writes them and with
// filters, the answers with any threshold of common terms equal those of a
// full ranking, and the bound settles some of them.
func TestContextBound(t *testing.T) {
	e, err := Build(querytest.Synthetic(20_000, 3))
	if err != nil {
		t.Fatal(err)
	}
	docs := e.contextIndex().numDocs
	settled, n := 0, 0
	for r := int32(0); r < int32(e.NumNodes()); r += 199 {
		nd := e.Node(r)
		for _, task := range []string{
			fmt.Sprintf("change how %s works in %s", nd.Name, path.Dir(nd.File)),
			nd.Name + " " + path.Base(nd.File),
			nd.QualifiedName,
		} {
			for _, opt := range []ContextOptions{{}, {Limit: 3, Tokens: 300}, {Language: "python"}, {File: path.Base(nd.File)}} {
				want, _ := e.context(task, opt, math.MaxInt, true)
				for _, df := range []int{docs / 64, docs / 16, docs / ctxCommon, docs / 2} {
					got, ok := e.context(task, opt, df, true)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%q %+v, common from %d documents:\n got %+v\nwant %+v", task, opt, df, got, want)
					}
					if ok {
						settled++
					}
					n++
				}
			}
		}
	}
	t.Logf("the bound settled %d answers of %d", settled, n)
	if settled == 0 {
		t.Error("the bound settled no answer")
	}
}

func TestTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"test/app.router.js":           true,
		"src/__tests__/parse.ts":       true,
		"pkg/cache_test.go":            true,
		"tests/test_api.py":            true,
		"lib/test_utils.py":            true,
		"src/parse.spec.ts":            true,
		"src/main/java/a/CliTest.java": true,
		"src/testing/testing.go":       false,
		"lib/router/index.js":          false,
		"src/contest.py":               false,
		"src/attestation.ts":           false,
	} {
		if got := testPath(p); got != want {
			t.Errorf("testPath(%q) = %v", p, got)
		}
	}
	for p, want := range map[string]bool{"examples/auth/index.js": true, "docs/conf.py": true, "lib/example.js": false, "src/docstring.py": false} {
		if got := asidePath(p); got != want {
			t.Errorf("asidePath(%q) = %v", p, got)
		}
	}
}
