package golang_test

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

var showMisses = flag.Bool("precision.misses", false, "log every call go/types resolves and the indexer leaves unresolved")

// precisionRoots are the GOROOT packages the precision test starts from.
// Their whole import closure (about 200 packages: runtime, internal/…,
// crypto/…, vendored golang.org/x/…) is type-checked and compared, since
// go/types checks it anyway to check the roots.
var precisionRoots = []string{
	"bufio", "strings", "os", "encoding/json", "net/http", "go/types",
}

// TestPrecisionGOROOT indexes a mirror of GOROOT packages and compares
// every calls edge the resolver made with the callee go/types finds for the
// same call: the resolver must never link a call to a wrong declaration.
//
// The mirror holds every non-test .go file of the packages' folders (other
// platforms' files too, as a checkout has them) under a go.mod reading
// `module std`, so qualified names come out as GOROOT's own import paths.
// go/types checks the default build for linux/amd64, the platform the
// resolver prefers. Calls are matched by file, line, column and the callee
// expression as written.
func TestPrecisionGOROOT(t *testing.T) {
	start := time.Now()
	src := filepath.Join(gorootDir(t), "src")
	tc := newTypeChecker(src)
	closure, err := tc.closure(precisionRoots)
	if err != nil {
		t.Fatal(err)
	}

	// Index the mirror while go/types checks the same packages.
	mirror := t.TempDir()
	if err := os.WriteFile(filepath.Join(mirror, "go.mod"), []byte("module std\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rel := range closure {
		if err := mirrorDir(filepath.Join(src, filepath.FromSlash(rel)), filepath.Join(mirror, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	type indexed struct {
		g   *indexer.Graph
		err error
		d   time.Duration
	}
	done := make(chan indexed, 1)
	go func() {
		t0 := time.Now()
		g, err := indexer.Index(context.Background(), mirror, indexer.Options{
			Languages: []indexer.Language{golang.New()}, NoSources: true,
			// GOROOT's own vendored and generated code is part of what
			// go/types checks; no file is given up on a busy machine.
			Vendored: true, MaxFileTime: -1,
		})
		done <- indexed{g, err, time.Since(t0)}
	}()

	// Ground truth: go/types over the default build, from source.
	t0 := time.Now()
	var rootErr error
	for _, p := range precisionRoots {
		cp, err := tc.load(p, src)
		if err == nil {
			err = cp.err
		}
		if err != nil && rootErr == nil {
			rootErr = fmt.Errorf("type-check %s: %w", p, err)
		}
	}
	tTypes := time.Since(t0)
	res := <-done
	if rootErr != nil {
		t.Fatal(rootErr)
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	g, tIndex := res.g, res.d
	languagetest.Invariants(t, g)
	if got := slices.Sorted(maps.Keys(tc.pkgs)); !slices.Equal(got, closure) {
		t.Fatalf("go/types loaded %d packages, go/build listed %d", len(got), len(closure))
	}

	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	for i := range g.Nodes {
		byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	ours := make(map[site]schemas.Edge)
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls {
			continue
		}
		k := site{e.File, e.Target, int(e.Line), int(e.Col)}
		if _, dup := ours[k]; dup {
			t.Errorf("two calls edges at %s:%d:%d %s", e.File, e.Line, e.Col, e.Target)
		}
		ours[k] = e
	}

	// Compare, package by package.
	var total tally
	total.missed, total.examples = make(map[string]int), make(map[string]string)
	perRoot := make(map[string]*tally)
	seen := make(map[site]bool)
	compared := make(map[string]bool) // files
	var broken []string
	packages := 0
	for _, rel := range slices.Sorted(maps.Keys(tc.pkgs)) {
		cp := tc.pkgs[rel]
		if cp.err != nil {
			broken = append(broken, fmt.Sprintf("%s (%v)", cp.pkg.Path(), cp.err))
			continue
		}
		var pt tally
		tr := newTruth(cp.info, cp.files)
		for _, f := range cp.files {
			file := tc.rel(tc.fset.File(f.Pos()).Name())
			compared[file] = true
			content := tc.src[file]
			text := func(from, to token.Pos) string {
				a, b := tc.fset.Position(from).Offset, tc.fset.Position(to).Offset
				return strings.Join(strings.Fields(string(content[a:b])), "")
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				pos := tc.fset.Position(call.Fun.Pos())
				k := site{file, text(call.Fun.Pos(), call.Fun.End()), pos.Line, pos.Column}
				e, has := ours[k]
				if !has {
					// pkg.F[T](x): tree-sitter may keep the type arguments
					// out of the callee.
					var base ast.Expr
					switch x := ast.Unparen(call.Fun).(type) {
					case *ast.IndexExpr:
						base = x.X
					case *ast.IndexListExpr:
						base = x.X
					}
					if base != nil {
						k.target = text(call.Fun.Pos(), base.End())
						e, has = ours[k]
					}
				}
				seen[k] = true
				want, wantOK := tr.callee(call)
				if wantOK {
					pt.truth++
				}
				where := fmt.Sprintf("%s:%d:%d %s", file, pos.Line, pos.Column, short(k.target))
				switch {
				case has && e.Dst != 0:
					pt.edges++
					got, at := "(no such node)", ""
					if dst := byID[e.Dst]; dst != nil {
						got, at = dst.QualifiedName, fmt.Sprintf(" [%s:%d]", dst.File, dst.StartLine)
						if wantOK && got == want && !tc.loaded[dst.File] {
							// The resolver picked the same function in a
							// build variant go/types did not load (a cgo
							// or goexperiment file): same declaration as
							// far as the graph's names go, so it agrees.
							pt.variant++
						}
					}
					if wantOK && got == want {
						pt.agree++
						return true
					}
					if !wantOK {
						want = "no static callee (" + want + ")"
					}
					pt.disagree = append(pt.disagree, fmt.Sprintf("%s: ours %s%s, go/types %s", where, got, at, want))
				case has && !wantOK:
					pt.unresolvedRight++
				case has:
					r := reasonClass(e.Reason)
					total.missed[r]++
					if _, ok := total.examples[r]; !ok {
						total.examples[r] = fmt.Sprintf("%s (%s)", where, e.Reason)
					}
					if *showMisses {
						t.Logf("missed %s → %s: %s", where, want, e.Reason)
					}
				case wantOK:
					r := "no calls edge: not extracted, or dropped as a builtin or a conversion"
					total.missed[r]++
					if _, ok := total.examples[r]; !ok {
						total.examples[r] = fmt.Sprintf("%s → %s", where, want)
					}
					if *showMisses {
						t.Logf("missed %s → %s: no edge", where, want)
					}
				}
				return true
			})
		}
		total.add(&pt)
		packages++
		if slices.Contains(precisionRoots, cp.pkg.Path()) {
			perRoot[cp.pkg.Path()] = &pt
		}
	}

	// Edges at sites where go/types sees no call: a position bug.
	var phantoms []string
	notCompared := 0
	for k, e := range ours {
		switch {
		case e.Dst == 0:
		case !compared[k.file]:
			notCompared++
		case !seen[k]:
			phantoms = append(phantoms, fmt.Sprintf("%s:%d:%d %s", k.file, k.line, k.col, k.target))
		}
	}
	slices.Sort(phantoms)

	t.Logf("roots %s: %d packages type-checked in %v, their mirror indexed in %v (concurrently)",
		strings.Join(precisionRoots, ", "), len(tc.pkgs), tTypes.Round(time.Millisecond), tIndex.Round(time.Millisecond))
	for _, b := range broken {
		t.Logf("not compared, go/types reports errors: %s", b)
	}
	t.Logf("%d calls edges (dst ≠ 0) in files go/types did not check (other platforms, ignored files), not compared", notCompared)
	for _, p := range precisionRoots {
		r := perRoot[p]
		t.Logf("  %-14s edges %5d  agree %5d  disagree %3d  precision %7.3f%%  recall %6.2f%% of %d",
			p, r.edges, r.agree, len(r.disagree), pct(r.agree, r.edges), pct(r.agree, r.truth), r.truth)
	}
	t.Logf("all %d packages: edges made (dst ≠ 0) %d, agree with go/types %d, disagree %d: precision %.3f%%",
		packages, total.edges, total.agree, len(total.disagree), pct(total.agree, total.edges))
	t.Logf("  %d agreeing edges point at the declaration in a file the default build leaves out (same qualified name)", total.variant)
	t.Logf("calls go/types resolves to a declaration: %d; linked by us: %d; recall %.2f%%",
		total.truth, total.agree, pct(total.agree, total.truth))
	t.Logf("calls without a static callee (builtins, conversions, function values, …) we rightly left unresolved: %d", total.unresolvedRight)
	missed := 0
	for _, n := range total.missed {
		missed += n
	}
	t.Logf("calls go/types resolves that we left without an edge: %d, by reason:", missed)
	reasons := slices.Collect(maps.Keys(total.missed))
	slices.SortFunc(reasons, func(a, b string) int {
		return cmp.Or(cmp.Compare(total.missed[b], total.missed[a]), cmp.Compare(a, b))
	})
	for _, r := range reasons {
		t.Logf("  %6d  %s   e.g. %s", total.missed[r], r, total.examples[r])
	}

	slices.Sort(total.disagree)
	for i, d := range total.disagree {
		if i == 30 {
			t.Errorf("… and %d more disagreements", len(total.disagree)-30)
			break
		}
		t.Errorf("wrong edge: %s", d)
	}
	for i, p := range phantoms {
		if i == 30 {
			t.Errorf("… and %d more", len(phantoms)-30)
			break
		}
		t.Errorf("calls edge at a site that is no call for go/types: %s", p)
	}
	compareTypeUses(t, tc, g)
	compareDefinitions(t, tc, g)
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

type site struct {
	file, target string
	line, col    int
}

type tally struct {
	edges, agree, variant, truth, unresolvedRight int
	disagree                                      []string
	missed                                        map[string]int // by reason class
	examples                                      map[string]string
}

func (t *tally) add(o *tally) {
	t.edges += o.edges
	t.agree += o.agree
	t.variant += o.variant
	t.truth += o.truth
	t.unresolvedRight += o.unresolvedRight
	t.disagree = append(t.disagree, o.disagree...)
}

// short cuts a callee as written to a loggable length.
func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }

// gorootDir returns GOROOT, failing when its sources are missing.
func gorootDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	goroot := strings.TrimSpace(string(out))
	if err != nil || goroot == "" {
		goroot = build.Default.GOROOT
	}
	for _, p := range precisionRoots {
		if _, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(p))); err != nil {
			t.Fatalf("GOROOT sources missing (GOROOT %q): %v", goroot, err)
		}
	}
	return goroot
}

// mirrorDir copies the non-test .go files of one folder.
func mirrorDir(from, to string) error {
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// typeChecker type-checks GOROOT packages from source for linux/amd64.
// It is the types.ImporterFrom of the packages it checks. Cgo is off:
// code calling C cannot be checked without running cgo, and GOROOT has a
// pure Go variant of each such file. The resolver takes cgo as on, so it
// may link a call to the cgo variant of a declaration: the qualified
// names are the same, which is what is compared.
type typeChecker struct {
	ctxt   build.Context
	srcDir string
	fset   *token.FileSet
	pkgs   map[string]*checkedPkg // by folder, relative to srcDir
	loaded map[string]bool        // files compiled, relative to srcDir
	src    map[string][]byte      // their content
}

type checkedPkg struct {
	rel   string
	pkg   *types.Package
	files []*ast.File
	info  *types.Info
	err   error // the first type error outside cgo files, if any
}

func newTypeChecker(srcDir string) *typeChecker {
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = "linux", "amd64", false
	ctxt.GOROOT = filepath.Dir(srcDir)
	return &typeChecker{
		ctxt: ctxt, srcDir: srcDir, fset: token.NewFileSet(),
		pkgs: make(map[string]*checkedPkg), loaded: make(map[string]bool), src: make(map[string][]byte),
	}
}

func (tc *typeChecker) rel(name string) string {
	r, err := filepath.Rel(tc.srcDir, name)
	if err != nil {
		return name
	}
	return filepath.ToSlash(r)
}

func (tc *typeChecker) Import(p string) (*types.Package, error) {
	return tc.ImportFrom(p, tc.srcDir, 0)
}

func (tc *typeChecker) ImportFrom(p, dir string, _ types.ImportMode) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	cp, err := tc.load(p, dir)
	if err != nil {
		return nil, err
	}
	return cp.pkg, nil
}

// closure lists the folders of the packages roots import, directly or
// not, roots included, relative to srcDir and sorted.
func (tc *typeChecker) closure(roots []string) ([]string, error) {
	seen := make(map[string]bool)
	var visit func(p, dir string) error
	visit = func(p, dir string) error {
		if p == "unsafe" || p == "C" {
			return nil
		}
		bp, err := tc.ctxt.Import(p, dir, 0)
		if err != nil {
			return err
		}
		rel := tc.rel(bp.Dir)
		if seen[rel] {
			return nil
		}
		seen[rel] = true
		for _, imp := range bp.Imports {
			if err := visit(imp, bp.Dir); err != nil {
				return err
			}
		}
		return nil
	}
	for _, p := range roots {
		if err := visit(p, tc.srcDir); err != nil {
			return nil, err
		}
	}
	return slices.Sorted(maps.Keys(seen)), nil
}

// load type-checks the package p imports from dir (vendored packages
// resolve through GOROOT/src/vendor), once.
func (tc *typeChecker) load(p, dir string) (*checkedPkg, error) {
	bp, err := tc.ctxt.Import(p, dir, 0)
	if err != nil {
		return nil, err
	}
	rel := tc.rel(bp.Dir)
	if cp := tc.pkgs[rel]; cp != nil {
		if cp.pkg == nil {
			return nil, fmt.Errorf("import cycle through %s", p)
		}
		return cp, nil
	}
	cp := &checkedPkg{rel: rel}
	tc.pkgs[rel] = cp
	for _, name := range bp.GoFiles {
		full := filepath.Join(bp.Dir, name)
		data, err := os.ReadFile(full)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(tc.fset, full, data, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		cp.files = append(cp.files, f)
		tc.loaded[tc.rel(full)] = true
		tc.src[tc.rel(full)] = data
	}
	cp.info = &types.Info{
		Types: make(map[ast.Expr]types.TypeAndValue),
		Defs:  make(map[*ast.Ident]types.Object),
		Uses:  make(map[*ast.Ident]types.Object),
	}
	conf := types.Config{
		Importer: tc,
		Sizes:    types.SizesFor("gc", "amd64"),
		Error: func(err error) {
			if cp.err == nil {
				cp.err = err
			}
		},
	}
	cp.pkg, _ = conf.Check(bp.ImportPath, tc.fset, cp.files, cp.info)
	return cp, nil
}

// truth finds the static callees of one package's calls.
type truth struct {
	info   *types.Info
	locals map[*types.Var]*localVar
}

// localVar is how a local variable is assigned.
type localVar struct {
	init       ast.Expr // the value it was declared with, if one
	reassigned bool     // assigned again, or its address taken
}

func newTruth(info *types.Info, files []*ast.File) *truth {
	tr := &truth{info: info, locals: make(map[*types.Var]*localVar)}
	local := func(id *ast.Ident) *localVar {
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		lv := tr.locals[v]
		if lv == nil {
			lv = &localVar{}
			tr.locals[v] = lv
		}
		return lv
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					id, ok := ast.Unparen(l).(*ast.Ident)
					if !ok {
						continue
					}
					lv := local(id)
					switch {
					case lv == nil:
					case n.Tok == token.DEFINE && info.Defs[id] != nil:
						if len(n.Rhs) == len(n.Lhs) {
							lv.init = n.Rhs[i]
						}
					default:
						lv.reassigned = true
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if lv := local(id); lv != nil && len(n.Values) == len(n.Names) {
						lv.init = n.Values[i]
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
					if lv := local(id); lv != nil {
						lv.reassigned = true
					}
				}
			case *ast.RangeStmt:
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if id, ok := x.(*ast.Ident); ok && n.Tok == token.ASSIGN {
						if lv := local(id); lv != nil {
							lv.reassigned = true
						}
					}
				}
			}
			return true
		})
	}
	return tr
}

