package bash_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/bash"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func TestSourcesAndCalls(t *testing.T) {
	edges := languagetest.Edges(t, map[string]string{
		"bin/run.sh": `#!/bin/bash
HERE=$(dirname "$0")
source "$HERE/../lib/a.sh"
. lib/b.sh
helper
twice
other
ls -la
echo hi
`,
		"lib/a.sh": `helper() { inner; }
inner() { :; }
`,
		"lib/b.sh": `if x; then twice() { :; }; else twice() { :; }; fi
`,
		"lib/c.sh": `other() { :; }
`,
	}, bash.New())
	languagetest.Expect(t, edges, []string{
		"bin/run.sh -imports-> lib/a.sh (import) bin/run.sh:3",
		"bin/run.sh -imports-> lib/b.sh (import) bin/run.sh:4",
		"bin/run.sh -calls-> helper (import) bin/run.sh:5",
		"bin/run.sh -calls-> ?twice (ambiguous: defined more than once) bin/run.sh:6",
		"bin/run.sh -calls-> ?other (unresolved: function of a file not sourced here) bin/run.sh:7",
		"helper -calls-> inner (local) lib/a.sh:1",
	},
		// programs and builtins make no edge at all.
		"bin/run.sh -calls-> ?ls", "bin/run.sh -calls-> ?echo",
		// no guess across files that are not sourced.
		"bin/run.sh -calls-> other")
}
