package typescript

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
)

func TestTypeUses(t *testing.T) {
	// Each snippet is in m.ts, beside t.ts exporting a class T, a generic
	// class G, an interface I, a type alias A, an enum E, a namespace ns
	// holding a class N and a decorator deco.
	setting := lt.Setting{
		Files: map[string]string{"t.ts": "export class T {}\nexport class G<X> { constructor(x?: X) {} }\nexport interface I { m(): void }\n" +
			"export type A = { a: number };\nexport enum E { One }\nexport namespace ns { export class N {} }\n" +
			"export function deco(c: any) { return c; }\n"},
		File:   "m.ts",
		Before: "import { T, G, I, A, E, ns, deco } from './t';\n",
	}
	records := []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation,
	}
	uses := []lt.TypeUse{
		{Form: lt.FormConstruct, Src: "export function f() {\n  new T();\n  new ns.N();\n}\n", Want: []string{
			"m.f -instantiates-> t.T (import) m.ts:3",
			"m.f -instantiates-> t.ns.N (import) m.ts:4",
		}},
		{Form: lt.FormField, Src: "export class C {\n  t: T;\n  e?: E | null;\n}\n", Want: []string{
			"m.C.t -references-> t.T (import) m.ts:3",
			"m.C.e -references-> t.E (import) m.ts:4",
		}},
		{Form: lt.FormParam, Src: "export function f(i: I, a: A[], s: string) {}\n", Want: []string{
			"m.f -references-> t.I (import) m.ts:2",
			"m.f -references-> t.A (import) m.ts:2",
		}},
		{Form: lt.FormResult, Src: "export function f(): Promise<T> { return null!; }\n", Want: []string{
			"m.f -references-> t.T (import) m.ts:2",
		}, Wrong: []string{"m.f -references-> ?Promise"}},
		{Form: lt.FormVar, Src: "export const v: ns.N | undefined = undefined;\n", Want: []string{
			"m.v -references-> t.ns.N (import) m.ts:2",
		}},
		{Form: lt.FormConversion, Src: "export function f(x: unknown) {\n  return [x as T, x satisfies I];\n}\n", Want: []string{
			"m.f -references-> t.T (import) m.ts:3",
			"m.f -references-> t.I (import) m.ts:3",
		}},
		{Form: lt.FormAssertion, Src: "export function f(x: unknown) {\n  return x instanceof T;\n}\n", Want: []string{
			"m.f -references-> t.T (import) m.ts:3",
		}},
		{Form: lt.FormTypeArg, Src: "export class C<X> {\n  m(g: G<T>, x: X): Map<string, I> { return new Map(); }\n}\n", Want: []string{
			"m.C.m -references-> t.G (import) m.ts:3",
			"m.C.m -references-> t.T (import) m.ts:3",
			"m.C.m -references-> t.I (import) m.ts:3",
		}, Wrong: []string{"m.C.m -references-> ?X", "m.C.m -references-> ?Map"}},
		{Form: lt.FormExtends, Src: "export class C extends T {}\nexport interface J extends I {}\n", Want: []string{
			"m.C -extends-> t.T (import) m.ts:2",
			"m.J -extends-> t.I (import) m.ts:3",
		}, Wrong: []string{"m.C -references-> t.T", "m.J -references-> t.I"}},
		{Form: lt.FormImplements, Src: "export class C implements I { m() {} }\n", Want: []string{
			"m.C -implements-> t.I (import) m.ts:2",
		}, Wrong: []string{"m.C -references-> t.I"}},
		{Form: lt.FormAnnotation, Src: "@deco\nexport class C {}\n", Want: []string{
			"m -references-> t.deco (import) m.ts:2",
		}},
	}
	lt.TypeUses(t, setting, records, uses, All()...)
}
