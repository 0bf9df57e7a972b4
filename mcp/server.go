package mcp

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"golang.org/x/net/netutil"

	"github.com/graphsnap/snap/query"
)

// Instructions tell an agent where to start; the server sends them at
// initialize.
const Instructions = "snap answers questions about a repository's code graph from an index. " +
	"Do not know the names yet: snap_context with the task in words. Know a name: snap_search, then snap_symbol. " +
	"A file: snap_symbols_overview. Who calls or what breaks: snap_calls, snap_impact, snap_find_references. " +
	"Give a symbol back by its qname. Long lists end with next_cursor; tests are counted apart. " +
	"snap_config adds toolsets (files, graph, history, memories)."

// Options configure an MCP server.
type Options struct {
	Name     string       // server name announced to clients; "snap" if empty
	Version  string       // server version announced to clients
	Toolsets []string     // toolsets to offer; every one if empty
	Logger   *slog.Logger // one line per request if set; it must not write to stdout when serving stdio
	// LoadWait is how long a tool call waits for the holder's first
	// engine while the server starts (see Registry.LoadWait).
	LoadWait time.Duration
	// Sync, when set, is reported by snap_status and run by snap_sync.
	Sync Syncer
	// Library, when set, gives the history tools the branch's other
	// snapshots.
	Library Library
	// Memories is the folder the memory tools keep their notes in; ""
	// keeps none.
	Memories string
	// Repos, for a server whose engine joins several repositories, names
	// them: the tools then take a repo argument (see WithRepos).
	Repos []string
	// MaxToolsets bounds the toolsets a client may choose with
	// snap_update_config (every toolset when empty); it starts with
	// Toolsets.
	MaxToolsets []string
	// ReadOnly leaves out every tool that writes: the memory tools that
	// do, and snap_update_config.
	ReadOnly bool
	// NoSyncTool has snap_status report on Sync but offers no snap_sync:
	// the server syncs with no store (snap serve without --sync).
	NoSyncTool bool
	// MaxRequestBytes bounds one message: a line on stdin, a request
	// body over HTTP. DefaultMaxRequestBytes when 0.
	MaxRequestBytes int
	// CallTimeout bounds each tool call (see Registry.CallTimeout).
	// DefaultCallTimeout when 0; none when negative.
	CallTimeout time.Duration
}

// Server is an MCP server over a Registry's tools.
type Server struct {
	*server.MCPServer
	reg        *Registry
	maxRequest int // bytes of one message
}

// NewServer returns an MCP server offering the tools of opt.Toolsets over
// the engine h holds at each call. Tools answer through Registry.CallJSON,
// as `snap query` does; their results carry the answer as JSON text and as
// structured content.
func NewServer(h *query.Holder, opt Options) (*Server, error) {
	reg, err := NewRegistry(h, opt.Toolsets...)
	if err != nil {
		return nil, err
	}
	if err := reg.Offer(opt.ReadOnly, opt.MaxToolsets...); err != nil {
		return nil, err
	}
	reg.LoadWait = opt.LoadWait
	reg.CallTimeout = max(cmp.Or(opt.CallTimeout, DefaultCallTimeout), 0)
	switch {
	case opt.Sync != nil && opt.NoSyncTool:
		reg.WithSyncStatus(opt.Sync)
	case opt.Sync != nil:
		reg.WithSyncer(opt.Sync)
	}
	reg.WithMemories(opt.Memories)
	if opt.Library != nil {
		reg.WithLibrary(opt.Library)
	}
	instructions := Instructions
	if opt.Repos != nil {
		reg.WithRepos(opt.Repos)
		instructions += " This server joins several repositories (" + strings.Join(opt.Repos, ", ") + "): every path " +
			"begins with its repository's name, search spans them all, repo narrows a lookup to one, and callers and " +
			"impact cross from one repository into another."
	}
	name := opt.Name
	if name == "" {
		name = "snap"
	}
	// Every tool a session may be offered is the server's; each session
	// sees and calls those of its own view (see sessions.go), which goes
	// when the session ends.
	hooks := &server.Hooks{}
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) { reg.forget(s.SessionID()) })
	sopts := []server.ServerOption{
		server.WithToolCapabilities(true), // snap_config may change a session's toolsets
		server.WithResourceCapabilities(false, false),
		server.WithRecovery(),
		server.WithInstructions(instructions),
		server.WithHooks(hooks),
		server.WithToolFilter(func(ctx context.Context, tools []mcpgo.Tool) []mcpgo.Tool {
			v := reg.viewOf(ctx)
			offered := make([]mcpgo.Tool, 0, len(v.tools))
			for _, t := range tools {
				if _, ok := v.tool(t.Name); ok {
					offered = append(offered, t)
				}
			}
			return offered
		}),
	}
	if opt.Logger != nil {
		sopts = append(sopts, server.WithLogger(opt.Logger))
	}
	srv := server.NewMCPServer(name, opt.Version, sopts...)
	serverTools := func(tools []*Tool) []server.ServerTool {
		st := make([]server.ServerTool, len(tools))
		for i, t := range tools {
			st[i] = server.ServerTool{Tool: mcpTool(t), Handler: handler(reg, t.Name)}
		}
		return st
	}
	srv.AddTools(serverTools(reg.allTools())...)
	reg.mu.Lock()
	reg.notify = func(ctx context.Context) {
		// Only the session whose tools changed is told; one that has not
		// initialized yet has not listed them.
		srv.SendNotificationToClient(ctx, string(mcpgo.MethodNotificationToolsListChanged), nil)
	}
	reg.mu.Unlock()
	addResources(srv, reg)
	return &Server{MCPServer: srv, reg: reg, maxRequest: cmp.Or(opt.MaxRequestBytes, DefaultMaxRequestBytes)}, nil
}

