package indexer

import "github.com/graphsnap/snap/schemas"

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
