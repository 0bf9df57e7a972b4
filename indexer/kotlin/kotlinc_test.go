package kotlin

import (
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// TestPrecisionKotlinc compiles the overloads fixture with kotlinc and
// checks every call the resolver linked to a function or constructor of
// the fixture against the method kotlinc chose at that line (javap of
// the class files): same declaring class (or the receiver's class that
// inherits it), same name, same parameter types in the JVM descriptor.
// No edge may disagree; recall is the share of the compiler's calls of
// fixture functions the resolver linked.
func TestPrecisionKotlinc(t *testing.T) {
	kotlinc := languagetest.LookTool(t, "kotlinc", "the check against the compiler needs it (apt-get install kotlin)")
	const dir = "testdata/overloads"
	calls := languagetest.CompileJVM(t, kotlinc, []string{"-nowarn"}, filepath.Join(dir, "*.kt"))

	g := languagetest.IndexTree(t, dir, New())
	j := newJVMNames(g)
	// The compiler's calls by file and line, the calling class telling the
	// file: a class of the fixture, or FileKt for top-level code.
	type site struct {
		file string
		line int
	}
	at := map[site][]languagetest.JVMCall{}
	known := 0 // calls of a function of the fixture
	missed := map[site][]string{}
	for _, c := range calls {
		file := j.fileOf(c.Class)
		if file == "" || strings.HasSuffix(c.Method, "$default") {
			continue // a bridge filling in default values: no call in the source
		}
		at[site{file, c.Line}] = append(at[site{file, c.Line}], c)
		if j.declared(c) {
			known++
			missed[site{file, c.Line}] = append(missed[site{file, c.Line}], c.Owner+"."+c.Name+c.Desc)
		}
	}

	linked, agree := 0, 0
	for _, e := range g.Edges {
		dst := j.byID[e.Dst]
		if e.Kind != schemas.EdgeCalls || dst == nil || !indexer.IsFunc(dst.Kind) {
			continue
		}
		linked++
		var named []languagetest.JVMCall
		for _, c := range at[site{e.File, int(e.Line)}] {
			if j.sameName(dst, c) {
				named = append(named, c)
			}
		}
		ok := false
		for _, c := range named {
			if j.same(dst, c) && !ok {
				ok = true
				m := missed[site{e.File, int(e.Line)}]
				if k := slices.Index(m, c.Owner+"."+c.Name+c.Desc); k >= 0 {
					missed[site{e.File, int(e.Line)}] = slices.Delete(m, k, k+1)
				}
			}
		}
		switch {
		case ok:
			agree++
		case len(named) == 0:
			t.Errorf("%s:%d: %s: kotlinc made no call of that name on the line", e.File, e.Line, dst.QualifiedName)
		default:
			t.Errorf("%s:%d: %s %s: kotlinc chose %s.%s%s", e.File, e.Line, dst.QualifiedName, j.desc(dst), named[0].Owner, named[0].Name, named[0].Desc)
		}
	}
	if linked == 0 || known == 0 {
		t.Fatalf("nothing to compare: %d edges, %d compiler calls", linked, known)
	}
	if testing.Verbose() {
		for s, m := range missed {
			for _, c := range m {
				t.Logf("not linked: %s:%d: %s", s.file, s.line, c)
			}
		}
	}
	t.Logf("kotlinc: precision %.3f (%d/%d edges), recall %.3f (%d of %d calls of fixture functions)",
		float64(agree)/float64(linked), agree, linked, float64(agree)/float64(known), agree, known)
}

// jvmNames maps the fixture's nodes to the names kotlinc gives them.
type jvmNames struct {
	byID    map[uint64]*schemas.Node
	classes map[string]*schemas.Node   // class-like nodes by binary name
	simple  map[string]string          // binary names by simple name
	supers  map[string][]string        // binary names of the supertypes of a class
	funcs   map[string][]*schemas.Node // functions and constructors by JVM owner and name
}

func newJVMNames(g *indexer.Graph) *jvmNames {
	j := &jvmNames{byID: map[uint64]*schemas.Node{}, classes: map[string]*schemas.Node{}, simple: map[string]string{},
		supers: map[string][]string{}, funcs: map[string][]*schemas.Node{}}
	for i := range g.Nodes {
		j.byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Kind == schemas.KindClass || n.Kind == schemas.KindInterface || n.Kind == schemas.KindEnum {
			b := j.binary(n)
			j.classes[b] = n
			j.simple[n.Name] = b
		}
	}
	for _, e := range g.Edges {
		if (e.Kind == schemas.EdgeExtends || e.Kind == schemas.EdgeImplements) && e.Dst != 0 {
			s, d := j.byID[e.Src], j.byID[e.Dst]
			j.supers[j.binary(s)] = append(j.supers[j.binary(s)], j.binary(d))
		}
	}
	for i := range g.Nodes {
		if n := &g.Nodes[i]; indexer.IsFunc(n.Kind) {
			k := j.owner(n) + "." + n.Name
			j.funcs[k] = append(j.funcs[k], n)
		}
	}
	return j
}

// binary returns the JVM binary name of class-like node n: nested
// classes joined by $.
func (j *jvmNames) binary(n *schemas.Node) string {
	p := j.byID[n.ParentID]
	if p != nil && (p.Kind == schemas.KindClass || p.Kind == schemas.KindInterface || p.Kind == schemas.KindEnum) {
		return j.binary(p) + "$" + n.Name
	}
	return n.QualifiedName
}

// owner returns the JVM class declaring function n: its class, or
// FileKt for a top-level function.
func (j *jvmNames) owner(n *schemas.Node) string {
	p := j.byID[n.ParentID]
	if p != nil && p.Kind != schemas.KindFile && p.Kind != schemas.KindPackage {
		return j.binary(p)
	}
	base := strings.TrimSuffix(path.Base(n.File), ".kt")
	q := strings.TrimSuffix(n.QualifiedName, "."+n.Name)
	if r := j.receiverOf(n); r != "" {
		q = strings.TrimSuffix(q, "."+r)
	}
	if q == n.QualifiedName { // the default package
		q = ""
	}
	return indexer.JoinName(q, strings.ToUpper(base[:1])+base[1:]+"Kt")
}

// fileOf returns the fixture file of a calling class: that of its
// outermost class, or of FileKt.
func (j *jvmNames) fileOf(class string) string {
	outer, _, _ := strings.Cut(class, "$")
	if n := j.classes[outer]; n != nil {
		return n.File
	}
	if base, ok := strings.CutSuffix(outer[strings.LastIndexByte(outer, '.')+1:], "Kt"); ok {
		return base + ".kt"
	}
	return ""
}

// name returns the name of the declaration a JVM call invokes: the
// function behind a $default bridge.
func jvmName(c languagetest.JVMCall) string { return strings.TrimSuffix(c.Name, "$default") }

// sameName reports whether call c invokes a declaration named as n whose
// owner is n's or a subclass of it.
func (j *jvmNames) sameName(n *schemas.Node, c languagetest.JVMCall) bool {
	return jvmName(c) == n.Name && j.inherits(c.Owner, j.owner(n), 0)
}

func (j *jvmNames) inherits(sub, sup string, depth int) bool {
	if sub == sup {
		return true
	}
	if depth > 16 {
		return false
	}
	for _, s := range j.supers[sub] {
		if j.inherits(s, sup, depth+1) {
			return true
		}
	}
	return false
}

// same reports whether call c invokes function n.
func (j *jvmNames) same(n *schemas.Node, c languagetest.JVMCall) bool {
	if !j.sameName(n, c) {
		return false
	}
	want := j.desc(n)
	got := c.Desc[:strings.IndexByte(c.Desc, ')')+1]
	if strings.HasSuffix(c.Name, "$default") || strings.HasSuffix(got, "ILkotlin/jvm/internal/DefaultConstructorMarker;)") {
		// A bridge filling in default values: the receiver first (a
		// member's), the mask and a marker last.
		got = strings.TrimSuffix(strings.TrimSuffix(got, "ILjava/lang/Object;)"), "ILkotlin/jvm/internal/DefaultConstructorMarker;)") + ")"
		if n.Kind == schemas.KindMethod {
			got = "(" + strings.TrimPrefix(got, "(L"+strings.ReplaceAll(c.Owner, ".", "/")+";")
		}
	}
	return got == want
}

// declared reports whether call c invokes a function of the fixture.
func (j *jvmNames) declared(c languagetest.JVMCall) bool {
	for owner := c.Owner; ; {
		for _, n := range j.funcs[owner+"."+jvmName(c)] {
			if j.same(n, c) {
				return true
			}
		}
		sups := j.supers[owner]
		if len(sups) == 0 {
			return false
		}
		owner = sups[0]
	}
}

// desc returns the parameter part of the JVM descriptor of function n,
// "(" types ")", read from its signature.
func (j *jvmNames) desc(n *schemas.Node) string {
	sig := n.Signature
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return "?"
	}
	tparams := typeParams(sig[:open])
	if p := j.byID[n.ParentID]; p != nil {
		tparams = append(tparams, typeParams(p.Signature)...)
	}
	var b strings.Builder
	b.WriteByte('(')
	if r := j.receiverOf(n); r != "" {
		b.WriteString(j.jvmType(r, tparams))
	}
	inner := sig[open+1 : strings.LastIndexByte(sig, ')')]
	for _, p := range splitTop(inner) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if i := strings.Index(p, " ="); i >= 0 {
			p = p[:i]
		}
		_, typ, _ := strings.Cut(p, ":")
		typ = strings.TrimSpace(typ)
		if strings.HasPrefix(p, "vararg ") {
			b.WriteString(j.arrayOf(typ, tparams))
			continue
		}
		b.WriteString(j.jvmType(typ, tparams))
	}
	b.WriteByte(')')
	return b.String()
}

