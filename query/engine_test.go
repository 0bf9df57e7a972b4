package query_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer/python"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

func build(t testing.TB) *query.Engine {
	t.Helper()
	e, err := query.Build(querytest.Fixture())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// row returns the row of the symbol with that exact qualified name.
func row(t testing.TB, e *query.Engine, qname string) int32 {
	t.Helper()
	for r := range int32(e.NumNodes()) {
		if e.Node(r).QualifiedName == qname {
			return r
		}
	}
	t.Fatalf("no symbol %s", qname)
	return -1
}

func qnames(e *query.Engine, rows []int32) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = e.Node(r).QualifiedName
	}
	return out
}

func TestBuildChecksRows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(s *schemas.Edge, n []schemas.Node)
		want   string
	}{
		{"src row out of range", func(e *schemas.Edge, _ []schemas.Node) { e.SrcRow = 1 << 20 }, "src_row"},
		{"src row names another node", func(e *schemas.Edge, _ []schemas.Node) { e.SrcRow++ }, "src_row"},
		{"dst row out of range", func(e *schemas.Edge, _ []schemas.Node) { e.DstRow = -2 }, "dst_row"},
		{"unresolved with a row", func(e *schemas.Edge, _ []schemas.Node) { e.Dst = 0 }, "unresolved edge has dst_row"},
		{"unknown kind", func(e *schemas.Edge, _ []schemas.Node) { e.Kind = "overrides" }, `unknown kind "overrides"`},
		{"nodes out of order", func(_ *schemas.Edge, n []schemas.Node) { n[0], n[1] = n[1], n[0] }, "sorted by unique id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := querytest.Fixture()
			i := slices.IndexFunc(s.Edges, func(e schemas.Edge) bool { return e.Dst != 0 && e.SrcRow > 0 })
			tc.break_(&s.Edges[i], s.Nodes)
			_, err := query.Build(s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Build: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestEdgeRows holds the engine's compact edges to the rows they came
// from: Edge gives back every field of every row, whatever the mix of
// files, resolutions, reasons and flags.
func TestEdgeRows(t *testing.T) {
	s := querytest.Synthetic(2000, 4)
	whys := [][2]string{{schemas.ResolvedStructural, ""}, {schemas.Unresolved, "no such name"}, {schemas.Unresolved, "ambiguous"}, {"guessed", ""}}
	for i := range s.Edges {
		ed := &s.Edges[i]
		w := whys[i%len(whys)]
		if ed.Dst == 0 {
			w = whys[1+i%2]
		}
		ed.Resolution, ed.Reason = w[0], w[1]
		ed.InLoop, ed.InTry, ed.Conditional = i%2 == 0, i%3 == 0, i%5 == 0
		ed.Confidence = float32(i%7) / 7
		if i < 600 || i > 1100 { // a block of edges without arguments
			ed.Args = strings.Repeat("x", i%4) + strconv.Itoa(i)
		}
		ed.Line, ed.Col = uint32(i), uint32(i%80)
		// Targets of every length an arena stores apart: empty, one
		// byte of length, and the four bytes from 255 on.
		ed.Target = strings.Repeat("t", []int{0, 1, 127, 128, 254, 255, 256, 1 << 16}[i%8]) + strconv.Itoa(i%3)
		if i%8 == 0 && i%3 == 0 {
			ed.Target = ""
		}
		if i%9 == 0 {
			ed.Confidence = float32(math.NaN()) // one key, whatever a NaN compares as
		}
		switch i % 13 {
		case 0:
			ed.File = "" // no file
		case 1:
			ed.File = fmt.Sprintf("other/%d.go", i%17) // not a file of the snapshot
		}
	}
	want := slices.Clone(s.Edges)
	wantNodes := slices.Clone(s.Nodes)
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	// Files only edges name are numbered among the nodes': the nodes'
	// files stay theirs.
	for r := range int32(len(wantNodes)) {
		if got := e.Node(r).File; got != wantNodes[r].File {
			t.Fatalf("node %d: file %q, want %q", r, got, wantNodes[r].File)
		}
	}
	if e.NumEdges() != len(want) {
		t.Fatalf("%d edges, want %d", e.NumEdges(), len(want))
	}
	for i := range int32(len(want)) {
		got := e.Edge(i)
		if got.Args != "" {
			t.Fatalf("edge %d: Edge has Args %q, want them left to EdgeArgs", i, got.Args)
		}
		w := want[i]
		if math.Float32bits(got.Confidence) == math.Float32bits(w.Confidence) {
			got.Confidence, w.Confidence = 0, 0 // a NaN equals no float, even itself
		}
		if got.Args = e.EdgeArgs(i); got != w {
			t.Fatalf("edge %d:\n got %+v\nwant %+v", i, got, want[i])
		}
		from, to := e.EdgeEnds(i)
		if k, _ := query.ParseEdgeKind(want[i].Kind); e.EdgeKind(i) != k || from != want[i].SrcRow || to != want[i].DstRow {
			t.Fatalf("edge %d: kind %s, ends %d → %d; want %s, %d → %d", i, e.EdgeKind(i), from, to, k, want[i].SrcRow, want[i].DstRow)
		}
	}
}

// TestNodeRows holds the engine's compact nodes to the rows they came
// from: Node gives back every field of every row (a list of decorators
// comes back nil when it is empty), and the one-field readers and Parent
// agree with it, whatever the mix of names, parents and flags.
func TestNodeRows(t *testing.T) {
	s := querytest.Synthetic(2000, 2)
	kinds := []string{schemas.KindFunction, schemas.KindMethod, schemas.KindClass, "odd kind"}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		n.Kind = kinds[i%len(kinds)]
		n.Language = []string{"go", "python", ""}[i%3]
		n.Visibility = []string{"", "public", "private"}[i%3]
		switch i % 5 {
		case 0:
			n.Name = "" // no name
		case 1:
			n.Name = "Other" + strconv.Itoa(i) // not the end of the qualified name
		case 2:
			n.QualifiedName, n.Name = "", "" // neither
		}
		// Lengths on each side of those an arena stores apart (one byte
		// of length to 254, five from 255 on).
		lens := []int{0, 1, 2, 127, 128, 254, 255, 256, 1 << 16}
		n.Signature = strings.Repeat("s", lens[i%len(lens)])
		n.Doc = strings.Repeat("d", lens[(i/3)%len(lens)])
		switch i % 11 {
		case 3:
			n.Name = strings.Repeat("N", lens[(i/11)%len(lens)]) // not the end of the qualified name
		case 4:
			n.Name = strings.Repeat("N", lens[(i/11)%len(lens)])
			n.QualifiedName = "pkg." + n.Name
		}
		n.Exported, n.IsAsync, n.IsStatic, n.IsAbstract, n.IsTest = i%2 == 0, i%3 == 0, i%5 == 0, i%7 == 0, i%11 == 0
		n.StartLine, n.StartCol, n.EndLine, n.EndCol = uint32(i), uint32(i%9), uint32(i+3), uint32(i%13)
		n.StartByte, n.EndByte = uint32(10*i), uint32(10*i+7)
		n.BodyHash = uint64(i) * 0x9e3779b97f4a7c15
		n.Decorators = [][]string{nil, {"a"}, {"a", "b"}, {"b"}}[i%4]
		switch i % 6 {
		case 0:
			n.ParentID = 0
		case 1:
			n.ParentID = 777 // no node of the snapshot
		case 2:
			n.ParentID = s.Nodes[(i*7)%len(s.Nodes)].ID
		}
	}
	want := slices.Clone(s.Nodes)
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	for r := range int32(len(want)) {
		w := want[r]
		if got := e.Node(r); !reflect.DeepEqual(got, w) {
			t.Fatalf("node %d:\n got %+v\nwant %+v", r, got, w)
		}
		if e.NodeID(r) != w.ID || e.NodeName(r) != w.Name || e.NodeQName(r) != w.QualifiedName ||
			e.NodeKind(r) != w.Kind || e.NodeFile(r) != w.File {
			t.Fatalf("node %d: the one-field readers disagree with %+v", r, w)
		}
		p, ok := e.Parent(r)
		wp, wok := e.Lookup(w.ParentID)
		if ok != (w.ParentID != 0 && wok) || ok && p != wp {
			t.Fatalf("node %d: Parent = %d, %v; parent id %d", r, p, ok, w.ParentID)
		}
	}
	if got := e.Nodes(); !reflect.DeepEqual(got, want) {
		t.Fatal("Nodes differs from the rows")
	}
}

func TestLookup(t *testing.T) {
	e := build(t)
	r := row(t, e, "net/http.(*Server).Serve")
	got, ok := e.Lookup(e.Node(r).ID)
	if !ok || got != r {
		t.Fatalf("Lookup = %d, %v; want %d", got, ok, r)
	}
	if _, ok := e.Lookup(12345); ok {
		t.Fatal("Lookup found an unknown id")
	}
	p, ok := e.Parent(r)
	if !ok || e.Node(p).QualifiedName != "net/http.Server" {
		t.Fatalf("Parent = %d, %v", p, ok)
	}
	kids := qnames(e, e.Children(p))
	slices.Sort(kids)
	want := []string{"net/http.(*Server).ListenAndServe", "net/http.(*Server).Serve", "net/http.(*Server).newConn", "net/http.Server.Addr", "net/http.Server.Handler"}
	if !slices.Equal(kids, want) {
		t.Fatalf("Children = %q, want %q", kids, want)
	}
}

func TestFind(t *testing.T) {
	e := build(t)
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"net/http.(*Server).Serve", "", []string{"net/http.(*Server).Serve"}},
		{"(*Server).Serve", "", []string{"net/http.(*Server).Serve"}},
		{"Server.Serve", "", []string{"net/http.(*Server).Serve"}},
		{"http.Server", "", []string{"net/http.Server"}},
		{"rpc.Server", "", []string{"net/rpc.Server"}},
		{"User.save", "", []string{"app.models.user.User.save"}},
		{"app.models.user.User", "", []string{"app.models.user.User"}},
		{"Serve", "", []string{"net/http.(*Server).Serve", "net/http.Serve"}},
		{"Server", "", []string{"net/http.Server", "net/rpc.Server"}},
		{"Server", "net/http/server.go", []string{"net/http.Server"}},
		{"Server", "http/server.go", []string{"net/http.Server"}},
		{"Server", "src/net/rpc/server.go", []string{"net/rpc.Server"}},
		{"Server", "./server.go", []string{"net/http.Server", "net/rpc.Server"}},
		{"Server", "p/server.go", nil},
		{"save", "", []string{"app.models.user.Admin.save", "app.models.user.User.save"}},
		{"server", "", []string{"net/http.Server", "net/rpc.Server"}}, // no exact case: folded
		{"serve", "", []string{"net/http.(*conn).serve"}},             // exact case wins
		{"main.go", "", []string{"cmd/app/main.go"}},
		{"NoSuchThing", "", nil},
		{"", "", nil},
	} {
		got := qnames(e, e.Find(tc.name, tc.file))
		slices.Sort(got)
		if !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("Find(%q, %q) = %q, want %q", tc.name, tc.file, got, tc.want)
		}
	}
}

