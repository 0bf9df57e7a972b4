package ci

import (
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// TestFailed holds each condition of the gate to the diffs it fails.
func TestFailed(t *testing.T) {
	none := &schemas.Diff{}
	internal := &schemas.Diff{Symbols: []schemas.SymbolDelta{{Change: "removed", QName: "a.f"}}}
	removed := &schemas.Diff{Symbols: []schemas.SymbolDelta{{Change: "removed", QName: "a.F", Exported: true}}}
	resigned := &schemas.Diff{Symbols: []schemas.SymbolDelta{{Change: "signature", QName: "a.G", Exported: true}}}
	broken := &schemas.Diff{Summary: schemas.DiffSummary{Broken: 2}}
	for _, tc := range []struct {
		d     *schemas.Diff
		conds []string
		want  string // in the answer; "" for none
	}{
		{none, FailConditions, ""},
		{internal, []string{"removed", "signature", "broken"}, ""},
		{internal, []string{"any"}, "--fail-on any: the snapshots differ"},
		{removed, []string{"removed"}, "--fail-on removed: 1 exported symbols removed"},
		{removed, []string{"signature"}, ""},
		{resigned, []string{"signature"}, "--fail-on signature: 1 exported symbols changed their signature"},
		{broken, []string{"removed", "broken"}, "--fail-on broken: 2 removed or re-signed symbols still have callers"},
		{broken, nil, ""},
	} {
		got := Failed(tc.d, tc.conds)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("Failed(%+v, %q) = %q, want %q", tc.d, tc.conds, got, tc.want)
		}
	}
}
