package query

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/graphsnap/snap/schemas"
)

// Explore defaults and bounds.
const (
	DefaultExploreDepth = 1
	MaxExploreDepth     = 3
	DefaultExploreNodes = 50
	MaxExploreNodes     = 500
	MaxMapBridges       = 50 // intermediate nodes Map adds, at most
)

// ExploreOptions shape a neighbourhood. Zero values take the defaults:
// depth DefaultExploreDepth, DefaultPathKinds (every kind but contains),
// both directions, DefaultExploreNodes nodes.
type ExploreOptions struct {
	Depth     int // clamped to MaxExploreDepth
	Kinds     []EdgeKind
	Direction Direction
	MaxNodes  int // nodes in all, seeds included; clamped to MaxExploreNodes
}

// Subgraph is a set of nodes and the edges among them, as Explore and Map
// return it and Mermaid draws it.
type Subgraph struct {
	Nodes     []int32 // seeds first, then in the order reached
	Seeds     []int32 // the nodes asked about (Mermaid highlights them)
	Edges     []int32 // edge rows between nodes of Nodes, one per source, kind and destination, ascending
	Truncated bool    // a cap left nodes out
}

// Explore returns the neighbourhood of seeds: the nodes within opt.Depth
// hops over opt.Kinds in opt.Direction, breadth-first (nearer nodes first,
// neighbours in edge order), at most opt.MaxNodes of them, and every edge
// of opt.Kinds among them, whichever way it points. Seeds out of range are
// ignored.
func (e *Engine) Explore(seeds []int32, opt ExploreOptions) Subgraph {
	depth := opt.Depth
	if depth <= 0 {
		depth = DefaultExploreDepth
	}
	depth = min(depth, MaxExploreDepth)
	kinds := opt.Kinds
	if len(kinds) == 0 {
		kinds = DefaultPathKinds
	}
	dir := cmp.Or(opt.Direction, Both)
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultExploreNodes
	}
	maxNodes = min(maxNodes, MaxExploreNodes)

	var g Subgraph
	in := e.rowSet()
	defer e.putRowSet(in)
	for _, s := range seeds {
		if s >= 0 && int(s) < len(e.nodes) && !in.has(s) {
			in.set(s)
			g.Seeds = append(g.Seeds, s)
		}
	}
	g.Nodes = slices.Clone(g.Seeds)
	frontier := g.Seeds
	for d := 1; d <= depth && len(frontier) > 0 && !g.Truncated; d++ {
		start := len(g.Nodes)
		for _, u := range frontier {
			if !e.each(u, kinds, dir, func(_, v int32) bool {
				if in.has(v) {
					return true
				}
				if len(g.Nodes) >= maxNodes {
					g.Truncated = true
					return false
				}
				in.set(v)
				g.Nodes = append(g.Nodes, v)
				return true
			}) {
				break
			}
		}
		frontier = g.Nodes[start:]
	}
	g.Edges = e.edgesAmong(g.Nodes, in.bits, kinds)
	return g
}

