package scala_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/scala"
	"github.com/graphsnap/snap/schemas"
)

// TestScalacChoosesTheSameOverload compiles testdata/overloads with scalac
// and checks every call snap resolves there to a project def or
// constructor against the method scalac's bytecode calls at that line: the
// same name, a parameter list of the same types, on the declaring
// template or one deriving from it. Precision must be 1; recall is the
// share of the bytecode's calls to overloaded project methods snap
// resolves.
func TestScalacChoosesTheSameOverload(t *testing.T) {
	scalac := languagetest.LookTool(t, "scalac", "the overload check against the compiler needs Scala 2 (apt-get install scala)")
	src, err := filepath.Abs("testdata/overloads")
	if err != nil {
		t.Fatal(err)
	}
	calls := languagetest.CompileJVM(t, scalac, nil, filepath.Join(src, "*.scala"))

	g := languagetest.IndexTree(t, src, scala.New())
	j := newJudge(g)

	// The bytecode's calls to overloaded project methods, by file line.
	type site struct {
		file string
		line int
	}
	wanted := map[site][]languagetest.JVMCall{}
	for _, c := range calls {
		if j.isOverloaded(c.Owner, c.Name) {
			f := j.fileOf[c.Class]
			wanted[site{f, c.Line}] = append(wanted[site{f, c.Line}], c)
		}
	}
	total := 0
	for _, cs := range wanted {
		total += len(cs)
	}

	right, wrong := 0, 0
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls || e.Dst == 0 {
			continue
		}
		d := j.nodes[e.Dst]
		if d == nil || d.Kind != schemas.KindMethod && d.Kind != schemas.KindConstructor {
			continue
		}
		name, owner, params := j.decl(d)
		if !j.overloaded[owner+"."+name] {
			continue
		}
		cs := wanted[site{e.File, int(e.Line)}]
		ok := false
		for _, c := range cs {
			if c.Name == name && j.derives(c.Owner, owner) && matchParams(c.Desc, params, j.erased) {
				ok = true
			}
		}
		if ok {
			right++
			continue
		}
		wrong++
		t.Errorf("%s:%d: snap chose %s.%s(%s); scalac: %v", e.File, e.Line, owner, name, strings.Join(params, ","), cs)
	}
	precision := 1.0
	if right+wrong > 0 {
		precision = float64(right) / float64(right+wrong)
	}
	t.Logf("overloaded calls: %d in the bytecode; snap resolved %d, %d contradicted: precision %.3f, recall %.3f",
		total, right+wrong, wrong, precision, float64(right)/float64(max(total, 1)))
	if total == 0 || right == 0 {
		t.Fatal("the fixture's overloaded calls were not judged")
	}
}

// judge maps the snapshot's declarations to their JVM names.
type judge struct {
	nodes      map[uint64]*schemas.Node
	params     map[uint64][]string // the params fact of each def, constructor, class
	supers     map[string][]string // binary class name → its parents' binary names
	overloaded map[string]bool     // owner.name of the JVM methods with several declarations
	fileOf     map[string]string   // binary class name → the file declaring it
	erased     map[string]string   // value class name → the descriptor of its value
}

func newJudge(g *indexer.Graph) *judge {
	j := &judge{nodes: map[uint64]*schemas.Node{}, params: map[uint64][]string{}, supers: map[string][]string{},
		overloaded: map[string]bool{}, fileOf: map[string]string{}, erased: map[string]string{}}
	for i := range g.Nodes {
		j.nodes[g.Nodes[i].ID] = &g.Nodes[i]
	}
	for _, r := range g.Refs {
		if r.Kind == schemas.RefParams && r.Expr != "" {
			j.params[r.Src] = strings.Split(r.Expr, ",")
		}
	}
	for _, e := range g.Edges {
		if (e.Kind == schemas.EdgeExtends || e.Kind == schemas.EdgeImplements) && e.Dst != 0 {
			s := j.binary(j.nodes[e.Src])
			j.supers[s] = append(j.supers[s], j.binary(j.nodes[e.Dst]))
		}
	}
	count := map[string]int{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Kind == schemas.KindClass || n.Kind == schemas.KindTrait {
			j.fileOf[j.binary(n)] = n.File
		}
		if ps := j.params[n.ID]; n.Kind == schemas.KindClass && strings.Contains(n.Signature, "extends AnyVal") && len(ps) == 1 {
			j.erased[n.Name] = descriptors[ps[0]] // a value class is its value in a descriptor
		}
		if n.Kind == schemas.KindClass && !isObject(n) {
			count[j.binary(n)+".<init>"]++ // the primary constructor
		}
		if n.Kind == schemas.KindMethod || n.Kind == schemas.KindConstructor {
			name, owner, _ := j.decl(n)
			count[owner+"."+name]++
		}
	}
	for k, n := range count {
		j.overloaded[k] = n > 1
	}
	return j
}

