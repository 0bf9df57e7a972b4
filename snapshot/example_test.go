package snapshot_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// Write stores a snapshot's tables and then its manifest; Read checks and
// loads it back.
func ExampleWrite() {
	ctx := context.Background()
	st := memstore.New() // or filestore.New(".snap")

	prefix, err := snapshot.Prefix("octo/hello", "main", "3f1c2a9")
	if err != nil {
		log.Fatal(err)
	}
	s := &snapshot.Snapshot{
		Manifest: schemas.Manifest{Repo: "octo/hello", Branch: "main", Commit: "3f1c2a9"},
		Nodes: []schemas.Node{
			{ID: 7, Kind: schemas.KindFunction, Name: "main", QualifiedName: "main.main", Language: "go", File: "main.go"},
			{ID: 9, Kind: schemas.KindFunction, Name: "greet", QualifiedName: "main.greet", Language: "go", File: "main.go"},
		},
		Edges: []schemas.Edge{
			{Src: 7, Dst: 9, Kind: schemas.EdgeCalls, File: "main.go", Line: 4, Col: 2, Target: "greet",
				Resolution: schemas.ResolvedScope, Confidence: 1, SrcRow: 0, DstRow: 1},
		},
		Files: []schemas.File{{Path: "main.go", Language: "go", Status: schemas.StatusOK}},
	}
	m, err := snapshot.Write(ctx, st, prefix, s)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range m.Tables {
		fmt.Printf("%s: %d rows\n", t.File, t.Rows)
	}

	got, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SkipRefs: true})
	if err != nil {
		log.Fatal(err)
	}
	e := got.Edges[0]
	fmt.Printf("%s %s %s\n", got.Nodes[e.SrcRow].Name, e.Kind, got.Nodes[e.DstRow].Name)
	// Output:
	// nodes.parquet: 2 rows
	// edges.parquet: 1 rows
	// files.parquet: 1 rows
	// refs.parquet: 0 rows
	// main calls greet
}

// WriteHead publishes a snapshot by moving its branch's HEAD.json with a
// compare-and-swap; a writer that loses the race gets ErrPrecondition.
func ExampleWriteHead() {
	ctx := context.Background()
	st := memstore.New()

	_, info, err := snapshot.ReadHead(ctx, st, "octo/hello", "main")
	fmt.Println("no HEAD yet:", err != nil)

	head := schemas.Head{Commit: "3f1c2a9", Generation: 1}
	info, err = snapshot.WriteHead(ctx, st, "octo/hello", "main", head, info.ETag) // "" creates
	if err != nil {
		log.Fatal(err)
	}
	head = schemas.Head{Commit: "b77e0d1", Generation: 2}
	if _, err := snapshot.WriteHead(ctx, st, "octo/hello", "main", head, info.ETag); err != nil {
		log.Fatal(err)
	}
	_, err = snapshot.WriteHead(ctx, st, "octo/hello", "main", head, info.ETag) // stale
	fmt.Println("stale etag refused:", errors.Is(err, snapshot.ErrPrecondition))

	got, _, _ := snapshot.ReadHead(ctx, st, "octo/hello", "main")
	fmt.Println("HEAD:", got.Commit)
	// Output:
	// no HEAD yet: true
	// stale etag refused: true
	// HEAD: b77e0d1
}