// callee returns the qualified name, in the indexer's form, of the
// declaration a call statically reaches, or false and why there is none.
// Calls through an interface reach the interface's method. A call of a
// local variable only ever assigned its initial value reaches what that
// value names (f := strings.ToUpper; f(s)).
func (tr *truth) callee(call *ast.CallExpr) (string, bool) {
	return tr.named(call.Fun, 0)
}

func (tr *truth) named(fun ast.Expr, depth int) (string, bool) {
	fun = ast.Unparen(fun)
	if tv, ok := tr.info.Types[fun]; ok && tv.IsType() {
		return "conversion", false
	}
	switch x := fun.(type) {
	case *ast.IndexExpr: // an instantiation: f[T]
		fun = ast.Unparen(x.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(x.X)
	}
	var id *ast.Ident
	switch x := fun.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return fmt.Sprintf("callee is a %T", fun), false
	}
	switch obj := tr.info.Uses[id].(type) {
	case *types.Builtin:
		return "builtin", false
	case *types.Func:
		return funcName(obj)
	case *types.Var:
		lv := tr.locals[obj]
		switch {
		case lv == nil || obj.IsField():
			return "a function value", false
		case lv.reassigned:
			return "a local function value assigned more than once", false
		case lv.init == nil || depth > 4:
			return "a local function value of unknown origin", false
		}
		if _, ok := ast.Unparen(lv.init).(*ast.CallExpr); ok {
			return "a local function value computed by a call", false
		}
		return tr.named(lv.init, depth+1)
	case nil:
		return "no object", false
	default:
		return fmt.Sprintf("callee is a %T", obj), false
	}
}

