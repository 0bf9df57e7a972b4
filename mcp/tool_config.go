package mcp

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/graphsnap/snap/query"
)

// ToolsetSettings holds snap_config, which a server always offers: it is
// how a client changes its toolsets. A read-only server offers
// snap_get_config in its place.
const ToolsetSettings = "settings"

// IntervalSetter is a Syncer whose interval can change while it runs.
type IntervalSetter interface {
	SetInterval(d time.Duration) error
}

// MinSyncInterval is the shortest sync interval a client may set.
const MinSyncInterval = 10 * time.Second

type settings struct {
	header
	Toolsets     []string `json:"toolsets"`           // offered to this session now
	Available    []string `json:"available_toolsets"` // those this session may choose
	Tools        int      `json:"tools"`              // how many tools are offered
	DefaultLimit int      `json:"default_limit"`      // a page's length when a call gives no limit
	MaxLimit     int      `json:"max_limit"`
	SyncInterval string   `json:"sync_interval,omitempty"` // between syncs; only when the server syncs
	Memories     string   `json:"memories,omitempty"`      // the memories' folder
	ReadOnly     bool     `json:"read_only,omitempty"`     // no tool writes: memories are read only, settings fixed
	Changed      []string `json:"changed,omitempty"`       // what snap_config changed
}

// settings are the settings of the call of ctx: its session's.
func (r *Registry) settings(ctx context.Context) *settings {
	v := r.viewOf(ctx)
	r.mu.RLock()
	defer r.mu.RUnlock()
	s := &settings{Toolsets: slices.Clone(v.toolsets), Available: r.available(), Tools: len(v.tools),
		DefaultLimit: v.defaultLimit, MaxLimit: MaxLimit, Memories: r.memories, ReadOnly: r.readOnly}
	if len(s.Toolsets) == 0 {
		s.Toolsets = s.Available
	}
	if r.syncer != nil {
		s.SyncInterval = r.syncer.SyncStatus().Interval
	}
	return s
}

// available lists the toolsets a session may choose: those the server
// offers. The caller holds mu.
func (r *Registry) available() []string {
	if r.offered == nil {
		return slices.Clone(Toolsets)
	}
	return slices.DeleteFunc(slices.Clone(Toolsets), func(ts string) bool { return !slices.Contains(r.offered, ts) })
}

type getConfigIn struct{}

var getConfigTool = offline(newTool(
	"snap_get_config", "Settings", ToolsetCompat,
	"This session's settings: the toolsets offered and those it may choose, the default and largest page, the sync "+
		"interval when the server syncs, where memories are kept.",
	func(ctx context.Context, _ *query.Engine, _ *getConfigIn) (*settings, *ToolError) {
		return registryFrom(ctx).settings(ctx), nil
	}))

type updateConfigIn struct {
	Toolsets     []string `json:"toolsets,omitempty" jsonschema:"offer these toolsets (or all) to this session"`
	DefaultLimit *int     `json:"default_limit,omitempty" jsonschema:"page length when a call gives no limit"`
	SyncInterval string   `json:"sync_interval,omitempty" jsonschema:"as 30s, 5m or 1h; when the server syncs"`
}

var updateConfigTool = offline(writer(newTool(
	"snap_config", "Settings", ToolsetSettings,
	"To get more tools (toolsets files, graph, history, memories), or read this session's settings (no arguments). "+
		"Changes last for the session only.",
	func(ctx context.Context, _ *query.Engine, in *updateConfigIn) (*settings, *ToolError) {
		r := registryFrom(ctx)
		if id, ok := sessionOf(ctx); ok && id == "" && (in.Toolsets != nil || in.DefaultLimit != nil) {
			return nil, toolErr(CodeInvalidArgument, nil, "settings last for a session, and this request comes in none "+
				"(MCP 2026-07-28 has no sessions): give limit to each call instead")
		}
		var changed []string
		var toolsets []string
		if in.Toolsets != nil {
			if len(in.Toolsets) == 0 {
				return nil, argErr("toolsets", "name at least one toolset, or all")
			}
			r.mu.RLock()
			available := r.available()
			r.mu.RUnlock()
			for _, ts := range in.Toolsets {
				switch {
				case ts == "all":
					toolsets = nil
				case !slices.Contains(Toolsets, ts):
					return nil, toolErr(CodeInvalidArgument, map[string]any{"argument": "toolsets", "toolsets": available},
						"toolsets: unknown toolset %s (have %s, or all)", quote(ts), strings.Join(available, ", "))
				case !slices.Contains(available, ts):
					return nil, toolErr(CodeInvalidArgument, map[string]any{"argument": "toolsets", "toolsets": available},
						"toolsets: this server does not offer %s (it offers %s, or all of them): its operator chose them with snap serve --toolsets",
						ts, strings.Join(available, ", "))
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
				return nil, argErr("sync_interval", "want a duration such as 30s, 5m or 1h, got %s", quote(in.SyncInterval))
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
		v := r.lockedView(ctx)
		if in.Toolsets != nil {
			v = r.withToolsets(v, toolsets)
		}
		if in.DefaultLimit != nil {
			nv := *v
			nv.defaultLimit = *in.DefaultLimit
			v = &nv
			changed = append(changed, "default_limit")
		}
		r.setView(ctx, v)
		notify := r.notify
		r.mu.Unlock()
		if in.Toolsets != nil && notify != nil {
			notify(ctx)
		}
		out := r.settings(ctx)
		out.Changed = changed
		return out, nil
	})))
