package query

import (
	"time"
)

// Overlay marks an engine built from a snapshot and the working tree
// (package overlay): the files that differ from the snapshot were indexed
// again, in memory, and everything was resolved anew. Answers from such an
// engine reflect the checkout; Overlay says which files they came from.
type Overlay struct {
	Base     string    // commit of the snapshot beneath the overlay
	Modified []string  // paths in the snapshot whose content differs in the checkout
	Added    []string  // paths in the checkout that the snapshot lacks
	Deleted  []string  // paths in the snapshot that the checkout lacks
	BuiltAt  time.Time // when the checkout was read
}

// Overlay returns what the working-tree overlay changed, or nil for an
// engine built from a snapshot alone. The result must not be modified.
func (e *Engine) Overlay() *Overlay { return e.overlay }
