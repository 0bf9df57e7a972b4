package indexer

import "github.com/graphsnap/snap/schemas"

// InheritedConfidence is the confidence of an edge to a member found
// where a base outside the snapshot might declare one of that name (or a
// closer overload) that the language would take first.
const InheritedConfidence = 0.8

// Reasons of unresolved refs, in the words the resolvers that give them
// share.
const (
	ReasonUnknownType  = "unknown receiver type"
	ReasonUnknownName  = "unknown name"
	ReasonNoMember     = "unknown member"
	ReasonDynamic      = "dynamic call"
	ReasonChainTooLong = "import chain too long"
)

// ResolvedEdge returns the edge of kind that ref makes to dst, resolved
// as res says, with full confidence.
func ResolvedEdge(ref *schemas.Ref, kind string, dst uint64, res string) schemas.Edge {
	return RefEdge(ref, kind, dst, res, 1, "")
}

// UnresolvedEdge returns the edge of kind that ref makes, left unresolved
// for reason.
func UnresolvedEdge(ref *schemas.Ref, kind, reason string) schemas.Edge {
	return RefEdge(ref, kind, 0, schemas.Unresolved, 0, reason)
}
