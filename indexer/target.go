package indexer

import "github.com/graphsnap/snap/schemas"

// Target is where a resolver's walk of a ref ends: at Node, an index into
// the nodes it resolves against, or at no node (Node < 0) for Why.
type Target struct {
	Node  int32
	How   string // with a node: how it was reached; ResolvedReceiver when empty
	Why   string // without a node: why none was reached
	Amb   bool   // without a node: more than one would do
	Maybe bool   // with a node: a base outside the snapshot may declare a closer one
}

// Edge returns the edge of kind that ref makes to t, whose Node indexes
// nodes.
func (t Target) Edge(ref *schemas.Ref, kind string, nodes []schemas.Node) schemas.Edge {
	if t.Node >= 0 {
		how := t.How
		if how == "" {
			how = schemas.ResolvedReceiver
		}
		e := ResolvedEdge(ref, kind, nodes[t.Node].ID, how)
		if t.Maybe {
			e.Confidence = InheritedConfidence
		}
		return e
	}
	e := UnresolvedEdge(ref, kind, t.Why)
	if t.Amb {
		e.Resolution = schemas.Ambiguous
	}
	return e
}
