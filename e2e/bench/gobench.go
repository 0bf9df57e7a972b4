package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// benchResult is one benchmark's metrics over its -count runs.
type benchResult struct {
	Name    string           `json:"name"`
	Metrics map[string]*stat `json:"metrics"` // by unit: ns/op, p99-ns, …
}

// stat is the runs of one figure and their median and spread.
type stat struct {
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Values []float64 `json:"values"`
}

func newStat(v []float64) *stat {
	if len(v) == 0 {
		return nil
	}
	s := slices.Clone(v)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return &stat{Median: m, Min: s[0], Max: s[len(s)-1], Values: v}
}

// metric returns a result's median of unit, and whether it has one.
func (r *benchResult) metric(unit string) (float64, bool) {
	if r == nil || r.Metrics[unit] == nil {
		return 0, false
	}
	return r.Metrics[unit].Median, true
}

// goBench runs `go test -run ^$ -bench …` in dir with env added, keeps
// its output as raw/NAME.txt and returns the benchmarks it printed.
func (b *bench) goBench(ctx context.Context, name, dir string, env []string, args ...string) ([]*benchResult, error) {
	f, err := os.Create(filepath.Join(b.raw, name+".txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	args = append([]string{"test", "-run", "^$", "-timeout", "3h"}, args...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(f, &out)
	cmd.Stderr = io.MultiWriter(f, os.Stderr)
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s (in %s): %w\n%s", strings.Join(args, " "), dir, err, lastLines(out.String(), 20))
	}
	res := parseBench(out.String())
	if len(res) == 0 {
		return nil, fmt.Errorf("go %s: no benchmark ran\n%s", strings.Join(args, " "), lastLines(out.String(), 20))
	}
	return res, nil
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.+)$`)

// parseBench reads the benchmark lines of go test output, gathering the
// runs of each benchmark in order of first appearance.
func parseBench(out string) []*benchResult {
	var list []*benchResult
	byName := map[string]*benchResult{}
	values := map[*benchResult]map[string][]float64{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := byName[m[1]]
		if r == nil {
			r = &benchResult{Name: m[1], Metrics: map[string]*stat{}}
			byName[m[1]] = r
			list = append(list, r)
			values[r] = map[string][]float64{}
		}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			values[r][f[i+1]] = append(values[r][f[i+1]], v)
		}
	}
	for r, units := range values {
		for u, v := range units {
			r.Metrics[u] = newStat(v)
		}
	}
	return list
}

// engineBench runs BenchmarkEngine (bench_test.go) on the snapshot.
func (b *bench) engineBench(ctx context.Context, snapshot string) error {
	res, err := b.goBench(ctx, "engine-goroot", filepath.Join(b.root, "e2e", "bench"),
		[]string{"SNAP_BENCH_SNAPSHOT=" + snapshot},
		"-bench", "^BenchmarkEngine$", "-benchtime", b.cfg.Benchtime, "-count", itoa(b.cfg.Count), ".")
	b.rep.Engine = res
	return err
}

// toolsBench runs BenchmarkTools of package mcp on the snapshot.
func (b *bench) toolsBench(ctx context.Context, snapshot string) error {
	res, err := b.goBench(ctx, "tools-goroot", b.root,
		[]string{"SNAP_BENCH_SNAPSHOT=" + snapshot},
		"-bench", "^BenchmarkTools$", "-benchtime", b.cfg.Benchtime, "-count", itoa(b.cfg.Count), "./mcp")
	b.rep.Tools = res
	return err
}

// stdioBench runs BenchmarkStdioTools, BenchmarkStdioReplay and
// BenchmarkStdioRaw of the e2e module on the snapshot through the binary
// measured.
func (b *bench) stdioBench(ctx context.Context, snapshot string) error {
	res, err := b.goBench(ctx, "stdio-goroot", filepath.Join(b.root, "e2e"),
		[]string{"SNAP_BENCH_SNAPSHOT=" + snapshot, "SNAP_E2E_BIN=" + b.cfg.Snap},
		"-bench", "^BenchmarkStdio(Tools|Replay|Raw)$", "-benchtime", b.cfg.StdioBenchtime, "-count", itoa(b.cfg.Count), ".")
	b.rep.Stdio = res
	return err
}

// memoryBench runs BenchmarkMemory (bench_test.go) on a corpus's snapshot.
func (b *bench) memoryBench(ctx context.Context, c *corpus) error {
	res, err := b.goBench(ctx, "memory-"+c.Name, filepath.Join(b.root, "e2e", "bench"),
		[]string{"SNAP_BENCH_SNAPSHOT=" + c.snapshot},
		"-bench", "^BenchmarkMemory$", "-benchtime", "1x", "-count", itoa(min(b.cfg.Count, 3)), ".")
	if b.rep.Memory == nil {
		b.rep.Memory = map[string][]*benchResult{}
	}
	b.rep.Memory[c.Name] = res
	return err
}

// writeProcessBench writes the process timings as raw/processes.txt in
// the format of go test -bench, one line a run, for benchstat.
func (b *bench) writeProcessBench() error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "goos: %s\ngoarch: %s\npkg: snap-bench/processes\ncpu: %s\n", runtime.GOOS, runtime.GOARCH, b.rep.Machine.CPU)
	line := func(name string, s series) {
		for _, r := range s.Runs {
			fmt.Fprintf(&buf, "Benchmark%s\t1\t%.0f ns/op\t%.0f user-ns/op\t%.0f sys-ns/op\t%d peak-RSS-B\n",
				name, r.Wall*1e9, r.User*1e9, r.Sys*1e9, r.MaxRSS)
		}
	}
	for _, c := range b.rep.Corpora {
		line("Index/"+c.Name+"/floor", c.Floor)
		line("Index/"+c.Name+"/full", c.Full)
		line("Index/"+c.Name+"/incremental", c.Incremental)
		line("Index/"+c.Name+"/full-1-worker", c.Workers1)
		line("Index/"+c.Name+"/full-2-workers", c.Workers2)
		line("Index/"+c.Name+"/full-1-cpu", c.OneCPU)
	}
	line("ColdStart/goroot", b.rep.ColdStart)
	return os.WriteFile(filepath.Join(b.raw, "processes.txt"), buf.Bytes(), 0o644)
}
