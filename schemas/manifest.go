package schemas

import "time"

// Manifest describes one snapshot: manifest.json, written after every table
// it names. Readers check FormatVersion first and every table's SHA-256
// before using a byte of it.
type Manifest struct {
	FormatVersion int `json:"format_version"`
	// FeatureVersion is schemas.FeatureVersion of the indexer that wrote
	// the snapshot; 0 in a manifest made before it was recorded.
	FeatureVersion int               `json:"feature_version,omitempty"`
	Repo           string            `json:"repo"`
	Branch         string            `json:"branch"`
	Commit         string            `json:"commit"`
	Parents        []string          `json:"parents"`
	Dirty          bool              `json:"dirty"`
	Base           string            `json:"base,omitempty"`
	IndexedAt      time.Time         `json:"indexed_at"`
	Indexer        Indexer           `json:"indexer"`
	Grammars       map[string]string `json:"grammars"`
	Counts         Counts            `json:"counts"`
	Build          Build             `json:"build"`
	Tables         []Table           `json:"tables"`
}

// Indexer is the provenance of a snapshot: which program made it, how.
type Indexer struct {
	Name      string   `json:"name"`
	Version   string   `json:"version"`
	GoVersion string   `json:"go_version"`
	Args      []string `json:"args"`
}

// Counts are row counts by meaning, for status answers without loading.
type Counts struct {
	Files       int            `json:"files"`
	Nodes       int            `json:"nodes"`
	Edges       int            `json:"edges"`
	Unresolved  int            `json:"unresolved"`
	ParseErrors int            `json:"parse_errors"`
	Languages   map[string]int `json:"languages"`
}

// Build records how the snapshot was made.
type Build struct {
	DurationMS  int64 `json:"duration_ms"`
	Workers     int   `json:"workers"`
	FilesParsed int   `json:"files_parsed"`
	FilesReused int   `json:"files_reused"`
	SourceBytes int64 `json:"source_bytes"`
}

// Table names one table file of the snapshot and what it must hash to.
type Table struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Head is HEAD.json: the newest snapshot of one repository and branch.
type Head struct {
	Commit         string    `json:"commit"`
	ManifestSHA256 string    `json:"manifest_sha256"`
	Generation     int64     `json:"generation"`
	UpdatedAt      time.Time `json:"updated_at"`
}
