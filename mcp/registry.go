// Package mcp is snap's tool catalog and its MCP server.
//
// Every tool is declared once, in a Registry, as a typed input struct (from
// which its JSON Schema is derived) and a handler over a query.Engine. The
// stdio MCP server and `snap query TOOL` both call tools through
// Registry.CallJSON, so they return the same bytes.
//
// Conventions, common to every tool:
//
//   - A symbol is selected by "id" (a JSON number or a decimal string) or
//     by "name" (a plain, dotted or qualified name) with an optional "file"
//     (a path or a path suffix). An ambiguous name fails with
//     AMBIGUOUS_SYMBOL listing the candidates; it is never guessed.
//   - Ids are 64-bit and answered as decimal strings: JSON numbers above
//     2^53 lose precision in many clients.
//   - Lists take "limit" (default 50; 0 or negative is INVALID_ARGUMENT,
//     above 1000 is clamped to 1000) and "cursor", an opaque token from a
//     previous answer's "next_cursor", valid for the same query on the same
//     snapshot only (PAGINATION_ERROR otherwise).
//   - Unknown arguments, missing required ones and wrong types are
//     INVALID_ARGUMENT naming the argument and saying what it takes.
//   - A string argument holds at most 4 KiB (a memory's text 256 KiB), a
//     list 100 items, a memory 256 KiB; a call that waits gives up after
//     Options.CallTimeout. Past a bound, a call is LIMIT_EXCEEDED, with
//     the bound ("limit") and the argument in its details, and nothing
//     of it done (see limits.go).
//   - Every answer names the snapshot's "commit"; an empty answer carries a
//     "hint", and so does an answer naming files that a working-tree
//     overlay indexed from the checkout (it names them). Errors are results
//     shaped {"error":{"code","message","details"}}, with the codes of
//     errors.go.
//   - Answers are compact JSON: empty fields are left out, locations read
//     "file:line:col".
//
// A session's settings (its toolsets, its page length) are its own: what
// one client changes with snap_update_config, no other sees; and no
// client chooses a toolset the server does not offer (Options.MaxToolsets),
// nor a tool that writes from a read-only server (Options.ReadOnly). Both
// transports screen every message as JSON-RPC 2.0 and MCP have it (see
// protocol.go), and bound its size (Options.MaxRequestBytes).
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapsql"
)

// Toolsets group tools so a client can keep its list short.
const (
	ToolsetIndex     = "index"     // status (and sync)
	ToolsetSymbols   = "symbols"   // search, symbol, symbols_overview, find_references
	ToolsetCallGraph = "callgraph" // calls
	ToolsetTraversal = "traversal" // impact, path, explore
	ToolsetFiles     = "files"     // read_file, list_dir, find_file
	// ToolsetGraph holds the tools past the everyday questions: map, rank,
	// dependencies, dependents, call_details, resolve_import, ask, verify.
	ToolsetGraph = "graph"
)

// Toolsets lists every toolset.
var Toolsets = []string{ToolsetIndex, ToolsetSymbols, ToolsetCallGraph, ToolsetTraversal, ToolsetContext, ToolsetFiles,
	ToolsetGraph, ToolsetHistory, ToolsetMemories, ToolsetCompat, ToolsetSQL}

// DefaultToolsets are the toolsets snap serve offers unless told
// otherwise: what most agents need, and a short tools/list (see
// docs/mcp.md; budget_test.go holds its size).
var DefaultToolsets = []string{ToolsetIndex, ToolsetSymbols, ToolsetCallGraph, ToolsetTraversal, ToolsetContext}

// Tool is one tool of the catalog.
type Tool struct {
	Name        string
	Title       string
	Description string
	Toolset     string
	// Input is a pointer to the zero value of the tool's input struct;
	// InputSchema is its JSON Schema.
	Input       any
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of a successful answer.
	OutputSchema json.RawMessage
	// Handler decodes and checks args (a JSON object) and answers from e.
	Handler func(ctx context.Context, e *query.Engine, args json.RawMessage) (any, *ToolError)

	// Offline tools answer without a snapshot (memories, settings);
	// their answers name the commit only when one is loaded.
	Offline bool
	// Writes marks a tool that changes something (a memory, a setting);
	// Destroys one that may remove what it cannot bring back. Every
	// other tool only reads.
	Writes, Destroys bool
	// Cumulative marks a writing tool whose second identical call does
	// more than its first (an edit by pattern).
	Cumulative bool
	// Waits marks a tool that may wait on a store or the network (a
	// sync, another snapshot): over stdio it runs beside the read loop,
	// not in it (see ServeStdio). Offline tools, on disk, count as waiting too.
	Waits bool

	schema *jsonschema.Schema
}