func mcpTool(t *Tool) mcpgo.Tool {
	no := false
	readOnly, destructive, idempotent := !t.Writes, t.Destroys, !t.Cumulative
	return mcpgo.Tool{
		Name:            t.Name,
		Title:           t.Title,
		Description:     t.Description,
		RawInputSchema:  t.InputSchema,
		RawOutputSchema: t.OutputSchema,
		Annotations: mcpgo.ToolAnnotation{
			Title:           t.Title,
			ReadOnlyHint:    &readOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  &idempotent,
			OpenWorldHint:   &no,
		},
	}
}

func handler(reg *Registry, name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		args := req.Params.RawArguments // as sent: ids keep all 64 bits
		if len(args) == 0 && req.Params.Arguments != nil {
			var err error
			if args, err = json.Marshal(req.Params.Arguments); err != nil {
				return nil, err
			}
		}
		out, isError := reg.CallJSON(ctx, name, args)
		return &mcpgo.CallToolResult{
			Content:           []mcpgo.Content{mcpgo.NewTextContent(string(out))},
			StructuredContent: json.RawMessage(out),
			IsError:           isError,
		}, nil
	}
}

// HTTP bounds: what one connection, or a client that never sends a
// whole request, may hold.
const (
	// DefaultMaxConnections bounds the connections open at once.
	DefaultMaxConnections = 512
	// DefaultReadTimeout bounds the reading of one request, its header
	// and its body.
	DefaultReadTimeout = 30 * time.Second
	// DefaultIdleTimeout bounds how long a connection waits for its next
	// request.
	DefaultIdleTimeout = time.Minute
	// DefaultSessionIdleTTL ends a session that sent nothing for that
	// long: its id then answers 404, and its settings are gone.
	DefaultSessionIdleTTL = time.Hour
	// headerTimeout bounds the reading of a request's header.
	headerTimeout = 10 * time.Second
)

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	// Logger gets the transport's errors and the stop; never a header.
	Logger *slog.Logger
	// Token, when set, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"); a request without it gets 401. Set
	// it whenever the server listens beyond loopback.
	Token string
	// MaxConnections bounds the connections open at once; past it, new
	// ones wait to be accepted. DefaultMaxConnections when 0.
	MaxConnections int
	// ReadTimeout bounds the reading of a request, its header (at most
	// 10 s) and its body; IdleTimeout, a connection's wait for its next
	// request; SessionIdleTTL, a session's silence. Their defaults when
	// 0. Nothing bounds an answer's stream.
	ReadTimeout, IdleTimeout, SessionIdleTTL time.Duration
}

