//go:build cgo && (duckdb_use_lib || duckdb_use_static_lib || (linux && (amd64 || arm64)) || (darwin && (amd64 || arm64)) || (windows && amd64))

package snapsql

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
)

func load(t testing.TB, s *snapshot.Snapshot, opts Options) *DB {
	t.Helper()
	db, err := Load(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func ask(t testing.TB, db *DB, q string) *Result {
	t.Helper()
	res, err := db.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res
}

// column returns one column of an answer, as text.
func column(res *Result, i int) []string {
	var out []string
	for _, r := range res.Rows {
		out = append(out, Text(r[i]))
	}
	return out
}

// TestTables holds the tables to the snapshot's rows: every node id,
// uint64 ids above 2^63 included, and the columns' types those of the
// Parquet tables.
func TestTables(t *testing.T) {
	s := querytest.Fixture()
	s.Nodes = append(s.Nodes, schemas.Node{ID: 1<<64 - 1, Kind: "function", Name: "bad", QualifiedName: "bad\xff", File: "src/net/http/server.go"})
	db := load(t, s, Options{})
	var want []string
	for _, n := range s.Nodes {
		want = append(want, fmt.Sprint(n.ID))
	}
	slices.Sort(want)
	got := column(ask(t, db, "SELECT CAST(id AS VARCHAR) AS id FROM nodes ORDER BY 1"), 0)
	if !slices.Equal(got, want) {
		t.Errorf("node ids: got %v, want %v", got, want)
	}
	res := ask(t, db, "SELECT id, qualified_name, start_line FROM nodes WHERE id = 18446744073709551615")
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `["18446744073709551615","bad`+"\uFFFD"+`",0]`) {
		t.Errorf("the largest id as JSON: %s", b)
	}
	for table, n := range map[string]int{"edges": len(s.Edges), "files": len(s.Files), "sources": len(s.Sources)} {
		if got := column(ask(t, db, "SELECT count(*) FROM "+table), 0)[0]; got != fmt.Sprint(n) {
			t.Errorf("%s: %s rows, want %d", table, got, n)
		}
	}
	types := column(ask(t, db, "SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_name = 'edges' ORDER BY ordinal_position"), 0)
	if want := "src UBIGINT,dst UBIGINT,kind VARCHAR,file VARCHAR,line UINTEGER,col UINTEGER,target VARCHAR,resolution VARCHAR," +
		"confidence FLOAT,reason VARCHAR,args VARCHAR,in_loop BOOLEAN,in_try BOOLEAN,conditional BOOLEAN,src_row INTEGER,dst_row INTEGER"; strings.Join(types, ",") != want {
		t.Errorf("edges columns:\n%s\nwant\n%s", strings.Join(types, ","), want)
	}
	if got := column(ask(t, db, "SELECT commit FROM manifest"), 0); !slices.Equal(got, []string{s.Manifest.Commit}) {
		t.Errorf("manifest: %v", got)
	}
}

// TestMacros holds the helpers to what the engine answers of the same
// snapshot.
func TestMacros(t *testing.T) {
	s := querytest.Fixture()
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	db, err := OpenEngine(context.Background(), e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	byName := func(q string) uint64 {
		res := ask(t, db, fmt.Sprintf("SELECT id FROM symbol('%s')", q))
		if len(res.Rows) != 1 {
			t.Fatalf("symbol(%s): %d rows", q, len(res.Rows))
		}
		return res.Rows[0][0].(uint64)
	}
	do := byName("net/http.(*Client).Do")
	// Callers and callees: the call edges of the snapshot, joined to the
	// names.
	var callers, callees []string
	for i := range s.Edges {
		ed := &s.Edges[i]
		if ed.Kind != "calls" {
			continue
		}
		if ed.Dst == do {
			r, _ := e.Lookup(ed.Src)
			callers = append(callers, e.NodeQName(r))
		}
		if ed.Src == do {
			name := ed.Target
			if r, ok := e.Lookup(ed.Dst); ok {
				name = e.NodeQName(r)
			}
			callees = append(callees, name)
		}
	}
	slices.Sort(callers)
	slices.Sort(callees)
	if len(callers) == 0 || len(callees) == 0 {
		t.Fatalf("the fixture's (*Client).Do has %d callers and %d callees", len(callers), len(callees))
	}
	got := column(ask(t, db, fmt.Sprintf("SELECT qualified_name FROM callers(%d) ORDER BY 1", do)), 0)
	if !slices.Equal(got, callers) {
		t.Errorf("callers: %v, want %v", got, callers)
	}
	got = column(ask(t, db, fmt.Sprintf("SELECT qualified_name FROM callees('%d') ORDER BY 1", do)), 0)
	if !slices.Equal(got, callees) {
		t.Errorf("callees (id as a string): %v, want %v", got, callees)
	}
	// Transitive reach: the engine's impact over calls, depth by depth.
	r, _ := e.Lookup(do)
	for _, d := range []query.Direction{query.Out, query.In} {
		want := map[string]int{e.NodeQName(r): 0}
		frontier := []int32{r}
		for depth := 1; depth <= 3; depth++ {
			var next []int32
			for _, x := range frontier {
				for i := range s.Edges {
					ed := &s.Edges[i]
					from, to := ed.Src, ed.Dst
					if d == query.In {
						from, to = to, from
					}
					if ed.Kind != "calls" || from != e.NodeID(x) || to == 0 {
						continue
					}
					y, _ := e.Lookup(to)
					if _, seen := want[e.NodeQName(y)]; !seen {
						want[e.NodeQName(y)] = depth
						next = append(next, y)
					}
				}
			}
			frontier = next
		}
		macro := map[query.Direction]string{query.Out: "reach", query.In: "reached_by"}[d]
		res := ask(t, db, fmt.Sprintf("SELECT qualified_name, depth FROM %s(%d, 3)", macro, do))
		gotDepth := map[string]int{}
		for _, row := range res.Rows {
			gotDepth[row[0].(string)] = int(row[1].(int64))
		}
		if fmt.Sprint(gotDepth) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", macro, gotDepth, want)
		}
	}
}

// TestErrors holds DuckDB's words for a wrong name: the name, and what
// there is instead.
func TestErrors(t *testing.T) {
	db := load(t, querytest.Fixture(), Options{})
	for q, want := range map[string][]string{
		"SELECT qname FROM nodes": {`"qname"`, "qualified_name"},
		"SELECT * FROM node":      {"name node does not exist", `"nodes"`},
		"SELEKT 1":                {"syntax error", "SELEKT"},
	} {
		_, err := db.Query(context.Background(), q)
		if err == nil {
			t.Errorf("%s: no error", q)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want it to say %s", q, err, w)
			}
		}
	}
}

