package python_test

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/python"
	"github.com/graphsnap/snap/schemas"
)

var jediVerbose = flag.Bool("jedi.verbose", false, "log the calls Jedi resolved into the tree that snap missed, and snap's edges at calls Jedi could not tell")

// jediFloor is the figures the fixture must keep: every edge the
// resolver makes at a call Jedi resolved agrees with it, and it finds at
// least this share of the calls Jedi resolved into the tree. The one call
// of the fixture left is self.gateway.pay() in billing.py, where Jedi takes
// the parameter gateway=None for None, so that `gateway or StripeGateway()`
// is a StripeGateway: a caller may pass any gateway (calls.py leaves out
// the calls of an unannotated parameter itself, not those of a field it
// was stored in).
var jediFloor = languagetest.Floor{Precision: 1, Recall: 48.0 / 49}

// TestPrecisionJedi compares the resolver with Jedi, the static analyzer
// of Python editors: testdata/jedi/calls.py prints the functions and
// classes Jedi resolves every call to (goto, following imports; infer
// where goto stops at a variable), and the calls and instantiates edges
// snap makes at the same positions are compared with them. The trees are
// the fixture and the folders listed in $SNAP_PY_PRECISION
// (colon-separated); $SNAP_PYTHON names the interpreter (python3 by
// default), which must import jedi (apt-get install python3-jedi).
//
// The comparison:
//   - A call is matched by file, line and column: the name it calls (f in
//     a.f()). Jedi names the definition by file and the line of its name,
//     which is mapped to the innermost node of that name holding the line.
//   - A call of a class is a call of the class: snap's instantiates edge
//     is compared, its calls edge to __init__ at the same position being
//     the same call.
//   - Precision is over snap's resolved edges at calls Jedi names a
//     function or class for, in the tree or not: an edge agrees when it
//     names one of Jedi's targets. Recall is over the calls Jedi names one
//     target for, in the tree: where Jedi names several (a name bound to
//     one of several functions), snap rightly leaves the call unresolved.
//   - Calls whose callee starts from an unannotated parameter (cls(),
//     policy.fold()) are not judged: Jedi types such a parameter by its
//     default and the values the function assigns it (cls=None, then
//     cls = JSONEncoder), a guess, since a caller may pass anything.
//   - Jedi is the judge only where it names a target: calls it cannot
//     tell are left out, and snap's edges there counted as unverified; so
//     are calls where it names a line of the tree that holds no
//     definition of that name (an import it did not follow).
func TestPrecisionJedi(t *testing.T) {
	py := cmp.Or(os.Getenv("SNAP_PYTHON"), "python3")
	out, err := exec.Command(py, "-c", "import jedi").CombinedOutput()
	if err != nil {
		languagetest.NeedTool(t, fmt.Sprintf("the check against Jedi needs a Python that imports jedi (apt-get install python3-jedi, or $SNAP_PYTHON): %s: %v %s", py, err, bytes.TrimSpace(out)))
	}
	languagetest.CheckRoots(t, "../../testdata/python/app", "SNAP_PY_PRECISION", jediFloor, func(t *testing.T, root string) languagetest.Score {
		return checkWithJedi(t, py, root)
	})
}

// jediCall is one line of calls.py.
type jediCall struct {
	File    string `json:"file"`
	Line    uint32 `json:"line"`
	Col     uint32 `json:"col"`
	Name    string `json:"name"`
	Guess   bool   `json:"guess"` // from an unannotated parameter: not judged
	Targets []struct {
		File string `json:"file"`
		Line uint32 `json:"line"`
		Name string `json:"name"`
		Type string `json:"type"`
		Tree bool   `json:"tree"`
	} `json:"targets"`
}

// callSite is where a call is compared.
type callSite struct {
	file      string
	line, col uint32
}