// ServeHTTP serves srv over MCP's streamable HTTP transport at path /mcp
// on ln, many sessions at once over the same engine, until ctx is done;
// then it shuts down, letting requests in flight finish for a few
// seconds. Event streams (GET) end at once: a client holding one open
// must not keep the server from stopping.
//
// Every request must carry opt.Token when one is set (compared in
// constant time). A request with an Origin header (a browser's) is served
// only when that origin is on this machine (localhost, a loopback
// address), so a web page elsewhere cannot drive the tools; and over
// loopback, requests must name a loopback host (DNS rebinding protection).
//
// Connections are bounded in number and in time (see HTTPOptions), and
// a body in size (Options.MaxRequestBytes: 413 past it); every message is
// screened as over stdio (see screen). Sessions have ids only the server
// makes, so that no client can reach another's session or its settings.
func ServeHTTP(ctx context.Context, s *Server, ln net.Listener, opt HTTPOptions) error {
	logger := opt.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	readTimeout := cmp.Or(opt.ReadTimeout, DefaultReadTimeout)
	h := server.NewStreamableHTTPServer(s.MCPServer, server.WithStreamableHTTPLogger(logger),
		server.WithSessionIdManager(&sessionIDs{}), server.WithSessionIdleTTL(cmp.Or(opt.SessionIdleTTL, DefaultSessionIdleTTL)))
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	want := sha256.Sum256([]byte(opt.Token))
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if opt.Token != "" {
			scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
			got := sha256.Sum256([]byte(strings.TrimSpace(token)))
			if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="snap"`)
				w.Header().Set("Connection", "close") // no idle connection is kept for whoever has no token
				http.Error(w, "Unauthorized: send the server's token as Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
		}
		if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin) {
			http.Error(w, "Forbidden: requests from web pages of other origins are refused", http.StatusForbidden)
			return
		}
		switch r.Method {
		case http.MethodPost:
			body, status, rej := s.readBody(w, r, readTimeout)
			if rej == nil {
				_, rej = screen(body)
				status = http.StatusOK
				if rej != nil && (rej.Error.Code == mcpgo.PARSE_ERROR || rej.Error.Code == mcpgo.INVALID_REQUEST) {
					status = http.StatusBadRequest // not a request: no JSON-RPC answer has an id to go with
				}
			}
			if rej != nil {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				json.NewEncoder(w).Encode(rej)
				return
			}
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		case http.MethodGet:
			rctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(streams, cancel)()
			r = r.WithContext(rctx)
		}
		h.ServeHTTP(w, r)
	}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: min(headerTimeout, readTimeout),
		IdleTimeout: cmp.Or(opt.IdleTimeout, DefaultIdleTimeout), MaxHeaderBytes: 64 << 10}
	hs.RegisterOnShutdown(endStreams)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(netutil.LimitListener(ln, cmp.Or(opt.MaxConnections, DefaultMaxConnections))) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	h.Shutdown(sctx)
	if err := hs.Shutdown(sctx); err != nil {
		// The stop was asked for: requests still running after the grace
		// period are cut, and that is worth a warning, not a failure.
		logger.Warn("closing connections still busy after the grace period", "err", err)
		hs.Close()
	}
	return nil
}

// readBody reads a POST's body, of at most the server's bound, within
// timeout: the client that sends it slowly, or sends more, holds no
// connection long. Past the bound the answer is 413, past the time 408,
// with the JSON-RPC error to write.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, timeout time.Duration) ([]byte, int, *mcpgo.JSONRPCError) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(timeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(s.maxRequest)))
	if err != nil {
		// The rest of the body is not read: the connection closes.
		w.Header().Set("Connection", "close")
		if errors.As(err, new(*http.MaxBytesError)) {
			return nil, http.StatusRequestEntityTooLarge, tooLarge(s.maxRequest)
		}
		return nil, http.StatusRequestTimeout, rpcError(nil, mcpgo.INVALID_REQUEST,
			fmt.Sprintf("the request's body did not arrive whole within %v", timeout), nil)
	}
	rc.SetReadDeadline(time.Time{}) // the answer may stream for as long as it takes
	return body, 0, nil
}

// sessionIDs makes the ids of HTTP sessions, and knows them: a request
// naming an id it did not make, or one that ended, gets 404, so that a
// client can neither make up a session nor reach another's. An id is
// forgotten when its session ends (DELETE, or idle past SessionIdleTTL).
type sessionIDs struct{ live sync.Map }

func (m *sessionIDs) Generate() string {
	id := "snap-" + rand.Text()
	m.live.Store(id, struct{}{})
	return id
}

func (m *sessionIDs) Validate(id string) (isTerminated bool, err error) {
	if _, ok := m.live.Load(id); !ok {
		return false, errors.New("no such session: initialize a new one")
	}
	return false, nil
}

func (m *sessionIDs) Terminate(id string) (isNotAllowed bool, err error) {
	m.live.Delete(id)
	return false, nil
}

// allowedOrigin reports whether a browser request from origin may reach
// the server: only a page served from this machine (localhost, a loopback
// address) may, such as a local inspector. The server serves no page of
// its own, so no other origin is one of its clients.
func allowedOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return false // "null" (a sandboxed page, a file), or not a web origin
	}
	if h := u.Hostname(); strings.EqualFold(h, "localhost") {
		return true
	} else if ip, err := netip.ParseAddr(h); err == nil && ip.IsLoopback() {
		return true
	}
	return false
}
