//go:build !(cgo && (duckdb_use_lib || duckdb_use_static_lib || (linux && (amd64 || arm64)) || (darwin && (amd64 || arm64)) || (windows && amd64)))

package snapsql

import (
	"context"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
)

// Available reports whether this build holds DuckDB.
const Available = false

// DB is a DuckDB of snapshot tables; this build has none.
type DB struct{}

// Load returns ErrUnavailable: this build has no DuckDB.
func Load(context.Context, *snapshot.Snapshot, Options) (*DB, error) { return nil, ErrUnavailable }

// Open returns ErrUnavailable: this build has no DuckDB.
func Open(context.Context, snapshot.Store, string, Options) (*DB, error) {
	return nil, ErrUnavailable
}

// OpenEngine returns ErrUnavailable: this build has no DuckDB.
func OpenEngine(context.Context, *query.Engine, Options) (*DB, error) { return nil, ErrUnavailable }

// OpenStore returns ErrUnavailable: this build has no DuckDB.
func OpenStore(context.Context, snapshot.Store, Options) (*DB, error) { return nil, ErrUnavailable }

// Query returns ErrUnavailable.
func (*DB) Query(context.Context, string) (*Result, error) { return nil, ErrUnavailable }

// Close does nothing.
func (*DB) Close() error { return nil }
