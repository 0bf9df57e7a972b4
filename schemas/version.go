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

// FeatureVersion is the version of what the rows mean: how ids are made,
// which edges are found and how names are qualified. The format version
// says whether a snapshot can be read; the feature version says whether
// two snapshots can be compared by id, and whether one can be the base of
// an incremental index for the other. Bump it with any change to ids,
// qualified names or the edges an unchanged file yields.
//
// Changes:
//
//	1 (snap 0.1): recorded in the manifest from here on; a manifest
//	  without one (0) was made before and compares with nothing.
//	2: generated code indexed by default, build output left out; Go
//	  values flow through slices, arrays and maps; Python's os.path is
//	  posixpath, and a function or class passed as an argument is a
//	  references edge; Java's X::new names the type X.
//	3: overloads chosen by argument types in Java, C#, C++ and Swift
//	  (call exprs carry the arguments' types); Java anonymous classes
//	  and the members of enum constants' bodies as nodes
//	  (Outer.method.1, Op.PLUS.apply), implicit super() calls;
//	  TypeScript types through calls, callbacks and merged declarations,
//	  no members from type literals nor fields from this.x =, a method
//	  named by a string without its quotes; JavaScript definitions by
//	  assignment (o.m = function, F.prototype.m = …); Python types
//	  through with, except, loops, casts and inferred returns.
//	4: overloads chosen by argument types in Kotlin and Scala (call
//	  exprs carry the arguments' types, params facts the parameters'
//	  names and markers), Kotlin constructor calls as calls edges;
//	  Java types through type arguments (exprs and facts keep them),
//	  JDK generic results and typed lambda parameters; TypeScript
//	  narrowing by instanceof, for…of elements, this in method tables
//	  and function expressions, and new expr heads for them.
const FeatureVersion = 4

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
