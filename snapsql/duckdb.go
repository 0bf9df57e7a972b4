//go:build cgo && (duckdb_use_lib || duckdb_use_static_lib || (linux && (amd64 || arm64)) || (darwin && (amd64 || arm64)) || (windows && amd64))

package snapsql

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/parquet-go/parquet-go"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// Available reports whether this build holds DuckDB.
const Available = true

// DB is an in-memory DuckDB holding snapshot tables, locked. It is safe
// for concurrent use.
type DB struct {
	db   *sql.DB
	conn *duckdb.Connector
	opts Options
}

// newDB starts an empty in-memory DuckDB bounded by opts, with no
// extension installed or loaded on its own.
func newDB(opts Options) (*DB, error) {
	opts = opts.withDefaults()
	c, err := duckdb.NewConnector("", func(execer driver.ExecerContext) error { return nil })
	if err != nil {
		return nil, fmt.Errorf("start duckdb: %w", err)
	}
	db := &DB{db: sql.OpenDB(c), conn: c, opts: opts}
	for _, s := range []string{
		"SET autoinstall_known_extensions = false",
		"SET autoload_known_extensions = false",
		"SET allow_community_extensions = false",
		fmt.Sprintf("SET threads = %d", opts.Threads),
		fmt.Sprintf("SET memory_limit = '%s'", strings.ReplaceAll(opts.MaxMemory, "'", "")),
	} {
		if _, err := db.db.Exec(s); err != nil {
			db.Close()
			return nil, fmt.Errorf("start duckdb: %s: %w", s, err)
		}
	}
	return db, nil
}

// lockdown closes the DB to the outside once its tables are loaded: no
// file (not even a spill file: the temporary directory goes), no network,
// no extension, and no setting may change afterwards. These are DuckDB's
// own settings; a query that tries to go past them fails in DuckDB.
func (db *DB) lockdown(ctx context.Context) error {
	for _, s := range []string{
		"SET temp_directory = ''",
		"SET enable_external_access = false",
		"SET allow_unsigned_extensions = false",
		"SET lock_configuration = true",
	} {
		if _, err := db.db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("lock duckdb: %s: %w", s, err)
		}
	}
	return nil
}

// Close frees the DB.
func (db *DB) Close() error {
	err := db.db.Close()
	if cerr := db.conn.Close(); err == nil {
		err = cerr
	}
	return err
}