func isObject(n *schemas.Node) bool { return strings.HasPrefix(n.Signature, "object") }

// binary returns the JVM name of a template: an object's ends in $.
func (j *judge) binary(n *schemas.Node) string {
	if isObject(n) {
		return n.QualifiedName + "$"
	}
	return n.QualifiedName
}

// decl returns the JVM name, class and parameter types of a def or
// secondary constructor.
func (j *judge) decl(n *schemas.Node) (name, owner string, params []string) {
	name = n.Name
	if n.Kind == schemas.KindConstructor {
		name = "<init>"
	}
	return name, j.binary(j.nodes[n.ParentID]), j.params[n.ID]
}

// isOverloaded reports whether class c or a parent declares several
// methods named name.
func (j *judge) isOverloaded(c, name string) bool {
	if j.overloaded[c+"."+name] {
		return true
	}
	for _, p := range j.supers[c] {
		if j.isOverloaded(p, name) {
			return true
		}
	}
	return false
}

// derives reports whether class s is t or derives from it.
func (j *judge) derives(s, t string) bool {
	if s == t {
		return true
	}
	for _, p := range j.supers[s] {
		if j.derives(p, t) {
			return true
		}
	}
	return false
}

// descriptors of the fixture's parameter types.
var descriptors = map[string]string{
	"Int": "I", "Long": "J", "Double": "D", "Float": "F", "Short": "S", "Byte": "B", "Char": "C", "Boolean": "Z",
	"String": "Ljava/lang/String;", "Any": "Ljava/lang/Object;", "AnyRef": "Ljava/lang/Object;",
}

// matchParams reports whether the JVM descriptor desc takes the
// parameters params, as the params fact spells them; a project type
// matches a class of its simple name, a value class its value's type.
func matchParams(desc string, params []string, erased map[string]string) bool {
	var want []string
	for _, p := range params {
		p = strings.TrimSuffix(p, "=")
		d, ok := descriptors[p]
		if e, value := erased[p]; value {
			d, ok = e, true
		}
		switch {
		case strings.HasPrefix(p, "..."):
			want = append(want, "Lscala/collection/Seq;")
		case strings.HasPrefix(p, "=>"):
			want = append(want, "Lscala/Function0;") // by name
		case ok:
			want = append(want, d)
		default:
			want = append(want, "L*/"+p+";")
		}
	}
	got := splitDesc(desc)
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		w := want[i]
		if s, ok := strings.CutPrefix(w, "L*/"); ok {
			if !strings.HasSuffix(got[i], "/"+s) {
				return false
			}
			continue
		}
		if got[i] != w {
			return false
		}
	}
	return true
}

// splitDesc returns the parameter types of a method descriptor.
func splitDesc(desc string) []string {
	end := strings.IndexByte(desc, ')')
	if !strings.HasPrefix(desc, "(") || end < 0 {
		panic(fmt.Sprintf("descriptor %q", desc))
	}
	s := desc[1:end]
	var out []string
	for i := 0; i < len(s); {
		j := i
		for s[j] == '[' {
			j++
		}
		if s[j] == 'L' {
			j = i + strings.IndexByte(s[i:], ';')
		}
		out = append(out, s[i:j+1])
		i = j + 1
	}
	return out
}
