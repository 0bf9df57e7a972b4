package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

// TestSampleCallsUnique: the sample's subject is one its qualified name
// finds alone, even where the most called function is declared once per
// build.
func TestSampleCallsUnique(t *testing.T) {
	var a strings.Builder
	a.WriteString("package p\n\n")
	for i := range 9 {
		a.WriteString("func A" + string(rune('1'+i)) + "() {\n\tRelease()\n")
		if i < 3 {
			a.WriteString("\tB()\n")
		}
		a.WriteString("}\n\n")
	}
	a.WriteString("func B() {}\n")
	s := indexTree(t, "3333333", map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.22\n",
		"race.go":   "//go:build race\n\npackage p\n\nfunc Release() {}\n",
		"norace.go": "//go:build !race\n\npackage p\n\nfunc Release() {}\n",
		"a.go":      a.String(),
	})
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if rows := e.Find("example.com/p.Release", ""); len(rows) != 2 {
		t.Fatalf("Release declared %d times, want 2", len(rows))
	}
	calls, err := mcp.SampleCalls(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		if c.Tool != "snap_symbol" || !strings.Contains(string(c.Args), `"name"`) {
			continue
		}
		var args struct{ Name string }
		if err := json.Unmarshal(c.Args, &args); err != nil {
			t.Fatal(err)
		}
		if rows := e.Find(args.Name, ""); len(rows) != 1 {
			t.Errorf("the sample's subject %q names %d symbols, want 1", args.Name, len(rows))
		}
		return
	}
	t.Fatal("no snap_symbol by name among the sample calls")
}

// TestSampleCallsAnswer: every sample call is one the catalog answers,
// as benchmarks and load tests rely on (an error answers fast, and would
// measure nothing).
func TestSampleCallsAnswer(t *testing.T) {
	h := holder(t)
	calls, err := mcp.SampleCalls(h.Load())
	if err != nil {
		t.Fatal(err)
	}
	r := registry(t, h)
	seen := map[string]bool{}
	for _, c := range calls {
		seen[c.Tool] = true
		if out, isError := r.CallJSON(t.Context(), c.Tool, c.Args); isError {
			t.Errorf("%s %s: %s", c.Tool, c.Args, out)
		}
	}
	for _, tool := range r.Tools() {
		// snap_sql has its own test (TestSQL): a sample call of it
		// would time the load of a second copy of the tables.
		if tool.Toolset != mcp.ToolsetCompat && tool.Toolset != mcp.ToolsetMemories && tool.Toolset != mcp.ToolsetHistory &&
			tool.Toolset != mcp.ToolsetSQL && !seen[tool.Name] {
			t.Errorf("no sample call of %s", tool.Name)
		}
	}
}
