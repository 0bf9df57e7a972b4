package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapsql"
)

// ToolsetSQL holds snap_sql, SQL over the snapshot's tables. It is off
// by default: the tables it queries are a second copy of the snapshot in
// memory, made at its first call.
const ToolsetSQL = "sql"

// Bounds of snap_sql's queries.
const (
	sqlMaxRows = 500
	sqlTimeout = 5 * time.Second
)

type sqlIn struct {
	Query string `json:"query" jsonschema:"one SELECT (WITH, FROM-first, DESCRIBE and SUMMARIZE too)"`
	budget
}

type sqlOut struct {
	header
	Columns []snapsql.Column `json:"columns"`
	Rows    [][]any          `json:"rows"`
	// More counts the rows left out to fit max_tokens; Truncated is set
	// when the query had more rows than the cap.
	More      int  `json:"more,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
}

// sqlDB is the DuckDB of the engine answering now, made in the
// background at the first snap_sql call that engine answers (a call that
// gives up waiting leaves it loading, for the next), and closed once
// another engine answers.
type sqlDB struct {
	mu   sync.Mutex
	e    *query.Engine
	load *sqlLoad
}

// sqlLoad is one DB being made; done is closed once db or err is set.
type sqlLoad struct {
	done chan struct{}
	db   *snapsql.DB
	err  error
}

// get returns the DB of e, waiting for it until ctx is done.
func (s *sqlDB) get(ctx context.Context, e *query.Engine) (*snapsql.DB, error) {
	s.mu.Lock()
	if l := s.load; l == nil || s.e != e || failed(l) {
		next := &sqlLoad{done: make(chan struct{})}
		s.e, s.load = e, next
		go func() {
			next.db, next.err = snapsql.OpenEngine(context.Background(), e, snapsql.Options{MaxRows: sqlMaxRows, Timeout: sqlTimeout})
			close(next.done)
		}()
		if l != nil {
			go func() {
				if <-l.done; l.db != nil {
					l.db.Close() // waits for the queries under way
				}
			}()
		}
	}
	l := s.load
	s.mu.Unlock()
	select {
	case <-l.done: // loaded: answer, whatever ctx says
		return l.db, l.err
	default:
	}
	select {
	case <-l.done:
		return l.db, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// failed reports whether l is done, and failed.
func failed(l *sqlLoad) bool {
	select {
	case <-l.done:
		return l.err != nil
	default:
		return false
	}
}

// sqlFallback serves calls made outside a registry's context.
var sqlFallback sqlDB

var sqlTool = waiting(newTool(
	"snap_sql", "SQL", ToolsetSQL,
	"Read-only SQL (DuckDB) over the snapshot's tables, for questions no other tool anticipates. One SELECT per call; "+
		fmt.Sprintf("at most %d rows, %s, and max_tokens. Tables:\n", sqlMaxRows, sqlTimeout)+snapsql.Schema+"\n"+
		"Examples: SELECT n.qualified_name, count(*) AS callers FROM edges e JOIN nodes n ON n.id = e.dst "+
		"WHERE e.kind = 'calls' GROUP BY ALL ORDER BY callers DESC LIMIT 10\n"+
		"WITH RECURSIVE r(id, depth) AS (SELECT id, 0 FROM nodes WHERE qualified_name = 'main.run' "+
		"UNION SELECT e.dst, r.depth + 1 FROM r JOIN edges e ON e.src = r.id WHERE e.kind = 'calls' AND e.dst <> 0 AND r.depth < 3) "+
		"SELECT n.qualified_name, min(depth) AS depth FROM r JOIN nodes n USING (id) GROUP BY ALL ORDER BY depth",
	func(ctx context.Context, e *query.Engine, in *sqlIn) (*sqlOut, *ToolError) {
		if in.Query == "" {
			return nil, argErr("query", "give one SELECT")
		}
		tokens, terr := in.tokens(DefaultMaxTokens)
		if terr != nil {
			return nil, terr
		}
		cache := &sqlFallback
		if r := registryFrom(ctx); r != nil {
			cache = &r.sql
		}
		db, err := cache.get(ctx, e)
		if err != nil && ctx.Err() != nil {
			return nil, toolErr(CodeIndexNotReady, nil, "the snapshot's tables are still loading for SQL: ask again in a few seconds")
		} else if err != nil {
			return nil, toolErr(CodeIndexNotReady, nil, "load the tables: %v", err)
		}
		res, err := db.Query(ctx, in.Query)
		switch {
		case errors.Is(err, snapsql.ErrTimeout):
			return nil, limitErr("query", int(sqlTimeout/time.Second), "%v", err)
		case err != nil:
			return nil, argErr("query", "%v", err)
		}
		out := &sqlOut{Columns: res.Columns, Rows: make([][]any, len(res.Rows)), Truncated: res.Truncated}
		for i, row := range res.Rows {
			out.Rows[i] = make([]any, len(row))
			for j, v := range row {
				out.Rows[i][j] = snapsql.JSONValue(v)
			}
		}
		if out.More = fit(out, &out.Rows, tokens); out.More > 0 {
			out.Hint = fmt.Sprintf("%d more rows past max_tokens: narrow the query, or raise max_tokens", out.More)
		} else if out.Truncated {
			out.Hint = fmt.Sprintf("cut at %d rows: narrow the query (WHERE, LIMIT, GROUP BY)", sqlMaxRows)
		}
		return out, nil
	}))
