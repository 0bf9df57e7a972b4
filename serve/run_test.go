package serve

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"strings"
	"testing"

	"github.com/graphsnap/snap/ci"
	"github.com/graphsnap/snap/mcp"
)

// TestRunStopsOnLoadError: a snapshot that cannot be loaded stops the
// server with a LoadError, while a Config that names nothing fails
// before anything is served.
func TestRunStopsOnLoadError(t *testing.T) {
	stdin, w := io.Pipe() // never closed: only the load's failure stops Run
	defer w.Close()
	empty := newStore(t, t.TempDir())
	ep := Endpoint{Stdin: stdin, Stdout: io.Discard}
	err := Run(context.Background(), Config{Snapshot: &ci.Source{Store: empty, Label: "nothing"}}, mcp.Options{}, ep)
	var le *LoadError
	if !errors.As(err, &le) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Run of a missing snapshot: %v, want a LoadError of the missing manifest", err)
	}
	if err := Run(context.Background(), Config{}, mcp.Options{}, ep); err == nil || errors.As(err, &le) {
		t.Errorf("Run of nothing: %v, want Start's error", err)
	}
}

func TestCheckListen(t *testing.T) {
	token := strings.Repeat("t", MinTokenLen)
	for _, tc := range []struct {
		addr, token, want string // want: "" for no error, else part of it
	}{
		{"127.0.0.1:8080", "", ""},
		{"[::1]:0", "", ""},
		{"localhost:8080", "", ""},
		{"0.0.0.0:8080", token, ""},
		{"0.0.0.0:8080", "", "listens beyond this machine"},
		{"127.0.0.1:8080", "short", "has 5 characters, want at least 16"},
		{"8080", "", "give HOST:PORT"},
	} {
		err := CheckListen(tc.addr, tc.token)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckListen(%q, %q) = %v, want %q", tc.addr, tc.token, err, tc.want)
		}
	}
}

func TestToolsets(t *testing.T) {
	a, b := mcp.Toolsets[0], mcp.Toolsets[1]
	if got, err := Toolsets([]string{b, a}); err != nil || strings.Join(got, ",") != b+","+a {
		t.Errorf("Toolsets(%s, %s) = %q, %v", b, a, got, err)
	}
	if got, err := Toolsets([]string{a, "all"}); err != nil || got != nil {
		t.Errorf("Toolsets with all = %q, %v; want every one (nil)", got, err)
	}
	if _, err := Toolsets([]string{"all", "nope"}); err == nil || !strings.Contains(err.Error(), `unknown toolset "nope"`) {
		t.Errorf("Toolsets of an unknown name: %v", err)
	}
}

// TestChooseFollow follows the branch the store has; with the store
// down, the cache's, saying so; a branch missing from a store that
// answers is the caller's to fix, not a reason to fall back.
func TestChooseFollow(t *testing.T) {
	ctx := context.Background()
	cache := localStore(t, "cache")
	publish(t, cache, copyFixture(t, "go/shop"), "example/shop", "main", commit(0))
	var logs strings.Builder
	down := Config{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Remote: ci.Store{Store: brokenStore{cache.Store}, Label: "down"}, Cache: cache}
	if err := down.ChooseFollow(ctx, "example/shop", "main", true, false); err != nil || *down.Follow != (Repo{"example/shop", "main"}) {
		t.Errorf("store down: follow %+v, %v; want the cache's main", down.Follow, err)
	}
	if !strings.Contains(logs.String(), "serving from the local cache") {
		t.Errorf("store down: logged %q, want a warning", logs.String())
	}
	down.Cache = localStore(t, "empty")
	if err := down.ChooseFollow(ctx, "example/shop", "main", true, false); err == nil || !strings.HasSuffix(err.Error(), "(and empty holds no snapshot to serve meanwhile)") {
		t.Errorf("store down, cache empty: %v", err)
	}
	up := Config{Remote: ci.Store{Store: cache.Store, Label: "remote"}, Cache: localStore(t, "other")}
	var ce ci.ConfigError
	if err := up.ChooseFollow(ctx, "example/shop", "dev", false, true); !errors.As(err, &ce) {
		t.Errorf("a branch the store lacks: %v, want a ci.ConfigError", err)
	}
}
