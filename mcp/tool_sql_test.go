package mcp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
)

// TestSQL asks snap_sql what snap_calls answers, and holds its bounds:
// the token budget, a refused statement, a wrong column named back, and
// a new engine answered from at once.
func TestSQL(t *testing.T) {
	h := holder(t)
	r, err := mcp.NewRegistry(h, mcp.ToolsetSQL, mcp.ToolsetCallGraph)
	if err != nil {
		t.Fatal(err)
	}
	id := idOf(t, h, "net/http.(*Client).Do")
	call := func(tool string, args map[string]any) (map[string]any, bool) {
		t.Helper()
		raw, _ := json.Marshal(args)
		out, isError := r.CallJSON(t.Context(), tool, raw)
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("%s: %s", tool, out)
		}
		return v, isError
	}
	calls, isError := call("snap_calls", map[string]any{"id": id})
	if isError {
		t.Fatalf("snap_calls: %v", calls)
	}
	got, isError := call("snap_sql", map[string]any{"query": fmt.Sprintf("SELECT count(*) AS n, min(id) AS id FROM callers(%s)", id)})
	if isError {
		t.Fatalf("snap_sql: %v", got)
	}
	rows := got["rows"].([]any)
	if n := rows[0].([]any)[0]; fmt.Sprint(n) != fmt.Sprint(calls["total"]) {
		t.Errorf("snap_sql counts %v callers, snap_calls %v", n, calls["total"])
	}
	if _, isString := rows[0].([]any)[1].(string); !isString {
		t.Errorf("an id answered as %T, want a string", rows[0].([]any)[1])
	}
	if got["commit"] != querytest.Commit {
		t.Errorf("commit %v", got["commit"])
	}

	// The budget cuts the rows and says how many are left.
	got, isError = call("snap_sql", map[string]any{"query": "SELECT * FROM range(5000)", "max_tokens": 100})
	if isError || got["more"] == nil || len(got["rows"].([]any)) == 0 || !strings.Contains(fmt.Sprint(got["hint"]), "max_tokens") {
		t.Errorf("cut to the budget: %v", got)
	}
	got, _ = call("snap_sql", map[string]any{"query": "SELECT * FROM range(5000)", "max_tokens": 100000})
	if got["truncated"] != true || len(got["rows"].([]any)) != 500 {
		t.Errorf("the row cap: %d rows, truncated %v", len(got["rows"].([]any)), got["truncated"])
	}

	for q, want := range map[string]string{
		"COPY nodes TO 'x.csv'":                 "only a SELECT",
		"SELECT qname FROM nodes":               "qualified_name",
		"SELECT * FROM read_csv('/etc/passwd')": "disabled by configuration",
	} {
		got, isError := call("snap_sql", map[string]any{"query": q})
		msg := fmt.Sprint(got["error"])
		if !isError || !strings.Contains(msg, "INVALID_ARGUMENT") || !strings.Contains(msg, want) {
			t.Errorf("%s: %v, want INVALID_ARGUMENT saying %q", q, got, want)
		}
	}

	// A new engine (a sync) is answered from at the next call.
	s := querytest.Fixture()
	s.Manifest.Commit = "2222222222222222222222222222222222222222"
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	h.Store(e)
	got, _ = call("snap_sql", map[string]any{"query": "SELECT commit FROM manifest"})
	if c := got["rows"].([]any)[0].([]any)[0]; c != s.Manifest.Commit || got["commit"] != s.Manifest.Commit {
		t.Errorf("after a new engine: the tables of %v, the answer of %v; want %s", c, got["commit"], s.Manifest.Commit)
	}
}
