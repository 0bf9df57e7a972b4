package snapshot_test

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// BenchmarkRead reads a snapshot of a large repository's size (300k nodes,
// 800k edges, 10k files with sources, 600k refs): all of it, and what
// snap serve loads (everything but refs).
func BenchmarkRead(b *testing.B) {
	ctx := context.Background()
	st := memstore.New()
	m, err := snapshot.Write(ctx, st, prefix, snapshot.Realistic(300_000, 800_000, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range m.Tables {
		b.Logf("%s: %d rows, %d bytes", t.Name, t.Rows, t.Bytes)
	}
	runtime.GC()
	for _, c := range []struct {
		name string
		opts snapshot.ReadOptions
	}{{"All", snapshot.ReadOptions{}}, {"SkipRefs", snapshot.ReadOptions{SkipRefs: true}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := snapshot.Read(ctx, st, prefix, c.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadDir reads the snapshot in $SNAP_READ_DIR, a folder holding
// manifest.json and the tables as snap index writes them, as snap serve
// does (without refs). Without SNAP_READ_DIR there is nothing to measure:
//
//	SNAP_READ_DIR=.snap/repo=…/commit=… go test -run '^$' -bench ReadDir -benchmem ./snapshot/
func BenchmarkReadDir(b *testing.B) {
	dir := os.Getenv("SNAP_READ_DIR")
	if dir == "" {
		b.Skip("set SNAP_READ_DIR to a snapshot folder")
	}
	st, err := snapshot.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := snapshot.Read(context.Background(), st, "", snapshot.ReadOptions{SkipRefs: true}); err != nil {
			b.Fatal(err)
		}
	}
}
