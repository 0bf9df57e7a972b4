package typescript_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

var tscVerbose = flag.Bool("tsc.verbose", false, "log the checker's calls and snap's edges line by line")

// tscFloors are the figures the fixture must keep: every edge the
// resolver makes at a call the checker resolved agrees with it, and it
// finds at least this share of those calls.
var tscFloors = map[string]struct{ precision, recall float64 }{
	"shop": {precision: 1, recall: 41.0 / 43},
}

// TestPrecisionTSC compares the resolver with the TypeScript compiler's
// checker: testdata/tsc/calls.cjs prints what the checker resolves every
// call and new expression to (see the script for how a declaration is
// named), and the calls and instantiates edges snap resolves from .ts and
// .tsx files are compared with it by call file and line, target file,
// container and name. The trees are the fixture and the folders listed in
// $SNAP_TS_PRECISION (colon-separated); $SNAP_TYPESCRIPT names the
// typescript package folder (make tools installs it).
//
// The comparison:
//   - The calls of one line are a multiset: two calls of add on a line are
//     two calls, and snap must have two edges for both to count.
//   - Overloads are one symbol to a caller: the checker names the overload
//     signature it chose, snap the implementation or any overload, and they
//     agree when file, container and name do.
//   - A new expression is a call to the class it constructs: the checker's
//     answer is that class (not the base class whose constructor it
//     inherits), snap's its instantiates edge, the calls edge to the
//     constructor at the same position being the same call. A call of a
//     constructor (super()) is a call to its class.
//   - Precision is over snap's edges on lines where the checker resolved a
//     call into the tree; edges on other lines, and edges into JavaScript
//     files (the checker reads TypeScript only), are counted as unverified.
//     Recall is over the checker's calls into the tree.
func TestPrecisionTSC(t *testing.T) {
	node, err := exec.LookPath("node")
	pkg := os.Getenv("SNAP_TYPESCRIPT")
	if err == nil && pkg != "" {
		_, err = os.Stat(filepath.Join(pkg, "package.json"))
	} else if err == nil {
		err = errors.New("SNAP_TYPESCRIPT is not set")
	}
	if err != nil {
		languagetest.NeedTool(t, fmt.Sprintf("the check against the TypeScript compiler needs node and $SNAP_TYPESCRIPT naming the typescript package (make tools): %v", err))
	}
	roots := []string{"../../testdata/typescript/shop"}
	if extra := os.Getenv("SNAP_TS_PRECISION"); extra != "" {
		roots = append(roots, filepath.SplitList(extra)...)
	}
	for _, root := range roots {
		name := filepath.Base(root)
		if name == "src" { // packages/zod/src is zod
			name = filepath.Base(filepath.Dir(root))
		}
		t.Run(name, func(t *testing.T) {
			s := checkWithTSC(t, node, pkg, root)
			checkDefinitionsTSC(t, node, pkg, root)
			if floor, ok := tscFloors[name]; ok && strings.HasPrefix(root, "../../testdata/") {
				if s.precision() < floor.precision || s.recall() < floor.recall {
					t.Errorf("precision %.4f, recall %.4f: below the floor of %.4f, %.4f", s.precision(), s.recall(), floor.precision, floor.recall)
				}
			}
		})
	}
}

// tscCall is one line of calls.cjs.
type tscCall struct {
	File      string `json:"file"`
	Line      uint32 `json:"line"`
	Col       uint32 `json:"col"`
	Kind      string `json:"kind"`
	DeclFile  string `json:"declFile"`
	DeclLine  uint32 `json:"declLine"`
	Name      string `json:"name"`
	Container string `json:"container"`
}

// callLine is where calls are compared.
type callLine struct {
	file string
	line uint32
}

// callee is what they are compared by.
type callee struct{ file, container, name string }

func (c callee) String() string {
	if c.container == "" {
		return c.file + ":" + c.name
	}
	return c.file + ":" + c.container + "." + c.name
}

// tscScore is the outcome of one tree.
type tscScore struct {
	truth, edges, agree, unverified int
}

func (s tscScore) precision() float64 { return float64(s.agree) / float64(max(1, s.edges)) }
func (s tscScore) recall() float64    { return float64(s.agree) / float64(max(1, s.truth)) }

