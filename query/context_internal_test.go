package query

import (
	"fmt"
	"testing"

	"github.com/graphsnap/snap/query/querytest"
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
