package snapshot_test

import (
	"cmp"
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

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

// TestReadDir times reading the snapshot in $SNAP_READ_DIR, a folder
// holding manifest.json and the tables (as snap index writes them under
// its store), as snap serve does: $SNAP_READ_COUNT times (3 by default;
// the first read in a process is the slowest). It is skipped without
// SNAP_READ_DIR.
func TestReadDir(t *testing.T) {
	dir := os.Getenv("SNAP_READ_DIR")
	if dir == "" {
		t.Skip("SNAP_READ_DIR not set")
	}
	st, err := snapshot.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	count, err := strconv.Atoi(cmp.Or(os.Getenv("SNAP_READ_COUNT"), "3"))
	if err != nil {
		t.Fatalf("SNAP_READ_COUNT: %v", err)
	}
	for range count {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		s, err := snapshot.Read(context.Background(), st, "", snapshot.ReadOptions{SkipRefs: true})
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(start)
		runtime.ReadMemStats(&after)
		t.Logf("read %s (SkipRefs): %v, %d allocs, %d MB allocated; %d nodes, %d edges, %d files, %d sources",
			dir, d, after.Mallocs-before.Mallocs, (after.TotalAlloc-before.TotalAlloc)>>20, len(s.Nodes), len(s.Edges), len(s.Files), len(s.Sources))
	}
}
