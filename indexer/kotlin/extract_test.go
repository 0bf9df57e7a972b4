package kotlin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

var _ = languagetest.Render

func FuzzExtract(f *testing.F) {
	filepath.WalkDir("../../testdata/kotlin/shop", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	f.Add([]byte("class A(val x: Int = (1, fun B.c() = d(\"e\""))
	x, err := New().NewExtractor(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		res, err := x.Extract(context.Background(), "src/main/kotlin/a/A.kt", src)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Nodes {
			if n.StartByte > n.EndByte || int(n.EndByte) > len(src) {
				t.Fatalf("bad range %+v", n)
			}
		}
	})
}
