package schemas

// Node is one symbol: a row of nodes.parquet. Rows are sorted by ID.
type Node struct {
	ID            uint64   `parquet:"id,delta" json:"id"`
	Kind          string   `parquet:"kind,dict,zstd" json:"kind"`
	Name          string   `parquet:"name,zstd" json:"name"`
	QualifiedName string   `parquet:"qualified_name,zstd" json:"qualified_name"`
	Language      string   `parquet:"language,dict,zstd" json:"language"`
	File          string   `parquet:"file,dict,zstd" json:"file"`
	StartLine     uint32   `parquet:"start_line,zstd" json:"start_line"`
	StartCol      uint32   `parquet:"start_col,zstd" json:"start_col"`
	EndLine       uint32   `parquet:"end_line,zstd" json:"end_line"`
	EndCol        uint32   `parquet:"end_col,zstd" json:"end_col"`
	StartByte     uint32   `parquet:"start_byte,zstd" json:"start_byte"`
	EndByte       uint32   `parquet:"end_byte,zstd" json:"end_byte"`
	ParentID      uint64   `parquet:"parent_id,zstd" json:"parent_id"`
	Signature     string   `parquet:"signature,zstd" json:"signature"`
	Doc           string   `parquet:"doc,zstd" json:"doc"`
	Visibility    string   `parquet:"visibility,dict,zstd" json:"visibility"`
	Exported      bool     `parquet:"exported" json:"exported"`
	IsAsync       bool     `parquet:"is_async,zstd" json:"is_async"`
	IsStatic      bool     `parquet:"is_static,zstd" json:"is_static"`
	IsAbstract    bool     `parquet:"is_abstract,zstd" json:"is_abstract"`
	IsTest        bool     `parquet:"is_test,zstd" json:"is_test"`
	Decorators    []string `parquet:"decorators,list,zstd" json:"decorators"`
	BodyHash      uint64   `parquet:"body_hash,zstd" json:"body_hash"`
}

// Edge is one relation between two nodes: a row of edges.parquet. Rows are
// sorted by (Src, Kind, Dst, Line, Col, Target, File). Dst is 0 when the target
// could not be resolved; Resolution and Reason then say why.
//
// SrcRow and DstRow are the row numbers of Src and Dst in nodes.parquet
// (-1 for Dst 0), so a reader builds adjacency without a lookup.
type Edge struct {
	Src         uint64  `parquet:"src,delta,zstd" json:"src"`
	Dst         uint64  `parquet:"dst,zstd" json:"dst"`
	Kind        string  `parquet:"kind,dict,zstd" json:"kind"`
	File        string  `parquet:"file,dict,zstd" json:"file"`
	Line        uint32  `parquet:"line,zstd" json:"line"`
	Col         uint32  `parquet:"col,zstd" json:"col"`
	Target      string  `parquet:"target,zstd" json:"target"`
	Resolution  string  `parquet:"resolution,dict,zstd" json:"resolution"`
	Confidence  float32 `parquet:"confidence,zstd" json:"confidence"`
	Reason      string  `parquet:"reason,dict,zstd" json:"reason"`
	Args        string  `parquet:"args,zstd" json:"args"`
	InLoop      bool    `parquet:"in_loop,zstd" json:"in_loop"`
	InTry       bool    `parquet:"in_try,zstd" json:"in_try"`
	Conditional bool    `parquet:"conditional,zstd" json:"conditional"`
	SrcRow      int32   `parquet:"src_row,zstd" json:"src_row"`
	DstRow      int32   `parquet:"dst_row,zstd" json:"dst_row"`
}

// File is one path the walk found: a row of files.parquet, sorted by Path.
type File struct {
	Path        string `parquet:"path,zstd" json:"path"`
	Language    string `parquet:"language,dict,zstd" json:"language"`
	SHA256      string `parquet:"sha256,zstd" json:"sha256"`
	Size        int64  `parquet:"size,zstd" json:"size"`
	Lines       uint32 `parquet:"lines,zstd" json:"lines"`
	Status      string `parquet:"status,dict,zstd" json:"status"`
	Error       string `parquet:"error,zstd" json:"error"`
	IsTest      bool   `parquet:"is_test,zstd" json:"is_test"`
	IsGenerated bool   `parquet:"is_generated,zstd" json:"is_generated"`
}

// Source is the content of one indexed file: a row of sources.parquet,
// sorted by Path. Content is raw bytes (not necessarily UTF-8).
type Source struct {
	Path    string `parquet:"path,zstd" json:"path"`
	Content []byte `parquet:"content,zstd" json:"content"`
}

// Ref is one raw reference as extraction saw it, before global resolution:
// a row of refs.parquet, sorted by (File, Line, Col, Kind, Target, Src, Expr).
// Together with the nodes of a file it is everything the resolver needs,
// so a file that did not change is re-resolved without being re-parsed.
//
// Kind is an edge kind (calls, imports, extends, implements, instantiates,
// references) or a fact the resolver consumes (RefType, RefResult,
// RefEmbeds, RefPackage). Expr is the language's normalized form of
// the reference (see FORMAT.md); Target is the text as written.
type Ref struct {
	File        string `parquet:"file,dict,zstd" json:"file"`
	Src         uint64 `parquet:"src,zstd" json:"src"`
	Kind        string `parquet:"kind,dict,zstd" json:"kind"`
	Target      string `parquet:"target,zstd" json:"target"`
	Expr        string `parquet:"expr,zstd" json:"expr"`
	Line        uint32 `parquet:"line,zstd" json:"line"`
	Col         uint32 `parquet:"col,zstd" json:"col"`
	Args        string `parquet:"args,zstd" json:"args"`
	InLoop      bool   `parquet:"in_loop,zstd" json:"in_loop"`
	InTry       bool   `parquet:"in_try,zstd" json:"in_try"`
	Conditional bool   `parquet:"conditional,zstd" json:"conditional"`
}

// Fact kinds of refs.parquet: not edges, but what resolution needs to know.
const (
	RefType     = "type"     // Src's declared type (a field, variable, parameter); Expr is the type
	RefResult   = "result"   // Src's first result type (a function or method)
	RefEmbeds   = "embeds"   // Src (a struct or interface) embeds the type in Expr
	RefPackage  = "package"  // the file's package clause; Target the name, Expr the import path
	RefBuild    = "build"    // the file's build constraint; Expr is the constraint expression
	RefExport   = "export"   // a module's export (TypeScript, JavaScript); Target the name, Expr what it is
	RefCrate    = "crate"    // a Rust file's crate; Target the crate name, Expr the folder of its Cargo.toml
	RefMod      = "mod"      // a Rust `mod name;`; Target the name, Expr the candidate files, |-separated
	RefImpl     = "impl"     // a Rust impl block's item; Expr {T} or {T} as {Trait}
	RefParams   = "params"   // a Java or Kotlin function's parameter types, erased, comma-separated
	RefReceiver = "receiver" // a Kotlin extension function's receiver type; Expr {T}
	RefDeclares = "declares" // a C or C++ declaration without a body; Expr the qualified name, with (params) for a function
	RefUsing    = "using"    // a C++ using directive or declaration; Expr "namespace N" or the name brought in
	RefDist     = "dist"     // a module's distribution (npm package, Python project); Target its name, Expr the names it depends on, space-separated
	RefEntry    = "entry"    // a bare specifier naming the module from outside its npm package; Target the specifier
)
