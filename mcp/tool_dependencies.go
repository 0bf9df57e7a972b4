package mcp

import (
	"context"
	"slices"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

type dependenciesIn struct {
	target
	tests
	page
	budget
}

// dependency is a module, package or file at the other end of imports,
// with the first place the import is written.
type dependency struct {
	sym
	At    string `json:"at"`
	Sites int    `json:"sites"` // imports written between the two
	row   int32
}

type dependenciesOut struct {
	header
	Symbol       sym          `json:"symbol"`
	Dependencies []dependency `json:"dependencies"`
	Tests        int          `json:"tests,omitempty"` // of total, how many are test code
	listed
}

type dependentsOut struct {
	header
	Symbol     sym          `json:"symbol"`
	Dependents []dependency `json:"dependents"`
	Tests      int          `json:"tests,omitempty"` // of total, how many are test code
	listed
}

// importers are the rows whose imports count as the symbol's: itself and,
// for a package or module, the files it contains.
func importers(e *query.Engine, r int32) []int32 {
	rows := []int32{r}
	switch e.NodeKind(r) {
	case schemas.KindPackage, schemas.KindModule, schemas.KindNamespace:
		for _, c := range e.Children(r) {
			if e.NodeKind(c) == schemas.KindFile {
				rows = append(rows, c)
			}
		}
	}
	return rows
}

// imports gathers the imports edges of rows in direction d, one entry per
// symbol at the other end, in the order first written.
func imports(e *query.Engine, rows []int32, d query.Direction) []dependency {
	var links []query.Link
	for _, r := range rows {
		if d == query.Out {
			links = append(links, e.Imports(r)...)
		} else {
			links = append(links, e.References(r, []query.EdgeKind{query.Imports})...)
		}
	}
	index := map[int32]int{}
	var out []dependency
	for _, l := range links {
		if slices.Contains(rows, l.Node) {
			continue // a package's files importing each other
		}
		if i, ok := index[l.Node]; ok {
			out[i].Sites++
			continue
		}
		index[l.Node] = len(out)
		out = append(out, dependency{sym: symOf(e, l.Node), At: siteLoc(e.Edge(l.Edge)), Sites: 1, row: l.Node})
	}
	return out
}

var dependenciesTool = newTool(
	"snap_dependencies", "Dependencies", ToolsetGraph,
	"What a file, module or package imports (for a package or module, what its files import), one entry per "+
		"imported symbol with the first place it is imported and how many imports name it. Only imports the index "+
		"resolved are listed: external packages are not in the snapshot.",
	func(_ context.Context, e *query.Engine, in *dependenciesIn) (*dependenciesOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		mode, terr := in.mode(testsInclude)
		if terr != nil {
			return nil, terr
		}
		all := imports(e, importers(e, r), query.Out)
		out := &dependenciesOut{Symbol: subjectOf(e, r)}
		all, out.Tests = byTests(mode, all, func(d dependency) bool { return e.IsTest(d.row) })
		if err := pageOf(e, &in.page, &in.budget, DefaultMaxTokens, out, &out.listed, all, func(pg []dependency) { out.Dependencies = pg }); err != nil {
			return nil, err
		}
		if len(all) == 0 {
			out.Hint = "no resolved imports: give a file, module or package; imports of external code are not in the snapshot"
		}
		return out, nil
	})

var dependentsTool = newTool(
	"snap_dependents", "Dependents", ToolsetGraph,
	"Who imports a file, module or package: one entry per importing file or module, with the first place it "+
		"imports it and how many imports name it. snap_impact follows calls and references further.",
	func(_ context.Context, e *query.Engine, in *dependenciesIn) (*dependentsOut, *ToolError) {
		r, err := in.resolve(e)
		if err != nil {
			return nil, err
		}
		mode, terr := in.mode(testsInclude)
		if terr != nil {
			return nil, terr
		}
		all := imports(e, []int32{r}, query.In)
		out := &dependentsOut{Symbol: subjectOf(e, r)}
		all, out.Tests = byTests(mode, all, func(d dependency) bool { return e.IsTest(d.row) })
		if err := pageOf(e, &in.page, &in.budget, DefaultMaxTokens, out, &out.listed, all, func(pg []dependency) { out.Dependents = pg }); err != nil {
			return nil, err
		}
		if len(all) == 0 {
			out.Hint = "nothing in the snapshot imports it"
		}
		return out, nil
	})
