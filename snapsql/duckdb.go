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
	"strings"
	"time"
	"unicode/utf8"

	"github.com/duckdb/duckdb-go/v2"

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

// Table definitions, in the column order and types DuckDB gives the
// Parquet tables (read_parquet), so that a query reads the same here as
// over the files.
const (
	nodesDDL = `(id UBIGINT, kind VARCHAR, name VARCHAR, qualified_name VARCHAR, language VARCHAR, file VARCHAR,
  start_line UINTEGER, start_col UINTEGER, end_line UINTEGER, end_col UINTEGER, start_byte UINTEGER, end_byte UINTEGER,
  parent_id UBIGINT, signature VARCHAR, doc VARCHAR, visibility VARCHAR, exported BOOLEAN, is_async BOOLEAN,
  is_static BOOLEAN, is_abstract BOOLEAN, is_test BOOLEAN, decorators VARCHAR[], body_hash UBIGINT`
	edgesDDL = `(src UBIGINT, dst UBIGINT, kind VARCHAR, file VARCHAR, line UINTEGER, col UINTEGER, target VARCHAR,
  resolution VARCHAR, confidence FLOAT, reason VARCHAR, args VARCHAR, in_loop BOOLEAN, in_try BOOLEAN,
  conditional BOOLEAN, src_row INTEGER, dst_row INTEGER`
	filesDDL = `(path VARCHAR, language VARCHAR, sha256 VARCHAR, size BIGINT, lines UINTEGER, status VARCHAR,
  error VARCHAR, is_test BOOLEAN, is_generated BOOLEAN`
	sourcesDDL = `(path VARCHAR, content BLOB`
	refsDDL    = `(file VARCHAR, src UBIGINT, kind VARCHAR, target VARCHAR, expr VARCHAR, line UINTEGER, col UINTEGER,
  args VARCHAR, in_loop BOOLEAN, in_try BOOLEAN, conditional BOOLEAN`
	// hiveDDL ends a table of every snapshot: the partition columns,
	// where read_parquet puts them.
	hiveDDL = `, branch VARCHAR, commit VARCHAR, repo VARCHAR)`
)

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
// DB (see Load).
func Open(ctx context.Context, st snapshot.Store, prefix string, opts Options) (*DB, error) {
	s, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{})
	if err != nil {
		return nil, err
	}
	return Load(ctx, s, opts)
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
	tables := []struct {
		name, ddl string
		rows      int
		row       func(i int) []driver.Value
	}{
		{"nodes", nodesDDL + ")", len(s.Nodes), func(i int) []driver.Value { return nodeRow(&s.Nodes[i]) }},
		{"edges", edgesDDL + ")", len(s.Edges), func(i int) []driver.Value { return edgeRow(&s.Edges[i]) }},
		{"files", filesDDL + ")", len(s.Files), func(i int) []driver.Value { return fileRow(&s.Files[i]) }},
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
		tables = append(tables, struct {
			name, ddl string
			rows      int
			row       func(i int) []driver.Value
		}{"sources", sourcesDDL + ")", len(srcs), func(i int) []driver.Value {
			return []driver.Value{clean(srcs[i].Path), srcs[i].Content}
		}})
	}
	if s.Refs != nil {
		tables = append(tables, struct {
			name, ddl string
			rows      int
			row       func(i int) []driver.Value
		}{"refs", refsDDL + ")", len(s.Refs), func(i int) []driver.Value { return refRow(&s.Refs[i]) }})
	}
	for _, t := range tables {
		if err := appendRows(ctx, conn, t.name, t.ddl, t.rows, t.row); err != nil {
			return err
		}
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

// appendRows creates table name and fills it with n rows.
func appendRows(ctx context.Context, conn *sql.Conn, name, ddl string, n int, row func(i int) []driver.Value) error {
	if _, err := conn.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+name+" "+ddl); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return conn.Raw(func(dc any) error {
		a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", name)
		if err != nil {
			return fmt.Errorf("load %s: %w", name, err)
		}
		for i := range n {
			if i%65536 == 0 && ctx.Err() != nil {
				a.Close()
				return ctx.Err()
			}
			if err := a.AppendRow(row(i)...); err != nil {
				a.Close()
				return fmt.Errorf("load %s: row %d: %w", name, i, err)
			}
		}
		if err := a.Close(); err != nil {
			return fmt.Errorf("load %s: %w", name, err)
		}
		return nil
	})
}

