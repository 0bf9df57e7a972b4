package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// config is what the flags chose; it is written into the report.
type config struct {
	Snap           string `json:"snap"`
	Quick          bool   `json:"quick"`
	Runs           int    `json:"runs"`
	Workers        int    `json:"workers"`
	Count          int    `json:"go_test_count"`
	Benchtime      string `json:"benchtime"`
	StdioBenchtime string `json:"stdio_benchtime"`
	Kubernetes     string `json:"kubernetes"`
	NPM            string `json:"npm"`
	Cache          string `json:"cache"`
	GOROOT         string `json:"goroot,omitempty"`
	out            string
	keep           bool
}

// bench is one run of the suite.
type bench struct {
	cfg  config
	root string // the snap repository
	tmp  string // corpora copies, stores, the binary when built here
	raw  string // the raw outputs, next to the report
	rep  *report
}

func run(ctx context.Context, args []string) error {
	var cfg config
	quickEnv := os.Getenv("BENCH_QUICK")
	home, _ := os.UserHomeDir()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&cfg.Snap, "snap", "", "the snap `binary` to measure (default: built from this repository)")
	fs.StringVar(&cfg.out, "out", "", "write report.md, report.json and raw/ into this `folder` (default: e2e/bench of the repository)")
	fs.BoolVar(&cfg.Quick, "quick", quickEnv != "" && quickEnv != "0", "1 run of each measurement, GOROOT/src only (default: $BENCH_QUICK set)")
	fs.IntVar(&cfg.Runs, "runs", 0, "alternated runs of each process measurement (default 5, 1 with -quick)")
	fs.IntVar(&cfg.Workers, "workers", runtime.NumCPU(), "index `N` workers (the floor has as many)")
	fs.IntVar(&cfg.Count, "count", 0, "go test -count of the latency benchmarks (default 5, 1 with -quick)")
	fs.StringVar(&cfg.Benchtime, "benchtime", "1000x", "go test -benchtime of the in-process latency benchmarks")
	fs.StringVar(&cfg.StdioBenchtime, "stdio-benchtime", "300x", "go test -benchtime of the stdio round trips")
	fs.StringVar(&cfg.Kubernetes, "kubernetes", "v1.36.3", "k8s.io/kubernetes `version` from the Go module proxy")
	fs.StringVar(&cfg.NPM, "npm", "three@0.180.0", "the JavaScript/TypeScript `package@version` from the npm registry")
	fs.StringVar(&cfg.Cache, "cache", filepath.Join(home, ".cache", "snap-bench"), "download cache `folder`")
	fs.StringVar(&cfg.GOROOT, "goroot", "", "index `DIR`/src as the GOROOT corpus (default: go env GOROOT; a small tree for trying the suite out)")
	fs.BoolVar(&cfg.keep, "keep", false, "keep the temporary folder (corpora copies, stores)")
	from := fs.String("from", "", "measure nothing: recompute the targets of this `report.json` and write the report again (into its folder unless -out)")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	if *from != "" {
		return rewrite(*from, cmp.Or(cfg.out, filepath.Dir(*from)))
	}
	runs := 5
	if cfg.Quick {
		runs = 1
	}
	cfg.Runs, cfg.Count = cmp.Or(cfg.Runs, runs), cmp.Or(cfg.Count, runs)
	if cfg.Workers < 1 {
		return fmt.Errorf("-workers %d: must be at least 1", cfg.Workers)
	}

	root, err := findRoot()
	if err != nil {
		return err
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(root, "e2e", "bench")
	}
	tmp, err := os.MkdirTemp("", "snap-bench-")
	if err != nil {
		return err
	}
	if cfg.keep {
		slog.Info("keeping the temporary folder", "dir", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	b := &bench{cfg: cfg, root: root, tmp: tmp, raw: filepath.Join(cfg.out, "raw")}
	if err := os.RemoveAll(b.raw); err != nil {
		return err
	}
	if err := os.MkdirAll(b.raw, 0o755); err != nil {
		return err
	}
	if b.cfg.Snap == "" {
		b.cfg.Snap = filepath.Join(tmp, "snap")
		slog.Info("building snap", "out", b.cfg.Snap)
		build := exec.CommandContext(ctx, "go", "build", "-o", b.cfg.Snap, "./cmd/snap")
		build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build snap: %w", err)
		}
	} else if b.cfg.Snap, err = filepath.Abs(b.cfg.Snap); err != nil {
		return err
	}

	start := time.Now()
	b.rep = &report{Started: start.UTC(), Config: b.cfg, Machine: describeMachine(ctx, root)}
	err = b.measure(ctx)
	if err != nil {
		b.rep.Errors = append(b.rep.Errors, err.Error())
	}
	if perr := b.writeProcessBench(); perr != nil {
		b.rep.Errors = append(b.rep.Errors, "raw process timings: "+perr.Error())
	}
	b.rep.Machine.LoadEnd = loadAverage()
	b.rep.DurationS = time.Since(start).Seconds()
	b.rep.Targets = targets(b.rep)
	if werr := b.rep.write(cfg.out, b.raw); werr != nil {
		return errors.Join(err, werr)
	}
	slog.Info("report written", "md", filepath.Join(cfg.out, "report.md"), "json", filepath.Join(cfg.out, "report.json"), "duration", time.Since(start).Round(time.Second))
	if len(b.rep.Errors) > 0 {
		return fmt.Errorf("%d measurements failed (see the report): %s", len(b.rep.Errors), strings.Join(b.rep.Errors, "; "))
	}
	return nil
}

