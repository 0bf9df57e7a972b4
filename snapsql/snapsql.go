// Package snapsql answers read-only SQL over snapshots through an
// embedded DuckDB.
//
// A DB holds one snapshot's tables (Load, Open, OpenEngine) or every
// snapshot of a store with its hive columns repo, branch and commit
// (OpenStore), in memory: the rows are loaded before any query runs, and
// DuckDB is then locked (see lockdown), so that no query reaches a file,
// the network or an extension, and none changes a setting. A DB answers
// one SELECT per Query, within a row cap and a time limit.
//
// docs/sql.md documents the tables, their columns and the helper macros.
//
// The engine is linked where DuckDB's Go bindings exist (linux and darwin
// on amd64 and arm64, windows on amd64, with cgo); elsewhere every
// constructor returns ErrUnavailable.
package snapsql

import (
	"errors"
	"time"
)

// ErrUnavailable is returned by every constructor in a build without
// DuckDB.
var ErrUnavailable = errors.New("SQL is not in this build of snap: DuckDB's bindings exist for linux and darwin (amd64, arm64) and windows (amd64), built with cgo")

// ErrRefused wraps the error of a query that is not one SELECT statement.
var ErrRefused = errors.New("refused")

// ErrTimeout wraps the error of a query stopped at Options.Timeout.
var ErrTimeout = errors.New("time limit")

// Defaults of Options.
const (
	DefaultMaxRows   = 1000
	DefaultTimeout   = 10 * time.Second
	DefaultMaxMemory = "2GB"
	DefaultThreads   = 2
)

// Options bound what one query may take.
type Options struct {
	// MaxRows is the most rows a query answers; past it the answer is
	// cut and says so (Result.Truncated). 0 means DefaultMaxRows.
	MaxRows int
	// Timeout bounds each query; past it DuckDB is interrupted. 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxMemory is DuckDB's memory_limit ("2GB"); "" means
	// DefaultMaxMemory. Loading the tables counts towards it.
	MaxMemory string
	// Threads is DuckDB's threads setting; 0 means DefaultThreads.
	Threads int
	// For, when set, is the one query the DB is opened for: Open then
	// leaves out the sources and refs tables unless the query names them
	// (DuckDB's parser says which tables it names), which spares the
	// largest part of a load.
	For string
}

func (o Options) withDefaults() Options {
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxMemory == "" {
		o.MaxMemory = DefaultMaxMemory
	}
	if o.Threads <= 0 {
		o.Threads = DefaultThreads
	}
	return o
}

// Column is one column of an answer: its name and DuckDB type.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Result is the answer to one query. Each row holds one value per
// column, as Value returns it.
type Result struct {
	Columns []Column
	Rows    [][]any
	// Truncated is set when the query had more rows than the cap.
	Truncated bool
}

// Schema is the tables of one snapshot, as Load, Open and OpenEngine
// create them, in the words an agent reads (the MCP tool's description
// carries it). docs/sql.md says the same at length.
const Schema = `nodes(id, kind, name, qualified_name, language, file, start_line, start_col, end_line, end_col, start_byte, end_byte, parent_id, signature, doc, visibility, exported, is_async, is_static, is_abstract, is_test, decorators, body_hash): one row per symbol and per file (kind 'file').
edges(src, dst, kind, file, line, col, target, resolution, confidence, reason, args, in_loop, in_try, conditional, src_row, dst_row): kind is contains, calls, imports, extends, implements, references or instantiates; dst = 0 when unresolved (reason says why).
files(path, language, sha256, size, lines, status, error, is_test, is_generated); sources(path, content BLOB); refs(file, src, kind, target, expr, line, col, args, in_loop, in_try, conditional); manifest(repo, branch, commit, manifest JSON).
Ids (id, parent_id, src, dst) are UBIGINT; JSON answers write them as strings.
Macros: symbol(name) (by qualified or plain name), callers(id), callees(id), reach(id, depth) (what id calls, transitively), reached_by(id, depth) (what calls id, transitively).`
