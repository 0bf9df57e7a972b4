package mcp

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/graphsnap/snap/query"
)

// ToolsetSettings holds snap_get_config and snap_update_config, which a
// server always offers: they are how a client changes its toolsets.
const ToolsetSettings = "settings"

// IntervalSetter is a Syncer whose interval can change while it runs.
type IntervalSetter interface {
	SetInterval(d time.Duration) error
}

// MinSyncInterval is the shortest sync interval a client may set.
const MinSyncInterval = 10 * time.Second

// pageLimit is the limit of a page when a call gives none.
func (r *Registry) pageLimit() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.defaultLimit
}

// OnToolsChange has fn told the registry's tools whenever they change
// (snap_update_config changed the toolsets).
func (r *Registry) OnToolsChange(fn func([]*Tool)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onTools = fn
}

type settings struct {
	header
	Toolsets     []string `json:"toolsets"`           // offered now
	Available    []string `json:"available_toolsets"` // every toolset
	Tools        int      `json:"tools"`              // how many tools are offered
	DefaultLimit int      `json:"default_limit"`      // a page's length when a call gives no limit
	MaxLimit     int      `json:"max_limit"`
	SyncInterval string   `json:"sync_interval,omitempty"` // between syncs; only when the server syncs
	Memories     string   `json:"memories,omitempty"`      // the memories' folder
	Changed      []string `json:"changed,omitempty"`       // what snap_update_config changed
}

func (r *Registry) settings() *settings {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s := &settings{Toolsets: slices.Clone(r.toolsets), Available: slices.Clone(Toolsets), Tools: len(r.tools),
		DefaultLimit: r.defaultLimit, MaxLimit: MaxLimit, Memories: r.memories}
	if len(s.Toolsets) == 0 {
		s.Toolsets = slices.Clone(Toolsets)
	}
	if r.syncer != nil {
		s.SyncInterval = r.syncer.SyncStatus().Interval
	}
	return s
}

type getConfigIn struct{}

var getConfigTool = offline(newTool(
	"snap_get_config", "Settings", ToolsetSettings,
	"The server's settings: the toolsets offered and all there are, the default and largest page, the sync "+
		"interval when the server syncs, where memories are kept. snap_update_config changes them.",
	func(ctx context.Context, _ *query.Engine, _ *getConfigIn) (*settings, *ToolError) {
		return registryFrom(ctx).settings(), nil
	}))

type updateConfigIn struct {
	Toolsets     []string `json:"toolsets,omitempty" jsonschema:"offer the tools of these toolsets (or [\"all\"]); the list of tools changes and clients are told"`
	DefaultLimit *int     `json:"default_limit,omitempty" jsonschema:"a page's length when a call gives no limit (1 to 1000)"`
	SyncInterval string   `json:"sync_interval,omitempty" jsonschema:"how often to look for a newer snapshot, as 30s, 5m or 1h (at least 10s); only when the server syncs"`
}

var updateConfigTool = offline(writer(newTool(
	"snap_update_config", "Change settings", ToolsetSettings,
	"Change the server's settings for this run: toolsets, default page length, sync interval. Every value is "+
		"checked before any is applied; answers the settings after the change. Nothing is written to disk.",
	func(ctx context.Context, _ *query.Engine, in *updateConfigIn) (*settings, *ToolError) {
		r := registryFrom(ctx)
		var changed []string
		var toolsets []string
		if in.Toolsets != nil {
			if len(in.Toolsets) == 0 {
				return nil, argErr("toolsets", "name at least one toolset, or all")
			}
			for _, ts := range in.Toolsets {
				switch {
				case ts == "all":
					toolsets = nil
				case !slices.Contains(Toolsets, ts):
					return nil, toolErr(CodeInvalidArgument, map[string]any{"argument": "toolsets", "toolsets": Toolsets},
						"toolsets: unknown toolset %q (have %s, or all)", ts, strings.Join(Toolsets, ", "))
				case !slices.Contains(in.Toolsets, "all"):
					toolsets = append(toolsets, ts)
				}
			}
			changed = append(changed, "toolsets")
		}
		if in.DefaultLimit != nil && (*in.DefaultLimit < 1 || *in.DefaultLimit > MaxLimit) {
			return nil, argErr("default_limit", "want 1 to %d, got %d", MaxLimit, *in.DefaultLimit)
		}
		var interval time.Duration
		var setter IntervalSetter
		if in.SyncInterval != "" {
			var err error
			if interval, err = time.ParseDuration(in.SyncInterval); err != nil {
				return nil, argErr("sync_interval", "want a duration such as 30s, 5m or 1h, got %q", in.SyncInterval)
			}
			if interval < MinSyncInterval {
				return nil, argErr("sync_interval", "at least %v, got %v", MinSyncInterval, interval)
			}
			s, ok := r.syncer.(IntervalSetter)
			if !ok {
				return nil, argErr("sync_interval", "this server does not sync: start snap serve with --sync")
			}
			setter = s
		}
		// Everything holds: apply.
		if setter != nil {
			if err := setter.SetInterval(interval); err != nil {
				return nil, argErr("sync_interval", "%v", err)
			}
			changed = append(changed, "sync_interval")
		}
		r.mu.Lock()
		if in.DefaultLimit != nil {
			r.defaultLimit = *in.DefaultLimit
			changed = append(changed, "default_limit")
		}
		var notify func([]*Tool)
		var tools []*Tool
		if in.Toolsets != nil {
			r.setToolsets(toolsets)
			notify, tools = r.onTools, slices.Clone(r.tools)
		}
		r.mu.Unlock()
		if notify != nil {
			notify(tools)
		}
		out := r.settings()
		out.Changed = changed
		if len(changed) == 0 {
			out.Hint = "nothing to change: give toolsets, default_limit or sync_interval"
		}
		return out, nil
	})))