// TestRowCap cuts an answer at Options.MaxRows and says so.
func TestRowCap(t *testing.T) {
	db := load(t, querytest.Fixture(), Options{MaxRows: 3})
	res := ask(t, db, "SELECT * FROM range(10)")
	if len(res.Rows) != 3 || !res.Truncated {
		t.Errorf("%d rows, truncated %v; want 3, true", len(res.Rows), res.Truncated)
	}
	res = ask(t, db, "SELECT * FROM range(3)")
	if len(res.Rows) != 3 || res.Truncated {
		t.Errorf("%d rows, truncated %v; want 3, false", len(res.Rows), res.Truncated)
	}
}

// TestHostile runs queries that reach for files, the network, extensions
// or the settings, and a query with no end: each is refused or stopped,
// and no file outside the DB is read or written.
func TestHostile(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.csv")
	os.WriteFile(secret, []byte("a,b\n1,2\n"), 0o644)
	cwd, _ := os.Getwd()
	before := listing(t, dir, cwd)
	db := load(t, querytest.Fixture(), Options{Timeout: 500 * time.Millisecond})
	out := filepath.Join(dir, "out")
	for _, c := range []struct{ q, why string }{
		{"SELECT * FROM read_csv('/etc/passwd')", "disabled by configuration"},
		{"SELECT * FROM read_csv('" + secret + "')", "disabled by configuration"},
		{"SELECT * FROM '" + secret + "'", "disabled by configuration"},
		{"SELECT * FROM read_text('" + secret + "')", "disabled by configuration"},
		{"SELECT * FROM read_blob('/etc/hostname')", "disabled by configuration"},
		{"SELECT * FROM glob('" + dir + "/*')", "disabled by configuration"},
		{"SELECT * FROM read_parquet('https://example.com/x.parquet')", ""},
		{"COPY (SELECT 1) TO '" + out + ".csv'", "only a SELECT"},
		{"COPY nodes TO '" + out + ".parquet' (FORMAT parquet)", "only a SELECT"},
		{"EXPORT DATABASE '" + out + "'", "only a SELECT"},
		{"ATTACH '" + out + ".db'", "only a SELECT"},
		{"INSTALL httpfs", "only a SELECT"},
		{"LOAD httpfs", "only a SELECT"},
		{"SET enable_external_access = true", "only a SELECT"},
		{"RESET lock_configuration", "only a SELECT"},
		{"PRAGMA database_list", "only a SELECT"},
		{"CREATE TABLE t AS SELECT 1", "only a SELECT"},
		{"CREATE TEMP TABLE t AS SELECT 1", "only a SELECT"},
		{"DROP TABLE nodes", "only a SELECT"},
		{"DELETE FROM nodes", "only a SELECT"},
		{"SELECT 1; DROP TABLE nodes", "only a SELECT"},
		{"SELECT 1; SELECT 2", "one statement at a time"},
		{"SELECT * FROM query('COPY (SELECT 1) TO ''" + out + ".csv''')", ""},
		{"SELECT count(*) FROM range(1000000) a, range(1000000) b", "was stopped"},
	} {
		_, err := db.Query(context.Background(), c.q)
		if err == nil {
			t.Errorf("%s: answered", c.q)
			continue
		}
		if !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: %v, want it to say %q", c.q, err, c.why)
		}
		t.Logf("%s: %v", c.q, err)
	}
	// The settings stayed locked, with nothing allowed.
	res := ask(t, db, "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), "+
		"CAST(current_setting('allowed_directories') AS VARCHAR), CAST(current_setting('allowed_paths') AS VARCHAR)")
	if got := fmt.Sprint(res.Rows[0]); got != "[false true [] []]" {
		t.Errorf("settings: %s", got)
	}
	if _, err := db.Query(context.Background(), "SELECT * FROM nodes LIMIT 1"); err != nil {
		t.Errorf("after the battery: %v", err)
	}
	if after := listing(t, dir, cwd); !slices.Equal(before, after) {
		t.Errorf("files changed:\nbefore %v\nafter  %v", before, after)
	}
}

