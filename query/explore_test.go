package query_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

func TestExplore(t *testing.T) {
	e := build(t)
	serve := row(t, e, "net/http.(*Server).Serve")
	for _, tc := range []struct {
		name      string
		seeds     []int32
		opt       query.ExploreOptions
		want      []string // the nodes, seeds first
		truncated bool
	}{
		{"depth 1 both ways", []int32{serve}, query.ExploreOptions{}, []string{
			"net/http.(*Server).Serve", "net/http.(*Server).newConn", "net/http.(*conn).serve",
			"net/http.Serve", "net/http.(*Server).ListenAndServe"}, false},
		{"callees to depth 3", []int32{row(t, e, "main.main")}, query.ExploreOptions{Depth: 3, Direction: query.Out, Kinds: []query.EdgeKind{query.Calls}}, []string{
			"main.main", "net/http.ListenAndServe", "net/http.(*Server).ListenAndServe", "net/http.(*Server).Serve"}, false},
		{"depth clamped to 3", []int32{row(t, e, "main.main")}, query.ExploreOptions{Depth: 9, Direction: query.Out, Kinds: []query.EdgeKind{query.Calls}}, []string{
			"main.main", "net/http.ListenAndServe", "net/http.(*Server).ListenAndServe", "net/http.(*Server).Serve"}, false},
		{"capped", []int32{serve}, query.ExploreOptions{MaxNodes: 3}, []string{
			"net/http.(*Server).Serve", "net/http.(*Server).newConn", "net/http.(*conn).serve"}, true},
		{"bad and repeated seeds", []int32{-1, serve, serve, 1 << 20}, query.ExploreOptions{Direction: query.In}, []string{
			"net/http.(*Server).Serve", "net/http.Serve", "net/http.(*Server).ListenAndServe"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := e.Explore(tc.seeds, tc.opt)
			if got := qnames(e, g.Nodes); !slices.Equal(got, tc.want) {
				t.Errorf("nodes %q\nwant %q", got, tc.want)
			}
			if g.Truncated != tc.truncated {
				t.Errorf("truncated %v", g.Truncated)
			}
			checkEdges(t, e, g)
		})
	}
	// Edges among the nodes go both ways, whichever way the walk went.
	g := e.Explore([]int32{row(t, e, "net/http.(*Client).Do")}, query.ExploreOptions{Direction: query.Out, Depth: 2})
	var cycle int
	for _, i := range g.Edges {
		if ed := e.Edge(i); ed.Kind == "calls" && (e.Node(ed.SrcRow).Name == "do" && e.Node(ed.DstRow).Name == "Do" || e.Node(ed.SrcRow).Name == "Do" && e.Node(ed.DstRow).Name == "do") {
			cycle++
		}
	}
	if cycle != 2 {
		t.Errorf("Do ⇄ do: %d edges, want 2", cycle)
	}
}

// checkEdges checks that g's edges join nodes of g, one per source, kind
// and destination, ascending.
func checkEdges(t *testing.T, e *query.Engine, g query.Subgraph) {
	t.Helper()
	type key struct {
		src, dst int32
		kind     string
	}
	seen := map[key]bool{}
	for i, x := range g.Edges {
		ed := e.Edge(x)
		if !slices.Contains(g.Nodes, ed.SrcRow) || !slices.Contains(g.Nodes, ed.DstRow) {
			t.Errorf("edge %d (%s → %s) leaves the subgraph", x, e.Node(ed.SrcRow).QualifiedName, ed.Target)
		}
		k := key{ed.SrcRow, ed.DstRow, ed.Kind}
		if seen[k] {
			t.Errorf("edge %d repeats %v", x, k)
		}
		seen[k] = true
		if i > 0 && g.Edges[i-1] >= x {
			t.Errorf("edges not ascending at %d", i)
		}
	}
}

func TestExploreParallelEdges(t *testing.T) {
	e := tiny(t, nil, "a calls b", "a calls b", "a calls b", "b calls c")
	g := e.Explore(e.Find("a", ""), query.ExploreOptions{Depth: 2})
	if len(g.Nodes) != 3 || len(g.Edges) != 2 {
		t.Errorf("nodes %v edges %v, want 3 nodes and 2 edges", g.Nodes, g.Edges)
	}
}

