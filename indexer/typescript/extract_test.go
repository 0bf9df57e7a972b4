package typescript

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

func TestModuleName(t *testing.T) {
	for file, want := range map[string]string{
		"src/shop/cart.ts": "src/shop/cart", "src/shop/index.tsx": "src/shop", "index.js": "index",
		"types/api.d.ts": "types/api", "a/b.test.mjs": "a/b.test",
	} {
		if got, _ := moduleName(file); got != want {
			t.Errorf("moduleName(%s) = %s, want %s", file, got, want)
		}
	}
}

func TestExprs(t *testing.T) {
	res := languagetest.Extract(t, TypeScript(), nil, "src/m.ts", `
import * as ns from "./ns";
import def, { named as alias } from "../lib/x";
import type { T } from "pkg/sub";
const lazy = require("./lazy");

class C extends Base {
  field: Repo;
  run(a, b: Repo, c?: Repo | null, ...rest: string[]) {
    const x = new Foo();
    const y = x.make();
    let z = null;
    z = new Bar();
    const w = a ? 1 : 2;
    const { repo } = this;
    x.go();
    y.go();
    z.go();
    w.go();
    a.go();
    b.save();
    c?.close();
    repo.save();
    this.field.save();
    super.run();
    ns.f();
    alias();
    lazy.g();
    items[0].go();
    "s".trim();
    (a || b)();
    rest.map(String);
  }
}
`)
	languagetest.Exprs(t, res, map[string]string{
		"imports ./ns":             "* as ns from /src/ns",
		"imports ../lib/x:default": "default as def from /lib/x",
		"imports ../lib/x:named":   "named as alias from /lib/x",
		"imports pkg/sub:T":        "T from pkg/sub",
		"imports ./lazy":           "= as lazy from /src/lazy",
		"extends Base":             "Base",
		"calls x.go":               "Foo().go",
		"calls y.go":               "Foo().make().go",
		"calls z.go":               "Bar().go",
		"calls w.go":               "?receiver",
		"calls a.go":               "?receiver",
		"calls b.save":             "{Repo}.save",
		"calls c?.close":           "{Repo}.close",
		"calls repo.save":          "this.repo.save",
		"calls this.field.save":    "this.field.save",
		"calls super.run":          "super.run",
		"calls ns.f":               "ns.f",
		"calls alias":              "alias",
		"calls lazy.g":             "lazy.g",
		"calls items[0].go":        "?subscript",
		`calls "s".trim`:           "?literal",
		"calls (a || b)":           "?expr",
		"calls rest.map":           "?literal",
		"type Repo":                "{Repo}",
	})
}

func TestNodes(t *testing.T) {
	res := languagetest.Extract(t, TypeScript(), nil, "src/__tests__/x.test.ts", `/** Module doc is not a symbol's. */

/**
 * Adds.
 * @param a first
 */
export async function add(a: number, b = 2): Promise<number> {
  return a + b;
}

export default abstract class Shape {
  static #made = 0;
  protected abstract area(): number;
  @memo() get name(): string { return ""; }
}

const internal = () => 1;
export { internal as exposed };
`)
	if !res.IsTest {
		t.Error("test file not marked as such")
	}
	check := languagetest.Nodes(t, res)
	base := "src/__tests__/x.test"
	check(base+".add", schemas.KindFunction, func(n schemas.Node) bool {
		return n.Exported && n.IsAsync && n.IsTest && n.Doc == "Adds.\n@param a first" && n.StartLine == 7 &&
			n.Signature == "async function add(a: number, b = 2): Promise<number>"
	})
	check(base+".Shape", schemas.KindClass, func(n schemas.Node) bool {
		return n.Exported && n.IsAbstract && n.Signature == "abstract class Shape"
	})
	check(base+".Shape.#made", schemas.KindField, func(n schemas.Node) bool { return n.IsStatic && n.Visibility == schemas.Private && !n.Exported })
	check(base+".Shape.area", schemas.KindMethod, func(n schemas.Node) bool { return n.IsAbstract && n.Visibility == schemas.Protected })
	check(base+".Shape.name", schemas.KindMethod, func(n schemas.Node) bool {
		return slices.Equal(n.Decorators, []string{"memo()"}) && n.Signature == "get name(): string"
	})
	check(base+".internal", schemas.KindFunction, func(n schemas.Node) bool { return !n.Exported })
	found := false
	for _, r := range res.Refs {
		found = found || r.Kind == refExport && r.Expr == "exposed=internal"
	}
	if !found {
		t.Error("no export fact for export { internal as exposed }")
	}
}

