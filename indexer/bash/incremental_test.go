package bash_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/bash"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestIncremental edits scripts step by step and checks after each edit
// that an index reusing the previous one's rows is the same as a full
// index: calls resolve through the files a script sources, which other
// files' edits change.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, []indexer.Language{bash.New()}, map[string]string{
		"main.sh":  "source lib/a.sh\nf\ng\n",
		"lib/a.sh": "source ./b.sh\nf() { g; }\n",
		"lib/b.sh": "g() { :; }\n",
	}, []languagetest.Step{
		{Name: "nothing"},
		{Name: "move g", Write: map[string]string{"lib/b.sh": "\n", "lib/c.sh": "g() { :; }\n"}},
		{Name: "source it", Write: map[string]string{"lib/a.sh": "source ./c.sh\nf() { g; }\n"}},
		{Name: "define g twice", Write: map[string]string{
			"lib/b.sh": "g() { :; }\n",
			"lib/a.sh": "source ./b.sh\nsource ./c.sh\nf() { g; }\n",
		}},
	})
}
