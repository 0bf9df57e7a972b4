package typescript

import (
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// An npm package is the folder of a package.json that has a name. Every
// module of one gets two kinds of facts at extraction: dist (the package
// and the names it depends on) and entry (each bare specifier that names
// the module from outside its package, by the package.json's exports,
// types, module and main, or by its path when there is no exports map).
// Resolution looks a bare specifier up among the entries, so an import of
// a workspace package of a monorepo reaches its source, and a join of
// several repositories (package union) links one repository's imports to
// another's package. package.json files are context files: when one
// changes, every file is extracted again.

// npmPackage is what a package.json says about its package.
type npmPackage struct {
	dir      string // its folder, "." at the top
	name     string
	requires string          // dependency names of it and of the package.json files above, sorted, space-separated
	exports  json.RawMessage // nil when it has no exports map
	mains    []string        // types, typings, module, main: paths in the package, cleaned
	out      string          // tsconfig outDir and rootDir in the package, cleaned; "" when not both set
	root     string
}

type rawPackage struct {
	Name                 string                     `json:"name"`
	Exports              json.RawMessage            `json:"exports"`
	Types                string                     `json:"types"`
	Typings              string                     `json:"typings"`
	Module               string                     `json:"module"`
	Main                 string                     `json:"main"`
	Dependencies         map[string]json.RawMessage `json:"dependencies"`
	DevDependencies      map[string]json.RawMessage `json:"devDependencies"`
	PeerDependencies     map[string]json.RawMessage `json:"peerDependencies"`
	OptionalDependencies map[string]json.RawMessage `json:"optionalDependencies"`
}

// dependencies returns the names of every kind of dependency.
func (r *rawPackage) dependencies() []string {
	var out []string
	for _, m := range []map[string]json.RawMessage{r.Dependencies, r.DevDependencies, r.PeerDependencies, r.OptionalDependencies} {
		for name := range m {
			out = append(out, name)
		}
	}
	return out
}

// packages caches the package governing each folder, for one extractor.
type packages struct {
	tree    *indexer.Tree
	configs *configs
	byDir   map[string]*npmPackage
	raw     map[string]*rawPackage
}

func newPackages(t *indexer.Tree, c *configs) *packages {
	return &packages{tree: t, configs: c, byDir: make(map[string]*npmPackage), raw: make(map[string]*rawPackage)}
}

func isPackageFile(p string) bool { return path.Base(p) == "package.json" }

// forDir returns the package of the nearest package.json in dir or above,
// nil when there is none or it has no name.
func (ps *packages) forDir(dir string) *npmPackage {
	if ps.tree == nil || ps.tree.ReadFile == nil {
		return nil
	}
	if p, ok := ps.byDir[dir]; ok {
		return p
	}
	var p *npmPackage
	if file := path.Join(dir, "package.json"); ps.tree.Has(file) {
		if raw := ps.read(file); raw != nil && raw.Name != "" {
			p = ps.load(dir, raw)
		}
	} else if dir != "." && dir != "" {
		p = ps.forDir(path.Dir(dir))
	}
	ps.byDir[dir] = p
	return p
}

func (ps *packages) read(file string) *rawPackage {
	if raw, ok := ps.raw[file]; ok {
		return raw
	}
	var raw *rawPackage
	if data, err := ps.tree.ReadFile(file); err == nil {
		var r rawPackage
		if json.Unmarshal(data, &r) == nil {
			raw = &r
		}
	}
	ps.raw[file] = raw
	return raw
}

func (ps *packages) load(dir string, raw *rawPackage) *npmPackage {
	p := &npmPackage{dir: dir, name: raw.Name}
	if e := bytes.TrimSpace(raw.Exports); len(e) > 0 && !bytes.Equal(e, []byte("null")) {
		p.exports = e
	}
	for _, m := range []string{raw.Types, raw.Typings, raw.Module, raw.Main} {
		if m != "" {
			p.mains = append(p.mains, path.Clean(m))
		}
	}
	// The dependencies of this package.json and of those above it (a
	// monorepo's root declares what its workspaces share).
	deps := raw.dependencies()
	for d := dir; d != "." && d != ""; {
		d = path.Dir(d)
		if f := path.Join(d, "package.json"); ps.tree.Has(f) {
			if r := ps.read(f); r != nil {
				deps = append(deps, r.dependencies()...)
			}
		}
	}
	slices.Sort(deps)
	p.requires = strings.Join(slices.Compact(deps), " ")
	p.out, p.root = ps.outDirs(dir)
	return p
}

// outDirs returns the outDir and rootDir of the package's own tsconfig,
// relative to the package ("", "" unless both are known). Without a
// rootDir, a single include folder stands for it, as tsc would infer.
func (ps *packages) outDirs(dir string) (out, root string) {
	if ps.configs == nil {
		return "", ""
	}
	var hasOut, hasRoot bool
	seen := map[string]bool{}
	for p := path.Join(dir, "tsconfig.json"); p != "" && !seen[p] && len(seen) < 8 && ps.tree.Has(p); {
		seen[p] = true
		raw := ps.configs.read(p)
		if raw == nil {
			break
		}
		cdir := path.Dir(p)
		o := raw.CompilerOptions
		if o.OutDir != nil && !hasOut {
			hasOut, out = true, path.Join(cdir, *o.OutDir)
		}
		if o.RootDir != nil && !hasRoot {
			hasRoot, root = true, path.Join(cdir, *o.RootDir)
		}
		if !hasRoot && len(raw.Include) == 1 {
			inc := strings.TrimSuffix(strings.TrimSuffix(raw.Include[0], "/**/*"), "/**")
			if inc != "" && !strings.ContainsAny(inc, "*?") {
				hasRoot, root = true, path.Join(cdir, inc)
			}
		}
		p = ps.configs.extends(cdir, raw.Extends)
	}
	rel := func(p string) (string, bool) {
		if dir == "." {
			return p, p != ".." && !strings.HasPrefix(p, "../")
		}
		if p == dir {
			return ".", true
		}
		r, ok := strings.CutPrefix(p, dir+"/")
		return r, ok
	}
	o, ok1 := rel(out)
	r, ok2 := rel(root)
	if !hasOut || !hasRoot || !ok1 || !ok2 || o == r {
		return "", ""
	}
	return o, r
}

// stem drops a JavaScript or TypeScript extension, declaration files'
// included.
func stem(p string) string {
	for _, e := range []string{".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		if s, ok := strings.CutSuffix(p, e); ok && s != "" && !strings.HasSuffix(s, "/") {
			return s
		}
	}
	return p
}