// receiverOf returns the receiver type of extension function n, or "".
func (j *jvmNames) receiverOf(n *schemas.Node) string {
	head := n.Signature[:max(0, strings.Index(n.Signature, n.Name+"("))]
	head = strings.TrimSpace(strings.TrimPrefix(head, "fun"))
	if strings.HasPrefix(head, "<") {
		head = strings.TrimSpace(head[strings.IndexByte(head, '>')+1:])
	}
	return strings.TrimSuffix(head, ".")
}

// typeParams returns the names of the type parameters in a header.
func typeParams(h string) []string {
	i, k := strings.IndexByte(h, '<'), strings.IndexByte(h, '>')
	if i < 0 || k < i {
		return nil
	}
	var out []string
	for _, p := range strings.Split(h[i+1:k], ",") {
		f := strings.Fields(strings.Split(p, ":")[0])
		if len(f) > 0 {
			out = append(out, f[len(f)-1])
		}
	}
	return out
}

var primitives = map[string][2]string{
	"Int": {"I", "Ljava/lang/Integer;"}, "Long": {"J", "Ljava/lang/Long;"}, "Double": {"D", "Ljava/lang/Double;"},
	"Float": {"F", "Ljava/lang/Float;"}, "Short": {"S", "Ljava/lang/Short;"}, "Byte": {"B", "Ljava/lang/Byte;"},
	"Char": {"C", "Ljava/lang/Character;"}, "Boolean": {"Z", "Ljava/lang/Boolean;"},
}

