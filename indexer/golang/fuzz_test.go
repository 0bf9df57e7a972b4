package golang_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
)

// FuzzExtract feeds arbitrary bytes to extraction and resolution: they
// must never panic or crash, whatever the input.
func FuzzExtract(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/go/shop/*/*.go")
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("package p\nfunc f(a, b int) (c T) { switch v := x.(type) { case T: v.M() } }"))
	f.Add([]byte("\x00\xff{{{(((("))
	lang := golang.New()
	x, err := lang.NewExtractor(&indexer.Tree{Root: "/", Paths: map[string]bool{}})
	if err != nil {
		f.Fatal(err)
	}
	defer x.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		timer := time.AfterFunc(2*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		res, err := x.Extract("p/f.go", src)
		if err != nil {
			return
		}
		for i := range res.Nodes {
			if res.Nodes[i].ParentID == 0 {
				res.Nodes[i].ParentID = indexer.FileID("p/f.go")
			}
		}
		lang.Resolve(res.Nodes, res.Refs)
	})
}