func TestRegions(t *testing.T) {
	res := languagetest.Extract(t, JavaScript(), nil, "m.js", `
function f(xs) {
  a();
  for (const x of xs) {
    b();
    xs.forEach(() => c());
  }
  try { d(); } catch (e) { e1(); }
  if (xs) { g1(); } else { g2(); }
  xs ? h1() : h2();
  while (xs) i();
  xs && j();
  switch (xs) { case 1: k(); }
}
`)
	languagetest.Regions(t, res, map[string]string{
		"a": "", "b": "loop", "c": "", "d": "try", "e1": "", "g1": "cond", "g2": "cond", "h1": "cond",
		"h2": "cond", "i": "loop", "j": "cond", "k": "cond",
	})
}

func TestSyntaxError(t *testing.T) {
	res := languagetest.Extract(t, TypeScript(), nil, "m.ts", "function ok() {}\nfunction broken( {\n}\nclass After {}\n")
	if !strings.HasPrefix(res.ParseError, "syntax error at line ") {
		t.Errorf("ParseError %q", res.ParseError)
	}
	if res := languagetest.Extract(t, JavaScript(), nil, "m.js", "const x = 1;\n"); res.ParseError != "" {
		t.Errorf("ParseError %q for a valid file", res.ParseError)
	}
}

func TestTSConfigPaths(t *testing.T) {
	files := map[string]string{
		"tsconfig.json":       `{"compilerOptions": {"baseUrl": "./src", "paths": {"@app/*": ["app/*", "fallback/*"], "exact": ["lib/exact.ts"]}}}`,
		"pkg/tsconfig.json":   `{"extends": "../tsconfig.json"}`,
		"other/jsconfig.json": `{"compilerOptions": {"paths": {"#/*": ["./*"]}}}`,
	}
	tree := &indexer.Tree{Paths: map[string]bool{}, ReadFile: func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}}
	for p := range files {
		tree.Paths[p] = true
	}
	c := newConfigs(tree)
	for _, tc := range []struct{ dir, spec, want string }{
		{"src/app", "@app/x", "/src/app/x|/src/fallback/x|/src/@app/x|@app/x"},
		{"pkg/deep", "exact", "/src/lib/exact.ts|/src/exact|exact"},
		{"pkg", "react", "/src/react|react"},
		{"other", "#/a/b", "/other/a/b|#/a/b"},
	} {
		cfg := c.forDir(tc.dir)
		if cfg == nil {
			t.Errorf("%s: no config", tc.dir)
			continue
		}
		if got := strings.Join(cfg.mapSpec(tc.spec), "|"); got != tc.want {
			t.Errorf("%s from %s: %s, want %s", tc.spec, tc.dir, got, tc.want)
		}
	}
	if !isConfigFile("a/tsconfig.base.json") || isConfigFile("a/package.json") {
		t.Error("isConfigFile")
	}
}

// TestResolveRows checks that resolution reads rows only: the rows it is
// given are left as they were, and the refs of the three dialects, given
// together as the indexer gives a family's, resolve across them.
func TestResolveRows(t *testing.T) {
	var nodes []schemas.Node
	var refs []schemas.Ref
	for _, f := range []struct {
		l          indexer.Language
		file, code string
	}{
		{TypeScript(), "a.ts", "import { js } from './b';\nexport function ts() { js(); }\n"},
		{JavaScript(), "b.js", "import { View } from './c';\nexport function js() { View(); }\n"},
		{TSX(), "c.tsx", "import { ts } from './a';\nexport function View() { ts(); return <div/>; }\n"},
	} {
		res := languagetest.Extract(t, f.l, nil, f.file, f.code)
		nodes = append(nodes, schemas.Node{ID: indexer.FileID(f.file), Kind: schemas.KindFile, Language: f.l.Name(), File: f.file})
		nodes = append(nodes, res.Nodes...)
		refs = append(refs, res.Refs...)
	}
	slices.SortFunc(nodes, func(a, b schemas.Node) int { return int(int64(a.ID>>1) - int64(b.ID>>1)) })
	before := slices.Clone(nodes)
	for _, l := range All() {
		if f, ok := l.(indexer.Family); !ok || f.Family() != "ecmascript" {
			t.Fatalf("%s is not of the ecmascript family", l.Name())
		}
	}
	_, edges := TSX().Resolve(nodes, refs)
	resolved := 0
	for _, e := range edges {
		if e.Kind == schemas.EdgeCalls && e.Dst != 0 {
			resolved++
		}
	}
	if resolved != 3 {
		t.Errorf("%d calls resolved across the dialects, want 3: %+v", resolved, edges)
	}
	if !reflect.DeepEqual(before, nodes) {
		t.Error("Resolve changed the nodes")
	}
}

