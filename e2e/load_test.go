package e2e

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// The load test: many MCP sessions over streamable HTTP call a mix of
// tools, weighted as an agent uses them, against `snap serve --http
// --sync` while two snapshots are pushed in turn to the store it follows.
// Every call must answer, from one of the two snapshots, without error.

// loadConfig shapes a load run. BenchmarkLoad reads it from SNAP_LOAD_*.
type loadConfig struct {
	corpus   string        // fixture (the Go shop) or goroot (GOROOT/src)
	sessions int           // MCP sessions calling at once
	duration time.Duration // how long they call
	swap     time.Duration // a push of the other snapshot every swap
	poll     time.Duration // serve --sync
	think    time.Duration // a session's mean pause between calls (exponential); 0 for none
	perTool  int           // distinct requests per tool
	seed     uint64
}

func loadConfigFromEnv(tb testing.TB) loadConfig {
	c := loadConfig{corpus: "fixture", sessions: 64, duration: time.Minute, swap: 5 * time.Second,
		poll: 500 * time.Millisecond, think: 100 * time.Millisecond, perTool: 100, seed: 1}
	dur := func(name string, d *time.Duration) {
		if s := os.Getenv(name); s != "" {
			v, err := time.ParseDuration(s)
			if err != nil || v < 0 {
				tb.Fatalf("%s=%q: want a duration such as 10s", name, s)
			}
			*d = v
		}
	}
	num := func(name string, n *int) {
		if s := os.Getenv(name); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 1 {
				tb.Fatalf("%s=%q: want a positive number", name, s)
			}
			*n = v
		}
	}
	c.corpus = cmp.Or(os.Getenv("SNAP_LOAD_CORPUS"), c.corpus)
	if c.corpus != "fixture" && c.corpus != "goroot" {
		tb.Fatalf("SNAP_LOAD_CORPUS=%q: want fixture or goroot", c.corpus)
	}
	num("SNAP_LOAD_SESSIONS", &c.sessions)
	num("SNAP_LOAD_PER_TOOL", &c.perTool)
	dur("SNAP_LOAD_DURATION", &c.duration)
	dur("SNAP_LOAD_SWAP", &c.swap)
	dur("SNAP_LOAD_SYNC", &c.poll)
	dur("SNAP_LOAD_THINK", &c.think)
	if s := os.Getenv("SNAP_LOAD_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			tb.Fatalf("SNAP_LOAD_SEED=%q: want a number", s)
		}
		c.seed = v
	}
	return c
}

// BenchmarkLoad runs the load once and prints a Markdown table of
// throughput, latency per tool and errors. Against the Go fixture by
// default; SNAP_LOAD_CORPUS=goroot indexes GOROOT/src (two states: as it
// is, and with one package added) and loads that. Other knobs, from the
// environment: SNAP_LOAD_SESSIONS (64), SNAP_LOAD_DURATION (60s),
// SNAP_LOAD_SWAP (5s between pushes), SNAP_LOAD_SYNC (500ms, serve's
// --sync), SNAP_LOAD_THINK (100ms, a session's mean pause between calls;
// 0 calls without pause), SNAP_LOAD_PER_TOOL (100 distinct requests per
// tool), SNAP_LOAD_SEED. Run it once:
//
//	cd e2e && SNAP_LOAD_CORPUS=goroot go test -run '^$' -bench '^BenchmarkLoad$' -benchtime 1x -timeout 30m .
func BenchmarkLoad(b *testing.B) {
	cfg := loadConfigFromEnv(b)
	b.StopTimer()
	r := runLoad(b, cfg)
	fmt.Print(r.markdown())
	all := r.overall()
	b.ReportMetric(all.rate(r.took), "calls/s")
	b.ReportMetric(ms(all.pct(.50)), "p50-ms")
	b.ReportMetric(ms(all.pct(.90)), "p90-ms")
	b.ReportMetric(ms(all.pct(.99)), "p99-ms")
	b.ReportMetric(ms(all.max()), "max-ms")
	b.ReportMetric(float64(all.protocol+all.tool+all.invalid), "errors")
	b.ReportMetric(float64(r.swaps), "swaps")
	b.ReportMetric(float64(r.took.Nanoseconds())/float64(max(all.calls, 1)), "ns/op") // wall time per call, all sessions together
	if n := all.protocol + all.tool + all.invalid; n > 0 {
		b.Errorf("%d errors: %d protocol, %d tool, %d invalid answers; first: %s", n, all.protocol, all.tool, all.invalid, strings.Join(r.firstErrors, "; "))
	}
}

