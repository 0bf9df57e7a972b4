package schemas

import "time"

// The --json answers of the store commands. cli.schema.json describes each
// (under $defs) and FORMAT.md documents them; every field is always
// written, so the schema can require them all.

// Transfer is the answer of `snap push --json` and `snap pull --json`.
type Transfer struct {
	Op     string `json:"op"` // "push" or "pull"
	Store  string `json:"store"`
	Repo   string `json:"repo"`
	Branch string `json:"branch"`
	Commit string `json:"commit"`
	// ManifestSHA256 is the digest of the snapshot's manifest.json.
	ManifestSHA256 string `json:"manifest_sha256"`
	Tables         int    `json:"tables"`  // tables copied (0 when present)
	Bytes          int64  `json:"bytes"`   // bytes copied
	Present        bool   `json:"present"` // the destination already held it
	DurationMS     int64  `json:"duration_ms"`
	Head           Move   `json:"head"`
}

// Move says what happened to a branch's HEAD.json.
type Move struct {
	Moved      bool   `json:"moved"`
	From       string `json:"from"` // commit before; "" when the branch had no HEAD
	To         string `json:"to"`   // commit after
	Generation int64  `json:"generation"`
	Reason     string `json:"reason"` // why not moved; "" when moved
}

// Listing is the answer of `snap ls --json`.
type Listing struct {
	Store    string          `json:"store"`
	Branches []BranchListing `json:"branches"`
}

// BranchListing is one repository's branch in a store.
type BranchListing struct {
	Repo       string    `json:"repo"`
	Branch     string    `json:"branch"`
	Head       string    `json:"head"` // HEAD's commit; "" without HEAD
	Generation int64     `json:"generation"`
	UpdatedAt  time.Time `json:"updated_at"`
	// Snapshots are newest first (by when their manifest was stored);
	// incomplete ones (tables without a manifest) last.
	Snapshots []SnapshotListing `json:"snapshots"`
}

// SnapshotListing is one snapshot of a branch.
type SnapshotListing struct {
	Commit   string    `json:"commit"`
	Head     bool      `json:"head"`     // HEAD names it
	Complete bool      `json:"complete"` // its manifest is stored
	Objects  int       `json:"objects"`
	Bytes    int64     `json:"bytes"`
	StoredAt time.Time `json:"stored_at"` // the manifest's time, or the newest object's when incomplete
}

// Collection is the answer of `snap gc --json`.
type Collection struct {
	Store   string           `json:"store"`
	DryRun  bool             `json:"dry_run"`
	Keep    int              `json:"keep"`
	Deleted []DeletedListing `json:"deleted"`
	Kept    int              `json:"kept"` // snapshots left
	Objects int              `json:"objects"`
	Bytes   int64            `json:"bytes"` // freed (or to be freed, on a dry run)
}

// DeletedListing is one snapshot gc removed.
type DeletedListing struct {
	Repo    string `json:"repo"`
	Branch  string `json:"branch"`
	Commit  string `json:"commit"`
	Reason  string `json:"reason"` // "old" or "incomplete"
	Objects int    `json:"objects"`
	Bytes   int64  `json:"bytes"`
}

// Checkup is the answer of `snap doctor --json`.
type Checkup struct {
	Store  string  `json:"store"`
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// Check is one of doctor's checks.
type Check struct {
	Name       string `json:"name"`
	OK         bool   `json:"ok"`
	Detail     string `json:"detail"`
	DurationMS int64  `json:"duration_ms"`
}
