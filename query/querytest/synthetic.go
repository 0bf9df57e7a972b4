package querytest

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

var (
	verbs = strings.Fields("Get Set Load Save Parse Format Read Write Open Close Find Build Handle Serve Resolve Render Update Delete Create Validate Encode Decode Fetch Sync Merge Split Index Query Scan Flush")
	nouns = strings.Fields("User Server Client Config Request Response Handler Session Token Cache Index Node Edge File Path Query Result Buffer Stream Conn Pool Event Message Record Table Schema Store Snapshot Manifest Graph")
)

// Synthetic returns a generated snapshot of about n nodes and 5n edges,
// the same for the same n and seed: packages of twenty files, a quarter of
// them Python; in each file structs or classes with fields and methods,
// functions and an interface; edges that mostly stay in their package but
// also reach popular symbols elsewhere, a tenth of the calls unresolved.
// It has no sources.
func Synthetic(n int, seed uint64) *snapshot.Snapshot {
	g := &synth{rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	for pkg := 0; len(g.nodes) < n; pkg++ {
		g.pkg(pkg)
	}
	return g.snapshot(seed)
}

type synthNode struct {
	schemas.Node
	pkg    int
	parent int // index, -1 for none
}

type synth struct {
	rng      *rand.Rand
	nodes    []synthNode
	files    []schemas.File
	callable []int   // indexes of functions and methods, in creation order
	pkgStart []int   // index into callable where each package starts
	types    []int   // structs and classes
	ifaces   []int   // interfaces
	ifaceOf  []int   // per package: its first interface, -1 for none
	consts   []int   // constants and variables
	popular  [][]int // per package: its exported callables
}

func (g *synth) word(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *synth) add(n schemas.Node, pkg, parent int) int {
	g.nodes = append(g.nodes, synthNode{Node: n, pkg: pkg, parent: parent})
	return len(g.nodes) - 1
}

func (g *synth) pkg(pkg int) {
	python := pkg%4 == 3
	lang := "go"
	pkgPath := fmt.Sprintf("example.com/mod/pkg%04d", pkg)
	if python {
		lang = "python"
		pkgPath = fmt.Sprintf("pkg%04d", pkg)
	}
	g.pkgStart = append(g.pkgStart, len(g.callable))
	g.ifaceOf = append(g.ifaceOf, -1)
	g.popular = append(g.popular, nil)
	ident := func(words ...string) string {
		if !python {
			return strings.Join(words, "")
		}
		return strings.ToLower(strings.Join(words, "_"))
	}
	for f := range 20 {
		path := fmt.Sprintf("src/pkg%04d/file%02d.go", pkg, f)
		scope := pkgPath
		if python {
			path = fmt.Sprintf("src/pkg%04d/mod%02d.py", pkg, f)
			scope = fmt.Sprintf("%s.mod%02d", pkgPath, f)
		}
		g.files = append(g.files, schemas.File{Path: path, Language: lang, Status: schemas.StatusOK})
		line := uint32(1)
		node := func(kind, name, qname string, parent, lines int) int {
			n := schemas.Node{
				Kind: kind, Name: name, QualifiedName: qname, Language: lang, File: path,
				StartLine: line, StartCol: 1, EndLine: line + uint32(lines), EndCol: 2,
				Exported: name[0] >= 'A' && name[0] <= 'Z' || python && name[0] != '_',
			}
			line += uint32(lines) + 1
			return g.add(n, pkg, parent)
		}
		file := node(schemas.KindFile, path[strings.LastIndexByte(path, '/')+1:], path, -1, 0)
		g.nodes[file].EndLine = 400
		if f == 0 && !python {
			name := g.word(nouns) + "er"
			g.ifaceOf[pkg] = node(schemas.KindInterface, name, scope+"."+name, file, 4)
			g.ifaces = append(g.ifaces, g.ifaceOf[pkg])
		}
		for range 2 {
			typ := ident(g.word(nouns), g.word(nouns))
			kind := schemas.KindStruct
			if python {
				kind, typ = schemas.KindClass, g.word(nouns)+g.word(nouns)
			}
			t := node(kind, typ, scope+"."+typ, file, 1)
			g.types = append(g.types, t)
			for range 2 {
				name := ident(g.word(nouns))
				node(schemas.KindField, name, scope+"."+typ+"."+name, t, 0)
			}
			for range 4 {
				name := ident(g.word(verbs), g.word(nouns))
				q := fmt.Sprintf("%s.(*%s).%s", scope, typ, name)
				if python {
					q = scope + "." + typ + "." + name
				}
				m := node(schemas.KindMethod, name, q, t, 8+g.rng.IntN(20))
				g.addCallable(pkg, m)
			}
		}
		for range 6 {
			name := ident(g.word(verbs), g.word(nouns))
			if g.rng.IntN(3) == 0 {
				name = ident(g.word(verbs), g.word(nouns), g.word(nouns))
			}
			fn := node(schemas.KindFunction, name, scope+"."+name, file, 5+g.rng.IntN(30))
			g.addCallable(pkg, fn)
		}
		for range 2 {
			name := ident("Default", g.word(nouns))
			g.consts = append(g.consts, node(schemas.KindConstant, name, scope+"."+name, file, 0))
		}
	}
}

func (g *synth) addCallable(pkg, i int) {
	g.callable = append(g.callable, i)
	if g.nodes[i].Exported && g.rng.IntN(8) == 0 {
		g.popular[pkg] = append(g.popular[pkg], i)
	}
}

// callee picks what a symbol of pkg calls: mostly something of pkg, else an
// exported symbol of a package chosen with a bias to low numbers, the way
// a few core packages get most calls.
func (g *synth) callee(pkg int) int {
	if g.rng.IntN(10) < 6 {
		lo := g.pkgStart[pkg]
		hi := len(g.callable)
		if pkg+1 < len(g.pkgStart) {
			hi = g.pkgStart[pkg+1]
		}
		return g.callable[lo+g.rng.IntN(hi-lo)]
	}
	for {
		u := g.rng.Float64()
		p := int(u * u * u * float64(len(g.popular)))
		if len(g.popular[p]) > 0 {
			return g.popular[p][g.rng.IntN(len(g.popular[p]))]
		}
	}
}

func (g *synth) snapshot(seed uint64) *snapshot.Snapshot {
	// Ids: a bijective mix of the index, so they are distinct and look
	// like hashes.
	order := make([]int, len(g.nodes))
	for i := range g.nodes {
		g.nodes[i].ID = cmp.Or(mix(uint64(i)^seed<<32), 1)
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(g.nodes[a].ID, g.nodes[b].ID) })
	row := make([]int32, len(g.nodes))
	s := &snapshot.Snapshot{Nodes: make([]schemas.Node, len(g.nodes)), Files: g.files}
	for r, i := range order {
		row[i] = int32(r)
	}
	for i := range g.nodes {
		if p := g.nodes[i].parent; p >= 0 {
			g.nodes[i].ParentID = g.nodes[p].ID
		}
	}
	for r, i := range order {
		s.Nodes[r] = g.nodes[i].Node
	}

	// Edges, source by source in row order, so only each source's few
	// edges need sorting.
	children := make([][]int32, len(g.nodes))
	for i := range g.nodes {
		if p := g.nodes[i].parent; p >= 0 {
			children[p] = append(children[p], int32(i))
		}
	}
	var mine []schemas.Edge
	for r, i := range order {
		sn := &g.nodes[i]
		mine = mine[:0]
		edge := func(kind string, dst int, target, res, reason string) {
			e := schemas.Edge{
				Src: sn.ID, Kind: kind, File: sn.File, Target: target,
				Line: sn.StartLine + uint32(g.rng.IntN(int(sn.EndLine-sn.StartLine)+1)), Col: uint32(2 + g.rng.IntN(40)),
				Resolution: res, Reason: reason, Confidence: 1, SrcRow: int32(r), DstRow: -1,
			}
			if dst >= 0 {
				e.Dst, e.DstRow = g.nodes[dst].ID, row[dst]
			} else {
				e.Confidence = 0
			}
			mine = append(mine, e)
		}
		for _, c := range children[i] {
			edge(schemas.EdgeContains, int(c), g.nodes[c].Name, schemas.ResolvedStructural, "")
		}
		switch sn.Kind {
		case schemas.KindFunction, schemas.KindMethod:
			for range 3 + g.rng.IntN(5) {
				c := g.callee(sn.pkg)
				edge(schemas.EdgeCalls, c, g.nodes[c].Name, schemas.ResolvedScope, "")
			}
			if g.rng.IntN(2) == 0 {
				edge(schemas.EdgeCalls, -1, g.word(verbs), schemas.Unresolved, "unknown receiver type")
			}
			if g.rng.IntN(2) == 0 {
				c := g.consts[g.rng.IntN(len(g.consts))]
				edge(schemas.EdgeReferences, c, g.nodes[c].Name, schemas.ResolvedImport, "")
			}
			if g.rng.IntN(3) == 0 {
				t := g.types[g.rng.IntN(len(g.types))]
				edge(schemas.EdgeInstantiates, t, g.nodes[t].Name, schemas.ResolvedImport, "")
			}
		case schemas.KindStruct:
			if it := g.ifaceOf[sn.pkg]; it >= 0 && g.rng.IntN(3) == 0 {
				edge(schemas.EdgeImplements, it, g.nodes[it].Name, schemas.ResolvedStructural, "")
			}
		case schemas.KindClass:
			if g.rng.IntN(4) == 0 {
				t := g.types[g.rng.IntN(len(g.types))]
				if g.nodes[t].Kind == schemas.KindClass && t != i {
					edge(schemas.EdgeExtends, t, g.nodes[t].Name, schemas.ResolvedImport, "")
				}
			}
		}
		slices.SortFunc(mine, compareEdges)
		s.Edges = append(s.Edges, mine...)
	}
	s.Manifest = schemas.Manifest{
		FormatVersion: schemas.FormatVersion, FeatureVersion: schemas.FeatureVersion,
		Repo:   "example.com/mod",
		Branch: "main",
		Commit: fmt.Sprintf("%040x", seed),
		Counts: schemas.Counts{Files: len(s.Files), Nodes: len(s.Nodes), Edges: len(s.Edges)},
	}
	return s
}

// mix is SplitMix64's finalizer: a bijection of uint64.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
