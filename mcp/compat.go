package mcp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/graphsnap/snap/query"
)

// ToolsetCompat holds the former names of tools that were merged into
// others: a client written for them keeps working with --toolsets all
// (or compat). None is offered by default.
const ToolsetCompat = "compat"

// alias returns t under its former name, in the compat toolset: t's
// arguments and answers, with defaults for the arguments a call leaves
// out.
func alias(name string, t *Tool, defaults map[string]any) *Tool {
	a := *t
	a.Name, a.Toolset, a.Title = name, ToolsetCompat, t.Title+" (former name)"
	a.Description = "Former name of " + t.Name
	if d, ok := defaults["direction"]; ok {
		a.Description += " with direction " + d.(string)
	}
	if d, ok := defaults["detail"]; ok {
		a.Description += " with detail " + d.(string)
	}
	a.Description += "; use " + t.Name + "."
	a.Handler = func(ctx context.Context, e *query.Engine, args json.RawMessage) (any, *ToolError) {
		var m map[string]json.RawMessage
		if len(defaults) > 0 && jsonKind(args) != "array" && json.Unmarshal(args, &m) == nil {
			if m == nil {
				m = map[string]json.RawMessage{}
			}
			for k, v := range defaults {
				if _, ok := m[k]; !ok {
					m[k], _ = json.Marshal(v)
				}
			}
			args, _ = json.Marshal(m)
		}
		res, terr := t.Handler(ctx, e, args)
		if terr != nil {
			terr.Message = strings.Replace(terr.Message, t.Name+" takes ", name+" takes ", 1)
		}
		return res, terr
	}
	return &a
}

// The former tools, each as the tool it became.
var (
	oldCallersTool    = alias("snap_callers", callsTool, nil)
	calleesTool       = alias("snap_callees", callsTool, map[string]any{"direction": "out"})
	oldFindSymbolTool = alias("snap_find_symbol", symbolTool, nil)
	nodeTool          = alias("snap_node", symbolTool, nil)
	fileNodesTool     = alias("snap_file_nodes", symbolsOverviewTool, nil)
	statsTool         = alias("snap_stats", statusTool, map[string]any{"detail": "stats"})
	manifestTool      = alias("snap_manifest", statusTool, map[string]any{"detail": "manifest"})
	oldUpdateTool     = alias("snap_update_config", updateConfigTool, nil)
)

// The tools a question in words is routed to (snap_ask), by the names
// they had: the callers and a definition are asked of the tools they
// became.
var (
	callersTool    = callsTool
	findSymbolTool = symbolTool
)