// TestFindModuleAlias finds os.path.join, as Python code calls it, in
// posixpath, the module os.path is on a POSIX system.
func TestFindModuleAlias(t *testing.T) {
	e := indexedWith(t, map[string]string{
		"os.py":        "import posixpath as path\n",
		"posixpath.py": "def join(a, *p): ...\n",
		"ntpath.py":    "def join(path, *paths): ...\n",
	}, python.New())
	for name, want := range map[string][]string{
		"os.path.join": {"posixpath.join"},
		"os.path":      {"posixpath"},
		"os.pathjoin":  nil,
	} {
		if got := qnames(e, e.Find(name, "")); !slices.Equal(got, want) {
			t.Errorf("Find(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestMatchFile(t *testing.T) {
	for _, tc := range []struct {
		path, filter string
		want         bool
	}{
		{"src/net/http/server.go", "src/net/http/server.go", true},
		{"src/net/http/server.go", "net/http/server.go", true},
		{"src/net/http/server.go", "server.go", true},
		{"src/net/http/server.go", "./server.go", true},
		{"src/net/http/server.go", "", true},
		{"src/net/http/server.go", "p/server.go", false},
		{"src/net/http/server.go", "erver.go", false},
		{"server.go", "src/server.go", false},
	} {
		if got := query.MatchFile(tc.path, tc.filter); got != tc.want {
			t.Errorf("MatchFile(%q, %q) = %v", tc.path, tc.filter, got)
		}
	}
}

func hits(e *query.Engine, hs []query.Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Match.String() + " " + e.Node(h.Node).QualifiedName
	}
	return out
}

func TestSearch(t *testing.T) {
	e := build(t)
	for _, tc := range []struct {
		q    string
		opt  query.SearchOptions
		want []string
	}{
		{"ListenAndServe", query.SearchOptions{}, []string{
			"exact net/http.(*Server).ListenAndServe", "exact net/http.ListenAndServe"}},
		{"Serve", query.SearchOptions{Limit: 6}, []string{
			"exact net/http.(*Server).Serve", "exact net/http.Serve", "exact net/http.(*conn).serve",
			"prefix net/http.Server", "prefix net/rpc.Server", "prefix net/http.Handler.ServeHTTP"}},
		{"serve", query.SearchOptions{Kinds: []string{schemas.KindFunction}}, []string{
			"exact net/http.Serve", "token net/http.ListenAndServe"}},
		{"user", query.SearchOptions{Language: "python", Limit: 5}, []string{
			"exact app.models.user", "exact app.models.user.User",
			"prefix app/models/user.py", "prefix app.views.user_detail", "token app.models.user.load_user"}},
		{"save", query.SearchOptions{File: "models/user.py"}, []string{
			"exact app.models.user.Admin.save", "exact app.models.user.User.save"}},
		{"http.Serve", query.SearchOptions{}, []string{
			"exact net/http.Serve", "prefix net/http.Server", "prefix net/http.serverHandler", "token net/http.ListenAndServe"}},
		{"User.sa", query.SearchOptions{}, []string{"prefix app.models.user.User.save"}},
		{"ListenAndSrve", query.SearchOptions{}, []string{
			"fuzzy net/http.(*Server).ListenAndServe", "fuzzy net/http.ListenAndServe"}},
		{"serve http", query.SearchOptions{Limit: 4}, []string{
			"token net/http.Handler.ServeHTTP", "token net/http.HandlerFunc.ServeHTTP", "token net/http.serverHandler.ServeHTTP",
			"fuzzy net/http.(*Server).Serve"}},
		{"  ", query.SearchOptions{}, nil},
	} {
		got := hits(e, e.Search(tc.q, tc.opt))
		if !slices.Equal(got, tc.want) {
			t.Errorf("Search(%q, %+v):\n got %q\nwant %q", tc.q, tc.opt, got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	e := build(t)
	if got := e.Suggest("Sever", 3); !slices.Contains(got, "Server") {
		t.Errorf("Suggest(Sever) = %q, want Server among them", got)
	}
	if got := e.Suggest("http.Sever", 3); !slices.Contains(got, "Server") {
		t.Errorf("Suggest(http.Sever) = %q, want Server among them", got)
	}
}

func sites(e *query.Engine, links []query.Link) []string {
	out := make([]string, len(links))
	for i, l := range links {
		ed := e.Edge(l.Edge)
		name := ed.Target
		if l.Node >= 0 {
			name = e.Node(l.Node).QualifiedName
		}
		out[i] = fmt.Sprintf("%s %s:%d:%d", name, ed.File, ed.Line, ed.Col)
	}
	return out
}

func TestCallers(t *testing.T) {
	e := build(t)
	got := sites(e, e.Callers(row(t, e, "net/http.(*Server).Serve")))
	want := []string{
		"net/http.(*Server).ListenAndServe src/net/http/server.go:30:9",
		"net/http.Serve src/net/http/server.go:76:9",
	}
	if !slices.Equal(got, want) {
		t.Errorf("callers of Serve = %q, want %q", got, want)
	}
	// A class's callers are its instantiations.
	got = sites(e, e.Callers(row(t, e, "app.models.user.User")))
	want = []string{
		"app.models.user.load_user app/models/user.py:32:12",
		"app.views.create_user app/views.py:10:12",
	}
	if !slices.Equal(got, want) {
		t.Errorf("callers of User = %q, want %q", got, want)
	}
	if got := e.Callers(row(t, e, "main.main")); len(got) != 0 {
		t.Errorf("callers of main = %v", got)
	}
}

func TestCallees(t *testing.T) {
	e := build(t)
	res, unres := e.Callees(row(t, e, "net/http.(*Client).do"))
	if got, want := sites(e, res), []string{
		"net/http.(*Client).send src/net/http/client.go:17:15",
		"net/http.(*Client).Do src/net/http/client.go:19:10",
	}; !slices.Equal(got, want) {
		t.Errorf("callees = %q, want %q", got, want)
	}
	if got, want := sites(e, unres), []string{"resp.redirect src/net/http/client.go:18:19"}; !slices.Equal(got, want) {
		t.Errorf("unresolved = %q, want %q", got, want)
	}
	if r := e.Edge(unres[0].Edge); r.Reason != "unknown type of resp" || r.Resolution != schemas.Unresolved {
		t.Errorf("unresolved edge = %+v", r)
	}
}

func levels(e *query.Engine, res query.ImpactResult) [][]string {
	var out [][]string
	for _, lv := range res.Levels {
		var names []string
		for i, r := range lv.Nodes {
			ed := e.Edge(lv.Edges[i])
			names = append(names, e.Node(r).QualifiedName+" via "+ed.Kind)
		}
		out = append(out, names)
	}
	return out
}

func TestImpact(t *testing.T) {
	e := build(t)
	do := row(t, e, "net/http.(*Client).Do")

	// Upstream by default, through the Do → do → Do cycle.
	res := e.Impact([]int32{do}, query.ImpactOptions{})
	want := [][]string{
		{"net/http.(*Client).do via calls", "net/http.(*Client).Get via calls"},
		{"net/http.Get via calls"},
	}
	if got := levels(e, res); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("impact = %q, want %q", got, want)
	}
	if res.Depth != query.DefaultImpactDepth || res.Direction != query.In || res.Truncated {
		t.Errorf("impact ran with depth %d, direction %v, truncated %v", res.Depth, res.Direction, res.Truncated)
	}

	// Downstream, with a depth cut.
	res = e.Impact([]int32{row(t, e, "main.main")}, query.ImpactOptions{Direction: query.Out, Depth: 2})
	want = [][]string{
		{"net/http.ListenAndServe via calls", "main.index via references"},
		{"net/http.(*Server).ListenAndServe via calls", "net/http.Server via instantiates"},
	}
	if got := levels(e, res); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("impact out = %q, want %q", got, want)
	}

	// An interface's dependents: its implementations and the field of its type.
	res = e.Impact([]int32{row(t, e, "net/http.Handler")}, query.ImpactOptions{Depth: 1})
	want = [][]string{{"net/http.Server.Handler via references", "net/http.serverHandler via implements", "net/http.HandlerFunc via implements"}}
	if got := levels(e, res); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("impact of Handler = %q, want %q", got, want)
	}

	// Depth is clamped; a cycle does not repeat nodes.
	res = e.Impact([]int32{do}, query.ImpactOptions{Direction: query.Both, Depth: 50})
	if res.Depth != query.MaxImpactDepth {
		t.Errorf("depth = %d, want %d", res.Depth, query.MaxImpactDepth)
	}
	seen := map[int32]bool{do: true}
	for _, lv := range res.Levels {
		for _, r := range lv.Nodes {
			if seen[r] {
				t.Errorf("%s reached twice", e.Node(r).QualifiedName)
			}
			seen[r] = true
		}
	}

	// The node cap stops the walk and says so.
	res = e.Impact([]int32{do}, query.ImpactOptions{MaxNodes: 1})
	if !res.Truncated || len(res.Levels) != 1 || len(res.Levels[0].Nodes) != 1 {
		t.Errorf("capped impact = %+v", res)
	}
}

func hops(e *query.Engine, hs []query.Hop) []string {
	var out []string
	for _, h := range hs {
		s := e.Edge(h.Edge).Kind + " " + e.Node(h.To).QualifiedName
		if h.Reverse {
			s = "~" + s
		}
		out = append(out, s)
	}
	return out
}

func TestPath(t *testing.T) {
	e := build(t)
	main, serveHTTP := row(t, e, "main.main"), row(t, e, "net/http.Handler.ServeHTTP")
	got, ok := e.Path(main, serveHTTP, query.PathOptions{})
	want := []string{
		"calls net/http.ListenAndServe",
		"calls net/http.(*Server).ListenAndServe",
		"calls net/http.(*Server).Serve",
		"calls net/http.(*conn).serve",
		"calls net/http.serverHandler.ServeHTTP",
		"calls net/http.Handler.ServeHTTP",
	}
	if !ok || !slices.Equal(hops(e, got), want) {
		t.Errorf("path = %q, %v; want %q", hops(e, got), ok, want)
	}
	if got[0].From != main || got[len(got)-1].To != serveHTTP {
		t.Errorf("path ends = %d, %d", got[0].From, got[len(got)-1].To)
	}
	if _, ok := e.Path(main, serveHTTP, query.PathOptions{MaxDepth: 5}); ok {
		t.Error("found a 6-hop path within 5 hops")
	}
	if _, ok := e.Path(serveHTTP, main, query.PathOptions{}); ok {
		t.Error("found a path against the edges")
	}
	got, ok = e.Path(serveHTTP, main, query.PathOptions{Direction: query.In})
	if !ok || len(got) != 6 || !got[0].Reverse {
		t.Errorf("path In = %q, %v", hops(e, got), ok)
	}

	// Through a cycle, and undirected through an interface.
	got, ok = e.Path(row(t, e, "net/http.(*Client).Get"), row(t, e, "net/http.(*Client).send"), query.PathOptions{})
	want = []string{"calls net/http.(*Client).Do", "calls net/http.(*Client).do", "calls net/http.(*Client).send"}
	if !ok || !slices.Equal(hops(e, got), want) {
		t.Errorf("path = %q, %v; want %q", hops(e, got), ok, want)
	}
	hf, sh := row(t, e, "net/http.HandlerFunc"), row(t, e, "net/http.serverHandler")
	if _, ok := e.Path(hf, sh, query.PathOptions{}); ok {
		t.Error("directed path between two implementations")
	}
	got, ok = e.Path(hf, sh, query.PathOptions{Direction: query.Both})
	want = []string{"implements net/http.Handler", "~implements net/http.serverHandler"}
	if !ok || !slices.Equal(hops(e, got), want) {
		t.Errorf("undirected path = %q, %v; want %q", hops(e, got), ok, want)
	}
	if got, ok := e.Path(hf, hf, query.PathOptions{}); !ok || len(got) != 0 {
		t.Errorf("path to itself = %v, %v", got, ok)
	}
	// Only the chosen kinds.
	if _, ok := e.Path(main, serveHTTP, query.PathOptions{Kinds: []query.EdgeKind{query.References}}); ok {
		t.Error("path over references only")
	}
}

func TestFiles(t *testing.T) {
	t.Run("sources", func(t *testing.T) { checkFiles(t, build(t)) })
	// Read back from a store into SourceFiles, as snap serve reads it.
	t.Run("source files", func(t *testing.T) {
		st := memstore.New()
		if _, err := snapshot.Write(t.Context(), st, "", querytest.Fixture()); err != nil {
			t.Fatal(err)
		}
		s, err := snapshot.Read(t.Context(), st, "", snapshot.ReadOptions{SourceFiles: true})
		if err != nil {
			t.Fatal(err)
		}
		if s.SourceFiles == nil {
			t.Fatal("no SourceFiles")
		}
		e, err := query.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		if !e.HasSources() || e.Stats().Sources != len(querytest.Fixture().Sources) {
			t.Errorf("HasSources %v, %d sources", e.HasSources(), e.Stats().Sources)
		}
		checkFiles(t, e)
	})
}

func checkFiles(t *testing.T, e *query.Engine) {
	var got []string
	for _, r := range e.FileSymbols("src/net/http/client.go") {
		got = append(got, e.Node(r).Name)
	}
	want := []string{"Client", "Timeout", "DefaultClient", "Do", "do", "send", "Get", "Get"}
	if !slices.Equal(got, want) {
		t.Errorf("FileSymbols = %q, want %q", got, want)
	}
	body, ok := e.Body(row(t, e, "net/http.(*Client).Do"))
	if want := "func (c *Client) Do(req *Request) (*Response, error) {\n\treturn c.do(req)\n}"; !ok || string(body) != want {
		t.Errorf("Body = %q, %v", body, ok)
	}
	body, ok = e.Body(row(t, e, "app.models.user.Admin"))
	if !ok || !strings.HasPrefix(string(body), "class Admin(User):") || !strings.HasSuffix(string(body), "super().save(session)") {
		t.Errorf("Body = %q, %v", body, ok)
	}
	if got := e.Paths("server.go"); !slices.Equal(got, []string{"src/net/http/server.go", "src/net/rpc/server.go"}) {
		t.Errorf("Paths(server.go) = %q", got)
	}
	if got := e.Paths("app/views.py"); !slices.Equal(got, []string{"app/views.py"}) {
		t.Errorf("Paths(app/views.py) = %q", got)
	}
	if f, ok := e.File("app/broken.py"); !ok || f.Status != schemas.StatusParseError {
		t.Errorf("File(app/broken.py) = %+v, %v", f, ok)
	}
	if _, ok := e.Source("assets/logo.png"); ok {
		t.Error("a skipped binary has a source")
	}
}

func TestStats(t *testing.T) {
	s := querytest.Fixture()
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if st.Nodes != len(s.Nodes) || st.Edges != len(s.Edges) || st.Unresolved != s.Manifest.Counts.Unresolved {
		t.Errorf("stats = %+v", st)
	}
	if st.EdgesByKind["calls"] == 0 || st.NodesByKind["method"] == 0 || st.FilesByStatus[schemas.StatusParseError] != 1 {
		t.Errorf("stats = %+v", st)
	}
	if st.UnresolvedByReason["package log not indexed"] != 2 {
		t.Errorf("unresolved by reason = %v", st.UnresolvedByReason)
	}
	if len(e.Fingerprint()) != 16 || e.Commit() != querytest.Commit {
		t.Errorf("fingerprint %q, commit %q", e.Fingerprint(), e.Commit())
	}
}

func TestHolder(t *testing.T) {
	var h query.Holder
	if h.Load() != nil {
		t.Fatal("zero Holder holds an engine")
	}
	e1, e2 := build(t), build(t)
	h.Store(e1)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				if e := h.Load(); e != e1 && e != e2 {
					t.Error("Load returned a foreign engine")
				}
			}
		})
	}
	h.Store(e2)
	wg.Wait()
	if h.Load() != e2 {
		t.Fatal("Load after Store")
	}
}

