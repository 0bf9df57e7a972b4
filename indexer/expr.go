package indexer

import "cmp"

// An Expr that starts with '?' names no value a resolver can follow; the
// rest of it says why, and the resolver words that as the reason of the
// unresolved ref. These are the sentinels every language means alike.
const (
	ExprLocal   = "?local"   // a local or parameter of unknown value
	ExprLiteral = "?literal" // a literal
	ExprExpr    = "?expr"    // an expression not followed
)

// Reasons of unresolved refs about Exprs, in the words the languages
// that give them share.
const (
	ReasonLocal   = "local of unknown type"
	ReasonLiteral = "member of a literal"
	ReasonExpr    = "unsupported expression"
	ReasonTooDeep = "expression too deep" // an Expr nested past a bound
)

// ExprReason returns the reason of an unresolved ref whose Expr e is a
// sentinel: ReasonLocal, ReasonLiteral, or ReasonExpr for any other.
func ExprReason(e string) string {
	switch e {
	case ExprLocal:
		return ReasonLocal
	case ExprLiteral:
		return ReasonLiteral
	}
	return ReasonExpr
}

// MaxExprDepth bounds how deeply an Expr is worked out: the nesting of
// an expression's parts and of the locals it names through their values.
const MaxExprDepth = 32

// LocalExpr returns the Expr of a local bound to a value, held by l and
// worked out on first use by compute: ExprLocal when compute gives none,
// or when asked again while computing it (the value names the local).
func LocalExpr(l *Lazy[string], compute func() string) string {
	return l.Get(func() string { return cmp.Or(compute(), ExprLocal) }, ExprLocal)
}

// Agree folds e, the Expr of one more value a local is assigned, into v,
// the Expr of the values before it ("" for none): v while they agree,
// ExprLocal once they do not.
func Agree(v, e string) string {
	switch {
	case v == "":
		return e
	case v != e:
		return ExprLocal
	}
	return v
}
