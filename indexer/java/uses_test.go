package java

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// javaUse is a class body in p/A.java, beside p/T.java declaring T, a
// generic G, an interface I, an exception E and an annotation type Ann.
func javaUse(form, body string, want []string, wrong ...string) lt.TypeUse {
	return lt.TypeUse{Form: form, Want: want, Wrong: wrong, Files: map[string]string{
		"p/T.java": "package p;\nclass T {}\nclass G<X> {}\ninterface I {}\nclass E extends Exception {}\n@interface Ann {}\n",
		"p/A.java": "package p;\nimport java.util.List;\n" + body,
	}}
}

func TestTypeUses(t *testing.T) {
	records := []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}
	uses := []lt.TypeUse{
		javaUse(lt.FormConstruct, "class A {\n  Object f() { new G<>(); return new T[] {}; }\n}\n", []string{
			"p.A.f -instantiates-> p.G (scope) p/A.java:4",
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}, "p.A.f -instantiates-> p.T"),
		javaUse(lt.FormField, "class A {\n  private T t;\n  List<String> names;\n}\n", []string{
			"p.A.t -references-> p.T (scope) p/A.java:4",
			"p.A.names -references-> ?List (unresolved: external type java.util.List) p/A.java:5",
		}, "p.A.names -references-> ?String"),
		javaUse(lt.FormParam, "class A {\n  void f(T t, int n, String s) {}\n}\n", []string{
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}, "p.A.f -references-> ?String"),
		javaUse(lt.FormResult, "class A {\n  T f() { return null; }\n}\n", []string{
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}),
		javaUse(lt.FormVar, "class A {\n  void f() {\n    T t = null;\n  }\n}\n", []string{
			"p.A.f -references-> p.T (scope) p/A.java:5",
		}),
		javaUse(lt.FormConversion, "class A {\n  Object f(Object o) { return (T) o; }\n}\n", []string{
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}),
		javaUse(lt.FormAssertion, "class A {\n  boolean f(Object o) { return o instanceof I; }\n}\n", []string{
			"p.A.f -references-> p.I (scope) p/A.java:4",
		}),
		javaUse(lt.FormTypeArg, "class A<X> {\n  G<T> f(List<I> l, X x) { return null; }\n}\n", []string{
			"p.A.f -references-> p.G (scope) p/A.java:4",
			"p.A.f -references-> p.T (scope) p/A.java:4",
			"p.A.f -references-> p.I (scope) p/A.java:4",
		}, "p.A.f -references-> ?X"),
		javaUse(lt.FormExtends, "class A extends T {}\n", []string{
			"p.A -extends-> p.T (scope) p/A.java:3",
		}, "p.A -references-> p.T"),
		javaUse(lt.FormImplements, "class A implements I {}\n", []string{
			"p.A -implements-> p.I (scope) p/A.java:3",
		}, "p.A -references-> p.I"),
		javaUse(lt.FormAnnotation, "@Ann\nclass A {}\n", []string{
			"p.A -references-> p.Ann (scope) p/A.java:3",
		}),
		javaUse(lt.FormThrows, "class A {\n  void f() throws E {\n    try {} catch (E e) {}\n  }\n}\n", []string{
			"p.A.f -references-> p.E (scope) p/A.java:4",
			"p.A.f -references-> p.E (scope) p/A.java:5",
		}),
	}
	lt.TypeUses(t, records, uses, New())
}
