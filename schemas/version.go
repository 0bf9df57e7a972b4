// Package schemas holds the snapshot format: the row types of every table,
// the manifest, the HEAD record and the version constants. FORMAT.md beside
// this file is the normative description; a test holds the two together.
//
// It is a leaf package: it imports nothing of the project.
package schemas

// FormatVersion is the version of the snapshot format written by this code.
//
// Changes:
//
//	1 (snap 0.1): nodes, edges, files, sources and refs tables; manifest.json
//	  with per-table SHA-256; hive-style keys and HEAD.json.
const FormatVersion = 1

// MinFormatVersion is the oldest format version this code reads.
const MinFormatVersion = 1

// Table file names inside a snapshot.
const (
	NodesFile    = "nodes.parquet"
	EdgesFile    = "edges.parquet"
	FilesFile    = "files.parquet"
	SourcesFile  = "sources.parquet"
	RefsFile     = "refs.parquet"
	ManifestFile = "manifest.json"
	HeadFile     = "HEAD.json"
)

// Table names as the manifest lists them.
const (
	TableNodes   = "nodes"
	TableEdges   = "edges"
	TableFiles   = "files"
	TableSources = "sources"
	TableRefs    = "refs"
)