// TestServeHTTPLoad is the load run in small: 8 sessions for 3 s over the
// Go fixture while the snapshot swaps every 750 ms. No call may fail.
func TestServeHTTPLoad(t *testing.T) {
	cfg := loadConfig{corpus: "fixture", sessions: 8, duration: 3 * time.Second, swap: 750 * time.Millisecond,
		poll: 100 * time.Millisecond, think: 5 * time.Millisecond, perTool: 20, seed: 1}
	r := runLoad(t, cfg)
	t.Log("\n" + r.markdown())
	all := r.overall()
	if n := all.protocol + all.tool + all.invalid; n > 0 || all.calls == 0 {
		t.Errorf("%d calls, %d errors: %d protocol, %d tool, %d invalid answers; first: %s",
			all.calls, n, all.protocol, all.tool, all.invalid, strings.Join(r.firstErrors, "; "))
	}
	if r.swaps < 2 || r.observedSwaps < 1 {
		t.Errorf("%d pushes, %d swaps by snap_status, %d seen by the sessions; want 2 swaps, at least one seen", r.pushes, r.swaps, r.observedSwaps)
	}
}

// corpus is a checkout indexed at two states, both in its local cache.
type corpus struct {
	dir          string // the checkout; its local cache is dir/.snap
	repo, branch string
	commits      [2]string
	folders      [2]string // the snapshots' folders
}

