package typescript

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// tsUse is a snippet of m.ts, beside t.ts exporting a class T, a
// generic class G, an interface I, a type alias A, an enum E and a
// namespace ns holding a class N.
func tsUse(form, src string, want []string, wrong ...string) lt.TypeUse {
	return lt.TypeUse{Form: form, Want: want, Wrong: wrong, Files: map[string]string{
		"t.ts": "export class T {}\nexport class G<X> { constructor(x?: X) {} }\nexport interface I { m(): void }\n" +
			"export type A = { a: number };\nexport enum E { One }\nexport namespace ns { export class N {} }\n" +
			"export function deco(c: any) { return c; }\n",
		"m.ts": "import { T, G, I, A, E, ns, deco } from './t';\n" + src,
	}}
}

func TestTypeUses(t *testing.T) {
	records := []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation,
	}
	uses := []lt.TypeUse{
		tsUse(lt.FormConstruct, "export function f() {\n  new T();\n  new ns.N();\n}\n", []string{
			"m.f -instantiates-> t.T (import) m.ts:3",
			"m.f -instantiates-> t.ns.N (import) m.ts:4",
		}),
		tsUse(lt.FormField, "export class C {\n  t: T;\n  e?: E | null;\n}\n", []string{
			"m.C.t -references-> t.T (import) m.ts:3",
			"m.C.e -references-> t.E (import) m.ts:4",
		}),
		tsUse(lt.FormParam, "export function f(i: I, a: A[], s: string) {}\n", []string{
			"m.f -references-> t.I (import) m.ts:2",
			"m.f -references-> t.A (import) m.ts:2",
		}),
		tsUse(lt.FormResult, "export function f(): Promise<T> { return null!; }\n", []string{
			"m.f -references-> t.T (import) m.ts:2",
		}, "m.f -references-> ?Promise"),
		tsUse(lt.FormVar, "export const v: ns.N | undefined = undefined;\n", []string{
			"m.v -references-> t.ns.N (import) m.ts:2",
		}),
		tsUse(lt.FormConversion, "export function f(x: unknown) {\n  return [x as T, x satisfies I];\n}\n", []string{
			"m.f -references-> t.T (import) m.ts:3",
			"m.f -references-> t.I (import) m.ts:3",
		}),
		tsUse(lt.FormAssertion, "export function f(x: unknown) {\n  return x instanceof T;\n}\n", []string{
			"m.f -references-> t.T (import) m.ts:3",
		}),
		tsUse(lt.FormTypeArg, "export class C<X> {\n  m(g: G<T>, x: X): Map<string, I> { return new Map(); }\n}\n", []string{
			"m.C.m -references-> t.G (import) m.ts:3",
			"m.C.m -references-> t.T (import) m.ts:3",
			"m.C.m -references-> t.I (import) m.ts:3",
		}, "m.C.m -references-> ?X", "m.C.m -references-> ?Map"),
		tsUse(lt.FormExtends, "export class C extends T {}\nexport interface J extends I {}\n", []string{
			"m.C -extends-> t.T (import) m.ts:2",
			"m.J -extends-> t.I (import) m.ts:3",
		}, "m.C -references-> t.T", "m.J -references-> t.I"),
		tsUse(lt.FormImplements, "export class C implements I { m() {} }\n", []string{
			"m.C -implements-> t.I (import) m.ts:2",
		}, "m.C -references-> t.I"),
		tsUse(lt.FormAnnotation, "@deco\nexport class C {}\n", []string{
			"m -references-> t.deco (import) m.ts:2",
		}),
	}
	lt.TypeUses(t, records, uses, All()...)
}
