package golang_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// FuzzExtract feeds arbitrary bytes to extraction and resolution: they
// must never panic or crash, whatever the input, and extraction by plan
// must give what the query cursor gives (see TestPlanMatchesCursor).
func FuzzExtract(f *testing.F) {
	languagetest.Seed(f, "../../testdata/go/shop/*/*.go")
	f.Add([]byte("package p\nfunc f(a, b int) (c T) { switch v := x.(type) { case T: v.M() } }"))
	f.Add([]byte("package p\nvar a, b, = 1\nconst (x, y int = iota\n"))
	f.Add([]byte("\x00\xff{{{(((("))
	lang := golang.New()
	tree := &indexer.Tree{Root: "/", Paths: map[string]bool{}}
	x, err := lang.NewExtractor(tree)
	if err != nil {
		f.Fatal(err)
	}
	defer x.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		timer := time.AfterFunc(2*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		languagetest.ComparePlan(t, lang, tree, []string{"p/f.go"}, [][]byte{src})
		res, err := x.Extract(context.Background(), "p/f.go", src)
		if err != nil {
			return
		}
		for i := range res.Nodes {
			if res.Nodes[i].ParentID == 0 {
				res.Nodes[i].ParentID = indexer.FileID("p/f.go")
			}
		}
		slices.SortFunc(res.Nodes, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) }) // as Resolve wants them
		lang.Resolve(res.Nodes, res.Refs)
	})
}