// Registry holds the tools a server or the CLI offers, over the engine a
// Holder publishes.
type Registry struct {
	holder *query.Holder

	// mu guards the fields below it up to LoadWait. Views are never
	// changed once made: a change makes a new one.
	mu sync.RWMutex
	// offered bounds the toolsets a session may choose (nil: every one):
	// the operator's choice, which no client goes past.
	offered []string
	// readOnly leaves out every tool that writes (Tool.Writes).
	readOnly bool
	// noSyncTool leaves snap_sync out though there is a syncer: the
	// server reports on its checkout but syncs with no store.
	noSyncTool bool
	// base is what a call outside any session is offered (snap query),
	// and what each session starts with.
	base *view
	// sessions are the views of the sessions that changed their
	// settings (snap_update_config), by session id.
	sessions map[string]*view
	// notify tells the session of ctx that its tools changed.
	notify func(ctx context.Context)
	// LoadWait is how long a call waits for a first engine when the
	// holder has none yet; 0 answers INDEX_NOT_READY at once.
	LoadWait time.Duration
	// CallTimeout bounds each call of a tool that waits (its context's
	// deadline): past it, the call answers LIMIT_EXCEEDED. 0 leaves calls
	// unbounded.
	CallTimeout time.Duration
	syncer      Syncer
	library     Library
	// memories is the folder of the memory tools' files; "" keeps none.
	memories string
	// repos, when not nil, are the repositories the engine joins: the
	// tools that look names and paths up declare a repo argument.
	repos []string
	// sql is snap_sql's DuckDB, made at its first call.
	sql sqlDB
}

// view is what one session is offered: its toolsets and their tools,
// and a page's length when a call gives none.
type view struct {
	toolsets     []string // what tools holds; empty for every toolset offered
	tools        []*Tool
	defaultLimit int
}

// NewRegistry returns the catalog's tools of the given toolsets (every
// toolset when none is given), answering from whatever engine h holds at
// each call.
func NewRegistry(h *query.Holder, toolsets ...string) (*Registry, error) {
	if err := knownToolsets(toolsets); err != nil {
		return nil, err
	}
	r := &Registry{holder: h, base: &view{toolsets: slices.Clone(toolsets), defaultLimit: DefaultLimit}}
	r.rebuild()
	return r, nil
}

func knownToolsets(toolsets []string) error {
	for _, ts := range toolsets {
		if !slices.Contains(Toolsets, ts) {
			return fmt.Errorf("unknown toolset %q (have %s)", ts, strings.Join(Toolsets, ", "))
		}
	}
	return nil
}

// Offer bounds the toolsets a client may choose with snap_update_config
// to toolsets (every toolset when none is given), and leaves out every
// tool that writes (memories, settings) when readOnly is set. Neither a
// session nor a call outside one is then offered more.
func (r *Registry) Offer(readOnly bool, toolsets ...string) error {
	if err := knownToolsets(toolsets); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.offered, r.readOnly = slices.Clone(toolsets), readOnly
	if len(toolsets) == 0 {
		r.offered = nil
	}
	r.rebuild()
	return nil
}

// rebuild makes every view's tools anew, after what they are made of
// changed (a syncer, the repositories, what is offered). The caller holds
// mu, or is alone with r.
func (r *Registry) rebuild() {
	r.base = r.withToolsets(r.base, r.base.toolsets)
	for id, v := range r.sessions {
		r.sessions[id] = r.withToolsets(v, v.toolsets)
	}
}

// withToolsets returns v offering toolsets. The caller holds mu.
func (r *Registry) withToolsets(v *view, toolsets []string) *view {
	nv := *v
	nv.toolsets, nv.tools = slices.Clone(toolsets), r.toolsOf(toolsets)
	return &nv
}