// loadCorpus copies the corpus's sources aside and indexes them twice: as
// they are, then with a package added (indexed incrementally over the
// first), as a second commit would be.
func loadCorpus(tb testing.TB, name string) corpus {
	tb.Helper()
	c := corpus{dir: tb.TempDir(), repo: "example/shop", branch: "main"}
	src := filepath.Join("..", "testdata", "go", "shop")
	if name == "goroot" {
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			tb.Fatal(err)
		}
		src = filepath.Join(strings.TrimSpace(string(goroot)), "src")
		c.repo, c.branch = "golang/go", "master"
	}
	if out, err := exec.Command("cp", "-R", src+"/.", c.dir).CombinedOutput(); err != nil {
		tb.Fatalf("copy %s: %v %s", src, err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", c.dir).CombinedOutput(); err != nil {
		tb.Fatalf("chmod: %v %s", err, out)
	}
	for i := range c.commits {
		if i == 1 {
			probe := filepath.Join(c.dir, "snaploadprobe")
			src := "// Package snaploadprobe is what the second state adds.\npackage snaploadprobe\n\n" +
				"// Probe calls probe.\nfunc Probe() int { return probe() }\n\nfunc probe() int { return 1 }\n"
			if err := os.MkdirAll(probe, 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(probe, "probe.go"), []byte(src), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		start := time.Now()
		code, out, stderr := snapIn(tb, c.dir, nil, "index", "-q", "--repo", c.repo, "--branch", c.branch)
		if code != 0 {
			tb.Fatalf("snap index: %s", stderr)
		}
		c.folders[i] = strings.TrimSpace(out)
		raw, err := os.ReadFile(filepath.Join(c.folders[i], "manifest.json"))
		if err != nil {
			tb.Fatal(err)
		}
		var m schemas.Manifest
		if err := json.Unmarshal(raw, &m); err != nil {
			tb.Fatal(err)
		}
		c.commits[i] = m.Commit
		tb.Logf("indexed %s state %d: commit %s, %d files, %d nodes, %d edges in %v", name, i, m.Commit,
			m.Counts.Files, m.Counts.Nodes, m.Counts.Edges, time.Since(start).Round(100*time.Millisecond))
	}
	if c.commits[0] == c.commits[1] {
		tb.Fatalf("both states have commit %s", c.commits[0])
	}
	return c
}

// push copies the snapshot of commit from the checkout's local cache to
// store and moves HEAD there, forward or not. It runs on any goroutine.
func (c corpus) push(store, commit string) error {
	cmd := exec.Command(snapBin, "push", "--store", store, "--repo", c.repo, "--branch", c.branch, "--commit", commit, "--force", "--json")
	cmd.Dir = c.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("snap push %s: %v\n%s", commit, err, out)
	}
	return nil
}

// request is one tool call of the mix.
type request struct {
	tool string
	args map[string]any
}

// loadMix is each tool's share of the calls, as an agent exploring code
// spends them: mostly finding symbols and reading around them, less often
// the wider questions (impact, context, paths).
var loadMix = []struct {
	tool   string
	weight int
}{
	{"snap_search", 18},
	{"snap_find_symbol", 14},
	{"snap_callers", 11},
	{"snap_callees", 8},
	{"snap_read_file", 9},
	{"snap_symbols_overview", 8},
	{"snap_impact", 6},
	{"snap_find_references", 5},
	{"snap_context", 4},
	{"snap_path", 3},
	{"snap_node", 3},
	{"snap_call_details", 2},
	{"snap_explore", 2},
	{"snap_dependencies", 2},
	{"snap_list_dir", 2},
	{"snap_find_file", 2},
	{"snap_status", 1},
}

// loadPlan builds perTool requests per tool of the mix from the
// snapshot in folder: real names, files, ids, call pairs and paths,
// selected as an agent would (a plain name when it is unique, else with
// its file, else by id). None should fail on either state; runLoad
// checks that before the run.
func loadPlan(tb testing.TB, folder string, perTool int, seed uint64) map[string][]request {
	tb.Helper()
	ctx := context.Background()
	st, err := snapshot.OpenDir(folder)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := snapshot.Read(ctx, st, "", snapshot.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	e, err := query.Build(s)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0))

	// Functions and methods with callers and callees, and types that are
	// referenced, in random order.
	var funcs, types []int32
	for r := range int32(e.NumNodes()) {
		n := e.Node(r)
		if n.Language != "go" || strings.HasPrefix(n.File, "snaploadprobe/") {
			continue
		}
		switch n.Kind {
		case schemas.KindFunction, schemas.KindMethod:
			if res, _ := e.Callees(r); len(e.Callers(r)) > 0 && len(res) > 0 {
				funcs = append(funcs, r)
			}
		case schemas.KindStruct, schemas.KindInterface, schemas.KindType:
			if e.Degree(r, query.References, query.In) > 0 {
				types = append(types, r)
			}
		}
	}
	rng.Shuffle(len(funcs), func(i, j int) { funcs[i], funcs[j] = funcs[j], funcs[i] })
	rng.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
	if len(funcs) == 0 {
		tb.Fatalf("no function with callers and callees in %s", folder)
	}
	// pick returns the i-th of rows, round and round.
	pick := func(rows []int32, i int) int32 { return rows[i%len(rows)] }
	id := func(r int32) string { return strconv.FormatUint(e.Node(r).ID, 10) }
	sel := func(r int32) map[string]any {
		n := e.Node(r)
		switch {
		case rng.IntN(2) == 0 && len(e.Find(n.Name, "")) == 1:
			return map[string]any{"name": n.Name}
		case len(e.Find(n.Name, n.File)) == 1:
			return map[string]any{"name": n.Name, "file": n.File}
		case len(e.Find(n.QualifiedName, n.File)) == 1:
			return map[string]any{"name": n.QualifiedName, "file": n.File}
		}
		return map[string]any{"id": id(r)}
	}
	// endpoint renames a selector's keys for one end of a pair.
	endpoint := func(m map[string]any, end string) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			switch k {
			case "name":
				out[end] = v
			default:
				out[end+"_"+k] = v
			}
		}
		return out
	}
	merge := func(ms ...map[string]any) map[string]any {
		out := map[string]any{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	callee := func(r int32) int32 {
		res, _ := e.Callees(r)
		return res[rng.IntN(len(res))].Node
	}

	plan := map[string][]request{}
	add := func(tool string, args map[string]any) { plan[tool] = append(plan[tool], request{tool, args}) }
	for i := range perTool {
		f := pick(funcs, i)
		n := e.Node(f)
		switch i % 5 {
		case 0:
			add("snap_search", map[string]any{"query": n.Name})
		case 1:
			add("snap_search", map[string]any{"query": n.Name[:min(len(n.Name), 4)], "limit": 20})
		case 2:
			add("snap_search", map[string]any{"query": strings.Join(words(n.Name), " ")})
		case 3:
			add("snap_search", map[string]any{"query": dotted(n.QualifiedName), "kinds": []string{n.Kind}})
		case 4:
			add("snap_search", map[string]any{"query": misspell(n.Name, rng)})
		}
		add("snap_find_symbol", merge(sel(f), map[string]any{"include_body": i%3 == 0}))
		add("snap_callers", sel(f))
		add("snap_callees", merge(sel(f), map[string]any{"limit": 20}))
		if i%4 == 0 {
			add("snap_read_file", map[string]any{"file": n.File})
		} else {
			add("snap_read_file", map[string]any{"file": n.File, "start_line": max(1, int(n.StartLine)-5), "end_line": int(n.EndLine) + 5})
		}
		add("snap_symbols_overview", map[string]any{"file": n.File, "limit": 10 + i%2*40})
		add("snap_impact", merge(sel(f), map[string]any{"depth": 2 + i%2}))
		if len(types) > 0 && i%2 == 0 {
			add("snap_find_references", sel(pick(types, i)))
		} else {
			add("snap_find_references", merge(sel(f), map[string]any{"kinds": []string{"calls"}}))
		}
		task := fmt.Sprintf("change how %s works in %s", strings.Join(words(n.Name), " "), path.Dir(n.File))
		if i%2 == 1 && n.Doc != "" {
			task = strings.Join(strings.Fields(n.Doc)[:min(8, len(strings.Fields(n.Doc)))], " ")
		}
		add("snap_context", map[string]any{"task": task})
		// A path of one to three calls, walked along resolved callees.
		to := f
		for range 1 + i%3 {
			if res, _ := e.Callees(to); len(res) > 0 {
				to = callee(to)
			}
		}
		if to != f {
			add("snap_path", merge(endpoint(sel(f), "from"), endpoint(sel(to), "to")))
		}
		add("snap_node", map[string]any{"id": id(f)})
		add("snap_call_details", merge(endpoint(sel(f), "from"), endpoint(sel(callee(f)), "to")))
		add("snap_explore", sel(f))
		if r, ok := e.FileNode(n.File); ok {
			add("snap_dependencies", map[string]any{"id": id(r)})
		}
		add("snap_list_dir", map[string]any{"dir": path.Dir(n.File)})
		if i%2 == 0 {
			add("snap_find_file", map[string]any{"pattern": path.Base(n.File)})
		} else {
			add("snap_find_file", map[string]any{"pattern": path.Join(path.Dir(n.File), "*.go")})
		}
		add("snap_status", map[string]any{})
	}
	return plan
}

// words splits a camelCase or snake_case name into lower-case words.
func words(name string) []string {
	var out []string
	var cur []rune
	rs := []rune(name)
	for i, r := range rs {
		if r == '_' {
			if len(cur) > 0 {
				out, cur = append(out, strings.ToLower(string(cur))), nil
			}
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			out, cur = append(out, strings.ToLower(string(cur))), nil
		}
		cur = append(cur, r)
	}
	if len(cur) > 0 {
		out = append(out, strings.ToLower(string(cur)))
	}
	return out
}

// dotted turns a qualified name (net/http.(*Server).Serve) into the
// dotted suffix an agent would type (Server.Serve).
func dotted(qname string) string {
	q := qname[strings.LastIndex(qname, "/")+1:]
	q = strings.NewReplacer("(*", "", "(", "", ")", "").Replace(q)
	parts := strings.Split(q, ".")
	return strings.Join(parts[max(0, len(parts)-2):], ".")
}

// misspell swaps two letters in the middle of a name.
func misspell(name string, rng *rand.Rand) string {
	rs := []rune(name)
	if len(rs) < 5 {
		return name
	}
	i := 1 + rng.IntN(len(rs)-3)
	rs[i], rs[i+1] = rs[i+1], rs[i]
	return string(rs)
}

// sample is one call as a session saw it.
type sample struct {
	tool     int // index in loadMix
	took     time.Duration
	outcome  outcome
	swapping bool // started between the end of a push and the first answer from it
}

type outcome uint8

const (
	outOK       outcome = iota
	outProtocol         // the call failed: transport or JSON-RPC
	outTool             // the tool answered an error
	outInvalid          // an answer that is not JSON, or names no snapshot of the run
)

// stats are the samples of one row of the table.
type stats struct {
	took                    []time.Duration // sorted
	calls                   int
	protocol, tool, invalid int
}

func newStats(samples []sample, keep func(sample) bool) stats {
	var s stats
	for _, x := range samples {
		if !keep(x) {
			continue
		}
		s.calls++
		s.took = append(s.took, x.took)
		switch x.outcome {
		case outProtocol:
			s.protocol++
		case outTool:
			s.tool++
		case outInvalid:
			s.invalid++
		}
	}
	slices.Sort(s.took)
	return s
}

// pct is the q-quantile, by nearest rank.
func (s stats) pct(q float64) time.Duration {
	if len(s.took) == 0 {
		return 0
	}
	i := int(q*float64(len(s.took))+0.5) - 1
	return s.took[min(max(i, 0), len(s.took)-1)]
}

func (s stats) max() time.Duration {
	if len(s.took) == 0 {
		return 0
	}
	return s.took[len(s.took)-1]
}

func (s stats) rate(d time.Duration) float64 { return float64(s.calls) / d.Seconds() }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// loadResult is what a run measured.
type loadResult struct {
	cfg           loadConfig
	nodes         int
	samples       []sample
	took          time.Duration
	pushes        int
	pushTook      []time.Duration
	swaps         int             // by snap_status, during the run
	loggedSwaps   int             // "serving" lines in serve's log, during the run
	loads         []time.Duration // how long each of those took to load, sorted
	observedSwaps int             // pushes a session saw answering
	perCommit     [2]int
	dropped       int
	firstErrors   []string
	// CPU time serve and this process (the clients) used during the run.
	serverCPU, clientCPU time.Duration
	loadavg              [2]string // the machine's, before and after the run
	// server is each tool's time in the server, from serve's log: the
	// handler alone, without transport and queueing.
	server map[string][]time.Duration
}

var loadLogRE = regexp.MustCompile(`msg=serving .* load=(\S+)`)

var toolLogRE = regexp.MustCompile(`msg=mcp\.tool mcp\.tool\.name=(\S+) duration_s=(\S+)`)

// serverTimes reads the tool durations serve logged.
func serverTimes(log string) map[string][]time.Duration {
	out := map[string][]time.Duration{}
	for _, m := range toolLogRE.FindAllStringSubmatch(log, -1) {
		if sec, err := strconv.ParseFloat(m[2], 64); err == nil {
			out[m[1]] = append(out[m[1]], time.Duration(sec*float64(time.Second)))
		}
	}
	for _, d := range out {
		slices.Sort(d)
	}
	return out
}

func (r *loadResult) overall() stats { return newStats(r.samples, func(sample) bool { return true }) }

func (r *loadResult) markdown() string {
	var b strings.Builder
	all := r.overall()
	slices.Sort(r.pushTook)
	fmt.Fprintf(&b, "### snap serve --http under load: %s (%d nodes)\n\n", r.cfg.corpus, r.nodes)
	fmt.Fprintf(&b, "%d sessions for %v (mean pause %v), a push every %v, serve --sync %v: **%d calls, %.0f calls/s**; "+
		"%d pushes (median %v), %d swaps by snap_status (%d logged, loaded in %v median, %v max; %d seen by the sessions); answers from state 0 / 1: %d / %d; "+
		"%d of the planned requests dropped before the run.\n\n",
		r.cfg.sessions, r.took.Round(time.Millisecond), r.cfg.think, r.cfg.swap, r.cfg.poll, all.calls, all.rate(r.took),
		r.pushes, median(r.pushTook).Round(time.Millisecond), r.swaps, r.loggedSwaps, median(r.loads), stats{took: r.loads}.max(), r.observedSwaps, r.perCommit[0], r.perCommit[1], r.dropped)
	if all.calls > 0 && r.serverCPU > 0 {
		fmt.Fprintf(&b, "CPU: serve %.2f cores, %.2f ms a call; the clients %.2f cores; %d CPUs, load average %s before the run, %s after.\n\n",
			r.serverCPU.Seconds()/r.took.Seconds(), ms(r.serverCPU)/float64(all.calls), r.clientCPU.Seconds()/r.took.Seconds(),
			runtime.NumCPU(), r.loadavg[0], r.loadavg[1])
	}
	b.WriteString("| tool | calls | calls/s | p50 ms | p90 ms | p99 ms | max ms | in server p50 / p99 / max ms | protocol errors | tool errors | invalid |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	row := func(name string, s stats, server []time.Duration) {
		in := "–"
		if len(server) > 0 {
			srv := stats{took: server}
			in = fmt.Sprintf("%.2f / %.2f / %.2f", ms(srv.pct(.5)), ms(srv.pct(.99)), ms(srv.max()))
		}
		fmt.Fprintf(&b, "| %s | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %s | %d | %d | %d |\n", name, s.calls, s.rate(r.took),
			ms(s.pct(.5)), ms(s.pct(.9)), ms(s.pct(.99)), ms(s.max()), in, s.protocol, s.tool, s.invalid)
	}
	var server []time.Duration
	for i, m := range loadMix {
		if s := newStats(r.samples, func(x sample) bool { return x.tool == i }); s.calls > 0 {
			row(m.tool, s, r.server[m.tool])
			server = append(server, r.server[m.tool]...)
		}
	}
	slices.Sort(server)
	row("**all**", all, server)
	row("while a push loads", newStats(r.samples, func(x sample) bool { return x.swapping }), nil)
	row("otherwise", newStats(r.samples, func(x sample) bool { return !x.swapping }), nil)
	b.WriteString("\n")
	return b.String()
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[len(d)/2]
}

// answer is what the load checks of a tool's answer.
type answer struct {
	Commit string `json:"commit"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// callOnce calls req and classifies the result.
func callOnce(sess *mcp.ClientSession, req request, commits [2]string) (answer, outcome, string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: req.tool, Arguments: req.args})
	if err != nil {
		return answer{}, outProtocol, err.Error()
	}
	var text *mcp.TextContent
	if len(res.Content) == 1 {
		text, _ = res.Content[0].(*mcp.TextContent)
	}
	var a answer
	if text == nil || json.Unmarshal([]byte(text.Text), &a) != nil {
		return a, outInvalid, fmt.Sprintf("not one JSON text: %v", res.Content)
	}
	if res.IsError || a.Error != nil {
		msg := "isError without an error"
		if a.Error != nil {
			msg = a.Error.Code + ": " + a.Error.Message
		}
		return a, outTool, msg
	}
	if a.Commit != commits[0] && a.Commit != commits[1] {
		return a, outInvalid, "answer from commit " + a.Commit
	}
	return a, outOK, ""
}

// connect opens an MCP session over streamable HTTP with its own HTTP
// client, as a separate agent would have.
func connect(tb testing.TB, endpoint string) *mcp.ClientSession {
	tb.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 4
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "snap-e2e-load", Version: "1"}, nil)
	sess, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: tr}}, nil)
	if err != nil {
		tb.Fatalf("connect over HTTP: %v", err)
	}
	tb.Cleanup(func() { sess.Close(); tr.CloseIdleConnections() })
	return sess
}

// serveHTTPStore starts `snap serve --http` following a store and returns
// its MCP endpoint and log.
func serveHTTPStore(tb testing.TB, args ...string) (string, *lineLog, int) {
	tb.Helper()
	cmd := exec.Command(snapBin, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Dir = tb.TempDir()
	logged := &lineLog{match: regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/mcp)`), found: make(chan string, 1)}
	cmd.Stderr = logged
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if strings.Contains(logged.String(), "DATA RACE") {
			tb.Errorf("snap serve: %s", logged)
		}
	})
	select {
	case endpoint := <-logged.found:
		return endpoint, logged, cmd.Process.Pid
	case <-time.After(time.Minute):
		tb.Fatalf("snap serve --http did not say where it listens:\n%s", logged)
	}
	return "", nil, 0
}