func checkWithJedi(t *testing.T, py, root string) languagetest.Score {
	abs := languagetest.AbsTree(t, root)
	stdout, stderr := languagetest.RunJudge(t, exec.Command(py, "testdata/jedi/calls.py", abs))
	header, err := stdout.ReadString('\n')
	if err != nil {
		t.Fatalf("calls.py printed nothing:\n%s", stderr)
	}
	header = strings.TrimSuffix(header, "\n")
	calls := languagetest.JSONLines[jediCall](t, "calls.py", stdout)

	g := languagetest.IndexTree(t, abs, python.New())
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	named := make(map[[2]string][]*schemas.Node) // by file and name
	for i := range g.Nodes {
		n := &g.Nodes[i]
		byID[n.ID] = n
		k := [2]string{n.File, n.Name}
		named[k] = append(named[k], n)
	}
	// node is the innermost node called name in file that holds line.
	node := func(file, name string, line uint32) *schemas.Node {
		var best *schemas.Node
		for _, n := range named[[2]string{file, name}] {
			if n.StartLine <= line && line <= n.EndLine && (best == nil || n.StartLine >= best.StartLine) {
				best = n
			}
		}
		return best
	}
	resolved := make(map[callSite][]schemas.Edge)
	unresolved := make(map[callSite][]schemas.Edge)
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls && e.Kind != schemas.EdgeInstantiates {
			continue
		}
		s := callSite{e.File, e.Line, e.Col}
		if e.Dst == 0 {
			unresolved[s] = append(unresolved[s], e)
		} else {
			resolved[s] = append(resolved[s], e)
		}
	}

	var s languagetest.Score
	reasons := make(map[string]int)
	var wrong []string
	asked := make(map[callSite]bool)
	unmapped, guesses := 0, 0
	for _, c := range calls {
		site := callSite{c.File, c.Line, c.Col}
		asked[site] = true
		if c.Guess {
			guesses++
		}
		if len(c.Targets) == 0 {
			s.Unverified += len(resolved[site])
			continue
		}
		var want []*schemas.Node
		var names []string
		unfollowed := false
		for _, tg := range c.Targets {
			if !tg.Tree {
				names = append(names, cmp.Or(tg.File, "builtin")+":"+tg.Name)
				continue
			}
			n := node(tg.File, tg.Name, tg.Line)
			if n == nil { // an import Jedi did not follow: no answer
				unmapped++
				unfollowed = true
				break
			}
			want = append(want, n)
			names = append(names, n.QualifiedName)
		}
		if unfollowed {
			s.Unverified += len(callEdges(resolved[site]))
			continue
		}
		found := false
		for _, e := range callEdges(resolved[site]) {
			s.Edges++
			d := byID[e.Dst]
			if slices.Contains(want, d) {
				s.Agree++
				found = true
				continue
			}
			wrong = append(wrong, fmt.Sprintf("%s:%d:%d %s: snap %s, Jedi %s", c.File, c.Line, c.Col, c.Name, d.QualifiedName, strings.Join(names, " | ")))
		}
		if len(c.Targets) != 1 || len(want) != 1 {
			continue
		}
		s.Truth++
		if found {
			s.Found++
			continue
		}
		r := missReason(resolved[site], unresolved[site])
		reasons[r]++
		if *jediVerbose {
			t.Logf("missed %s:%d:%d %s -> %s (%s)", c.File, c.Line, c.Col, c.Name, names[0], r)
		}
	}
	for site, es := range resolved {
		if !asked[site] {
			s.Unverified += len(callEdges(es))
		}
	}
	if *jediVerbose {
		for _, c := range calls {
			for _, e := range callEdges(resolved[callSite{c.File, c.Line, c.Col}]) {
				if len(c.Targets) == 0 {
					t.Logf("unverified %s:%d:%d %s -> %s", c.File, c.Line, c.Col, c.Name, byID[e.Dst].QualifiedName)
				}
			}
		}
	}
	t.Logf("%s: Jedi %s resolved %d of %d calls (%d from unannotated parameters not asked), %d to one target in the tree; snap made %d edges at the calls Jedi resolved, %d agree: precision %.4f, recall %.4f; %d unverified (at calls Jedi could not tell or was not asked about, or that it resolved to a line with no definition: %d)",
		root, header, countResolved(calls), len(calls), guesses, s.Truth, s.Edges, s.Agree, s.Precision(), s.Recall(), s.Unverified, unmapped)
	languagetest.LogMissed(t, reasons, 12)
	slices.Sort(wrong)
	for _, w := range wrong {
		t.Logf("wrong %s", w)
	}
	return s
}

// callEdges are the edges that say what a call calls: the instantiates
// edge of a class called, else the calls edges.
func callEdges(es []schemas.Edge) []schemas.Edge {
	var out []schemas.Edge
	for _, e := range es {
		if e.Kind == schemas.EdgeInstantiates {
			out = append(out, e)
		}
	}
	if len(out) > 0 {
		return out
	}
	return es
}

// missReason says why snap has no edge to Jedi's target at a call.
func missReason(resolved, unresolved []schemas.Edge) string {
	switch {
	case len(resolved) > 0:
		return "a wrong edge"
	case len(unresolved) > 0:
		return unresolved[0].Resolution + ": " + unresolved[0].Reason
	}
	return "no edge"
}

func countResolved(calls []jediCall) int {
	n := 0
	for _, c := range calls {
		if len(c.Targets) > 0 {
			n++
		}
	}
	return n
}
