package query_test

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
)

// The load benchmarks read the snapshot folder named by SNAP_BENCH_SNAPSHOT
// as snap serve does (everything but refs), and skip without one:
//
//	SNAP_BENCH_SNAPSHOT=DIR go test -run '^$' -bench 'Load|Warm' -count 5 ./query/
func benchSnapshotDir(b *testing.B) string {
	dir := os.Getenv("SNAP_BENCH_SNAPSHOT")
	if dir == "" {
		b.Skip("set SNAP_BENCH_SNAPSHOT to a snapshot folder")
	}
	return dir
}

// cpuTime returns the CPU time, user and system, the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since start, which counts every
// core's work (and the garbage collector's), unlike ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

func benchRead(b *testing.B, dir string) *snapshot.Snapshot {
	s, err := snapshot.ReadDir(b.Context(), dir, snapshot.ReadOptions{SkipRefs: true})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkLoadRead is snapshot.Read alone.
func BenchmarkLoadRead(b *testing.B) {
	dir := benchSnapshotDir(b)
	b.ReportAllocs()
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		benchRead(b, dir)
	}
}

// BenchmarkLoadBuild is query.Build alone, on rows read once.
func BenchmarkLoadBuild(b *testing.B) {
	s := benchRead(b, benchSnapshotDir(b))
	b.ReportAllocs()
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		if _, err := query.Build(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad is what loading a snapshot costs snap serve: Read, then
// Build.
func BenchmarkLoad(b *testing.B) {
	dir := benchSnapshotDir(b)
	b.ReportAllocs()
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for b.Loop() {
		if _, err := query.Build(benchRead(b, dir)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWarm is Engine.Warm on a fresh engine; building it is not
// timed, nor counted in cpu-ms/op.
func BenchmarkWarm(b *testing.B) {
	s := benchRead(b, benchSnapshotDir(b))
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		e, err := query.Build(s)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := cpuTime()
		e.Warm()
		cpu += cpuTime() - start
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}
