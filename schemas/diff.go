package schemas

import "time"

// Diff is the answer of `snap diff A B --json`: what changed from snapshot
// A to snapshot B, and who is affected. cli.schema.json describes it under
// $defs/diff. Lists are sorted (files and symbols by path, then line;
// edges by file, then line) and never null.
type Diff struct {
	From    DiffSide      `json:"from"`
	To      DiffSide      `json:"to"`
	Summary DiffSummary   `json:"summary"`
	Files   []FileChange  `json:"files"`
	Symbols []SymbolDelta `json:"symbols"`
	Edges   []EdgeDelta   `json:"edges"`
	// Impact is what the changed symbols reach in B, callers first: the
	// blast radius beyond the direct callers listed with each symbol.
	Impact []Affected `json:"impact"`
}

// DiffSide names one of the two snapshots.
type DiffSide struct {
	Repo      string    `json:"repo"`
	Branch    string    `json:"branch"`
	Commit    string    `json:"commit"`
	IndexedAt time.Time `json:"indexed_at"`
}

// DiffSummary counts the changes.
type DiffSummary struct {
	FilesAdded        int `json:"files_added"`
	FilesRemoved      int `json:"files_removed"`
	FilesChanged      int `json:"files_changed"`
	SymbolsAdded      int `json:"symbols_added"`
	SymbolsRemoved    int `json:"symbols_removed"`
	SymbolsMoved      int `json:"symbols_moved"`
	BodiesChanged     int `json:"bodies_changed"`
	SignaturesChanged int `json:"signatures_changed"`
	EdgesAdded        int `json:"edges_added"`
	EdgesRemoved      int `json:"edges_removed"`
	// Broken counts removed symbols, and symbols whose signature changed,
	// that code still present in B calls: what is likely to break.
	Broken   int `json:"broken"`
	Impacted int `json:"impacted"`
}

// FileChange is one file added, removed or changed (content).
type FileChange struct {
	Path           string `json:"path"`
	Change         string `json:"change"` // added, removed, changed
	Language       string `json:"language"`
	SymbolsAdded   int    `json:"symbols_added"`
	SymbolsRemoved int    `json:"symbols_removed"`
	SymbolsChanged int    `json:"symbols_changed"` // body, signature or moved here
}

// SymbolDelta is one symbol that changed.
type SymbolDelta struct {
	// Change is added, removed, moved (same qualified name, another
	// file), body (same signature, other code) or signature.
	Change       string `json:"change"`
	ID           string `json:"id"` // in B; in A when removed
	Kind         string `json:"kind"`
	QName        string `json:"qname"`
	Location     string `json:"location"`     // file:line in B; in A when removed
	OldLocation  string `json:"old_location"` // file:line in A; "" when added
	Signature    string `json:"signature"`
	OldSignature string `json:"old_signature"`
	Exported     bool   `json:"exported"`
	// Callers are the sites that break: the calls of a symbol whose
	// signature changed, and the calls, constructions, type uses,
	// subclasses and implementations of a removed one, by users that
	// still exist in B — where B still resolves them to the symbol, or
	// leaves unresolved (or resolves elsewhere) a use that A resolved to
	// it. Locations are B's, or A's for a user whose body did not change
	// and that B records no such use of.
	Callers      []CallSite `json:"callers"`
	CallersTotal int        `json:"callers_total"`
}

// CallSite is a caller and where it calls.
type CallSite struct {
	QName    string `json:"qname"`
	Location string `json:"location"` // file:line:col of the call
	// Reason is why the site breaks where the head says it: the head's
	// reason for leaving the call unresolved ("no overload takes 2
	// arguments"), or the other symbol it now resolves to.
	Reason string `json:"reason,omitempty"`
}

// EdgeDelta is an edge added or removed between symbols both snapshots
// have: the wiring changed, not the symbols.
type EdgeDelta struct {
	Change   string `json:"change"` // added, removed
	Kind     string `json:"kind"`
	From     string `json:"from"`
	To       string `json:"to"` // a qualified name, or ?target when unresolved
	Location string `json:"location"`
}

// Affected is one symbol an impact reached.
type Affected struct {
	QName    string `json:"qname"`
	Kind     string `json:"kind"`
	Location string `json:"location"`
	Depth    int    `json:"depth"`
	Via      string `json:"via"` // the changed symbol it was reached from
}