// toolsOf returns the catalog's tools of toolsets (every one offered when
// empty), the settings tools always, and snap_sync when there is a
// syncer: those the server offers. The caller holds mu.
func (r *Registry) toolsOf(toolsets []string) []*Tool {
	var tools []*Tool
	for _, t := range catalog {
		if !r.offers(t, toolsets) {
			continue
		}
		if r.repos != nil && scoped(t) {
			t = withRepo(t, r.repos)
		}
		tools = append(tools, t)
	}
	if r.syncer != nil && !r.noSyncTool && r.permits(syncTool) && (len(toolsets) == 0 || slices.Contains(toolsets, ToolsetIndex)) {
		tools = append(tools, syncTool)
	}
	return tools
}

// offers reports whether a view of toolsets holds t. The caller holds mu.
func (r *Registry) offers(t *Tool, toolsets []string) bool {
	switch {
	case t == getConfigTool && r.readOnly:
		return true // in the place of snap_config, which writes
	case !r.permits(t):
		return false
	case t.Toolset == ToolsetSettings:
		return true
	}
	return len(toolsets) == 0 || slices.Contains(toolsets, t.Toolset)
}

// permits reports whether the server offers t to anyone.
func (r *Registry) permits(t *Tool) bool {
	if r.readOnly && t.Writes {
		return false
	}
	return r.offered == nil || t.Toolset == ToolsetSettings || slices.Contains(r.offered, t.Toolset)
}

// Tools returns the tools a call outside any session is offered, in
// catalog order.
func (r *Registry) Tools() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.base.tools)
}

// allTools returns every tool some session may be offered.
func (r *Registry) allTools() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.toolsOf(nil)
}

// Tool returns the tool with that name, of those a call outside any
// session is offered.
func (r *Registry) Tool(name string) (*Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.base.tool(name)
}

func (v *view) tool(name string) (*Tool, bool) {
	i := slices.IndexFunc(v.tools, func(t *Tool) bool { return t.Name == name })
	if i < 0 {
		return nil, false
	}
	return v.tools[i], true
}

// Call runs tool name with args, a JSON object (empty or null for none),
// on the current engine. The result carries the engine's commit.
func (r *Registry) Call(ctx context.Context, name string, args json.RawMessage) (any, *ToolError) {
	res, _, terr := r.call(ctx, name, args)
	return res, terr
}

func (r *Registry) call(ctx context.Context, name string, args json.RawMessage) (any, *query.Engine, *ToolError) {
	v := r.viewOf(ctx)
	t, ok := v.tool(name)
	var terr *ToolError
	if !ok {
		var names []string
		for _, t := range v.tools {
			names = append(names, t.Name)
		}
		return nil, nil, toolErr(CodeInvalidArgument, map[string]any{"tools": names}, "unknown tool %s; this session is offered %s", quote(name), strings.Join(names, ", "))
	}
	var e *query.Engine
	if t.Offline {
		e = r.holder.Load()
	} else if e, terr = r.current(ctx); terr != nil {
		return nil, nil, terr
	}
	if r.CallTimeout > 0 && (t.Waits || t.Offline) {
		// Only a call that waits (on a store, a disk) can outlast its
		// bound: one that answers from memory does work its arguments'
		// bounds bound, and its answer is not worth a timer.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.CallTimeout)
		defer cancel()
	}
	ctx = context.WithValue(ctx, registryKey{}, r)
	if e != nil && len(e.Repos()) > 0 && scoped(t) {
		if e, terr = scope(e, args); terr != nil {
			return nil, nil, terr
		}
		ctx = context.WithValue(ctx, repoScopeKey{}, true)
	}
	res, terr := t.Handler(ctx, e, args)
	if terr != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			terr = limitErr("", int(r.CallTimeout.Seconds()), "the call took longer than %v, the server's limit (%s)", r.CallTimeout, terr.Message)
		}
		return nil, e, terr
	}
	if a, ok := res.(answer); ok && e != nil {
		a.head().Commit = e.Commit()
		if o := e.Overlay(); o != nil && t != statusTool { // status lists the overlay's files itself
			markOverlay(a, encode(a), o)
		}
	}
	return res, e, nil
}

