package mcp

import (
	"context"

	"github.com/mark3labs/mcp-go/server"
)

// Settings a client changes (snap_update_config: its toolsets, its
// default page length) are its session's: another session, over the same
// server, keeps its own. A session starts with the registry's base view,
// and gets a view of its own when it first changes one; the view goes
// when the session ends. A call outside any session (snap query, a test
// calling the registry) reads and changes the base view.

// sessionOf returns the id of the MCP session ctx's call came in, and
// whether it came in one. A request of MCP 2026-07-28 over HTTP comes in
// a session without an id: that protocol has none.
func sessionOf(ctx context.Context) (id string, ok bool) {
	s := server.ClientSessionFromContext(ctx)
	if s == nil {
		return "", false
	}
	return s.SessionID(), true
}

// viewOf returns what the call of ctx is offered: its session's view, or
// the base view.
func (r *Registry) viewOf(ctx context.Context) *view {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lockedView(ctx)
}

// lockedView is viewOf for a caller that holds mu.
func (r *Registry) lockedView(ctx context.Context) *view {
	if id, ok := sessionOf(ctx); ok {
		if v := r.sessions[id]; v != nil {
			return v
		}
	}
	return r.base
}

// setView makes v what the call of ctx is offered from now on: its
// session's view, or the base view outside any session. The caller holds
// mu.
func (r *Registry) setView(ctx context.Context, v *view) {
	id, ok := sessionOf(ctx)
	if !ok {
		r.base = v
		return
	}
	if r.sessions == nil {
		r.sessions = make(map[string]*view)
	}
	r.sessions[id] = v
}

// forget drops the view of a session that ended.
func (r *Registry) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sessions, id)
}

// pageLimit is the limit of a page when a call gives none.
func (r *Registry) pageLimit(ctx context.Context) int {
	return r.viewOf(ctx).defaultLimit
}