// edgesAmong returns the resolved edges of kinds from a node of nodes to a
// node of set (which holds nodes), one per source, kind and destination,
// ascending.
func (e *Engine) edgesAmong(nodes []int32, set bitset, kinds []EdgeKind) []int32 {
	var out []int32
	for _, u := range nodes {
		for _, k := range kinds {
			if k >= numEdgeKinds {
				continue
			}
			last := int32(-1)
			// Out-edges of u are sorted by destination within a kind, so
			// parallel edges are neighbours.
			rs := e.outRows(u, k)
			for i := rs.lo; i < rs.hi; i++ {
				v := e.edges[i].dstRow
				if v < 0 || !set.has(v) || v == last {
					continue
				}
				last = v
				out = append(out, int32(i))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Map returns the edges of kinds (DefaultPathKinds when none) among exactly
// rows, and the nodes that bridge them: when one of rows reaches another
// through a single node not among rows (a → m → b, along the edges'
// direction) and the two have no direct edge either way, m is added with
// its two edges. Bridges are found in row order, at most MaxMapBridges
// (Truncated says when more were left out). Sibling links (a ← m → b) are
// not bridges: a common caller would join every pair of callees.
func (e *Engine) Map(rows []int32, kinds []EdgeKind) Subgraph {
	if len(kinds) == 0 {
		kinds = DefaultPathKinds
	}
	var g Subgraph
	given := newBitset(len(e.nodes))
	for _, r := range rows {
		if r >= 0 && int(r) < len(e.nodes) && !given.has(r) {
			given.set(r)
			g.Seeds = append(g.Seeds, r)
		}
	}
	g.Nodes = slices.Clone(g.Seeds)
	direct := map[[2]int32]bool{}
	for _, i := range e.edgesAmong(g.Seeds, given, kinds) {
		ed := &e.edges[i]
		direct[[2]int32{ed.srcRow, ed.dstRow}] = true
		direct[[2]int32{ed.dstRow, ed.srcRow}] = true
	}
	// Bridges: for each given a and each m it points at, the given b that
	// m points at.
	set := given.clone()
	sorted := slices.Sorted(slices.Values(g.Seeds))
	for _, a := range sorted {
		e.each(a, kinds, Out, func(_, m int32) bool {
			if given.has(m) || set.has(m) {
				return true
			}
			bridges := !e.each(m, kinds, Out, func(_, b int32) bool {
				return !(given.has(b) && b != a && !direct[[2]int32{a, b}])
			})
			if !bridges {
				return true
			}
			if len(g.Nodes)-len(g.Seeds) >= MaxMapBridges {
				g.Truncated = true
				return false
			}
			set.set(m)
			g.Nodes = append(g.Nodes, m)
			return true
		})
	}
	// Edges: among the given rows, and a bridge's edges to and from them.
	g.Edges = e.edgesAmong(g.Nodes, set, kinds)
	g.Edges = slices.DeleteFunc(g.Edges, func(i int32) bool {
		ed := &e.edges[i]
		return !given.has(ed.srcRow) && !given.has(ed.dstRow)
	})
	return g
}

func (b bitset) clone() bitset { return slices.Clone(b) }

// Mermaid draws g as a Mermaid flowchart, left to right. Node ids are n0,
// n1, … in the order of g.Nodes; labels are the symbols' names (with their
// type's name for members: "Client.Do"), escaped; shapes say the kind:
// rounded for functions and methods, rectangles for types, hexagons for
// interfaces and traits, subroutines for files, packages and modules,
// flags for fields, constants and variables. Calls are plain arrows, other
// edges are labelled with their kind (dotted for implements, extends and
// references). Seeds are highlighted with classDef seed.
func (e *Engine) Mermaid(g Subgraph) string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	id := make(map[int32]int, len(g.Nodes))
	for _, r := range g.Nodes {
		if _, ok := id[r]; ok {
			continue
		}
		id[r] = len(id)
		open, close := mermaidShape(e.NodeKind(r))
		fmt.Fprintf(&b, "    n%d%s\"%s\"%s\n", id[r], open, mermaidEscape(e.label(r)), close)
	}
	for _, i := range g.Edges {
		ed := &e.edges[i]
		from, ok1 := id[ed.srcRow]
		to, ok2 := id[ed.dstRow]
		if !ok1 || !ok2 {
			continue
		}
		switch ed.kind {
		case Calls:
			fmt.Fprintf(&b, "    n%d --> n%d\n", from, to)
		case Implements, Extends, References:
			fmt.Fprintf(&b, "    n%d -.->|%s| n%d\n", from, ed.kind, to)
		default:
			fmt.Fprintf(&b, "    n%d -->|%s| n%d\n", from, ed.kind, to)
		}
	}
	var seeds []string
	for _, r := range g.Seeds {
		if i, ok := id[r]; ok {
			seeds = append(seeds, fmt.Sprintf("n%d", i))
		}
	}
	if len(seeds) > 0 {
		b.WriteString("    classDef seed fill:#fde68a,stroke:#b45309,stroke-width:2px\n")
		fmt.Fprintf(&b, "    class %s seed\n", strings.Join(slices.Compact(seeds), ","))
	}
	return b.String()
}

// label names node r for a diagram: its name, after its type's name for a
// member ("Client.Do", "User.save").
func (e *Engine) label(r int32) string {
	if p, ok := e.Parent(r); ok && isTypeLike(e.NodeKind(p)) {
		return e.NodeName(p) + "." + e.NodeName(r)
	}
	return e.NodeName(r)
}

// mermaidShape returns the brackets around a node of kind.
func mermaidShape(kind string) (open, close string) {
	switch kind {
	case schemas.KindFunction, schemas.KindMethod, schemas.KindConstructor:
		return "(", ")"
	case schemas.KindInterface, schemas.KindTrait:
		return "{{", "}}"
	case schemas.KindFile, schemas.KindPackage, schemas.KindModule, schemas.KindNamespace:
		return "[[", "]]"
	case schemas.KindField, schemas.KindConstant, schemas.KindVariable:
		return ">", "]"
	}
	return "[", "]"
}

// mermaidEscape makes s safe inside a quoted Mermaid label: characters
// that end the label or that Mermaid or its HTML labels read (quotes, '#'
// which starts an entity, brackets, braces, parentheses, '<', '>', '|',
// '&', ';', '`') become entity codes (#34;), and line breaks spaces.
func mermaidEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch c {
		case '"', '#', '[', ']', '{', '}', '(', ')', '<', '>', '|', '&', ';', '`', '\\':
			fmt.Fprintf(&b, "#%d;", c)
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}
