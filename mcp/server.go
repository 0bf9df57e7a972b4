package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/graphsnap/snap/query"
)

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
}

// Server is an MCP server over a Registry's tools.
type Server struct {
	*server.MCPServer
	reg *Registry
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
	instructions := "snap answers structural questions about one snapshot of a repository's code graph: " +
		"find symbols (snap_search, snap_find_symbol), their callers and callees, the impact of a change, how two " +
		"symbols connect (snap_path), a file's outline and content. Select symbols by id when you have one."
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
		server.WithToolCapabilities(true), // snap_update_config may change a session's toolsets
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
	return &Server{MCPServer: srv, reg: reg}, nil
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

// maxRequestBody bounds the body of one HTTP request: the largest a call
// needs is a memory (1 MiB of content, escaped in JSON).
const maxRequestBody = 16 << 20

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	// Logger gets the transport's errors and the stop; never a header.
	Logger *slog.Logger
	// Token, when set, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"); a request without it gets 401. Set
	// it whenever the server listens beyond loopback.
	Token string
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
func ServeHTTP(ctx context.Context, s *Server, ln net.Listener, opt HTTPOptions) error {
	logger := opt.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := server.NewStreamableHTTPServer(s.MCPServer, server.WithStreamableHTTPLogger(logger))
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
				http.Error(w, "Unauthorized: send the server's token as Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
		}
		if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin) {
			http.Error(w, "Forbidden: requests from web pages of other origins are refused", http.StatusForbidden)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		if r.Method == http.MethodGet {
			rctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(streams, cancel)()
			r = r.WithContext(rctx)
		}
		h.ServeHTTP(w, r)
	}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	hs.RegisterOnShutdown(endStreams)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
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
