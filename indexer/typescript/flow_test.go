package typescript_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

// TestMergedDeclarations: a function and an interface of one name are the
// function where a value is read and the interface where a type is.
func TestMergedDeclarations(t *testing.T) {
	edges := index(t, map[string]string{
		"core.ts": `
export interface $constructor<T> { init(inst: T): void; }
export function $constructor<T>(name: string): $constructor<T> { return null!; }
`,
		"m.ts": `
import * as core from "./core";
export const Check: core.$constructor<string> = core.$constructor("Check");
export function use() {
  Check.init("x");
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m -calls-> core.$constructor (import)",
		"m.use -calls-> core.$constructor.init (receiver)",
	})
}

// TestFluentResults: a method whose result is this returns the receiver
// it was read from, so a chain on a subtype stays on the subtype; a
// function with overloads returns what its overloads agree on.
func TestFluentResults(t *testing.T) {
	edges := index(t, map[string]string{
		"s.ts": `
export interface Base { min(n: number): this; parse(x: unknown): unknown; }
export interface Str extends Base { trim(): this; }
export interface Num extends Base { }
export function string(params?: string): Str;
export function string<T extends string>(params?: string): Num;
export function string(params?: string): Str { return null!; }
export function pick(x: string): Str;
export function pick(x: number): Num;
export function pick(x: any): any { return null; }
`,
		"m.ts": `
import * as z from "./s";
export function use() {
  const minTwo = z.string().min(2).trim();
  minTwo.parse(1);
  z.string<"a">().trim();
  z.pick(1).trim();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> s.Base.min (receiver) m.ts:4",
		"m.use -calls-> s.Str.trim (receiver) m.ts:4",
		"m.use -calls-> s.Base.parse (receiver) m.ts:5",
		"m.use -calls-> ?z.string<\"a\">().trim (unresolved",
		"m.use -calls-> ?z.pick(1).trim (unresolved",
	}, "m.use -calls-> s.Str.trim (receiver) m.ts:6", "m.use -calls-> s.Str.trim (receiver) m.ts:7")
}

// TestCallbackParams: a parameter without annotation of a function passed
// to a call or new expression has the type the callee declares for it.
func TestCallbackParams(t *testing.T) {
	edges := index(t, map[string]string{
		"rx.ts": `
export class Subscriber<T> { next(v: T) {} complete() {} }
export class Observable<T> {
  constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => void) {}
  pipe() {}
}
export function operate<T, R>(init: (source: Observable<T>, subscriber: Subscriber<R>) => void): void {}
export function each<T>(f: (item: T) => void) {}
export function spread(...fs: Array<(s: Subscriber<number>) => void>) {}
export function refine(f: (arg: number, ctx: Subscriber<number>) => void | Promise<void>) {}
`,
		"m.ts": `
import { Observable, operate, each, spread, refine } from "./rx";
export function use(xs: number[]) {
  new Observable((subscriber) => subscriber.complete());
  operate((source, subscriber) => {
    source.pipe();
    subscriber.next(1);
  });
  operate(function (source) { source.pipe(); });
  each((item) => item.next());
  spread((s) => s.complete());
  xs.forEach((x) => x.toFixed());
  refine((arg, ctx) => ctx.complete());
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> rx.Subscriber.complete (receiver) m.ts:4",
		"m.use -calls-> rx.Observable.pipe (receiver) m.ts:6",
		"m.use -calls-> rx.Subscriber.next (receiver) m.ts:7",
		"m.use -calls-> rx.Observable.pipe (receiver) m.ts:9",
		"m.use -calls-> ?item.next (unresolved",
		"m.use -calls-> ?s.complete (unresolved",
		"m.use -calls-> rx.Subscriber.complete (receiver) m.ts:13",
	})
}

// TestObjectLiterals: an object built by spreading namespaces has their
// members, the last definition winning; an object whose variable declares
// a type has the members of that type.
func TestObjectLiterals(t *testing.T) {
	edges := index(t, map[string]string{
		"schemas.ts": "export function string() {}\nexport function number() {}\n",
		"checks.ts":  "export function number() {}\nexport function min() {}\n",
		"iso.ts":     "export function date() {}\n",
		"p.ts": `
export interface Provider { schedule(): void; request(): void; }
export const provider: Provider = {
  schedule() {},
  request() {},
};
`,
		"m.ts": `
import * as schemas from "./schemas";
import * as checks from "./checks";
import * as iso from "./iso";
import * as ext from "external";
import { provider } from "./p";
const z = { ...schemas, ...checks, iso };
const open = { ...ext, local() {} };
export function use() {
  z.string();
  z.number();
  z.min();
  z.iso.date();
  open.string();
  provider.schedule();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> schemas.string (import)",
		"m.use -calls-> checks.number (import)",
		"m.use -calls-> checks.min (import)",
		"m.use -calls-> iso.date (import)",
		"m.use -calls-> ?open.string (unresolved: external module)",
		"m.use -calls-> p.Provider.schedule (receiver)",
	}, "m.use -calls-> schemas.number", "m.use -calls-> p.provider.schedule")
}

// TestSiblingCallbacks: functions of one name declared in sibling
// callbacks are each the one their own callback calls.
func TestSiblingCallbacks(t *testing.T) {
	g := languagetest.Index(t, map[string]string{"m.test.ts": `
describe("a", () => {
  it("x", () => {
    function helper() {}
    helper();
  });
  it("y", () => {
    helper();
    function helper() {}
  });
});
`}, typescript.All()...)
	lines := make(map[uint64]uint32)
	for _, n := range g.Nodes {
		lines[n.ID] = n.StartLine
	}
	want := map[uint32]uint32{5: 4, 8: 9} // call line → line of the helper it calls
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls || want[e.Line] == 0 {
			continue
		}
		if got := lines[e.Dst]; got != want[e.Line] {
			t.Errorf("the call of helper on line %d calls the one of line %d, want %d", e.Line, got, want[e.Line])
		}
		delete(want, e.Line)
	}
	if len(want) > 0 {
		t.Errorf("no calls edge on lines %v", want)
	}
}

// TestObjectTypes: an object type's properties have their types, through
// a result, a parameter and destructuring.
func TestObjectTypes(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Status { dirty() {} }
export class Ctx { log() {} }
export class Schema {
  params(): { status: Status; ctx?: Ctx | null; [k: string]: unknown } { return null!; }
  input(): { status: Status; ctx: Ctx } { return null!; }
  run(record: { status: Status }) {
    const { status, ctx } = this.input();
    status.dirty();
    ctx.log();
    record.status.dirty();
    this.params().status.dirty();
  }
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Schema.run -calls-> m.Status.dirty (receiver) m.ts:9",
		"m.Schema.run -calls-> m.Ctx.log (receiver) m.ts:10",
		"m.Schema.run -calls-> m.Status.dirty (receiver) m.ts:11",
		"m.Schema.run -calls-> ?this.params().status.dirty (unresolved",
	})
}