var library = map[string]string{
	"String": "java/lang/String", "Any": "java/lang/Object", "List": "java/util/List", "CharSequence": "java/lang/CharSequence",
}

// jvmType returns the JVM descriptor of Kotlin type t.
func (j *jvmNames) jvmType(t string, tparams []string) string {
	t = strings.TrimSpace(t)
	if strings.Contains(t, "->") {
		n := 0
		for _, p := range splitTop(t[1:strings.Index(t, ")")]) {
			if strings.TrimSpace(p) != "" {
				n++
			}
		}
		return "Lkotlin/jvm/functions/Function" + strconv.Itoa(n) + ";"
	}
	nullable := strings.HasSuffix(t, "?")
	t = strings.TrimSuffix(t, "?")
	base, args, _ := strings.Cut(t, "<")
	if p, ok := primitives[base]; ok {
		if nullable {
			return p[1]
		}
		return p[0]
	}
	if base == "Array" {
		return "[" + j.boxed(strings.TrimSuffix(args, ">"), tparams)
	}
	for _, v := range tparams {
		if v == base {
			return "Ljava/lang/Object;"
		}
	}
	if l, ok := library[base]; ok {
		return "L" + l + ";"
	}
	if b, ok := j.simple[base]; ok {
		return "L" + strings.ReplaceAll(b, ".", "/") + ";"
	}
	return "?" + t
}

func (j *jvmNames) boxed(t string, tparams []string) string {
	if p, ok := primitives[strings.TrimSpace(t)]; ok {
		return p[1]
	}
	return j.jvmType(t, tparams)
}

// arrayOf returns the JVM type of a vararg parameter of type t.
func (j *jvmNames) arrayOf(t string, tparams []string) string {
	return "[" + j.jvmType(t, tparams)
}
