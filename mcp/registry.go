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
//     INVALID_ARGUMENT naming the argument.
//   - Every answer names the snapshot's "commit"; an empty answer carries a
//     "hint", and so does an answer naming files that a working-tree
//     overlay indexed from the checkout (it names them). Errors are results shaped {"error":{"code","message","details"}}.
//   - Answers are compact JSON: empty fields are left out, locations read
//     "file:line:col".
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/graphsnap/snap/query"
)

// Toolsets group tools so a client can keep its list short.
const (
	ToolsetIndex     = "index"     // snapshot status
	ToolsetSymbols   = "symbols"   // search, find_symbol, node, symbols_overview
	ToolsetCallGraph = "callgraph" // callers, callees
	ToolsetTraversal = "traversal" // impact, path
	ToolsetFiles     = "files"     // read_file
)

// Toolsets lists every toolset.
var Toolsets = []string{ToolsetIndex, ToolsetSymbols, ToolsetCallGraph, ToolsetTraversal, ToolsetContext, ToolsetFiles, ToolsetHistory, ToolsetMemories}

// DefaultToolsets are the toolsets snap serve offers unless told
// otherwise: what most agents need, and a shorter tools/list.
var DefaultToolsets = []string{ToolsetIndex, ToolsetSymbols, ToolsetCallGraph, ToolsetTraversal, ToolsetContext, ToolsetFiles}

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

	mu           sync.RWMutex // guards tools, toolsets, defaultLimit and onTools
	tools        []*Tool
	toolsets     []string // what tools holds; empty for every toolset
	defaultLimit int
	onTools      func([]*Tool) // told when tools change
	// LoadWait is how long a call waits for a first engine when the
	// holder has none yet; 0 answers INDEX_NOT_READY at once.
	LoadWait time.Duration
	syncer   Syncer
	library  Library
	// memories is the folder of the memory tools' files; "" keeps none.
	memories string
	// repos, when not nil, are the repositories the engine joins: the
	// tools that look names and paths up declare a repo argument.
	repos []string
}

// NewRegistry returns the catalog's tools of the given toolsets (every
// toolset when none is given), answering from whatever engine h holds at
// each call.
func NewRegistry(h *query.Holder, toolsets ...string) (*Registry, error) {
	for _, ts := range toolsets {
		if !slices.Contains(Toolsets, ts) {
			return nil, fmt.Errorf("unknown toolset %q (have %s)", ts, strings.Join(Toolsets, ", "))
		}
	}
	r := &Registry{holder: h, defaultLimit: DefaultLimit}
	r.setToolsets(toolsets)
	return r, nil
}

// setToolsets makes tools the catalog's tools of toolsets (every one when
// empty), the settings tools always, and snap_sync when there is a
// syncer. The caller holds mu, or is alone with r.
func (r *Registry) setToolsets(toolsets []string) {
	r.toolsets = slices.Clone(toolsets)
	r.tools = nil
	for _, t := range catalog {
		if len(toolsets) == 0 || slices.Contains(toolsets, t.Toolset) || t.Toolset == ToolsetSettings {
			if r.repos != nil && scoped(t) {
				t = withRepo(t, r.repos)
			}
			r.tools = append(r.tools, t)
		}
	}
	if r.syncer != nil && (len(toolsets) == 0 || slices.Contains(toolsets, ToolsetIndex)) {
		r.tools = append(r.tools, syncTool)
	}
}

// Tools returns the registry's tools in catalog order.
func (r *Registry) Tools() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.tools)
}

// Tool returns the tool with that name.
func (r *Registry) Tool(name string) (*Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	i := slices.IndexFunc(r.tools, func(t *Tool) bool { return t.Name == name })
	if i < 0 {
		return nil, false
	}
	return r.tools[i], true
}

// Call runs tool name with args, a JSON object (empty or null for none),
// on the current engine. The result carries the engine's commit.
func (r *Registry) Call(ctx context.Context, name string, args json.RawMessage) (any, *ToolError) {
	res, _, terr := r.call(ctx, name, args)
	return res, terr
}

func (r *Registry) call(ctx context.Context, name string, args json.RawMessage) (any, *query.Engine, *ToolError) {
	t, ok := r.Tool(name)
	var terr *ToolError
	if !ok {
		var names []string
		for _, t := range r.Tools() {
			names = append(names, t.Name)
		}
		return nil, nil, toolErr(CodeInvalidArgument, map[string]any{"tools": names}, "unknown tool %q", name)
	}
	var e *query.Engine
	if t.Offline {
		e = r.holder.Load()
	} else if e, terr = r.current(ctx); terr != nil {
		return nil, nil, terr
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

func init() {
	catalog = []*Tool{
		statusTool,
		statsTool,
		manifestTool,
		searchTool,
		findSymbolTool,
		nodeTool,
		symbolsOverviewTool,
		fileNodesTool,
		resolveImportTool,
		findReferencesTool,
		callersTool,
		calleesTool,
		callDetailsTool,
		impactTool,
		pathTool,
		exploreTool,
		mapTool,
		rankTool,
		dependenciesTool,
		dependentsTool,
		contextTool,
		askTool,
		verifyTool,
		readFileTool,
		listDirTool,
		findFileTool,
		snapshotsTool,
		diffTool,
		historyTool,
		getConfigTool,
		updateConfigTool,
		writeMemoryTool,
		readMemoryTool,
		listMemoriesTool,
		editMemoryTool,
		deleteMemoryTool,
	}
}