// TestInferredTypeArguments: a callback parameter typed by a type
// parameter of the callee has the type argument the declared type of the
// call's variable gives it.
func TestInferredTypeArguments(t *testing.T) {
	edges := index(t, map[string]string{
		"core.ts": `
export interface $constructor<T, D = unknown> { init(inst: T, def: D): void; }
export function $constructor<T, D = unknown>(name: string, initializer: (inst: T, def: D) => void): $constructor<T, D> { return null!; }
export function other<T>(initializer: (inst: T) => void): Other<T> { return null!; }
export interface Other<T> {}
`,
		"m.ts": `
import * as core from "./core";
export interface Schema { check(): this; }
export const Schema: core.$constructor<Schema> = core.$constructor("Schema", (inst, def) => {
  inst.check();
});
export const Wrong: core.$constructor<Schema> = core.other((inst) => {
  inst.check();
});
`,
	})
	languagetest.Expect(t, edges, []string{
		"m -calls-> m.Schema.check (receiver) m.ts:5",
		"m -calls-> ?inst.check (unresolved",
	}, "m -calls-> m.Schema.check (receiver) m.ts:8")
}

// TestArrayElements: an array of a class's instances gives one from
// shift, pop, at and find; its other members are builtins.
func TestArrayElements(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Subject { complete() {} }
export function use(windows: Subject[], more: ReadonlyArray<Subject>, names: string[]) {
  windows.shift()!.complete();
  more.at(-1)?.complete();
  windows.map((w) => w);
  names.pop()!.trim();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> m.Subject.complete (receiver) m.ts:4",
		"m.use -calls-> m.Subject.complete (receiver) m.ts:5",
	})
}

// TestConditionals: a conditional whose branches agree has their value;
// one whose branches differ has none.
func TestConditionals(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class A { run() {} }
export class B { run() {} }
export function make(): A { return new A(); }
export function use(flag: boolean) {
  (flag ? make() : make()).run();
  const a = flag ? new A() : new A();
  a.run();
  const ab = flag ? new A() : new B();
  ab.run();
  const opt = flag?.valueOf() ?? make();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> m.A.run (receiver) m.ts:6",
		"m.use -calls-> m.A.run (receiver) m.ts:8",
		"m.use -calls-> ?ab.run (unresolved",
	}, "m.use -calls-> m.B.run")
}