type registryKey struct{}

// registryFrom returns the registry a handler was called through.
func registryFrom(ctx context.Context) *Registry {
	r, _ := ctx.Value(registryKey{}).(*Registry)
	return r
}

// current returns the engine to answer from, waiting LoadWait for a
// first one while the server starts.
func (r *Registry) current(ctx context.Context) (*query.Engine, *ToolError) {
	e := r.holder.Load()
	if e == nil && r.LoadWait > 0 {
		// The server answers the protocol while its snapshot loads; a
		// call waits for it a while.
		wctx, cancel := context.WithTimeout(ctx, r.LoadWait)
		e = r.holder.Wait(wctx)
		cancel()
	}
	if e == nil {
		return nil, toolErr(CodeIndexNotReady, nil, "no snapshot loaded yet; retry shortly, or run `snap pull` or `snap index`")
	}
	return e, nil
}

// engine is current for callers that want an error.
func (r *Registry) engine(ctx context.Context) (*query.Engine, error) {
	e, terr := r.current(ctx)
	if terr != nil {
		return nil, fmt.Errorf("%s: %s", terr.Code, terr.Message)
	}
	return e, nil
}

// CallJSON runs tool name like Call and encodes its answer, or its error as
// {"error":{...},"commit":...}: the exact bytes the MCP server sends as the
// tool result, and isError as the result's isError.
func (r *Registry) CallJSON(ctx context.Context, name string, args json.RawMessage) (out []byte, isError bool) {
	res, e, terr := r.call(ctx, name, args)
	if terr != nil {
		er := errorAnswer{Error: terr}
		if e != nil {
			er.Commit = e.Commit()
		}
		return encode(er), true
	}
	return encode(res), false
}

type errorAnswer struct {
	Error  *ToolError `json:"error"`
	Commit string     `json:"commit,omitempty"`
}

// encode writes v as compact JSON, leaving <, > and & as they are: code
// is full of them, and escapes cost tokens.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Answers are plain structs of strings, numbers and slices.
		panic(fmt.Sprintf("mcp: encode answer: %v", err))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// header starts every answer: the snapshot's commit, and a hint when the
// answer is empty.
type header struct {
	Commit string `json:"commit"`
	Hint   string `json:"hint,omitempty"`
}

func (h *header) head() *header { return h }

// answer is implemented by every tool's output, through its header.
type answer interface{ head() *header }

// catalog is every tool, in the order tools/list gives them. It is set in
// init: snap_update_config, one of its tools, reads it.
var catalog []*Tool

// catalogTools are the catalog's tools and snap_sync, by name.
var catalogTools map[string]*Tool

func init() {
	// The toolset of each tool is the catalog's: snap_ask and snap_verify
	// are declared beside snap_context, but offered with the graph tools.
	askTool.Toolset, verifyTool.Toolset = ToolsetGraph, ToolsetGraph
	catalog = []*Tool{
		statusTool,
		searchTool,
		symbolTool,
		symbolsOverviewTool,
		findReferencesTool,
		callsTool,
		impactTool,
		pathTool,
		exploreTool,
		contextTool,
		updateConfigTool,

		readFileTool,
		listDirTool,
		findFileTool,

		mapTool,
		rankTool,
		dependenciesTool,
		dependentsTool,
		callDetailsTool,
		resolveImportTool,
		askTool,
		verifyTool,

		snapshotsTool,
		diffTool,
		historyTool,

		writeMemoryTool,
		readMemoryTool,
		listMemoriesTool,
		editMemoryTool,
		deleteMemoryTool,

		oldCallersTool,
		calleesTool,
		oldFindSymbolTool,
		nodeTool,
		fileNodesTool,
		statsTool,
		manifestTool,
		getConfigTool,
		oldUpdateTool,
	}
	if snapsql.Available {
		catalog = append(catalog, sqlTool)
	}
	catalogTools = map[string]*Tool{syncTool.Name: syncTool}
	for _, t := range catalog {
		catalogTools[t.Name] = t
	}
}
