// Command bench is snap's benchmark suite: one run fetches its corpora
// (GOROOT/src from the Go toolchain, kubernetes through the Go module
// proxy, a JavaScript project from the npm registry), measures every
// figure of the performance targets, and writes a Markdown and a JSON
// report with the machine it ran on, next to the raw `go test -bench`
// outputs (benchstat reads them).
//
// Whole processes (snap index, snap serve) are timed by the OS: wall
// clock around Start and Wait, user and system time and peak RSS from
// the process's rusage. The bare-parse floor is measured in the same run
// as the index it bounds, alternating with it. In-process latencies come
// from `go test -bench`: BenchmarkEngine and BenchmarkMemory beside this
// file, BenchmarkTools of package mcp, and BenchmarkStdioTools and
// BenchmarkStdioRaw of the e2e module, all against the snapshot indexed
// here.
//
// Usage, from the e2e folder (make bench does this):
//
//	go run ./bench -snap ../bin/snap                 # the full suite: about 30 minutes on 2 cores
//	BENCH_QUICK=1 go run ./bench -snap ../bin/snap   # 1 run each, GOROOT/src only: about 5 minutes
//	go run ./bench -from bench/report.json           # rewrite a report from its data, measuring nothing
//
// See README.md beside this file for what each figure is and how it is
// measured.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