// TestThisParameter: this in a function declaring a this parameter, and
// in arrow functions within it, is an instance of its type.
func TestThisParameter(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Action { schedule() {} }
export function work(this: Action, state: number) {
  this.schedule();
  [state].forEach(() => this.schedule());
}
export function loose() {
  this.schedule();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.work -calls-> m.Action.schedule (receiver) m.ts:4",
		"m.work -calls-> m.Action.schedule (receiver) m.ts:5",
		"m.loose -calls-> ?this.schedule (unresolved: unknown this)",
	})
}

// TestCasts: x as T is an instance of T; x as any still calls x.
func TestCasts(t *testing.T) {
	edges := index(t, map[string]string{
		"checks.ts": "export function minLength(n: number) {}\nexport class Box { open() {} }\n",
		"m.ts": `
import * as checks from "./checks";
export function use(x: unknown) {
  (checks.minLength as any)(1);
  (x as checks.Box).open();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> checks.minLength (import) m.ts:4",
		"m.use -calls-> checks.Box.open (receiver) m.ts:5",
	})
}

// TestMappedThis: this in a method of an object literal a function
// returns as A<X>, where A gives each method of X a this of type X, is an
// instance of X; not when A is another mapping, nor for a method X lacks
// or declares optional.
func TestMappedThis(t *testing.T) {
	edges := index(t, map[string]string{
		"util.ts": `
export type MethodsOf<T> = Partial<{
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (this: T, ...args: A) => R : never;
}>;
export type Plain<T> = Partial<{ [K in keyof T]: T[K] }>;
`,
		"m.ts": `
import * as util from "./util";
type Methods<T> = util.MethodsOf<T>;
export interface Schema {
  check(n: number): Schema;
  clone(): Schema;
  maybe?(): Schema;
}
function schemaMethods(): Methods<Schema> {
  return {
    check(n) {
      return this.clone();
    },
    maybe() {
      return this.clone();
    },
    extra() {
      return this.clone();
    },
  };
}
function plainMethods(): util.Plain<Schema> {
  return {
    check(n) {
      return this.clone();
    },
  };
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.schemaMethods -calls-> m.Schema.clone (receiver) m.ts:12",
		"m.schemaMethods -calls-> ?this.clone (unresolved: unknown this) m.ts:15",
		"m.schemaMethods -calls-> ?this.clone (unresolved: unknown this) m.ts:18",
		"m.plainMethods -calls-> ?this.clone (unresolved: unknown this) m.ts:25",
	})
}

// TestCallbackThis: this in a function expression passed to a call has
// the type the callee declares for this in that parameter's function
// type; not in an arrow function's own this, nor when the function
// declares its own this parameter, nor when the callee declares none.
func TestCallbackThis(t *testing.T) {
	edges := index(t, map[string]string{
		"s.ts": `
export interface Action<T> { schedule(state?: T): void; }
export interface Scheduler {
  schedule<T>(work: (this: Action<T>, state?: T) => void, delay?: number): void;
  plain(work: () => void): void;
}
export function run(s: Scheduler) {
  s.schedule(function () {
    this.schedule();
  });
  s.schedule(function (this: any) {
    this.schedule();
  });
  s.plain(function () {
    this.schedule();
  });
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"s.run -calls-> s.Action.schedule (receiver) s.ts:9",
		"s.run -calls-> ?this.schedule (unresolved: unknown this) s.ts:12",
		"s.run -calls-> ?this.schedule (unresolved: unknown receiver type) s.ts:15",
	})
}

// TestInstanceofNarrowing: x instanceof C narrows a parameter never
// assigned, or a const, where the check holds (an if statement's
// consequence, the right of &&, a conditional's consequence): to C when x
// is any or C derives from x's type, to x's type when that derives from
// C; not in the else branch; unknown for a reassigned parameter, for
// unrelated types, and in functions inside the region.
func TestInstanceofNarrowing(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Base { base() {} }
export class Opt extends Base { unwrap() {} base() {} }
export class Other { unwrap() {} }
export interface Shape { area(): number; }
export function f(x: Base, y: any, z: Opt, w: Shape, v: Base) {
  if (x instanceof Opt) {
    x.unwrap();
  } else {
    x.unwrap();
  }
  if (y instanceof Opt && y.unwrap()) {
    y.unwrap();
  }
  const c = x instanceof Opt ? x.unwrap() : null;
  if (z instanceof Base) {
    z.base();
  }
  if (w instanceof Opt) {
    w.unwrap();
  }
  if (x instanceof Other) {
    x.unwrap();
  }
  if (x instanceof Opt) {
    [1].forEach(() => x.unwrap());
  }
  v = new Base();
  if (v instanceof Opt) {
    v.unwrap();
  }
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.f -calls-> m.Opt.unwrap (receiver) m.ts:8",
		"m.f -calls-> ?x.unwrap (unresolved: unknown member) m.ts:10",
		"m.f -calls-> m.Opt.unwrap (receiver) m.ts:12",
		"m.f -calls-> m.Opt.unwrap (receiver) m.ts:13",
		"m.f -calls-> m.Opt.unwrap (receiver) m.ts:15",
		"m.f -calls-> m.Opt.base (receiver) m.ts:17",
		"m.f -calls-> ?w.unwrap (unresolved: unknown receiver type) m.ts:20",
		"m.f -calls-> ?x.unwrap (unresolved: unknown receiver type) m.ts:23",
		"m.f -calls-> ?x.unwrap (unresolved: unknown receiver type) m.ts:26",
		"m.f -calls-> ?v.unwrap (unresolved",
	})
}

// TestForOf: the variable of for (x of xs) is an element of xs when xs
// is an array of a class or interface; not in a for-in or for await loop,
// nor over a Set.
func TestForOf(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Item { price() { return 1; } }
export function total(items: Item[], list: ReadonlyArray<Item>, set: Set<Item>, async: AsyncIterable<Item>) {
  for (const item of items) {
    item.price();
  }
  for (const other of list) other.price();
  for (const key in items) {
    key.price();
  }
  for (const member of set) {
    member.price();
  }
}
export async function wait(items: Item[]) {
  for await (const item of items) {
    item.price();
  }
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.total -calls-> m.Item.price (receiver) m.ts:5",
		"m.total -calls-> m.Item.price (receiver) m.ts:7",
		"m.total -calls-> ?key.price (unresolved",
		"m.wait -calls-> ?item.price (unresolved",
	}, "m.total -calls-> m.Item.price (receiver) m.ts:12")
}

// TestLetInitializer: a variable declared once, without annotation, has
// the type of its initializer whatever is assigned later; not when it is
// declared twice (two blocks' variables of one name), nor a parameter.
func TestLetInitializer(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Arr { min(): Arr { return this; } max() {} }
export class Other { max() {} }
export function build(p: Arr, q: Arr) {
  let a = new Arr();
  a = a.min();
  a.max();
  if (p) {
    let b = new Arr();
    b.max();
  } else {
    let b;
    b = new Other();
    b.max();
  }
  q = q.min();
  q.max();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.build -calls-> m.Arr.max (receiver) m.ts:7",
		"m.build -calls-> ?b.max (unresolved",
		"m.build -calls-> m.Arr.max (receiver) m.ts:17",
	}, "m.build -calls-> m.Arr.max (receiver) m.ts:10", "m.build -calls-> m.Arr.max (receiver) m.ts:14")
}

// TestTypeParamConstraint: a parameter or local annotated with a type
// parameter T extends C has C's members in the code declaring T; not a
// field of type T (read where T is an argument), and not narrowed by
// instanceof (T & D picks among both types' members).
func TestTypeParamConstraint(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Schema { clone(): Schema { return this; } parse() {} }
export class Opt extends Schema { parse() {} unwrap() {} }
export function extend<T extends Schema, U>(inst: T, other: U, maybe?: T | undefined) {
  inst.clone();
  other.clone();
  const copy: T = inst;
  copy.clone();
  maybe!.clone();
  if (inst instanceof Opt) {
    inst.parse();
  }
}
export class Box<T extends Schema> {
  constructor(public value: T) {}
  run(x: T) { x.parse(); }
}
export function use(b: Box<Opt>) {
  b.value.parse();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.extend -calls-> m.Schema.clone (receiver) m.ts:5",
		"m.extend -calls-> ?other.clone (unresolved",
		"m.extend -calls-> m.Schema.clone (receiver) m.ts:8",
		"m.extend -calls-> m.Schema.clone (receiver) m.ts:9",
		"m.extend -calls-> ?inst.parse (unresolved",
		"m.Box.run -calls-> m.Schema.parse (receiver) m.ts:16",
	}, "m.use -calls-> m.Schema.parse")
}

// TestArrayLiteral: an array literal whose elements all have one value is
// an array of it; not one of mixed values or with a spread.
func TestArrayLiteral(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Subject { complete() {} }
export class Other { complete() {} }
export function windows(rest: Subject[]) {
  let ws = [new Subject()];
  ws.shift()!.complete();
  for (const w of ws) w.complete();
  const mixed = [new Subject(), new Other()];
  mixed.shift()!.complete();
  const spread = [new Subject(), ...rest];
  spread.shift()!.complete();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.windows -calls-> m.Subject.complete (receiver) m.ts:6",
		"m.windows -calls-> m.Subject.complete (receiver) m.ts:7",
	}, "m.windows -calls-> m.Subject.complete (receiver) m.ts:9", "m.windows -calls-> m.Subject.complete (receiver) m.ts:11",
		"m.windows -calls-> m.Other.complete")
}

// TestConditionalCallback: a callback written as a branch of a
// conditional argument has the parameters the callee declares.
func TestConditionalCallback(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Subscriber { next() {} }
export class Observable {
  constructor(subscribe: (s: Subscriber) => void) {}
}
export function range(sync: boolean) {
  return new Observable(
    sync
      ? (subscriber) => {
          subscriber.next();
        }
      : (other) => {
          other.next();
        }
  );
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.range -calls-> m.Subscriber.next (receiver) m.ts:10",
		"m.range -calls-> m.Subscriber.next (receiver) m.ts:13",
	})
}

// TestConditionalBranches: a conditional whose branches differ is what
// both evaluate to when that is one class's instance; not when they are
// instances of different classes.
func TestConditionalBranches(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Observable { subscribe() {} }
export class Sub extends Observable { subscribe() {} }
export const EMPTY = new Observable();
export function from(x: unknown): Observable { return EMPTY; }
export function use(r: unknown) {
  const source = r ? from(r) : EMPTY;
  source.subscribe();
  const mixed = r ? new Sub() : EMPTY;
  mixed.subscribe();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.use -calls-> m.Observable.subscribe (receiver) m.ts:8",
		"m.use -calls-> ?mixed.subscribe (unresolved",
	})
}

// TestArrayCallbacks: the first parameter of a function passed to an
// array's map, forEach, filter, find and the like is an element; not its
// others, nor one of reduce's.
func TestArrayCallbacks(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Item { optional() { return this; } }
export function all(items: Item[]) {
  items.map((item, index) => item.optional());
  items.forEach(function (item) { item.optional(); });
  items.find((item) => item.optional());
  items.map((item, index, arr) => index.optional());
  items.reduce((acc, item) => item.optional());
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.all -calls-> m.Item.optional (receiver) m.ts:4",
		"m.all -calls-> m.Item.optional (receiver) m.ts:5",
		"m.all -calls-> m.Item.optional (receiver) m.ts:6",
		"m.all -calls-> ?index.optional (unresolved",
		"m.all -calls-> ?item.optional (unresolved",
	})
}

// TestTypeofAnnotation: a value annotated typeof C, C a class, is the
// class: new of it instantiates C.
func TestTypeofAnnotation(t *testing.T) {
	edges := index(t, map[string]string{
		"action.ts": `
export class Action { schedule() {} }
`,
		"m.ts": `
import { Action } from "./action";
export class Scheduler {
  constructor(private ctor: typeof Action) {}
  run() {
    return new this.ctor().schedule();
  }
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Scheduler.run -instantiates-> action.Action (receiver) m.ts:6",
		"m.Scheduler.run -calls-> action.Action.schedule (receiver) m.ts:6",
	})
}

// TestThisParamOfFunctionType: a this parameter of a function type in a
// parameter's annotation is not the method's own.
func TestThisParamOfFunctionType(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export interface Action { run(): void; }
export class Scheduler {
  now() {}
  schedule(work: (this: Action, state?: number) => void) {
    this.now();
  }
}
export function free(this: Action) {
  this.run();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Scheduler.schedule -calls-> m.Scheduler.now (receiver) m.ts:6",
		"m.free -calls-> m.Action.run (receiver) m.ts:10",
	})
}

// TestDoubleCast: x as unknown as T is a T.
func TestDoubleCast(t *testing.T) {
	edges := index(t, map[string]string{
		"m.ts": `
export class Effects { sourceType() {} }
export function f(x: number) {
  (x as unknown as Effects).sourceType();
}
`,
	})
	languagetest.Expect(t, edges, []string{"m.f -calls-> m.Effects.sourceType (receiver) m.ts:4"})
}
