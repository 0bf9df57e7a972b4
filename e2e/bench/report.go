package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// report is everything one run measured; report.json is this struct.
type report struct {
	Started   time.Time                 `json:"started"`
	DurationS float64                   `json:"duration_s"`
	Machine   machine                   `json:"machine"`
	Config    config                    `json:"config"`
	Targets   []target                  `json:"targets"`
	Corpora   []*corpus                 `json:"corpora"`
	ColdStart series                    `json:"cold_start"` // GOROOT/src snapshot: wall is spawn → first answer
	Engine    []*benchResult            `json:"engine"`     // BenchmarkEngine on the GOROOT/src snapshot
	Tools     []*benchResult            `json:"tools_in_process"`
	Stdio     []*benchResult            `json:"tools_stdio"`
	Memory    map[string][]*benchResult `json:"memory"` // by corpus
	Raw       []string                  `json:"raw_files"`
	Errors    []string                  `json:"errors,omitempty"`
}

// target is one row of the table.
type target struct {
	Figure   string   `json:"figure"`
	Target   string   `json:"target"`
	Limit    float64  `json:"limit"`
	AtLeast  bool     `json:"at_least,omitempty"` // the figure must reach Limit rather than stay under it
	Unit     string   `json:"unit"`               // x (a ratio), s, B, B/node
	Measured *float64 `json:"measured"`           // nil when not measured
	Spread   string   `json:"spread,omitempty"`   // range over the runs
	Ratio    *float64 `json:"ratio_to_target"`    // measured ÷ limit
	Pass     *bool    `json:"pass"`
	Note     string   `json:"note,omitempty"`
}