// listing lists the files under each folder (to depth 2), hidden ones
// too (DuckDB's spill folder is .tmp).
func listing(t *testing.T, dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		for _, pat := range []string{"*", ".*", "*/*", ".*/*"} {
			m, _ := filepath.Glob(filepath.Join(d, pat))
			out = append(out, m...)
		}
	}
	slices.Sort(out)
	return out
}

// TestStore loads every snapshot of a store: the heads, the manifests,
// every snapshot's rows with their hive columns, and the views kept to
// the heads.
func TestStore(t *testing.T) {
	ctx := context.Background()
	st, err := filestore.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	old := querytest.Fixture()
	old.Manifest.Commit = "1111111111111111111111111111111111111111"
	newer := querytest.Fixture()
	newer.Nodes = newer.Nodes[:len(newer.Nodes)-1]
	publish(t, st, "example/shop", "main", old)
	publish(t, st, "example/shop", "main", newer)
	publish(t, st, "example/app", "feature/x", querytest.Fixture())
	db, err := OpenStore(ctx, st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := column(ask(t, db, "SELECT repo || ' ' || branch || ' ' || commit FROM heads ORDER BY ALL"), 0)
	want := []string{"example/app feature/x " + querytest.Commit, "example/shop main " + querytest.Commit}
	if !slices.Equal(got, want) {
		t.Errorf("heads: %v, want %v", got, want)
	}
	got = column(ask(t, db, "SELECT repo || ' ' || commit || ' ' || count(*) FROM all_nodes GROUP BY repo, commit ORDER BY 1"), 0)
	want = []string{
		fmt.Sprintf("example/app %s %d", querytest.Commit, len(old.Nodes)),
		fmt.Sprintf("example/shop %s %d", old.Manifest.Commit, len(old.Nodes)),
		fmt.Sprintf("example/shop %s %d", querytest.Commit, len(newer.Nodes)),
	}
	if !slices.Equal(got, want) {
		t.Errorf("all_nodes: %v, want %v", got, want)
	}
	got = column(ask(t, db, "SELECT repo || ' ' || count(*) FROM nodes GROUP BY repo ORDER BY 1"), 0)
	want = []string{fmt.Sprintf("example/app %d", len(old.Nodes)), fmt.Sprintf("example/shop %d", len(newer.Nodes))}
	if !slices.Equal(got, want) {
		t.Errorf("nodes: %v, want %v", got, want)
	}
	got = column(ask(t, db, "SELECT repo || ' ' || count(*) FROM manifests GROUP BY repo ORDER BY 1"), 0)
	if want := []string{"example/app 1", "example/shop 2"}; !slices.Equal(got, want) {
		t.Errorf("manifests: %v, want %v", got, want)
	}
	if _, err := db.Query(ctx, "CREATE TABLE x AS FROM nodes"); !errors.Is(err, ErrRefused) {
		t.Errorf("a store's DB took a CREATE: %v", err)
	}
}

// publish writes s as the newest snapshot of repo and branch in st.
func publish(t *testing.T, st snapshot.Store, repo, branch string, s *snapshot.Snapshot) {
	t.Helper()
	ctx := context.Background()
	s.Manifest.Repo, s.Manifest.Branch = repo, branch
	prefix, err := snapshot.Prefix(repo, branch, s.Manifest.Commit)
	if err != nil {
		t.Fatal(err)
	}
	m, err := snapshot.Write(ctx, st, prefix, s)
	if err != nil {
		t.Fatal(err)
	}
	_, raw, err := snapshot.ReadManifest(ctx, st, prefix)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	if _, err := snapshot.MoveHead(ctx, st, repo, branch, m, hex.EncodeToString(sum[:]), snapshot.HeadOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
}

// TestStoreViews holds OpenStore to the views docs/sql.md shows: the
// views it creates are the document's, word for word, and each table it
// loads answers what the document's view of that name answers over the
// store's files, run by DuckDB itself.
func TestStoreViews(t *testing.T) {
	doc, err := os.ReadFile("../docs/sql.md")
	if err != nil {
		t.Fatal(err)
	}
	var block string
	for _, b := range strings.Split(string(doc), "```sql\n")[1:] {
		if b, _, _ = strings.Cut(b, "```"); strings.Contains(b, "CREATE VIEW heads") {
			block = b
		}
	}
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	views := map[string]string{}
	for _, stmt := range strings.Split(block, ";") {
		if stmt = words(stmt); stmt != "" {
			name, _, _ := strings.Cut(strings.TrimPrefix(stmt, "CREATE VIEW "), " ")
			views[name] = stmt
		}
	}
	for _, name := range []string{"heads", "manifests", "all_nodes", "all_edges", "all_files", "nodes", "edges", "files"} {
		if views[name] == "" {
			t.Fatalf("docs/sql.md shows no view %s", name)
		}
	}
	for _, stmt := range strings.Split(storeViews, ";") {
		if stmt = words(stmt); stmt != "" && !slices.Contains(slices.Collect(maps.Values(views)), stmt) {
			t.Errorf("OpenStore creates %q, which docs/sql.md does not show", stmt)
		}
	}

	root := t.TempDir()
	st, err := filestore.New(root)
	if err != nil {
		t.Fatal(err)
	}
	old := querytest.Fixture()
	old.Manifest.Commit = "1111111111111111111111111111111111111111"
	publish(t, st, "example/shop", "main", old)
	publish(t, st, "example/shop", "main", querytest.Fixture())
	publish(t, st, "example/app", "feature/x", querytest.Fixture())
	db, err := OpenStore(context.Background(), st, Options{MaxRows: 100000})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	files, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	for _, name := range []string{"heads", "manifests", "all_nodes", "all_edges", "all_files", "nodes", "edges", "files"} {
		if _, err := files.Exec(strings.ReplaceAll(views[name], "{store}", root)); err != nil {
			t.Fatalf("%s: %v", views[name], err)
		}
	}
	for name, q := range map[string]string{
		"heads":     "SELECT * FROM heads ORDER BY ALL",
		"manifests": "SELECT repo, branch, commit FROM manifests ORDER BY ALL",
		"all_nodes": "SELECT * FROM all_nodes ORDER BY repo, branch, commit, id",
		"all_edges": "SELECT * FROM all_edges ORDER BY ALL",
		"all_files": "SELECT * FROM all_files ORDER BY ALL",
		"nodes":     "SELECT * FROM nodes ORDER BY repo, branch, commit, id",
		"edges":     "SELECT * FROM edges ORDER BY ALL",
	} {
		res := ask(t, db, q)
		got := []string{fmt.Sprint(res.Columns)}
		for _, r := range res.Rows {
			got = append(got, Text(r))
		}
		want, err := rowsOf(files, q)
		if err != nil {
			t.Fatalf("%s over the files: %v", q, err)
		}
		t.Logf("%s: %d rows, %s", name, len(got)-1, got[0])
		if len(got) < 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: OpenStore answers\n%s\nthe documented view\n%s", name, strings.Join(got[:min(len(got), 4)], "\n"), strings.Join(want[:min(len(want), 4)], "\n"))
		}
	}
}

// rowsOf runs q on a plain DuckDB and returns its columns, then its
// rows, as TestStoreViews compares them.
func rowsOf(db *sql.DB, q string) ([]string, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	cols := make([]Column, len(types))
	for i, t := range types {
		cols[i] = Column{t.Name(), t.DatabaseTypeName()}
	}
	out := []string{fmt.Sprint(cols)}
	for rows.Next() {
		vals, err := scan(rows, len(types))
		if err != nil {
			return nil, err
		}
		out = append(out, Text(vals))
	}
	return out, rows.Err()
}

// TestOpenFor leaves out sources and refs for a query that does not
// name them, and loads each one a query names.
func TestOpenFor(t *testing.T) {
	ctx := context.Background()
	st, err := filestore.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := querytest.Fixture()
	s.Refs = []schemas.Ref{{File: "src/net/http/server.go", Kind: "calls", Target: "x"}}
	publish(t, st, "example/shop", "main", s)
	prefix, _ := snapshot.Prefix("example/shop", "main", s.Manifest.Commit)
	tables := func(q string) []string {
		db, err := Open(ctx, st, prefix, Options{For: q})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return column(ask(t, db, "SELECT table_name FROM duckdb_tables() ORDER BY 1"), 0)
	}
	for q, want := range map[string]string{
		"SELECT count(*) FROM nodes":                                     "edges files manifest nodes",
		"SELECT * FROM callers(1)":                                       "edges files manifest nodes",
		"SELECT path FROM sources":                                       "edges files manifest nodes sources",
		"WITH x AS (SELECT * FROM refs) SELECT count(*) FROM x, SOURCES": "edges files manifest nodes refs sources",
		"": "edges files manifest nodes refs sources",
	} {
		if got := strings.Join(tables(q), " "); got != want {
			t.Errorf("for %q: tables %s, want %s", q, got, want)
		}
	}
}