// clean makes s valid UTF-8, as DuckDB's VARCHAR must be: a snapshot's
// strings are the source's bytes, which need not be (a signature holding
// "\xff"); each invalid byte becomes U+FFFD.
func clean(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func nodeRow(n *schemas.Node) []driver.Value {
	dec := make([]string, len(n.Decorators))
	for i, d := range n.Decorators {
		dec[i] = clean(d)
	}
	return []driver.Value{n.ID, clean(n.Kind), clean(n.Name), clean(n.QualifiedName), clean(n.Language), clean(n.File),
		n.StartLine, n.StartCol, n.EndLine, n.EndCol, n.StartByte, n.EndByte,
		n.ParentID, clean(n.Signature), clean(n.Doc), clean(n.Visibility), n.Exported, n.IsAsync,
		n.IsStatic, n.IsAbstract, n.IsTest, dec, n.BodyHash}
}

func edgeRow(e *schemas.Edge) []driver.Value {
	return []driver.Value{e.Src, e.Dst, clean(e.Kind), clean(e.File), e.Line, e.Col, clean(e.Target),
		clean(e.Resolution), e.Confidence, clean(e.Reason), clean(e.Args), e.InLoop, e.InTry,
		e.Conditional, e.SrcRow, e.DstRow}
}

func fileRow(f *schemas.File) []driver.Value {
	return []driver.Value{clean(f.Path), clean(f.Language), f.SHA256, f.Size, f.Lines, clean(f.Status),
		clean(f.Error), f.IsTest, f.IsGenerated}
}

func refRow(r *schemas.Ref) []driver.Value {
	return []driver.Value{clean(r.File), r.Src, clean(r.Kind), clean(r.Target), clean(r.Expr), r.Line, r.Col,
		clean(r.Args), r.InLoop, r.InTry, r.Conditional}
}

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
		vals := make([]any, len(types))
		ptrs := make([]any, len(types))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			vals[i] = plain(v)
		}
		res.Rows = append(res.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, db.stopped(ctx, err)
	}
	return res, nil
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

func (db *DB) loadStore(ctx context.Context, st snapshot.Store, snaps []snapshot.Ref, heads map[[2]string]bool) error {
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
		h, _, err := snapshot.ReadHead(ctx, st, rb[0], rb[1])
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO heads VALUES ($1, $2, $3)`, rb[0], rb[1], h.Commit); err != nil {
			return err
		}
	}
	for _, ref := range snaps {
		prefix, err := snapshot.Prefix(ref.Repo, ref.Branch, ref.Commit)
		if err != nil {
			return err
		}
		s, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{SkipSources: true, SkipRefs: true})
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
		hive := []driver.Value{ref.Branch, ref.Commit, ref.Repo}
		for _, t := range []struct {
			name, ddl string
			rows      int
			row       func(i int) []driver.Value
		}{
			{"all_nodes", nodesDDL + hiveDDL, len(s.Nodes), func(i int) []driver.Value { return append(nodeRow(&s.Nodes[i]), hive...) }},
			{"all_edges", edgesDDL + hiveDDL, len(s.Edges), func(i int) []driver.Value { return append(edgeRow(&s.Edges[i]), hive...) }},
			{"all_files", filesDDL + hiveDDL, len(s.Files), func(i int) []driver.Value { return append(fileRow(&s.Files[i]), hive...) }},
		} {
			if err := appendRows(ctx, conn, t.name, t.ddl, t.rows, t.row); err != nil {
				return err
			}
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
