package query

import (
	"context"
	"sync"
	"sync/atomic"
)

// Holder publishes the engine requests should use. A sync builds the next
// engine aside and stores it; readers load whichever is current and keep it
// for the whole request, without locks. The zero Holder holds no engine.
type Holder struct {
	// Warm has Store build each engine's lazy indexes (see Engine.Warm),
	// for a server whose questions should not wait for them: the first
	// engine's in the background once it is published, a later one's
	// before it replaces the engine answering meanwhile. A one-shot
	// query leaves it off.
	Warm bool

	p     atomic.Pointer[Engine]
	once  sync.Once
	ready chan struct{} // closed by the first Store
	mu    sync.Mutex    // guards the creation of ready
}

// Load returns the current engine, or nil before the first Store.
func (h *Holder) Load() *Engine { return h.p.Load() }

// Store makes e the current engine.
func (h *Holder) Store(e *Engine) {
	if h.Warm && e != nil && h.p.Load() != nil {
		e.Warm() // a swap: the engine answering meanwhile is warm already
	}
	h.published(e, h.p.Swap(e) == nil)
}

// CompareAndSwap makes e the current engine if old still is, and
// reports whether it did: an update built aside from old (the working-tree
// overlay) must not replace an engine a sync stored meanwhile. Like Store,
// it warms e first when the Holder is Warm.
func (h *Holder) CompareAndSwap(old, e *Engine) bool {
	if h.p.Load() != old {
		return false
	}
	if h.Warm && e != nil && old != nil {
		e.Warm()
	}
	if !h.p.CompareAndSwap(old, e) {
		return false
	}
	h.published(e, old == nil)
	return true
}

// published follows the publication of e: the first one ends Wait, and
// is warmed in the background when the Holder is Warm.
func (h *Holder) published(e *Engine, first bool) {
	h.once.Do(func() { close(h.readyChan()) })
	if h.Warm && e != nil && first {
		go e.Warm()
	}
}

// Wait returns the current engine, waiting for the first Store until ctx
// is done; then it returns nil.
func (h *Holder) Wait(ctx context.Context) *Engine {
	if e := h.p.Load(); e != nil {
		return e
	}
	select {
	case <-h.readyChan():
		return h.p.Load()
	case <-ctx.Done():
		return nil
	}
}

func (h *Holder) readyChan() chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ready == nil {
		h.ready = make(chan struct{})
	}
	return h.ready
}
