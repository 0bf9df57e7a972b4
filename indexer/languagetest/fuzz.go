package languagetest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// FuzzExtract fuzzes the extraction of a file named file with l, then the
// resolution of what it gave, seeded with the files globs match and with
// seeds. The extractor reads tree (an empty one when nil). No input may
// make extraction hang (5 seconds), panic or fail but on one of the
// limits the indexer sets on a parse (indexer.ErrParseBudget,
// ErrQueryLimit, ErrTooDeep), give two nodes one id or a node a range
// outside the source, or make resolution panic. check, when not nil,
// holds each source and its result to the language's own rules too.
func FuzzExtract(f *testing.F, l indexer.Language, tree *indexer.Tree, file string, seeds []string, check func(t *testing.T, src []byte, res *indexer.Result), globs ...string) {
	Seed(f, globs...)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if tree == nil {
		tree = &indexer.Tree{Paths: map[string]bool{}}
	}
	x, err := l.NewExtractor(tree)
	if err != nil {
		f.Fatal(err)
	}
	defer x.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		timer := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		res, err := x.Extract(context.Background(), file, src)
		if err != nil {
			if !errors.Is(err, indexer.ErrParseBudget) && !errors.Is(err, indexer.ErrQueryLimit) && !errors.Is(err, indexer.ErrTooDeep) {
				t.Fatal(err)
			}
			return
		}
		// The nodes as the indexer resolves them: under the file's node,
		// sorted by id.
		nodes := []schemas.Node{{ID: indexer.FileID(file), Kind: schemas.KindFile, Name: file, QualifiedName: file, Language: l.Name(), File: file}}
		for _, n := range res.Nodes {
			if n.StartByte > n.EndByte || int(n.EndByte) > len(src) || n.StartLine == 0 || n.StartLine > n.EndLine {
				t.Fatalf("bad range %+v", n)
			}
			if n.ParentID == 0 {
				n.ParentID = nodes[0].ID
			}
			nodes = append(nodes, n)
		}
		slices.SortStableFunc(nodes, func(a, b schemas.Node) int { return cmp.Compare(a.ID, b.ID) })
		for i := 1; i < len(nodes); i++ {
			if nodes[i].ID == nodes[i-1].ID {
				t.Fatalf("id of %s repeated", nodes[i].QualifiedName)
			}
		}
		if check != nil {
			check(t, src, res)
		}
		l.Resolve(nodes, res.Refs)
	})
}