func TestEdgeKinds(t *testing.T) {
	for i, name := range schemas.EdgeKinds {
		k, ok := query.ParseEdgeKind(name)
		if !ok || int(k) != i || k.String() != name {
			t.Errorf("ParseEdgeKind(%q) = %v, %v", name, k, ok)
		}
	}
	for _, d := range []query.Direction{query.In, query.Out, query.Both} {
		if got, ok := query.ParseDirection(d.String()); !ok || got != d {
			t.Errorf("ParseDirection(%q) = %v, %v", d, got, ok)
		}
	}
}

func TestEmpty(t *testing.T) {
	e, err := query.Build(&snapshot.Snapshot{})
	if err != nil {
		t.Fatal(err)
	}
	if e.NumNodes() != 0 || len(e.Search("Serve", query.SearchOptions{})) != 0 || len(e.Find("Serve", "")) != 0 ||
		len(e.Paths("x.go")) != 0 || len(e.Suggest("Serve", 3)) != 0 || e.HasSources() {
		t.Error("an empty snapshot answers something")
	}
}

// TestConcurrent runs every kind of question at once; run it with -race.
func TestConcurrent(t *testing.T) {
	e := build(t)
	do, main := row(t, e, "net/http.(*Client).Do"), row(t, e, "main.main")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				e.Search("Sever", query.SearchOptions{Limit: 5})
				e.Find("Server.Serve", "")
				e.Callers(do)
				e.Callees(do)
				e.Impact([]int32{do}, query.ImpactOptions{Direction: query.Both})
				e.Path(main, do, query.PathOptions{Direction: query.Both})
				e.FileSymbols("src/net/http/server.go")
			}
		})
	}
	wg.Wait()
}