func (r *report) corpus(name string) *corpus {
	for _, c := range r.Corpora {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func find(list []*benchResult, name string) *benchResult {
	for _, r := range list {
		if r.Name == name {
			return r
		}
	}
	return nil
}

func median(v []float64) float64 {
	if s := newStat(v); s != nil {
		return s.Median
	}
	return math.NaN()
}

// pairRatios are a[i] ÷ b[i] over runs measured in the same round.
func pairRatios(a, b []float64) []float64 {
	var out []float64
	for i := range min(len(a), len(b)) {
		out = append(out, a[i]/b[i])
	}
	return out
}

// targets computes the table from the measurements.
func targets(r *report) []target {
	var list []target
	add := func(t target, v float64, ok bool) {
		if ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			ratio := v / t.Limit
			pass := v <= t.Limit
			if t.AtLeast {
				pass = v >= t.Limit
			}
			t.Measured, t.Ratio, t.Pass = &v, &ratio, &pass
		} else if t.Note == "" {
			t.Note = "not measured"
			if r.Config.Quick {
				t.Note += " (quick mode)"
			}
		}
		list = append(list, t)
	}
	spread := func(v []float64, unit string) string {
		s := newStat(v)
		if s == nil || len(v) < 2 {
			return ""
		}
		return format(s.Min, unit) + " – " + format(s.Max, unit)
	}
	g, k := r.corpus("goroot"), r.corpus("kubernetes")
	workers := r.Config.Workers

	if g != nil {
		full, floor := median(g.Full.walls()), median(g.Floor.walls())
		ratios := pairRatios(g.Full.walls(), g.Floor.walls())
		add(target{Figure: fmt.Sprintf("full index ÷ bare parse (floor), GOROOT/src, %d workers", workers), Target: "≤ 1.6×", Limit: 1.6, Unit: "x",
			Spread: spread(ratios, "x"),
			Note: fmt.Sprintf("the median of each run's ratio; full %s, floor %s (medians, ratio %s); CPU time (user+sys) %s and %s, each run's ratio %s (median)",
				format(full, "s"), format(floor, "s"), format(full/floor, "x"),
				format(median(g.Full.cpu()), "s"), format(median(g.Floor.cpu()), "s"), format(median(pairRatios(g.Full.cpu(), g.Floor.cpu())), "x")) +
				allocatorNote(g)},
			median(ratios), true)
	} else {
		add(target{Figure: "full index ÷ bare parse (floor), GOROOT/src", Target: "≤ 1.6×", Limit: 1.6, Unit: "x"}, 0, false)
	}
	for _, c := range []struct {
		name string
		c    *corpus
	}{{"GOROOT/src", g}, {"kubernetes", k}} {
		t := target{Figure: "one-file incremental index ÷ full index, " + c.name, Target: "≤ 0.1×", Limit: 0.1, Unit: "x"}
		if c.c == nil {
			add(t, 0, false)
			continue
		}
		incr, full := median(c.c.Incremental.walls()), median(c.c.Full.walls())
		ratios := pairRatios(c.c.Incremental.walls(), c.c.Full.walls())
		t.Spread = spread(ratios, "x")
		var unread []int
		for _, r := range c.c.Incremental.Runs {
			unread = append(unread, r.Unread)
		}
		t.Note = fmt.Sprintf("the median of each run's ratio; incremental %s, full %s (medians; CPU time %s and %s, each run's ratio %s median); files parsed %v, not read %v of %d; changed %s (a comment line appended)",
			format(incr, "s"), format(full, "s"),
			format(median(c.c.Incremental.cpu()), "s"), format(median(c.c.Full.cpu()), "s"), format(median(pairRatios(c.c.Incremental.cpu(), c.c.Full.cpu())), "x"),
			c.c.IncrementalParsed, unread, c.c.Files, c.c.Changed)
		if b := c.c.IncrementalBody.walls(); len(b) > 0 {
			t.Note += fmt.Sprintf("; a statement inserted in a function of it instead: %s, %s of the full index (each run's ratio, median)",
				format(median(b), "s"), format(median(pairRatios(b, c.c.Full.walls())), "x"))
		}
		add(t, median(ratios), true)
	}
	{
		// Scaling is what a second core buys: one worker held to one CPU
		// against N workers on N CPUs. One worker unpinned is measured
		// too: the table writers and the collector then take the second
		// core, so that its run is no one-core base.
		t := target{Figure: "scaling 1 → 2 CPUs (speedup ÷ 2), GOROOT/src full index: 1 worker on one CPU, 2 workers on two", Target: "≥ 0.85", Limit: 0.85, AtLeast: true, Unit: "x"}
		u := target{Figure: "scaling 1 → 2 workers, both on two CPUs (speedup ÷ 2), GOROOT/src full index", Target: "≥ 0.85", Limit: 0.85, AtLeast: true, Unit: "x"}
		var w1, w2, c1 []float64
		var c1CPU, w1CPU, w2CPU float64
		if g != nil {
			w1, w2, c1 = g.Workers1.walls(), g.Workers2.walls(), g.OneCPU.walls()
			w1CPU, w2CPU, c1CPU = median(g.Workers1.cpu()), median(g.Workers2.cpu()), median(g.OneCPU.cpu())
			if workers == 1 {
				w1, w1CPU = g.Full.walls(), median(g.Full.cpu())
			}
			if workers == 2 {
				w2, w2CPU = g.Full.walls(), median(g.Full.cpu())
			}
		}
		for _, s := range []struct {
			t       target
			base    []float64
			label   string
			baseCPU float64
		}{
			{t, c1, "1 worker on one CPU", c1CPU},
			{u, w1, "1 worker on two CPUs", w1CPU},
		} {
			t := s.t
			if len(s.base) > 0 && len(w2) > 0 {
				ratios := scale(pairRatios(s.base, w2), 0.5)
				t.Spread = spread(ratios, "x")
				t.Note = fmt.Sprintf("the median of each run's ratio; %s %s (CPU time %s), 2 workers on two CPUs %s (CPU time %s); medians",
					s.label, format(median(s.base), "s"), format(s.baseCPU, "s"), format(median(w2), "s"), format(w2CPU, "s"))
				add(t, median(ratios), true)
			} else {
				add(t, 0, false)
			}
		}
	}
	add(target{Figure: "cold start of snap serve to its first answer, GOROOT/src snapshot", Target: "≤ 1 s", Limit: 1, Unit: "s",
		Spread: spread(r.ColdStart.walls(), "s"),
		Note: fmt.Sprintf("CPU time (user+sys) of the whole serve process %s; peak RSS %s",
			format(median(r.ColdStart.cpu()), "s"), format(median(r.ColdStart.rss()), "B"))}, median(r.ColdStart.walls()), len(r.ColdStart.Runs) > 0)

	for _, p := range []struct {
		figure, target, bench string
		limit                 float64
	}{
		{"in-process p99, callers (GOROOT/src)", "≤ 10 µs", "BenchmarkEngine/callers", 10e-6},
		{"in-process p99, impact depth 3 cap 50 (GOROOT/src)", "≤ 50 µs", "BenchmarkEngine/impact", 50e-6},
		{"in-process p99, shortest path (GOROOT/src)", "≤ 1 ms", "BenchmarkEngine/path", 1e-3},
	} {
		res := find(r.Engine, p.bench)
		v, ok := res.metric("p99-ns")
		t := target{Figure: p.figure, Target: p.target, Limit: p.limit, Unit: "s"}
		if ok {
			t.Spread = spread(scale(res.Metrics["p99-ns"].Values, 1e-9), "s")
		}
		add(t, v*1e-9, ok)
	}
	{
		t := target{Figure: "in-process p99, search, worst kind of query (GOROOT/src)", Target: "≤ 5 ms", Limit: 5e-3, Unit: "s"}
		worst, kind := math.NaN(), ""
		for _, res := range r.Engine {
			if q, ok := strings.CutPrefix(res.Name, "BenchmarkEngine/search/"); ok {
				if v, ok := res.metric("p99-ns"); ok && !(v <= worst) {
					worst, kind = v, q
					t.Spread = spread(scale(res.Metrics["p99-ns"].Values, 1e-9), "s")
				}
			}
		}
		t.Note = "query kind: " + kind + " (every kind is in the engine table below)"
		add(t, worst*1e-9, kind != "")
	}
	{
		t := target{Figure: "MCP round trip over stdio, median (snap_callers), GOROOT/src, a minimal client (server and pipes)", Target: "≤ 300 µs", Limit: 300e-6, Unit: "s"}
		res := find(r.Stdio, "BenchmarkStdioRaw/snap_callers")
		v, ok := res.metric("p50-ns")
		if ok {
			t.Spread = spread(scale(res.Metrics["p50-ns"].Values, 1e-9), "s")
			t.Note = "BenchmarkStdioRaw: writes the request line, reads the answer line"
		}
		add(t, v*1e-9, ok)
	}
	{
		t := target{Figure: "MCP round trip over stdio, median (snap_callers), GOROOT/src, official Go SDK client", Target: "≤ 300 µs", Limit: 300e-6, Unit: "s"}
		res := find(r.Stdio, "BenchmarkStdioTools/snap_callers")
		v, ok := res.metric("p50-ns")
		if ok {
			t.Spread = spread(scale(res.Metrics["p50-ns"].Values, 1e-9), "s")
			var all []float64
			for _, s := range r.Stdio {
				if p50, ok := s.metric("p50-ns"); ok && strings.HasPrefix(s.Name, "BenchmarkStdioTools/") {
					all = append(all, p50*1e-9)
				}
			}
			if st, ok := find(r.Stdio, "BenchmarkStdioTools/snap_status").metric("p50-ns"); ok {
				t.Note = "snap_status " + format(st*1e-9, "s") + "; "
			}
			t.Note += "median of all tools' medians " + format(median(all), "s")
			if floor, ok := find(r.Stdio, "BenchmarkStdioReplay/snap_callers").metric("p50-ns"); ok {
				t.Note += "; the same client against a server that replays recorded answers (BenchmarkStdioReplay, no work): " + format(floor*1e-9, "s")
			}
		}
		add(t, v*1e-9, ok)
	}
	for _, c := range []struct{ name, key string }{{"GOROOT/src", "goroot"}, {"kubernetes", "kubernetes"}} {
		res := find(r.Memory[c.key], "BenchmarkMemory/serve")
		for _, when := range []string{"cold", "warm"} {
			v, ok := res.metric(when + "-B/node")
			t := target{Figure: fmt.Sprintf("engine heap per node, %s, %s", c.name, map[string]string{"cold": "after load", "warm": "after Engine.Warm()"}[when]),
				Target: "≤ 350 B", Limit: 350, Unit: "B/node"}
			if ok {
				nodes, _ := res.metric("nodes")
				heap, _ := res.metric(when + "-heap-B")
				t.Note = fmt.Sprintf("%s heap for %.0f nodes, loaded as snap serve does (sources, no refs)", format(heap, "B"), nodes)
				if ns, ok := find(r.Memory[c.key], "BenchmarkMemory/no-sources").metric(when + "-B/node"); ok {
					t.Note += fmt.Sprintf("; %.0f B/node without the sources table", ns)
				}
			}
			add(t, v, ok)
		}
	}
	for _, c := range []struct {
		name string
		c    *corpus
	}{{"GOROOT/src", g}, {"kubernetes", k}} {
		t1 := target{Figure: "snapshot bytes ÷ source bytes, " + c.name, Target: "≤ 0.3", Limit: 0.3, Unit: "x"}
		t2 := target{Figure: "snapshot bytes ÷ source bytes without the sources table, " + c.name, Target: "≤ 0.1", Limit: 0.1, Unit: "x"}
		if c.c == nil || c.c.SourceBytes == 0 {
			add(t1, 0, false)
			add(t2, 0, false)
			continue
		}
		src := float64(c.c.SourceBytes)
		t1.Note = fmt.Sprintf("%s snapshot, %s of source indexed", format(float64(c.c.SnapshotBytes), "B"), format(src, "B"))
		t2.Note = fmt.Sprintf("%s without sources.parquet", format(float64(c.c.SnapshotBytesNoSources), "B"))
		add(t1, float64(c.c.SnapshotBytes)/src, true)
		add(t2, float64(c.c.SnapshotBytesNoSources)/src, true)
	}
	{
		t := target{Figure: fmt.Sprintf("peak RSS of snap index, kubernetes, %d workers", workers), Target: "≤ 2 GiB", Limit: 2 << 30, Unit: "B"}
		if k != nil {
			t.Spread = spread(k.Full.rss(), "B")
			t.Note = "full index; incremental " + format(median(k.Incremental.rss()), "B")
			add(t, median(k.Full.rss()), true)
		} else {
			add(t, 0, false)
		}
	}
	return list
}

func scale(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	for i := range v {
		out[i] = v[i] * f
	}
	return out
}

// format writes a figure in its unit.
func format(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	switch unit {
	case "x":
		return fmt.Sprintf("%.3g×", v)
	case "s":
		switch {
		case v >= 1:
			return fmt.Sprintf("%.2f s", v)
		case v >= 1e-3:
			return fmt.Sprintf("%.3g ms", v*1e3)
		default:
			return fmt.Sprintf("%.3g µs", v*1e6)
		}
	case "B":
		switch {
		case v >= 1<<30:
			return fmt.Sprintf("%.2f GiB", v/(1<<30))
		case v >= 1<<20:
			return fmt.Sprintf("%.1f MiB", v/(1<<20))
		case v >= 1<<10:
			return fmt.Sprintf("%.1f KiB", v/(1<<10))
		default:
			return fmt.Sprintf("%.0f B", v)
		}
	case "B/node":
		return fmt.Sprintf("%.0f B", v)
	}
	return fmt.Sprintf("%g %s", v, unit)
}

// write writes report.json and report.md into dir.
func (r *report) write(dir, raw string) error {
	if entries, err := os.ReadDir(raw); err == nil {
		for _, e := range entries {
			r.Raw = append(r.Raw, filepath.Join("raw", e.Name()))
		}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(r.markdown()), 0o644)
}

func (r *report) markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	m := r.Machine
	p("# snap benchmarks\n\n")
	mode := fmt.Sprintf("%d alternated runs of each process, go test -count %d", r.Config.Runs, r.Config.Count)
	if r.Config.Quick {
		mode = "quick mode: 1 run of each, GOROOT/src only"
	}
	p("Measured %s in %s (%s), by `go run ./bench` in the e2e module (`make bench`).\n",
		r.Started.Format(time.RFC3339), time.Duration(r.DurationS*float64(time.Second)).Round(time.Second), mode)
	p("Medians, with the range over the runs; every run is in report.json and raw/.\n\n")
	p("## Machine\n\n| | |\n|---|---|\n")
	p("| CPU | %s |\n| cores | %d |\n| memory | %s |\n| OS | %s, kernel %s, %s |\n| Go | %s |\n| snap commit | %s |\n| load average (1, 5, 15 min) | %s at the start, %s at the end |\n\n",
		m.CPU, m.Cores, format(float64(m.MemoryBytes), "B"), m.OS, m.Kernel, m.Arch, m.Go, m.SnapCommit, m.LoadStart, m.LoadEnd)
	if f := strings.Fields(m.LoadStart); len(f) > 0 {
		if l, err := strconv.ParseFloat(f[0], 64); err == nil && l > float64(m.Cores)/2 {
			p("**The machine was busy** (load average %.1f on %d cores at the start): the timings are noisy; read them as upper bounds. "+
				"A process whose wall time is well above its CPU time (user+sys, in the notes and tables) spent it waiting for a core.\n\n", l, m.Cores)
		}
	}

	p("## Targets\n\n| figure | target | measured | ratio to target | pass/fail |\n|---|---|---|---|---|\n")
	for _, t := range r.Targets {
		measured, ratio, pass := "—", "—", "not measured"
		if t.Measured != nil {
			measured = format(*t.Measured, t.Unit)
			if t.Spread != "" {
				measured += " (" + t.Spread + ")"
			}
			ratio = fmt.Sprintf("%.2f", *t.Ratio)
			pass = map[bool]string{true: "pass", false: "**fail**"}[*t.Pass]
		}
		fig := t.Figure
		if t.Note != "" {
			fig += "<br><sub>" + t.Note + "</sub>"
		}
		p("| %s | %s | %s | %s | %s |\n", fig, t.Target, measured, ratio, pass)
	}

	p("\n## Corpora\n\nIndexed with %d workers (`snap index --workers %d`; the floor is the same command with `--parse-only`). Source bytes are the manifest's `build.source_bytes`: the files indexed.\n\n", r.Config.Workers, r.Config.Workers)
	p("| corpus | from | flags | files | by language | nodes | edges | source | snapshot | without sources |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range r.Corpora {
		src := float64(c.SourceBytes)
		var langs []string
		for l, n := range c.Languages {
			langs = append(langs, fmt.Sprintf("%s %d", l, n))
		}
		slices.Sort(langs)
		if len(langs) == 0 {
			langs = []string{"—"}
		}
		p("| %s %s | %s | %s | %d | %s | %d | %d | %s | %s (%.2f×) | %s (%.2f×) |\n", c.Name, c.Version, c.Source, strings.Join(c.Flags, " "),
			c.Files, strings.Join(langs, ", "), c.Nodes, c.Edges, format(src, "B"),
			format(float64(c.SnapshotBytes), "B"), float64(c.SnapshotBytes)/src,
			format(float64(c.SnapshotBytesNoSources), "B"), float64(c.SnapshotBytesNoSources)/src)
	}
	p("\n| corpus | run | wall (median) | wall, every run | user | sys | peak RSS |\n|---|---|---|---|---|---|---|\n")
	row := func(name, step string, s series) {
		if len(s.Runs) == 0 {
			return
		}
		var walls []string
		var user, sys []float64
		for _, r := range s.Runs {
			walls = append(walls, fmt.Sprintf("%.2f", r.Wall))
			user, sys = append(user, r.User), append(sys, r.Sys)
		}
		p("| %s | %s | %s | %s | %s | %s | %s |\n", name, step, format(median(s.walls()), "s"), strings.Join(walls, ", "),
			format(median(user), "s"), format(median(sys), "s"), format(median(s.rss()), "B"))
	}
	for _, c := range r.Corpora {
		row(c.Name, "floor (--parse-only)", c.Floor)
		row(c.Name, "floor, tree-sitter on the C library's malloc (SNAP_ALLOCATOR=libc)", c.FloorLibc)
		row(c.Name, "full (--full)", c.Full)
		row(c.Name, fmt.Sprintf("incremental, one file changed (parsed %v)", c.IncrementalParsed), c.Incremental)
		row(c.Name, "incremental, a statement inserted in a function of that file", c.IncrementalBody)
		row(c.Name, "full, 1 worker", c.Workers1)
		row(c.Name, "full, 2 workers", c.Workers2)
		row(c.Name, "full, 1 worker on one CPU (taskset)", c.OneCPU)
		if c.Floor.Runs != nil && c.Full.Runs != nil {
			ratios := pairRatios(c.Full.walls(), c.Floor.walls())
			each := make([]string, len(ratios))
			for i, x := range ratios {
				each[i] = strconv.FormatFloat(x, 'f', 2, 64)
			}
			p("| %s | full ÷ floor, each run's (median) | %s | %s | | | |\n", c.Name, format(median(ratios), "x"), strings.Join(each, ", "))
		}
	}
	row("goroot", "snap serve: spawn → first answer", r.ColdStart)

	p("\n### Where an index's time goes\n\nThe index's own timings (medians over the runs), from the line `snap index` logs when done: reading the base snapshot (the walk of the tree runs beside it); the rest of the walk, then reading, hashing and parsing the files (a reused file is read and hashed, unless its stat is as the run before saw it); gathering their rows; resolving, while the tables already final encode beside it; writing the edges and closing the tables.\n\n")
	p("| corpus | run | base read | read and parse | gather | resolve | write | all |\n|---|---|---|---|---|---|---|---|\n")
	for _, c := range r.Corpora {
		for _, x := range []struct {
			name string
			s    series
		}{{"full", c.Full}, {"incremental", c.Incremental}} {
			// "all" adds the base's read to the run's duration, which
			// leaves it out.
			med := func(f func(map[string]float64) (float64, bool)) string {
				var v []float64
				for _, run := range x.s.Runs {
					if d, ok := f(run.Phases); ok {
						v = append(v, d)
					}
				}
				if len(v) == 0 {
					return "—"
				}
				if m := median(v); m > 0 {
					return format(m, "s")
				}
				return "none" // a full index reads no base
			}
			var cells []string
			for _, k := range phaseKeys[:len(phaseKeys)-1] {
				cells = append(cells, med(func(m map[string]float64) (float64, bool) { d, ok := m[k]; return d, ok }))
			}
			cells = append(cells, med(func(m map[string]float64) (float64, bool) {
				d, ok := m["duration"]
				return d + m["base_read"], ok
			}))
			p("| %s | %s | %s |\n", c.Name, x.name, strings.Join(cells, " | "))
		}
	}
	p("\n### Where the snapshot's bytes go\n\nEach column's bytes as stored (compressed, over its row groups), in the last full snapshot: those that take 2%% of it or more.\n\n")
	p("| corpus | column | bytes | share of the snapshot | ÷ source bytes |\n|---|---|---|---|---|\n")
	for _, c := range r.Corpora {
		cols := slices.Clone(c.Columns)
		slices.SortStableFunc(cols, func(a, b columnBytes) int { return cmp.Compare(b.Bytes, a.Bytes) })
		var all int64
		for _, col := range cols {
			all += col.Bytes
		}
		rest, restN := int64(0), 0
		for _, col := range cols {
			if float64(col.Bytes) < 0.02*float64(all) {
				rest, restN = rest+col.Bytes, restN+1
				continue
			}
			p("| %s | %s.%s | %s | %.1f%% | %.3f× |\n", c.Name, col.Table, col.Column, format(float64(col.Bytes), "B"),
				100*float64(col.Bytes)/float64(all), float64(col.Bytes)/float64(c.SourceBytes))
		}
		if restN > 0 {
			p("| %s | the other %d columns | %s | %.1f%% | %.3f× |\n", c.Name, restN, format(float64(rest), "B"),
				100*float64(rest)/float64(all), float64(rest)/float64(c.SourceBytes))
		}
	}

	if len(r.Engine) > 0 {
		p("\n## Engine latency, GOROOT/src snapshot (BenchmarkEngine)\n\n")
		p("Calls of query.Engine on functions and methods that have callers, picked at random (the same every run); impact is depth 3, at most 50 nodes; a search returns at most 50 hits.\n\n")
		p("| operation | mean | p50 | p99 | result size |\n|---|---|---|---|---|\n")
		for _, e := range r.Engine {
			size := ""
			for _, u := range []string{"links/op", "nodes/op", "found/op", "hits/op"} {
				if v, ok := e.metric(u); ok {
					size = fmt.Sprintf("%.3g %s", v, u)
				}
			}
			mean, _ := e.metric("ns/op")
			p50, _ := e.metric("p50-ns")
			p99, _ := e.metric("p99-ns")
			p("| %s | %s | %s | %s | %s |\n", strings.TrimPrefix(e.Name, "BenchmarkEngine/"), format(mean*1e-9, "s"), format(p50*1e-9, "s"), format(p99*1e-9, "s"), size)
		}
	}
	if len(r.Tools) > 0 || len(r.Stdio) > 0 {
		p("\n## Tools, GOROOT/src snapshot\n\n")
		p("Each tool's sample call (mcp.SampleCalls): in process through the registry (BenchmarkTools of package mcp), over stdio through the binary with the official MCP Go SDK client (BenchmarkStdioTools), the same client against a proxy that replays the binary's recorded answers, doing no work (BenchmarkStdioReplay: what is the client's and the pipes'), and over stdio with a minimal client that writes the request line and reads the answer line (BenchmarkStdioRaw). Tokens are answer bytes ÷ 4.\n\n")
		p("| tool | in process p50 | p99 | over stdio p50 | p99 | replayed p50 | minimal client p50 | p99 | answer | tokens |\n|---|---|---|---|---|---|---|---|---|---|\n")
		var names []string
		for _, t := range r.Tools {
			names = append(names, strings.TrimPrefix(t.Name, "BenchmarkTools/"))
		}
		for _, t := range r.Stdio {
			_, n, _ := strings.Cut(t.Name, "/")
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		ns := func(res *benchResult, unit string) string {
			if v, ok := res.metric(unit); ok {
				return format(v*1e-9, "s")
			}
			return "—"
		}
		for _, n := range names {
			in, st, raw := find(r.Tools, "BenchmarkTools/"+n), find(r.Stdio, "BenchmarkStdioTools/"+n), find(r.Stdio, "BenchmarkStdioRaw/"+n)
			replayed := find(r.Stdio, "BenchmarkStdioReplay/"+n)
			bytes, ok := in.metric("answer-bytes")
			if !ok {
				bytes, ok = st.metric("answer-bytes")
			}
			size, tokens := "—", "—"
			if ok {
				size, tokens = format(bytes, "B"), fmt.Sprintf("%.0f", bytes/4)
			}
			p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, ns(in, "p50-ns"), ns(in, "p99-ns"), ns(st, "p50-ns"), ns(st, "p99-ns"),
				ns(replayed, "p50-ns"), ns(raw, "p50-ns"), ns(raw, "p99-ns"), size, tokens)
		}
	}
	if len(r.Memory) > 0 {
		p("\n## Engine memory (BenchmarkMemory)\n\n")
		p("Live heap (HeapAlloc after GC) added by loading the snapshot and building its engine, then after Engine.Warm(). `serve` loads what snap serve loads (every table but refs); `no-sources` leaves the sources table out too.\n\n")
		p("| corpus | loaded as | nodes | heap after load | per node | heap after Warm | per node |\n|---|---|---|---|---|---|---|\n")
		for _, c := range r.Corpora {
			for _, res := range r.Memory[c.Name] {
				nodes, _ := res.metric("nodes")
				ch, _ := res.metric("cold-heap-B")
				cn, _ := res.metric("cold-B/node")
				wh, _ := res.metric("warm-heap-B")
				wn, _ := res.metric("warm-B/node")
				p("| %s | %s | %.0f | %s | %.0f B | %s | %.0f B |\n", c.Name, strings.TrimPrefix(res.Name, "BenchmarkMemory/"), nodes, format(ch, "B"), cn, format(wh, "B"), wn)
			}
		}
	}
	p("\n## Raw data\n\n")
	p("`report.json` holds every run. The `go test -bench` outputs are kept as they were printed, and the process timings are written in the same format (`raw/processes.txt`), so `benchstat raw/tools-goroot.txt` summarises one run and `benchstat old/raw/processes.txt new/raw/processes.txt` compares two:\n\n")
	for _, f := range r.Raw {
		p("- `%s`\n", f)
	}
	if len(r.Errors) > 0 {
		p("\n## Not measured\n\n")
		for _, e := range r.Errors {
			p("- %s\n", strings.ReplaceAll(strings.TrimSpace(e), "\n", " "))
		}
	}
	return b.String()
}

// allocatorNote says which allocator the floor's runs parsed with and,
// when it was not the C library's, how fast the floor was on that.
func allocatorNote(c *corpus) string {
	var used []string
	for _, r := range c.Floor.Runs {
		if r.Allocator != "" && !slices.Contains(used, r.Allocator) {
			used = append(used, r.Allocator)
		}
	}
	if len(used) == 0 {
		return ""
	}
	note := "; tree-sitter allocated with " + strings.Join(used, ", ")
	if c.FloorLibc.Runs != nil {
		note += fmt.Sprintf(" (the floor with the C library's malloc: %s, CPU %s)",
			format(median(c.FloorLibc.walls()), "s"), format(median(c.FloorLibc.cpu()), "s"))
	}
	return note
}
