package schemas

// Node kinds.
const (
	KindFile        = "file"
	KindModule      = "module"
	KindPackage     = "package"
	KindNamespace   = "namespace"
	KindClass       = "class"
	KindStruct      = "struct"
	KindInterface   = "interface"
	KindTrait       = "trait"
	KindEnum        = "enum"
	KindFunction    = "function"
	KindMethod      = "method"
	KindConstructor = "constructor"
	KindField       = "field"
	KindConstant    = "constant"
	KindVariable    = "variable"
	KindTypeAlias   = "type_alias"
	KindType        = "type" // a defined type that is neither struct nor interface (Go `type Celsius float64`)
)

// NodeKinds lists every node kind, in the order FORMAT.md gives them.
var NodeKinds = []string{
	KindFile, KindModule, KindPackage, KindNamespace, KindClass, KindStruct,
	KindInterface, KindTrait, KindEnum, KindFunction, KindMethod,
	KindConstructor, KindField, KindConstant, KindVariable, KindTypeAlias, KindType,
}

// Edge kinds.
const (
	EdgeContains     = "contains"
	EdgeCalls        = "calls"
	EdgeImports      = "imports"
	EdgeExtends      = "extends"
	EdgeImplements   = "implements"
	EdgeReferences   = "references"
	EdgeInstantiates = "instantiates"
)

// EdgeKinds lists every edge kind, in the order FORMAT.md gives them.
var EdgeKinds = []string{
	EdgeContains, EdgeCalls, EdgeImports, EdgeExtends, EdgeImplements,
	EdgeReferences, EdgeInstantiates,
}

// Resolutions: how an edge's destination was found, or why it was not.
const (
	ResolvedLocal      = "local"       // declared in the same function or file scope
	ResolvedImport     = "import"      // through an import of the file
	ResolvedReceiver   = "receiver"    // a method on a receiver of known type
	ResolvedScope      = "scope"       // the enclosing package, module or class scope
	ResolvedUniqueName = "unique_name" // the only symbol of that name (reserved; never a guess)
	ResolvedStructural = "structural"  // derived from the declarations themselves (contains, implements)
	Ambiguous          = "ambiguous"   // several candidates; none chosen
	Unresolved         = "unresolved"  // no candidate could be proven
)

// Resolutions lists every resolution value.
var Resolutions = []string{
	ResolvedLocal, ResolvedImport, ResolvedReceiver, ResolvedScope,
	ResolvedUniqueName, ResolvedStructural, Ambiguous, Unresolved,
}

// File statuses.
const (
	StatusOK               = "ok"
	StatusParseError       = "parse_error"
	StatusSkippedLarge     = "skipped_large"
	StatusSkippedBinary    = "skipped_binary"
	StatusSkippedGenerated = "skipped_generated"
	StatusSkippedVendored  = "skipped_vendored"
	StatusSkippedMinified  = "skipped_minified"
	StatusSkippedDerived   = "skipped_derived"
	StatusSkippedSpecial   = "skipped_special"
	StatusSkippedTimeout   = "skipped_timeout"
	StatusUnsupported      = "unsupported"
	StatusUnreadable       = "unreadable"
)

// FileStatuses lists every file status.
var FileStatuses = []string{
	StatusOK, StatusParseError, StatusSkippedLarge, StatusSkippedBinary,
	StatusSkippedGenerated, StatusSkippedVendored, StatusSkippedMinified, StatusSkippedDerived, StatusSkippedSpecial,
	StatusSkippedTimeout, StatusUnsupported, StatusUnreadable,
}

// Visibility values.
const (
	Public    = "public"
	Private   = "private"
	Protected = "protected"
	Internal  = "internal"
)