func FuzzExtract(f *testing.F) {
	var files []string
	_ = filepath.WalkDir("../../testdata/typescript/shop", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "\x00", "class", "class A extends {", "export default", "export * as from", "import x, from 'y'",
		"const {a: {b}, ...c} = require('x')", "module.exports = { a() {}, b: () => 1, c }", "exports.x = class {}",
		"namespace A.B.C { export const x = 1 }", "function f<T extends U>(this: T, ...a: T[]): asserts a {}",
		"new new X()()", "a?.b?.().c!.d<T>(x)`t`", "(x as unknown as Y).z()", "@d class A { @e m(@f p) {} }",
		"const a = b = c = () => this.x()", "x = <div>{y()}</div>", "enum E { A = 1, 'B' }", "declare module 'm' { }",
		"class A { constructor(private a, public b?: X) { this.c = 1 } }", "for (const [a, b] of c) a()",
		"label: { break label }", "'unterminated", "/regex/.test(s)", "`${a()}`.trim()",
	} {
		f.Add([]byte(s))
	}
	var xs []indexer.Extractor
	for _, l := range All() {
		x, err := l.NewExtractor(&indexer.Tree{Paths: map[string]bool{}})
		if err != nil {
			f.Fatal(err)
		}
		xs = append(xs, x)
	}
	names := []string{"src/mod.ts", "src/mod.tsx", "src/mod.js"}
	f.Fuzz(func(t *testing.T, src []byte) {
		for i, x := range xs {
			res, err := x.Extract(context.Background(), names[i], src)
			if err != nil {
				return
			}
			seen := make(map[uint64]bool)
			for _, n := range res.Nodes {
				if n.StartByte > n.EndByte || int(n.EndByte) > len(src) || n.StartLine == 0 || n.StartLine > n.EndLine {
					t.Fatalf("bad range %+v", n)
				}
				if seen[n.ID] {
					t.Fatalf("duplicate id %+v", n)
				}
				seen[n.ID] = true
			}
			nodes := append([]schemas.Node(nil), res.Nodes...)
			All()[i].Resolve(nodes, res.Refs)
		}
	})
}

// fixtures returns the files of the fixture repository, or those under
// $SNAP_TS_BENCH (a larger tree), with their language.
func fixtures(b *testing.B) (names []string, srcs [][]byte, langs []indexer.Language, size int) {
	root := os.Getenv("SNAP_TS_BENCH")
	if root == "" {
		root = "../../testdata/typescript/shop"
	}
	all := All()
	err := filepath.WalkDir(root, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		l := indexer.LanguageFor(all, nil, name)
		if l == nil || strings.Contains(name, "node_modules") {
			return nil
		}
		src, err := os.ReadFile(name)
		if err != nil || len(src) > indexer.DefaultMaxFileSize {
			return err
		}
		names, srcs, langs, size = append(names, name), append(srcs, src), append(langs, l), size+len(src)
		return nil
	})
	if err != nil || len(srcs) == 0 {
		b.Fatalf("no files under %s: %v", root, err)
	}
	indexer.UseCAllocator()
	return names, srcs, langs, size
}

func BenchmarkExtract(b *testing.B) {
	names, srcs, langs, size := fixtures(b)
	xs := make(map[indexer.Language]indexer.Extractor)
	for _, l := range All() {
		x, err := l.NewExtractor(&indexer.Tree{Paths: map[string]bool{}})
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		xs[l] = x
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i, src := range srcs {
			if _, err := xs[langs[i]].Extract(context.Background(), names[i], src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParse is the bare parse of the same files, the yardstick of
// BenchmarkExtract.
func BenchmarkParse(b *testing.B) {
	_, srcs, langs, size := fixtures(b)
	ps := make(map[indexer.Language]*indexer.Scanner)
	for _, l := range All() {
		p, err := indexer.NewParser(grammarPointer(l.(lang).d))
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		ps[l] = p
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i, src := range srcs {
			if _, _, _, err := ps[langs[i]].Scan(context.Background(), src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
