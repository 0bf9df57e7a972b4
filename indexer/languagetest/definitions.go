package languagetest

import (
	"fmt"
	"slices"
	"testing"
)

// Definitions scores a graph's declarations against a judge's (a
// compiler's): truth and ours map the same kind of key (file and name, as
// the caller compares them) to what a log line shows of the declaration.
// unseen counts declarations the judge found that the caller could not
// key and the graph does not hold: they count as missed. It logs
// precision, recall, F1 and the first of the missed and extra
// declarations, and returns F1.
func Definitions[K comparable](t testing.TB, judge string, truth, ours map[K]string, unseen int) float64 {
	t.Helper()
	var missed, extra []string
	agree := 0
	for k, show := range truth {
		if _, ok := ours[k]; ok {
			agree++
		} else {
			missed = append(missed, show)
		}
	}
	for k, show := range ours {
		if _, ok := truth[k]; !ok {
			extra = append(extra, show)
		}
	}
	p := float64(agree) / float64(max(len(ours), 1))
	r := float64(agree) / float64(max(len(truth)+unseen, 1))
	f1 := 2 * p * r / max(p+r, 1e-9)
	t.Logf("definitions: %s %d (and %d not compared), ours %d, agree %d: precision %.4f, recall %.4f, F1 %.4f",
		judge, len(truth), unseen, len(ours), agree, p, r, f1)
	logSome(t, "missed", missed)
	logSome(t, "not declared there for "+judge+":", extra)
	return f1
}

// Decl is a declaration as a judge and the graph both name it: where it
// starts and its qualified name, in the indexer's form.
type Decl struct {
	File string
	Line int
	Name string
}

func (d Decl) String() string { return fmt.Sprintf("%s:%d %s", d.File, d.Line, d.Name) }

// logSome logs the first lines of a list, sorted.
func logSome(t testing.TB, what string, lines []string) {
	t.Helper()
	const most = 40
	slices.Sort(lines)
	for _, l := range lines[:min(len(lines), most)] {
		t.Logf("  %s %s", what, l)
	}
	if len(lines) > most {
		t.Logf("  … and %d more", len(lines)-most)
	}
}