func TestHolderWait(t *testing.T) {
	var h query.Holder
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if e := h.Wait(ctx); e != nil {
		t.Fatalf("Wait on an empty holder returned %v", e)
	}
	e, err := query.Build(querytest.Fixture())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *query.Engine)
	go func() { done <- h.Wait(context.Background()) }()
	h.Store(e)
	if got := <-done; got != e {
		t.Fatalf("Wait returned %p, want the stored engine %p", got, e)
	}
	if h.Wait(context.Background()) != e {
		t.Fatal("Wait after Store does not return the engine")
	}
}

// TestSearchClasses: among hits of one score, functions and types come
// before fields, and written code before generated code.
func TestSearchClasses(t *testing.T) {
	s := querytest.Fixture()
	for i := range s.Nodes {
		if n := &s.Nodes[i]; n.QualifiedName == "net/http.Server.Addr" {
			// A field named as the type, whose qualified name sorts first.
			n.Name, n.QualifiedName = "Client", "net/http.A.Client"
		}
	}
	for i := range s.Files {
		if s.Files[i].Path == "src/net/http/server.go" {
			s.Files[i].IsGenerated = true
		}
	}
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	names := func(q string) []string {
		var out []string
		for _, h := range e.Search(q, query.SearchOptions{Limit: 2}) {
			out = append(out, e.NodeQName(h.Node))
		}
		return out
	}
	if got := names("Client"); len(got) != 2 || got[0] != "net/http.Client" {
		t.Errorf("Client: %v, want the struct before the field", got)
	}
	srv := e.Find("net/http.Server", "")
	if len(srv) != 1 || !e.IsGenerated(srv[0]) {
		t.Fatalf("net/http.Server is not marked generated: %v", srv)
	}
	if got := names("Server"); len(got) != 2 || got[0] != "net/rpc.Server" {
		t.Errorf("Server: %v, want net/rpc's before the generated one", got)
	}
}
