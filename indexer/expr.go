package indexer

// An Expr that starts with '?' names no value a resolver can follow; the
// rest of it says why, and the resolver words that as the reason of the
// unresolved ref. These are the sentinels every language means alike.
const (
	ExprLocal   = "?local"   // a local or parameter of unknown value
	ExprLiteral = "?literal" // a literal
	ExprExpr    = "?expr"    // an expression not followed
)

// MaxExprDepth bounds how deeply an Expr is worked out: the nesting of
// an expression's parts and of the locals it names through their values.
const MaxExprDepth = 32