// progress tells how far the run is, at once (a benchmark's log waits
// for its end), with -v.
func progress(tb testing.TB, format string, args ...any) {
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "%s %s: %s\n", time.Now().Format("15:04:05"), tb.Name(), fmt.Sprintf(format, args...))
	}
}

func lenPlan(plan map[string][]request) int {
	n := 0
	for _, reqs := range plan {
		n += len(reqs)
	}
	return n
}

// loadavg is the machine's load average over the last minute, or "?".
func loadavg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(raw)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// cpuTime is the CPU time (user and system) process pid has used, from
// /proc; 0 where there is no /proc.
func cpuTime(pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command's closing parenthesis: state is the 3rd
	// field of the line, utime and stime the 14th and 15th, in ticks.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ is 100 on Linux
}

// waitAnswering polls snap_status until the server answers from commit,
// and returns the status.
func waitAnswering(tb testing.TB, sess *mcp.ClientSession, commit string, limit time.Duration) map[string]any {
	tb.Helper()
	deadline := time.Now().Add(limit)
	for {
		ans, isErr := call(tb, sess, "snap_status", nil)
		if !isErr && ans["commit"] == commit {
			return ans
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the server did not answer from %s within %s: %v", commit, limit, ans)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func swapsOf(tb testing.TB, status map[string]any) int {
	tb.Helper()
	n, ok := syncState(tb, status)["swaps"].(float64)
	if !ok {
		tb.Fatalf("no sync.swaps in %v", status)
	}
	return int(n)
}

// runLoad indexes the corpus at two states, serves it over HTTP from a
// local store that serve follows, checks every planned request on both
// states, then runs cfg.sessions sessions for cfg.duration while the
// states are pushed in turn every cfg.swap.
func runLoad(tb testing.TB, cfg loadConfig) *loadResult {
	progress(tb, "indexing %s at two states", cfg.corpus)
	c := loadCorpus(tb, cfg.corpus)
	store := filepath.Join(tb.TempDir(), "store")
	if err := c.push(store, c.commits[0]); err != nil {
		tb.Fatal(err)
	}
	plan := loadPlan(tb, c.folders[0], cfg.perTool, cfg.seed)
	runtime.GC() // the plan's engine, before it costs the clients a collection mid-run
	endpoint, logged, pid := serveHTTPStore(tb, "--store", store, "--repo", c.repo, "--branch", c.branch, "--sync", cfg.poll.String(), "--toolsets", "all")
	control := connect(tb, endpoint)
	status := waitAnswering(tb, control, c.commits[0], 5*time.Minute)
	nodes, _ := status["nodes"].(float64)
	r := &loadResult{cfg: cfg, nodes: int(nodes)}

	// Every planned request, on each state, from a few sessions: a tool
	// error here is a request the mix should not make (or a bug outside
	// the load); it is dropped and logged, so that the run only counts
	// what load and swaps cause.
	checkers := make([]*mcp.ClientSession, 4)
	for i := range checkers {
		checkers[i] = connect(tb, endpoint)
	}
	bad := map[string]string{}
	progress(tb, "checking %d requests on both states", lenPlan(plan))
	for state, commit := range c.commits {
		if state == 1 {
			if err := c.push(store, commit); err != nil {
				tb.Fatal(err)
			}
			waitAnswering(tb, control, commit, 5*time.Minute)
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		next := make(chan request)
		for _, sess := range checkers {
			wg.Go(func() {
				for req := range next {
					if _, out, msg := callOnce(sess, req, c.commits); out != outOK {
						mu.Lock()
						bad[req.tool+" "+mustJSON(req.args)] = fmt.Sprintf("state %d: %s", state, msg)
						mu.Unlock()
					}
				}
			})
		}
		for _, m := range loadMix {
			for _, req := range plan[m.tool] {
				next <- req
			}
		}
		close(next)
		wg.Wait()
	}
	var mix []int // tool indexes, each repeated by its weight
	for i, m := range loadMix {
		plan[m.tool] = slices.DeleteFunc(plan[m.tool], func(req request) bool {
			_, drop := bad[req.tool+" "+mustJSON(req.args)]
			return drop
		})
		if len(plan[m.tool]) == 0 {
			tb.Logf("no request of %s left: it is left out of the mix", m.tool)
			continue
		}
		for range m.weight {
			mix = append(mix, i)
		}
	}
	r.dropped = len(bad)
	for _, k := range slices.Sorted(maps.Keys(bad))[:min(len(bad), 10)] {
		tb.Logf("dropped %s: %s", k, bad[k])
	}

	sessions := make([]*mcp.ClientSession, cfg.sessions)
	for i := range sessions {
		sessions[i] = connect(tb, endpoint)
	}
	swaps0 := swapsOf(tb, waitAnswering(tb, control, c.commits[1], time.Minute))
	r.loadavg[0] = loadavg()
	log0 := len(logged.String())
	serverCPU0, clientCPU0 := cpuTime(pid), cpuTime(os.Getpid())
	logged0 := strings.Count(logged.String(), "msg=serving")

	progress(tb, "%d sessions calling for %v", cfg.sessions, cfg.duration)
	// The pusher: the other state every cfg.swap. pending is the commit
	// pushed and not yet seen in an answer.
	var pending atomic.Pointer[string]
	served := 1 // the state HEAD names
	stop := make(chan struct{})
	var pusher sync.WaitGroup
	var pushErr error
	pusher.Go(func() {
		t := time.NewTicker(cfg.swap)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			served = 1 - served
			start := time.Now()
			if err := c.push(store, c.commits[served]); err != nil {
				pushErr = err
				return
			}
			r.pushTook = append(r.pushTook, time.Since(start))
			r.pushes++
			pending.Store(&c.commits[served])
		}
	})

	// The sessions: a tool by the mix's weights, a request of it, a pause.
	per := make([][]sample, cfg.sessions)
	var errMu sync.Mutex
	var observed, answered0, answered1 atomic.Int64
	start := time.Now()
	end := start.Add(cfg.duration)
	var wg sync.WaitGroup
	for i, sess := range sessions {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(cfg.seed, uint64(i)+1))
			for time.Now().Before(end) {
				tool := mix[rng.IntN(len(mix))]
				reqs := plan[loadMix[tool].tool]
				req := reqs[rng.IntN(len(reqs))]
				swapping := pending.Load() != nil
				t0 := time.Now()
				a, out, msg := callOnce(sess, req, c.commits)
				per[i] = append(per[i], sample{tool: tool, took: time.Since(t0), outcome: out, swapping: swapping})
				if out != outOK {
					errMu.Lock()
					if len(r.firstErrors) < 5 {
						r.firstErrors = append(r.firstErrors, fmt.Sprintf("%s %s: %s", req.tool, mustJSON(req.args), msg))
					}
					errMu.Unlock()
					continue
				}
				if p := pending.Load(); p != nil && *p == a.Commit && pending.CompareAndSwap(p, nil) {
					observed.Add(1)
				}
				if a.Commit == c.commits[0] {
					answered0.Add(1)
				} else {
					answered1.Add(1)
				}
				if cfg.think > 0 {
					time.Sleep(time.Duration(rng.ExpFloat64() * float64(cfg.think)))
				}
			}
		})
	}
	wg.Wait()
	r.took = time.Since(start)
	r.serverCPU, r.clientCPU = cpuTime(pid)-serverCPU0, cpuTime(os.Getpid())-clientCPU0
	r.loadavg[1] = loadavg()
	r.server = serverTimes(logged.String()[log0:])
	close(stop)
	pusher.Wait()
	if pushErr != nil {
		tb.Fatal(pushErr)
	}
	// Let the last push land, then count the swaps.
	final := waitAnswering(tb, control, c.commits[served], 5*time.Minute)
	r.swaps = swapsOf(tb, final) - swaps0
	r.loggedSwaps = strings.Count(logged.String(), "msg=serving") - logged0
	for _, m := range loadLogRE.FindAllStringSubmatch(logged.String()[log0:], -1) {
		if d, err := time.ParseDuration(m[1]); err == nil {
			r.loads = append(r.loads, d)
		}
	}
	slices.Sort(r.loads)
	r.observedSwaps = int(observed.Load())
	r.perCommit = [2]int{int(answered0.Load()), int(answered1.Load())}
	for _, s := range per {
		r.samples = append(r.samples, s...)
	}
	if st := syncState(tb, final); st["last_error"] != nil {
		tb.Errorf("the last sync failed: %v", st["last_error"])
	}
	return r
}
