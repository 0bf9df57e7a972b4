package typescript_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
)

func TestShadowing(t *testing.T) {
	edges := index(t, map[string]string{
		"lib.ts": "export function helper() {}\nexport class T { m() {} }\n",
		"m.ts": `
import { helper, T } from "./lib";

function byParam(helper: () => void) {
  helper();
}

function byLocal(x: { pick(): () => void }) {
  const helper = x.pick();
  helper();
}

function byLoop(items: Array<() => void>) {
  for (const helper of items) helper();
}

function inCallback(list: number[]) {
  list.forEach(() => {
    function helper() {}
    helper();
  });
  helper();
}

function notShadowed() {
  helper();
}

class Box<T> {
  get(x: T) {
    x.m();
  }
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.byParam -calls-> ?helper (unresolved: dynamic call)",
		"m.byLocal -calls-> ?helper (unresolved: dynamic call)",
		"m.byLoop -calls-> ?helper (unresolved: dynamic call)",
		"m.inCallback -calls-> m.inCallback.helper (local)",
		"m.inCallback -calls-> ?helper (unresolved: dynamic call)",
		"m.notShadowed -calls-> lib.helper (import)",
		"m.Box.get -calls-> ?x.m (unresolved",
	}, "m.byParam -calls-> lib.helper", "m.byLocal -calls-> lib.helper", "m.byLoop -calls-> lib.helper",
		"m.inCallback -calls-> lib.helper", "m.Box.get -calls-> lib.T.m")
}

func TestThis(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
class Base {
  save() {}
  static make() { return new Base(); }
}

class Child extends Base {
  run() {
    this.save();
    const later = () => this.save();
    function detached() { this.save(); }
    [1].forEach(function () { this.save(); });
    later();
    detached();
  }
  static build() {
    this.make();
  }
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Child.run -calls-> m.Base.save (receiver) m.ts:9",
		"m.Child.run.later -calls-> m.Base.save (receiver) m.ts:10",
		"m.Child.run.detached -calls-> ?this.save (unresolved: unknown this)",
		"m.Child.run -calls-> ?this.save (unresolved: unknown this) m.ts:12",
		"m.Child.run -calls-> m.Child.run.later (local)",
		"m.Child.build -calls-> m.Base.make (receiver)",
	}, "m.Child.run.detached -calls-> m.Base.save")
}

func TestInheritance(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
import { Component } from "react";

class A {
  constructor(x: number) {}
  m() {}
  n() {}
}
class B extends A {
  m() { super.m(); }
}
class C extends B {
  constructor() { super(1); }
  run() { this.m(); this.n(); }
}
class View extends Component {
  render() { this.setState({}); this.own(); }
  own() {}
}
class Plain {}
function use() {
  new C().m();
  new Plain();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.B -extends-> m.A (local)",
		"m.B.m -calls-> m.A.m (receiver)",
		"m.C.constructor -calls-> m.A.constructor (receiver)",
		"m.C.run -calls-> m.B.m (receiver)",
		"m.C.run -calls-> m.A.n (receiver)",
		"m.View -extends-> ?Component (unresolved: external module)",
		"m.View.render -calls-> ?this.setState (unresolved: base outside the snapshot)",
		"m.View.render -calls-> m.View.own (receiver)",
		"m.use -instantiates-> m.C (local)",
		"m.use -calls-> m.B.m (receiver)",
		"m.use -instantiates-> m.Plain (local)",
	}, "m.C.run -calls-> m.A.m", "m.use -calls-> m.A.constructor")
}

func TestTypedReceivers(t *testing.T) {
	edges := index(t, map[string]string{
		"repo.ts": `
export interface Store { get(id: string): Item | undefined; }
export class Item { name(): string { return ""; } }
export function open(): Store { return null!; }
export async function load(): Promise<Item> { return new Item(); }
`,
		"m.ts": `
import { open, load, Item, type Store } from "./repo";

export class Service {
  private store: Store;
  cache = new Map<string, Item>();
  constructor(private readonly backup: Store) {
    this.store = open();
  }
  async run(id: string, item?: Item | null) {
    this.store.get(id);
    this.backup.get(id);
    item?.name();
    (this.cache.get(id) as Item).name();
    const it: Item = this.pick();
    it.name();
    const loaded = await load();
    loaded.name();
    open().get(id)?.name();
  }
  pick(): any { return null; }
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Service.run -calls-> repo.Store.get (receiver) m.ts:11",
		"m.Service.run -calls-> repo.Store.get (receiver) m.ts:12",
		"m.Service.run -calls-> repo.Item.name (receiver) m.ts:13",
		"m.Service.run -calls-> repo.Item.name (receiver) m.ts:14",
		"m.Service.run -calls-> repo.Item.name (receiver) m.ts:16",
		"m.Service.run -calls-> repo.Item.name (receiver) m.ts:18",
		"m.Service.run -calls-> repo.Item.name (receiver) m.ts:19",
		"m.Service.run -calls-> repo.open (import) m.ts:19",
	})
}

func TestModules(t *testing.T) {
	edges := index(t, map[string]string{
		"tsconfig.json": `{"extends": "./tsconfig.base.json", "compilerOptions": {"paths": {"~/*": ["app/*"]}}}`,
		"tsconfig.base.json": `{
  // comments and trailing commas are allowed
  "compilerOptions": { "baseUrl": "src", },
}`,
		"src/app/util.ts":     "export const twice = (n: number) => n * 2;\n",
		"src/app/index.ts":    "export * from './util';\nexport * from './cycle';\n",
		"src/app/cycle.ts":    "export * from './index';\nexport function loop() {}\n",
		"src/lib/esm.ts":      "export default class Thing { go() {} }\n",
		"src/lib/legacy.js":   "class Old { go() {} }\nmodule.exports = Old;\n",
		"src/lib/helpers.cjs": "exports.one = () => 1;\nmodule.exports.two = function () {};\n",
		"src/lib/barrel.js":   "module.exports = require('./helpers.cjs');\n",
		"src/lib/compiled.ts": "export function built() {}\n",
		"src/lib/compiled.js": "export function built() {}\n",
		"src/main.ts": `
import { twice, loop, nothing } from "~/index";
import Thing from "lib/esm";
import Old = require("./lib/legacy");
import { built } from "./lib/compiled.js";
import * as h from "./lib/barrel";
import missing from "./nowhere";
import React from "react";
const { one } = require("./lib/helpers.cjs");

export function main() {
  twice(2);
  loop();
  nothing();
  new Thing().go();
  new Old().go();
  built();
  h.one();
  h.two();
  one();
}
`,
		"src/js.js": `
import { twice } from "./app/util";
import Thing from "./lib/esm.ts";
import { built } from "./lib/compiled";
export function js() { twice(1); new Thing().go(); built(); }
`,
	})
	languagetest.Expect(t, edges, []string{
		"src/main -imports-> src/app/util.twice (import)",
		"src/main -imports-> src/app/cycle.loop (import)",
		"src/main -imports-> ?~/index:nothing (unresolved: unknown member)",
		"src/main -imports-> src/lib/esm.Thing (import)",
		"src/main -imports-> src/lib/legacy (import)",
		"src/main -imports-> src/lib/compiled.built (import) src/main.ts:5",
		"src/main -imports-> ?./nowhere:default (unresolved: module not found)",
		"src/main -imports-> ?react:default (unresolved: external module)",
		"src/main.main -calls-> src/app/util.twice (import)",
		"src/main.main -calls-> src/app/cycle.loop (import)",
		"src/main.main -calls-> src/lib/esm.Thing.go (receiver)",
		"src/main.main -calls-> src/lib/legacy.Old.go (receiver)",
		"src/main.main -calls-> src/lib/helpers.one (import)",
		"src/main.main -calls-> src/lib/helpers.two (import)",
		"src/js.js -calls-> src/app/util.twice (import)",
		"src/js.js -calls-> src/lib/esm.Thing.go (receiver)",
	})
	// A TypeScript file importing ./compiled.js means compiled.ts; a
	// JavaScript file importing ./compiled means compiled.js.
	for _, e := range edges {
		if e == "src/main.main -calls-> src/lib/compiled.built (import) src/main.ts:17" {
			return
		}
	}
	t.Errorf("built() from main.ts does not resolve to compiled.ts")
}

func TestAmbiguousAndOverloads(t *testing.T) {
	edges := index(t, map[string]string{
		"a.ts":      "export function dup() {}\n",
		"b.ts":      "export function dup() {}\n",
		"barrel.ts": "export * from './a';\nexport * from './b';\n",
		"m.ts": `
import { dup } from "./barrel";
function parse(s: string): number;
function parse(s: number): number;
function parse(s: any): number { return 0; }
function use() { dup(); parse(1); }
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> m.parse (local)",
	}, "m.use -calls-> a.dup", "m.use -calls-> b.dup")
}

// TestBoundMethod: this.m = this.m.bind(this) in a constructor binds the
// method m; it declares no field m beside it, so m stays one symbol and
// its callers find it by name.
func TestBoundMethod(t *testing.T) {
	g := languagetest.Index(t, map[string]string{"m.ts": `
export class Schema {
  parse(x: unknown) { return x; }
  constructor() {
    this.parse = this.parse.bind(this);
    this.name = "s";
  }
  check() { return this.parse(1); }
}
`}, typescript.All()...)
	got := languagetest.Render(g)
	var parse []string
	for _, n := range got.Nodes {
		if strings.Contains(n, "m.Schema.parse ") {
			parse = append(parse, n)
		}
	}
	if len(parse) != 1 || !strings.HasPrefix(parse[0], "method ") {
		t.Errorf("nodes named m.Schema.parse: %q, want the method alone", parse)
	}
	// TypeScript declares a class's fields in its body: this.name = … in
	// a .ts file assigns one (here one the checker would refuse), it
	// declares none.
	if slices.ContainsFunc(got.Nodes, func(n string) bool { return strings.HasPrefix(n, "field m.Schema.name ") }) {
		t.Errorf("this.name = … made a field in TypeScript:\n%s", strings.Join(got.Nodes, "\n"))
	}
	languagetest.Expect(t, got.Edges, []string{"m.Schema.check -calls-> m.Schema.parse (receiver)"})
}
