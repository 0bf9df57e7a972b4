package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

// An Endpoint is where Run answers: streamable HTTP at /mcp on Listener
// when it is set, else the protocol over Stdin and Stdout.
type Endpoint struct {
	Listener net.Listener
	HTTP     mcp.HTTPOptions
	Stdin    io.Reader
	Stdout   io.Writer
}

// Run serves the MCP tools opts describes over ep, from what cfg names,
// until ctx is done. It finds the snapshot first (Start), so that a
// wrong configuration fails before anything is served: that error is
// returned as Start returns it. It then answers the protocol while the
// snapshot loads; tool calls wait for the engine up to opts.LoadWait
// instead of failing. A load that fails stops the server, and is what
// Run returns, as a *LoadError; a ctx done (a signal) is a clean stop.
func Run(ctx context.Context, cfg Config, opts mcp.Options, ep Endpoint) error {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	h := &query.Holder{Warm: true} // the first snap_context should not wait 2 s
	sv, err := Start(ctx, h, cfg)
	if err != nil {
		return err
	}
	// No sv.Close: the server stops with ctx, and need not wait for a
	// load under way.
	go func() {
		if err := sv.Ready(ctx); err != nil && ctx.Err() == nil {
			cancel(&LoadError{err})
		}
	}()
	srv, err := mcp.NewServer(h, sv.Options(opts))
	if err != nil {
		return err
	}
	if ep.Listener != nil {
		cfg.Logger.Info("serving MCP over streamable HTTP", "url", "http://"+ep.Listener.Addr().String()+"/mcp")
		err = mcp.ServeHTTP(ctx, srv, ep.Listener, ep.HTTP)
	} else {
		err = mcp.ServeStdio(ctx, srv, ep.Stdin, ep.Stdout, cfg.Logger)
	}
	var le *LoadError
	if errors.As(context.Cause(ctx), &le) {
		return le
	}
	return err
}

// A LoadError is the error a server stopped with because its snapshot
// could not be loaded; its message is the load's.
type LoadError struct{ Err error }

func (e *LoadError) Error() string { return e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// MinTokenLen is the shortest bearer token a server takes: long enough
// that it cannot be guessed over the network.
const MinTokenLen = 16

// CheckListen refuses to listen on addr beyond loopback without a bearer
// token: the tools read the whole code graph and the memories. A token,
// when given, must be long enough wherever the server listens.
func CheckListen(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: --http %s: %v (give HOST:PORT, e.g. 127.0.0.1:8080)", addr, err)
	}
	if token != "" && len(token) < MinTokenLen {
		return fmt.Errorf("serve: the token (--token or SNAP_TOKEN) has %d characters, want at least %d: make one with `openssl rand -hex 32`", len(token), MinTokenLen)
	}
	if token != "" || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("serve: --http %s listens beyond this machine, where anyone who reaches it could read the code graph: "+
		"set a bearer token in SNAP_TOKEN (or pass --token; make one with `openssl rand -hex 32`), or listen on 127.0.0.1:PORT", addr)
}

// Toolsets are the toolsets names offers (mcp.Toolsets), in their
// order; every one (nil) when names holds "all". An unknown name is an
// error.
func Toolsets(names []string) ([]string, error) {
	var sets []string
	for _, ts := range names {
		switch {
		case ts == "all":
		case !slices.Contains(mcp.Toolsets, ts):
			return nil, fmt.Errorf("serve: unknown toolset %q (have %s, or all)", ts, strings.Join(mcp.Toolsets, ", "))
		case !slices.Contains(names, "all"):
			sets = append(sets, ts)
		}
	}
	return sets, nil
}
