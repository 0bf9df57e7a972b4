package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

// score says which Acc@k a ranking of ids, in files, scores on c.
func score(ids []uint64, files []string, c *commitCase) hits {
	return hits{
		file1: accFile(files, c.files, 1),
		file5: accFile(files, c.files, 5),
		fn5:   accFunc(ids, c.fns, 5),
		fn10:  accFunc(ids, c.fns, 10),
	}
}

// report writes the results as Markdown: Acc@k by language and overall
// for Context and the baseline, then what Context's first ten symbols
// hold.
func report(all []result) string {
	var langs []string
	for _, r := range all {
		if !slices.Contains(langs, r.lang) {
			langs = append(langs, r.lang)
		}
	}
	slices.Sort(langs)
	groups := append(langs, "all")
	in := func(g string) []result {
		if g == "all" {
			return all
		}
		var out []result
		for _, r := range all {
			if r.lang == g {
				out = append(out, r)
			}
		}
		return out
	}
	var b strings.Builder
	b.WriteString("| language | tasks | ranker | file Acc@1 | file Acc@5 | fn Acc@5 | fn Acc@10 |\n|---|---:|---|---:|---:|---:|---:|\n")
	for _, g := range groups {
		rs := in(g)
		for _, ranker := range []string{"snap context", "BM25 bodies"} {
			share := func(f func(h hits) bool) string {
				k := 0
				for _, r := range rs {
					h := r.snap
					if ranker != "snap context" {
						h = r.base
					}
					if f(h) {
						k++
					}
				}
				return ratio(k, len(rs))
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s |\n", g, len(rs), ranker,
				share(func(h hits) bool { return h.file1 }), share(func(h hits) bool { return h.file5 }),
				share(func(h hits) bool { return h.fn5 }), share(func(h hits) bool { return h.fn10 }))
		}
	}
	b.WriteString("\n| language | snap: tests in first 10 | test first | not callables in first 10 | empty answers |\n|---|---:|---:|---:|---:|\n")
	for _, g := range groups {
		rs := in(g)
		var tests, noncall, shown, first, empty int
		for _, r := range rs {
			tests += r.tests
			noncall += r.noncallable
			shown += 10
			if r.testFirst {
				first++
			}
			if r.empty {
				empty++
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d |\n", g, ratio(tests, shown), ratio(first, len(rs)), ratio(noncall, shown), empty)
	}
	return b.String()
}

func ratio(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(k)/float64(n))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 70 {
		s = s[:70] + "…"
	}
	return s
}

// pickScan is how many commits back from the head picking looks at most.
const pickScan = 2000

// pickAll picks n commits per repository, the newest that are cases (see
// prepare), from its pinned head, or from its mirror's HEAD when it has
// none, and prints the corpus as Go.
func pickAll(ctx context.Context, mirrors string, repos []repo, n int, stdout, stderr io.Writer) error {
	var b strings.Builder
	b.WriteString("package main\n\nX corpus = []repo{\n")
	for _, r := range repos {
		dir := mirrorDir(mirrors, r.Name)
		head := r.Head
		if head == "" {
			out, err := git(ctx, dir, "rev-parse", "HEAD")
			if err != nil {
				return err
			}
			head = strings.TrimSpace(string(out))
		}
		out, err := git(ctx, dir, "rev-list", "--no-merges", fmt.Sprintf("--max-count=%d", pickScan), head)
		if err != nil {
			return err
		}
		var picked []string
		for _, c := range strings.Fields(string(out)) {
			if len(picked) == n {
				break
			}
			cs, err := prepare(ctx, dir, "", r, c)
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				// A mirror may lack some objects: such a commit is no case.
				fmt.Fprintf(stderr, "%s %.10s left out: %v\n", r.Name, c, err)
				continue
			}
			if cs != nil {
				picked = append(picked, c)
				fmt.Fprintf(stderr, "%s %d/%d %.10s %s\n", r.Name, len(picked), n, c, firstLine(cs.task))
			}
		}
		fmt.Fprintf(&b, "\t{Name: %q, Lang: %q, Head: %q, Commits: []string{\n", r.Name, r.Lang, head)
		for _, c := range picked {
			fmt.Fprintf(&b, "\t\t%q,\n", c)
		}
		b.WriteString("\t}},\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(stdout, b.String())
	return err
}
