//go:build !(cgo && (duckdb_use_lib || duckdb_use_static_lib || (linux && (amd64 || arm64)) || (darwin && (amd64 || arm64)) || (windows && amd64)))

package snapsql

import (
	"context"
	"errors"
	"testing"
)

// TestUnavailable: a build without DuckDB says so, from every
// constructor.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	if _, err := Load(ctx, nil, Options{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Load: %v", err)
	}
	if _, err := Open(ctx, nil, "", Options{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Open: %v", err)
	}
	if _, err := OpenEngine(ctx, nil, Options{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("OpenEngine: %v", err)
	}
	if _, err := OpenStore(ctx, nil, Options{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("OpenStore: %v", err)
	}
}