func TestMap(t *testing.T) {
	e := build(t)
	for _, tc := range []struct {
		name  string
		rows  []string
		nodes []string // given rows, then bridges (by the given rows' row order)
		edges []string
	}{
		{"bridges", []string{"net/http.ListenAndServe", "net/http.(*Server).Serve", "net/http.conn"},
			[]string{"net/http.ListenAndServe", "net/http.(*Server).Serve", "net/http.conn", "net/http.(*Server).newConn", "net/http.(*Server).ListenAndServe"},
			[]string{
				"net/http.(*Server).ListenAndServe calls net/http.(*Server).Serve",
				"net/http.(*Server).Serve calls net/http.(*Server).newConn",
				"net/http.(*Server).newConn instantiates net/http.conn",
				"net/http.ListenAndServe calls net/http.(*Server).ListenAndServe",
			}},
		{"direct edges, no bridge", []string{"net/http.(*Client).Do", "net/http.(*Client).do", "net/http.(*Client).send"},
			[]string{"net/http.(*Client).Do", "net/http.(*Client).do", "net/http.(*Client).send"},
			[]string{
				"net/http.(*Client).Do calls net/http.(*Client).do",
				"net/http.(*Client).do calls net/http.(*Client).Do",
				"net/http.(*Client).do calls net/http.(*Client).send",
			}},
		{"siblings are not bridged", []string{"app.db.Session.add", "app.db.Session.commit"},
			[]string{"app.db.Session.add", "app.db.Session.commit"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rows []int32
			for _, q := range tc.rows {
				rows = append(rows, row(t, e, q))
			}
			g := e.Map(rows, nil)
			if got := qnames(e, g.Nodes); !slices.Equal(got, tc.nodes) {
				t.Errorf("nodes %q\nwant %q", got, tc.nodes)
			}
			var edges []string
			for _, i := range g.Edges {
				ed := e.Edge(i)
				edges = append(edges, e.Node(ed.SrcRow).QualifiedName+" "+ed.Kind+" "+e.Node(ed.DstRow).QualifiedName)
			}
			slices.Sort(edges)
			if !slices.Equal(edges, tc.edges) {
				t.Errorf("edges %q\nwant %q", edges, tc.edges)
			}
			if !slices.Equal(g.Seeds, rows) {
				t.Errorf("seeds %v, want %v", g.Seeds, rows)
			}
			checkEdges(t, e, g)
		})
	}
}

// mermaidLine is every line Mermaid may draw: the header, a node with a
// quoted label free of what would end it, an edge, the seed class.
var mermaidLine = regexp.MustCompile(`^(flowchart LR|    n\d+(\(|\[|\{\{|\[\[|>)"([^"\[\]{}()<>|#;&` + "`" + `\\]|#\d+;)*"(\)|\]|\}\}|\]\])|    n\d+ (-->|-\.->)(\|[a-z]+\|)? n\d+|    classDef seed [a-z:#0-9,-]+|    class n\d+(,n\d+)* seed)$`)

func checkMermaid(t *testing.T, m string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(m, "\n"), "\n")
	if lines[0] != "flowchart LR" {
		t.Errorf("first line %q", lines[0])
	}
	for _, l := range lines {
		if !mermaidLine.MatchString(l) {
			t.Errorf("not Mermaid: %q", l)
		}
	}
	// Ids are n0, n1, … in order of declaration, and edges use declared ids.
	declared := 0
	for _, l := range lines[1:] {
		var id int
		if _, err := fmt.Sscanf(l, "    n%d", &id); err != nil {
			continue
		}
		switch {
		case !strings.Contains(l, "--") && !strings.Contains(l, "-.-"):
			if id != declared {
				t.Errorf("node n%d declared after n%d", id, declared-1)
			}
			declared++
		default:
			for _, f := range strings.Fields(l) {
				var x int
				if _, err := fmt.Sscanf(f, "n%d", &x); err == nil && x >= declared {
					t.Errorf("edge to undeclared n%d: %q", x, l)
				}
			}
		}
	}
}

func TestMermaid(t *testing.T) {
	e := build(t)
	g := e.Explore([]int32{row(t, e, "net/http.(*Server).Serve"), row(t, e, "net/http.Handler")}, query.ExploreOptions{Depth: 2})
	m := e.Mermaid(g)
	checkMermaid(t, m)
	for _, want := range []string{
		"    n0(\"Server.Serve\")\n", // a method: rounded, with its type
		"    n1{{\"Handler\"}}\n",    // an interface: hexagon
		"[\"Server\"]\n",             // a struct: rectangle
		"    class n0,n1 seed\n",
		" --> ",               // calls: plain
		" -->|instantiates| ", // others: labelled
		" -.->|implements| ",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("no %q in\n%s", want, m)
		}
	}
	if strings.Contains(m, "-->|calls|") {
		t.Errorf("labelled calls in\n%s", m)
	}
	if e.Mermaid(query.Subgraph{}) != "flowchart LR\n" {
		t.Error("empty subgraph")
	}
}

func TestMermaidEscapes(t *testing.T) {
	e := tiny(t, map[string]string{`Box<T>`: schemas.KindStruct, `I|face`: schemas.KindInterface, `pkg;x`: schemas.KindPackage},
		`a"b[0]`+" calls "+`Box<T>`,
		`a"b[0]`+" instantiates "+`Box<T>`,
		`Box<T>`+" implements "+`I|face`,
		`x#y{z}&`+" references "+`a"b[0]`,
		`pkg;x`+" contains "+`x#y{z}&`)
	g := e.Explore(e.Find(`a"b[0]`, ""), query.ExploreOptions{Depth: 2, Kinds: []query.EdgeKind{query.Calls, query.Instantiates, query.Implements, query.References, query.Contains}})
	m := e.Mermaid(g)
	checkMermaid(t, m)
	for _, want := range []string{
		`n0("a#34;b#91;0#93;")`,
		`["Box#60;T#62;"]`,
		`{{"I#124;face"}}`,
		`("x#35;y#123;z#125;#38;")`,
		`[["pkg#59;x"]]`,
		"-->|contains|",
		"-.->|references|",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("no %s in\n%s", want, m)
		}
	}
}