// measure runs every measurement. A corpus that cannot be fetched or
// indexed is recorded in the report and the others go on; only a
// cancelled context stops the run.
func (b *bench) measure(ctx context.Context) error {
	fail := func(what string, err error) {
		slog.Error(what, "err", err)
		b.rep.Errors = append(b.rep.Errors, what+": "+err.Error())
	}
	type source struct {
		name    string
		prepare func(context.Context) (*corpus, error)
	}
	sources := []source{{"goroot", b.goroot}}
	if !b.cfg.Quick {
		sources = append(sources, source{"kubernetes", b.kubernetes}, source{"npm " + b.cfg.NPM, b.npm})
	}
	for _, s := range sources {
		slog.Info("corpus", "name", s.name)
		c, err := s.prepare(ctx)
		if err == nil {
			err = b.indexRuns(ctx, c)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			fail("corpus "+s.name, err)
			continue
		}
		b.rep.Corpora = append(b.rep.Corpora, c)
	}
	goroot := b.rep.corpus("goroot")
	if goroot == nil {
		return errors.New("no GOROOT/src snapshot: nothing to serve or query")
	}
	steps := []struct {
		what string
		f    func(context.Context, string) error
	}{
		{"cold start", b.coldStarts},
		{"engine latency", b.engineBench},
		{"tools in process", b.toolsBench},
		{"tools over stdio", b.stdioBench},
	}
	for _, s := range steps {
		slog.Info(s.what)
		if err := s.f(ctx, goroot.snapshot); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fail(s.what, err)
		}
	}
	for _, c := range b.rep.Corpora {
		if c.Name == "goroot" || c.Name == "kubernetes" {
			slog.Info("engine memory", "corpus", c.Name)
			if err := b.memoryBench(ctx, c); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				fail("memory "+c.Name, err)
			}
		}
	}
	return nil
}

// rewrite writes the report of an earlier run again, with the targets
// computed by this version of the suite.
func rewrite(from, out string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("decode %s: %w", from, err)
	}
	r.Targets, r.Raw = targets(&r), nil
	return r.write(out, filepath.Join(out, "raw"))
}

// findRoot finds the snap repository from the working folder (the e2e
// module, its bench folder, or the repository itself).
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "e2e", "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "cmd", "snap")); err == nil {
				return dir, nil
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("run from the snap repository (its e2e folder, say): no cmd/snap and e2e/go.mod above the working folder")
		}
		dir = up
	}
}

// goOutput runs the go command and returns its trimmed output.
func goOutput(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func itoa(n int) string { return strconv.Itoa(n) }