// Load returns a DB of the snapshot s: tables nodes, edges, files, and
// sources and refs when s has them, a table manifest, and the macros.
func Load(ctx context.Context, s *snapshot.Snapshot, opts Options) (*DB, error) {
	db, err := newDB(opts)
	if err != nil {
		return nil, err
	}
	if err := db.load(ctx, s); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Open reads and verifies the snapshot at prefix in st and returns its
// DB (see Load, and Options.For).
func Open(ctx context.Context, st snapshot.Store, prefix string, opts Options) (*DB, error) {
	var ro snapshot.ReadOptions
	if opts.For != "" {
		names, err := tablesOf(ctx, opts.For)
		if err != nil {
			return nil, err
		}
		ro.SkipSources, ro.SkipRefs = !names["sources"], !names["refs"]
	}
	s, err := snapshot.Read(ctx, st, prefix, ro)
	if err != nil {
		return nil, err
	}
	return Load(ctx, s, opts)
}

// tablesOf returns the names of the tables q reads, as DuckDB's parser
// finds them; a query DuckDB cannot parse names none (Query says why).
func tablesOf(ctx context.Context, q string) (map[string]bool, error) {
	c, err := duckdb.NewConnector("", nil)
	if err != nil {
		return nil, fmt.Errorf("start duckdb: %w", err)
	}
	defer c.Close()
	db := sql.OpenDB(c)
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	out := map[string]bool{}
	names, err := duckdb.GetTableNames(conn, q, false)
	if err != nil {
		return out, nil
	}
	for _, n := range names {
		out[strings.ToLower(n)] = true
	}
	return out, nil
}

// OpenEngine returns a DB of the snapshot e answers from (see Load). An
// engine keeps no refs: the DB has no refs table.
func OpenEngine(ctx context.Context, e *query.Engine, opts Options) (*DB, error) {
	return Load(ctx, SnapshotOf(e), opts)
}

// SnapshotOf returns the rows an engine holds, as a snapshot: every
// table but refs.
func SnapshotOf(e *query.Engine) *snapshot.Snapshot {
	s := &snapshot.Snapshot{Manifest: *e.Manifest(), Nodes: e.Nodes(), Files: e.Files()}
	s.Edges = make([]schemas.Edge, e.NumEdges())
	for i := range s.Edges {
		s.Edges[i] = e.Edge(int32(i))
		s.Edges[i].Args = e.EdgeArgs(int32(i))
	}
	if e.HasSources() {
		s.Sources = []schemas.Source{}
		for _, f := range e.Files() {
			if b, ok := e.Source(f.Path); ok {
				s.Sources = append(s.Sources, schemas.Source{Path: f.Path, Content: b})
			}
		}
	}
	return s
}

func (db *DB) load(ctx context.Context, s *snapshot.Snapshot) error {
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	st, err := newStage()
	if err != nil {
		return err
	}
	defer st.remove()
	tables := map[string]func() (string, error){
		"nodes": func() (string, error) { return put(st, s.Nodes, cleanNode) },
		"edges": func() (string, error) { return put(st, s.Edges, cleanEdge) },
		"files": func() (string, error) { return put(st, s.Files, cleanFile) },
	}
	if s.Sources != nil || s.SourceFiles != nil {
		srcs := s.Sources
		if s.SourceFiles != nil {
			for _, p := range s.SourceFiles.Paths() {
				b, err := s.SourceFiles.ReadContent(p)
				if err != nil {
					return fmt.Errorf("load sources: %w", err)
				}
				srcs = append(srcs, schemas.Source{Path: p, Content: b})
			}
		}
		tables["sources"] = func() (string, error) { return put(st, srcs, cleanSource) }
	}
	if s.Refs != nil {
		tables["refs"] = func() (string, error) { return put(st, s.Refs, cleanRef) }
	}
	for name, write := range tables {
		path, err := write()
		if err != nil {
			return fmt.Errorf("load %s: %w", name, err)
		}
		if _, err := conn.ExecContext(ctx, "CREATE TABLE "+name+" AS FROM read_parquet("+literal(path)+")"); err != nil {
			return fmt.Errorf("load %s: %w", name, err)
		}
		os.Remove(path)
	}
	m := s.Manifest
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE manifest AS SELECT $1::VARCHAR AS repo, $2::VARCHAR AS branch, $3::VARCHAR AS commit, $4::JSON AS manifest`,
		m.Repo, m.Branch, m.Commit, string(raw)); err != nil {
		return fmt.Errorf("load manifest: %w", err)
	}
	if _, err := conn.ExecContext(ctx, macros); err != nil {
		return fmt.Errorf("create macros: %w", err)
	}
	return db.lockdown(ctx)
}

// stage is a private folder where the rows are written, strings made
// valid UTF-8, as Parquet files for DuckDB to load; it is removed before
// DuckDB is locked.
type stage struct {
	dir string
	n   int
}

func newStage() (*stage, error) {
	dir, err := os.MkdirTemp("", "snapsql-")
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	return &stage{dir: dir}, nil
}

func (s *stage) remove() { os.RemoveAll(s.dir) }

// put writes a copy of rows, each cleaned by fix, to a new Parquet file
// of the stage and returns its path. The row types' parquet tags make
// the columns what the snapshot's tables have.
func put[T any](s *stage, rows []T, fix func(*T)) (string, error) {
	rows = slices.Clone(rows)
	for i := range rows {
		fix(&rows[i])
	}
	s.n++
	path := filepath.Join(s.dir, fmt.Sprintf("%d.parquet", s.n))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := parquet.NewGenericWriter[T](f)
	if _, err := w.Write(rows); err != nil {
		f.Close()
		return "", err
	}
	if err := w.Close(); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// literal quotes s as an SQL string.
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// clean makes s valid UTF-8, as DuckDB's VARCHAR must be: a snapshot's
// strings are the source's bytes, which need not be (a signature holding
// "\xff"); each invalid byte becomes U+FFFD.
func clean(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func cleanAll(ss ...*string) {
	for _, s := range ss {
		*s = clean(*s)
	}
}

func cleanNode(n *schemas.Node) {
	cleanAll(&n.Kind, &n.Name, &n.QualifiedName, &n.Language, &n.File, &n.Signature, &n.Doc, &n.Visibility)
	if len(n.Decorators) > 0 {
		n.Decorators = slices.Clone(n.Decorators)
		for i := range n.Decorators {
			cleanAll(&n.Decorators[i])
		}
	}
}

func cleanEdge(e *schemas.Edge) {
	cleanAll(&e.Kind, &e.File, &e.Target, &e.Resolution, &e.Reason, &e.Args)
}

func cleanFile(f *schemas.File) { cleanAll(&f.Path, &f.Language, &f.SHA256, &f.Status, &f.Error) }

func cleanSource(s *schemas.Source) { cleanAll(&s.Path) }

func cleanRef(r *schemas.Ref) { cleanAll(&r.File, &r.Kind, &r.Target, &r.Expr, &r.Args) }

// Query runs one SELECT statement (a WITH, a FROM-first query, DESCRIBE,
// SUMMARIZE, a PIVOT) and returns at most Options.MaxRows rows of it.
// Anything else, and more than one statement, is refused with ErrRefused
// before it runs; DuckDB tells which: it serializes SELECT statements
// only. A query past Options.Timeout is interrupted. DuckDB's errors (a
// column or table that does not exist, with the names it has) are
// returned as DuckDB words them.
func (db *DB) Query(ctx context.Context, q string) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, db.opts.Timeout)
	defer cancel()
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return nil, db.stopped(ctx, err)
	}
	defer conn.Close()
	var (
		failed     bool
		why, kind  sql.NullString
		statements sql.NullInt64
	)
	err = conn.QueryRowContext(ctx, `SELECT coalesce(TRY_CAST(j->>'$.error' AS BOOLEAN), false), j->>'$.error_message', j->>'$.error_type', json_array_length(j->'$.statements')
FROM (SELECT json_serialize_sql($1::VARCHAR) AS j)`, q).Scan(&failed, &why, &kind, &statements)
	if err != nil {
		return nil, db.stopped(ctx, err)
	}
	switch {
	case failed && kind.String == "parser":
		return nil, fmt.Errorf("parser error: %s", why.String)
	case failed:
		return nil, fmt.Errorf("%w: only a SELECT runs here (DuckDB: %s)", ErrRefused, why.String)
	case statements.Int64 != 1:
		return nil, fmt.Errorf("%w: one statement at a time, got %d", ErrRefused, statements.Int64)
	}
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return nil, db.stopped(ctx, err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	res := &Result{Columns: make([]Column, len(types)), Rows: [][]any{}}
	for i, t := range types {
		res.Columns[i] = Column{Name: t.Name(), Type: t.DatabaseTypeName()}
	}
	for rows.Next() {
		if len(res.Rows) == db.opts.MaxRows {
			res.Truncated = true
			break
		}
		vals, err := scan(rows, len(types))
		if err != nil {
			return nil, err
		}
		res.Rows = append(res.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, db.stopped(ctx, err)
	}
	return res, nil
}

// scan reads the n values of the current row, as plain values.
func scan(rows *sql.Rows, n int) ([]any, error) {
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	for i, v := range vals {
		vals[i] = plain(v)
	}
	return vals, nil
}

// stopped says that a query was stopped at the time limit, when it was.
func (db *DB) stopped(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: the query ran past %s and was stopped", ErrTimeout, db.opts.Timeout)
	}
	return err
}

// plain turns what DuckDB's driver scans into the values Result holds:
// nil, bool, string, []byte, int64 (every integer narrower than 64
// bits too), uint64 (UBIGINT: the ids), float64, *big.Int, []any,
// map[string]any, or a string for the rest (times, decimals, intervals,
// UUIDs).
func plain(v any) any {
	switch x := v.(type) {
	case nil, bool, string, []byte, int64, uint64, float64, *big.Int:
		return x
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case float32:
		return float64(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	case duckdb.Map:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(plain(k))] = plain(e)
		}
		return out
	case duckdb.Decimal:
		return x.String()
	case duckdb.UUID:
		return (&x).String()
	case duckdb.Union:
		return plain(x.Value)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// OpenStore returns a DB of every snapshot in st, read and verified, as
// the tables and views docs/sql.md shows over a store's files: heads
// (repo, branch, commit: what each HEAD.json names), manifests (one row
// per snapshot, the manifest's fields), all_nodes, all_edges and
// all_files (every snapshot's rows, with the hive columns branch, commit
// and repo), and the views nodes, edges and files, kept to the heads
// (storeViews). Sources and refs are left out.
func OpenStore(ctx context.Context, st snapshot.Store, opts Options) (*DB, error) {
	infos, err := st.List(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("list store: %w", err)
	}
	var snaps []snapshot.Ref
	heads := map[[2]string]bool{}
	for _, in := range infos {
		ref, rest, err := snapshot.ParseKey(in.Key)
		switch {
		case err != nil:
		case rest == schemas.ManifestFile && ref.Commit != "":
			snaps = append(snaps, ref)
		case strings.HasSuffix(in.Key, "/HEAD.json") && ref.Commit == "":
			heads[[2]string{ref.Repo, ref.Branch}] = true
		}
	}
	if len(snaps) == 0 {
		return nil, errors.New("no snapshot in the store: run `snap index` or `snap pull` first")
	}
	db, err := newDB(opts)
	if err != nil {
		return nil, err
	}
	if err := db.loadStore(ctx, st, snaps, heads); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) loadStore(ctx context.Context, store snapshot.Store, snaps []snapshot.Ref, heads map[[2]string]bool) error {
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE heads (repo VARCHAR, branch VARCHAR, commit VARCHAR);
CREATE TEMP TABLE raw_manifests (manifest JSON)`); err != nil {
		return err
	}
	for rb := range heads {
		h, _, err := snapshot.ReadHead(ctx, store, rb[0], rb[1])
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO heads VALUES ($1, $2, $3)`, rb[0], rb[1], h.Commit); err != nil {
			return err
		}
	}
	st, err := newStage()
	if err != nil {
		return err
	}
	defer st.remove()
	made := map[string]bool{}
	for _, ref := range snaps {
		prefix, err := snapshot.Prefix(ref.Repo, ref.Branch, ref.Commit)
		if err != nil {
			return err
		}
		s, err := snapshot.Read(ctx, store, prefix, snapshot.ReadOptions{SkipSources: true, SkipRefs: true})
		if err != nil {
			return err
		}
		raw, err := json.Marshal(s.Manifest)
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO raw_manifests VALUES ($1)`, string(raw)); err != nil {
			return err
		}
		for name, write := range map[string]func() (string, error){
			"all_nodes": func() (string, error) { return put(st, s.Nodes, cleanNode) },
			"all_edges": func() (string, error) { return put(st, s.Edges, cleanEdge) },
			"all_files": func() (string, error) { return put(st, s.Files, cleanFile) },
		} {
			path, err := write()
			if err != nil {
				return fmt.Errorf("load %s: %w", name, err)
			}
			// The hive columns last, as read_parquet puts them.
			rows := "SELECT *, $1::VARCHAR AS branch, $2::VARCHAR AS commit, $3::VARCHAR AS repo FROM read_parquet(" + literal(path) + ")"
			stmt := "INSERT INTO " + name + " " + rows
			if !made[name] {
				stmt, made[name] = "CREATE TABLE "+name+" AS "+rows, true
			}
			if _, err := conn.ExecContext(ctx, stmt, ref.Branch, ref.Commit, ref.Repo); err != nil {
				return fmt.Errorf("load %s: %w", name, err)
			}
			os.Remove(path)
		}
	}
	// The manifests' fields become columns, as read_json makes them.
	var structure string
	if err := conn.QueryRowContext(ctx, `SELECT CAST(json_group_structure(manifest) AS VARCHAR) FROM raw_manifests`).Scan(&structure); err != nil {
		return fmt.Errorf("load manifests: %w", err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`CREATE TABLE manifests AS SELECT unnest(json_transform(manifest, '%s')) FROM temp.raw_manifests;
DROP TABLE temp.raw_manifests`, strings.ReplaceAll(structure, "'", "''"))); err != nil {
		return fmt.Errorf("load manifests: %w", err)
	}
	if _, err := conn.ExecContext(ctx, storeViews+storeMacros); err != nil {
		return fmt.Errorf("create views: %w", err)
	}
	return db.lockdown(ctx)
}