// forms returns the stems, relative to the package, that stand for the
// file at rel: its own, and that of its output under outDir.
func (p *npmPackage) forms(rel string) []string {
	out := []string{stem(rel)}
	if p.out == "" {
		return out
	}
	under := rel
	if p.root != "." {
		var ok bool
		if under, ok = strings.CutPrefix(rel, p.root+"/"); !ok {
			return out
		}
	}
	if stem(rel) != strings.TrimSuffix(rel, path.Ext(rel)) {
		return out // a declaration file: tsc writes no output for it
	}
	return append(out, stem(path.Join(p.out, under)))
}

// entries returns the bare specifiers, stemmed, that name the module at
// file (a path of the tree) from outside the package.
func (p *npmPackage) entries(file string) []string {
	rel := file
	if p.dir != "." {
		rel = strings.TrimPrefix(file, p.dir+"/")
	}
	forms := p.forms(rel)
	var out []string
	names := func(target string) bool {
		t := stem(path.Clean(target))
		return slices.Contains(forms, t)
	}
	if p.exports != nil {
		for _, e := range exportsMap(p.exports) {
			for _, t := range e.targets {
				t, ok := strings.CutPrefix(t, "./")
				if !ok {
					continue
				}
				sub := strings.TrimPrefix(e.sub, ".")
				if !strings.Contains(t, "*") {
					if !strings.Contains(sub, "*") && names(t) {
						out = append(out, stem(p.name+sub))
					}
					continue
				}
				pre, suf, _ := strings.Cut(stem(path.Clean(t)), "*")
				for _, f := range forms {
					if len(f) > len(pre)+len(suf) && strings.HasPrefix(f, pre) && strings.HasSuffix(f, suf) {
						out = append(out, stem(p.name+strings.Replace(sub, "*", f[len(pre):len(f)-len(suf)], 1)))
					}
				}
			}
		}
	} else {
		mains := p.mains
		if len(mains) == 0 {
			mains = []string{"index"}
		}
		for _, m := range mains {
			if names(m) || names(path.Join(m, "index")) {
				out = append(out, p.name)
				break
			}
		}
		for _, f := range forms {
			out = append(out, p.name+"/"+f)
			if d, ok := strings.CutSuffix(f, "/index"); ok {
				out = append(out, p.name+"/"+d)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

type exportEntry struct {
	sub     string // ".", "./x", "./x/*"
	targets []string
}

// exportsMap reads an exports field: a target, a list, a map of
// conditions, or a map of subpaths to any of those.
func exportsMap(raw json.RawMessage) []exportEntry {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return []exportEntry{{sub: ".", targets: targetsOf(raw, 0)}}
	}
	subpaths := false
	for k := range obj {
		subpaths = subpaths || strings.HasPrefix(k, ".")
	}
	if !subpaths {
		return []exportEntry{{sub: ".", targets: targetsOf(raw, 0)}}
	}
	var out []exportEntry
	for k, v := range obj {
		if strings.HasPrefix(k, ".") && strings.Count(k, "*") <= 1 {
			out = append(out, exportEntry{sub: k, targets: targetsOf(v, 0)})
		}
	}
	slices.SortFunc(out, func(a, b exportEntry) int { return strings.Compare(a.sub, b.sub) })
	return out
}

// targetsOf returns every target a value of an exports map can give,
// under any condition.
func targetsOf(raw json.RawMessage, depth int) []string {
	if depth > 8 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var out []string
		for _, v := range list {
			out = append(out, targetsOf(v, depth+1)...)
		}
		return out
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		var out []string
		for _, v := range obj {
			out = append(out, targetsOf(v, depth+1)...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return nil
}

// packageFacts adds the dist and entry facts of the module.
func (f *fileState) packageFacts() {
	p := f.x.packages.forDir(path.Dir(f.Path))
	if p == nil {
		return
	}
	f.AddNodeRef(schemas.RefDist, 0, span{}, p.name, p.requires)
	for _, e := range p.entries(f.Path) {
		f.AddNodeRef(schemas.RefEntry, 0, span{}, e, "")
	}
}

// Relocate puts the tree paths an imports ref holds under dir (see
// indexer.Relocator): the candidates of its module specifier that begin
// with "/".
func (lang) Relocate(r *schemas.Ref, dir string) {
	if r.Kind != schemas.EdgeImports {
		return
	}
	head, spec, ok := strings.Cut(r.Expr, " from ")
	if !ok {
		if spec, ok = strings.CutPrefix(r.Expr, "from "); !ok {
			return
		}
		head = ""
	}
	alts := strings.Split(spec, "|")
	for i, a := range alts {
		if strings.HasPrefix(a, "/") {
			alts[i] = "/" + dir + a
		}
	}
	spec = strings.Join(alts, "|")
	if head == "" {
		r.Expr = "from " + spec
	} else {
		r.Expr = head + " from " + spec
	}
}
