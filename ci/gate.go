package ci

import (
	"fmt"

	"github.com/graphsnap/snap/schemas"
)

// FailConditions are the conditions a gate (snap diff and snap ci
// --fail-on) can fail on: broken (a removed symbol or a changed signature
// still has callers), removed (an exported symbol was removed), signature
// (an exported signature changed), any (anything changed).
var FailConditions = []string{"broken", "removed", "signature", "any"}

// Failed says which condition of conds (FailConditions) holds of d, if
// one does: why a gate fails; "" when it passes.
func Failed(d *schemas.Diff, conds []string) string {
	for _, c := range conds {
		switch c {
		case "any":
			if len(d.Files) > 0 || len(d.Symbols) > 0 {
				return "--fail-on any: the snapshots differ"
			}
		case "broken":
			if d.Summary.Broken > 0 {
				return fmt.Sprintf("--fail-on broken: %d removed or re-signed symbols still have callers", d.Summary.Broken)
			}
		case "removed", "signature":
			n := 0
			for _, s := range d.Symbols {
				if s.Exported && s.Change == c {
					n++
				}
			}
			if n > 0 {
				return fmt.Sprintf("--fail-on %s: %d exported symbols %s", c, n, map[string]string{"removed": "removed", "signature": "changed their signature"}[c])
			}
		}
	}
	return ""
}