// funcName writes a function's qualified name as the indexer does:
// pkg.F, pkg.T.M, pkg.(*T).M, pkg.I.M; generic ones by their origin,
// vendored packages without vendor/.
func funcName(fn *types.Func) (string, bool) {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return "universe method " + fn.Name(), false
	}
	pkg := strings.TrimPrefix(fn.Pkg().Path(), "vendor/")
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return pkg + "." + fn.Name(), true
	}
	t := types.Unalias(recv.Type())
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		ptr, t = true, types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok {
		return "method of an unnamed interface", false
	}
	obj := named.Obj()
	if obj.Parent() != obj.Pkg().Scope() {
		return "method of a type local to a function", false
	}
	if ptr {
		return pkg + ".(*" + obj.Name() + ")." + fn.Name(), true
	}
	return pkg + "." + obj.Name() + "." + fn.Name(), true
}

var reasonNames = []*regexp.Regexp{
	regexp.MustCompile(`^(package) \S+ (not in snapshot)$`),
	regexp.MustCompile(`^(unknown package) \S+$`),
	regexp.MustCompile(`^(type) \S+ (not found in) \S+$`),
	regexp.MustCompile(`^(undefined): .*$`),
	regexp.MustCompile(`^(unknown result type of) \S+$`),
	regexp.MustCompile(`^(unknown type of) \S+$`),
	regexp.MustCompile(`^(ambiguous type of) \S+$`),
	regexp.MustCompile(`^(ambiguous selector) \S+$`),
	regexp.MustCompile(`^(ambiguous): \S+ (declared as different kinds)$`),
	regexp.MustCompile(`^(field) \S+ (of unnamed type)$`),
	regexp.MustCompile(`^\S+ (not found on) \S+$`),
	regexp.MustCompile(`^\S+ (not found in) \S+$`),
}

var localPrefix = regexp.MustCompile(`^(local \S+: )+`)

// reasonClass drops the names from an unresolved edge's reason.
func reasonClass(reason string) string {
	if m := localPrefix.FindString(reason); m != "" {
		return "local bound to: " + reasonClass(reason[len(m):])
	}
	for _, re := range reasonNames {
		if m := re.FindStringSubmatch(reason); m != nil {
			return strings.Join(m[1:], " … ")
		}
	}
	return reason
}