func checkWithTSC(t *testing.T, node, pkg, root string) tscScore {
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--max-old-space-size=4096", "testdata/tsc/calls.cjs", pkg, abs)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("calls.cjs %s: %v\n%s", root, err, stderr.String())
	}
	truth := make(map[callLine][]callee)
	at := make(map[callLine][]tscCall) // the checker's calls, for the report
	n := 0
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c tscCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("calls.cjs printed %q: %v", sc.Text(), err)
		}
		l := callLine{c.File, c.Line}
		truth[l] = append(truth[l], callee{c.DeclFile, c.Container, c.Name})
		at[l] = append(at[l], c)
		n++
	}
	if n == 0 {
		t.Fatalf("the checker resolved no call into %s:\n%s", root, stderr.String())
	}

	g, err := indexer.Index(context.Background(), abs, indexer.Options{Languages: typescript.All(), Workers: 2, NoSources: true})
	if err != nil {
		t.Fatal(err)
	}
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	for i := range g.Nodes {
		byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	// target names a node as the checker's answer does: a constructor is
	// its class, the container the parent unless that is the module.
	target := func(id uint64) callee {
		d := byID[id]
		if d.Kind == schemas.KindConstructor && byID[d.ParentID] != nil {
			d = byID[d.ParentID]
		}
		c := callee{file: d.File, name: d.Name}
		if p := byID[d.ParentID]; p != nil && p.Kind != schemas.KindFile && p.Kind != schemas.KindModule {
			c.container = p.Name
		}
		return c
	}
	type pos struct {
		file      string
		line, col uint32
	}
	instantiates := make(map[pos]bool)
	for _, e := range g.Edges {
		if e.Kind == schemas.EdgeInstantiates && e.Dst != 0 {
			instantiates[pos{e.File, e.Line, e.Col}] = true
		}
	}
	var s tscScore
	got := make(map[callLine][]callee)
	unresolved := make(map[callLine][]schemas.Edge)
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls && e.Kind != schemas.EdgeInstantiates || !isTS(e.File) {
			continue
		}
		l := callLine{e.File, e.Line}
		if e.Dst == 0 {
			unresolved[l] = append(unresolved[l], e)
			continue
		}
		if e.Kind == schemas.EdgeCalls && byID[e.Dst].Kind == schemas.KindConstructor && instantiates[pos{e.File, e.Line, e.Col}] {
			continue // the constructor of the class a new expression instantiates
		}
		c := target(e.Dst)
		if !isTS(c.file) {
			s.unverified++ // into JavaScript, which the checker does not read
			continue
		}
		got[l] = append(got[l], c)
	}

	s.truth = n
	reasons := make(map[string]int)
	var wrong []string
	for l, want := range truth {
		left := slices.Clone(want)
		for _, c := range got[l] {
			s.edges++
			if i := slices.Index(left, c); i >= 0 {
				left = slices.Delete(left, i, i+1)
				s.agree++
				continue
			}
			var names []string
			for _, w := range want {
				names = append(names, w.String())
			}
			wrong = append(wrong, fmt.Sprintf("%s:%d: snap %s, the checker %s", l.file, l.line, c, strings.Join(names, ", ")))
		}
		for _, w := range left {
			r := missReason(w, at[l], unresolved[l])
			reasons[r]++
			if *tscVerbose {
				t.Logf("missed %s:%d: %s (%s)", l.file, l.line, w, r)
			}
		}
	}
	for l, cs := range got {
		if _, ok := truth[l]; !ok {
			s.unverified += len(cs)
		}
	}
	t.Logf("%s: the checker resolved %d calls into the tree; snap made %d edges at their lines, %d agree: precision %.4f, recall %.4f; %d unverified (on lines the checker resolved nothing into the tree on, or into JavaScript)",
		root, s.truth, s.edges, s.agree, s.precision(), s.recall(), s.unverified)
	type count struct {
		reason string
		n      int
	}
	var counts []count
	for r, c := range reasons {
		counts = append(counts, count{r, c})
	}
	slices.SortFunc(counts, func(a, b count) int { return cmp.Or(b.n-a.n, strings.Compare(a.reason, b.reason)) })
	for i, c := range counts {
		if i == 10 {
			t.Logf("missed … and %d more reasons", len(counts)-10)
			break
		}
		t.Logf("missed %5d  %s", c.n, c.reason)
	}
	slices.Sort(wrong)
	for i, w := range wrong {
		if i == 10 {
			t.Logf("wrong … and %d more", len(wrong)-10)
			break
		}
		t.Logf("wrong %s", w)
	}
	if *tscVerbose {
		for _, l := range slices.SortedFunc(maps.Keys(truth), func(a, b callLine) int {
			return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
		}) {
			t.Logf("%s:%d: checker %v snap %v", l.file, l.line, truth[l], got[l])
		}
	}
	return s
}

// missReason says why snap has no edge for the checker's call w on a line:
// the resolution and reason of snap's unresolved edge at the call's name,
// "no edge" when there is none.
func missReason(w callee, calls []tscCall, unresolved []schemas.Edge) string {
	var c tscCall
	for _, c = range calls {
		if (callee{c.DeclFile, c.Container, c.Name}) == w {
			break
		}
	}
	for _, e := range unresolved {
		if e.Col == c.Col {
			return e.Resolution + ": " + e.Reason
		}
	}
	for _, e := range unresolved {
		if strings.HasSuffix(e.Target, c.Name) {
			return e.Resolution + ": " + e.Reason
		}
	}
	if len(unresolved) > 0 {
		return "no edge at the call (others unresolved on its line)"
	}
	return "no edge"
}

func isTS(file string) bool {
	switch filepath.Ext(file) {
	case ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}
