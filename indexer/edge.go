package indexer

import "github.com/graphsnap/snap/schemas"

// RefEdge returns the edge of kind that ref makes to dst (0 when
// unresolved), resolved as res says with confidence, or left unresolved
// for reason. Its source, position, target and call-site facts are the
// ref's.
func RefEdge(ref *schemas.Ref, kind string, dst uint64, res string, confidence float32, reason string) schemas.Edge {
	return schemas.Edge{
		Src: ref.Src, Dst: dst, Kind: kind, File: ref.File, Line: ref.Line, Col: ref.Col, Target: ref.Target,
		Resolution: res, Confidence: confidence, Reason: reason,
		Args: ref.Args, InLoop: ref.InLoop, InTry: ref.InTry, Conditional: ref.Conditional,
	}
}
