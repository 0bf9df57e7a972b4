package languagetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
)

// FuzzExtract fuzzes the extraction of a file named file with l, then the
// resolution of what it gave, seeded with the files globs match and with
// seeds. No input may make extraction hang (5 seconds) or panic, give two
// nodes one id or a node a range outside the source, or make resolution
// panic. check, when not nil, holds each result to the language's own
// rules too.
func FuzzExtract(f *testing.F, l indexer.Language, file string, seeds []string, check func(t *testing.T, res *indexer.Result), globs ...string) {
	Seed(f, globs...)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	x, err := l.NewExtractor(&indexer.Tree{Paths: map[string]bool{}})
	if err != nil {
		f.Fatal(err)
	}
	defer x.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		timer := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		res, err := x.Extract(context.Background(), file, src)
		if err != nil {
			return
		}
		ids := make(map[uint64]bool)
		for i := range res.Nodes {
			n := &res.Nodes[i]
			if n.StartByte > n.EndByte || int(n.EndByte) > len(src) || n.StartLine == 0 || n.StartLine > n.EndLine {
				t.Fatalf("bad range %+v", n)
			}
			if ids[n.ID] {
				t.Fatalf("id of %s repeated", n.QualifiedName)
			}
			ids[n.ID] = true
			if n.ParentID == 0 {
				n.ParentID = indexer.FileID(file)
			}
		}
		if check != nil {
			check(t, res)
		}
		l.Resolve(res.Nodes, res.Refs)
	})
}
