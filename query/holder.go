package query

import "sync/atomic"

// Holder publishes the engine requests should use. A sync builds the next
// engine aside and stores it; readers load whichever is current and keep it
// for the whole request, without locks. The zero Holder holds no engine.
type Holder struct {
	p atomic.Pointer[Engine]
}

// Load returns the current engine, or nil before the first Store.
func (h *Holder) Load() *Engine { return h.p.Load() }

// Store makes e the current engine.
func (h *Holder) Store(e *Engine) { h.p.Store(e) }
