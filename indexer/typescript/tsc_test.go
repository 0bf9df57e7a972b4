package typescript_test

import (
	"cmp"
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

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

var tscVerbose = flag.Bool("tsc.verbose", false, "log the checker's calls and snap's edges line by line")

// tscFloor is the figures the fixture must keep: every edge the
// resolver makes at a call the checker resolved agrees with it, and it
// finds at least this share of those calls.
var tscFloor = languagetest.Floor{Precision: 1, Recall: 41.0 / 43}

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
	languagetest.CheckRoots(t, "../../testdata/typescript/shop", "SNAP_TS_PRECISION", tscFloor, func(t *testing.T, root string) languagetest.Score {
		s := checkWithTSC(t, node, pkg, root)
		checkDefinitionsTSC(t, node, pkg, root)
		return s
	})
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

func checkWithTSC(t *testing.T, node, pkg, root string) languagetest.Score {
	abs := languagetest.AbsTree(t, root)
	stdout, stderr := languagetest.RunJudge(t, exec.Command(node, "--max-old-space-size=4096", "testdata/tsc/calls.cjs", pkg, abs))
	truth := make(map[callLine][]callee)
	at := make(map[callLine][]tscCall) // the checker's calls, for the report
	calls := languagetest.JSONLines[tscCall](t, "calls.cjs", stdout)
	for _, c := range calls {
		l := callLine{c.File, c.Line}
		truth[l] = append(truth[l], callee{c.DeclFile, c.Container, c.Name})
		at[l] = append(at[l], c)
	}
	if len(calls) == 0 {
		t.Fatalf("the checker resolved no call into %s:\n%s", root, stderr)
	}

	g := languagetest.IndexTree(t, abs, typescript.All()...)
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
	var s languagetest.Score
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
			s.Unverified++ // into JavaScript, which the checker does not read
			continue
		}
		got[l] = append(got[l], c)
	}

	s.Truth = len(calls)
	reasons := make(map[string]int)
	var wrong []string
	for l, want := range truth {
		left := slices.Clone(want)
		for _, c := range got[l] {
			s.Edges++
			if i := slices.Index(left, c); i >= 0 {
				left = slices.Delete(left, i, i+1)
				s.Agree++
				s.Found++ // the calls of a line are a multiset: each edge agreeing finds one
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
			s.Unverified += len(cs)
		}
	}
	t.Logf("%s: the checker resolved %d calls into the tree; snap made %d edges at their lines, %d agree: precision %.4f, recall %.4f; %d unverified (on lines the checker resolved nothing into the tree on, or into JavaScript)",
		root, s.Truth, s.Edges, s.Agree, s.Precision(), s.Recall(), s.Unverified)
	languagetest.LogMissed(t, reasons, 10)
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
