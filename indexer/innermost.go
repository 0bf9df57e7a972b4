package indexer

import "github.com/graphsnap/snap/schemas"

// InnermostAt descends from node s through its children (kids, by parent
// id) to the innermost one whose span holds line:col, and returns it: s
// itself when no child holds it, -1 when s is -1.
func InnermostAt(nodes []schemas.Node, kids map[uint64][]int32, s int32, line, col uint32) int32 {
	for s >= 0 {
		inner := int32(-1)
		for _, k := range kids[nodes[s].ID] {
			n := &nodes[k]
			if (n.StartLine < line || n.StartLine == line && n.StartCol <= col) &&
				(line < n.EndLine || line == n.EndLine && col < n.EndCol) {
				inner = k
				break
			}
		}
		if inner < 0 {
			return s
		}
		s = inner
	}
	return s
}
