package java

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
)

func TestTypeUses(t *testing.T) {
	// Each snippet is a class body in p/A.java, beside p/T.java declaring
	// T, a generic G, an interface I, an exception E and an annotation
	// type Ann.
	setting := lt.Setting{
		Files:  map[string]string{"p/T.java": "package p;\nclass T {}\nclass G<X> {}\ninterface I {}\nclass E extends Exception {}\n@interface Ann {}\n"},
		File:   "p/A.java",
		Before: "package p;\nimport java.util.List;\n",
	}
	records := []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar, lt.FormConversion,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}
	uses := []lt.TypeUse{
		{Form: lt.FormConstruct, Src: "class A {\n  Object f() { new G<>(); return new T[] {}; }\n}\n", Want: []string{
			"p.A.f -instantiates-> p.G (scope) p/A.java:4",
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}, Wrong: []string{"p.A.f -instantiates-> p.T"}},
		{Form: lt.FormField, Src: "class A {\n  private T t;\n  List<String> names;\n}\n", Want: []string{
			"p.A.t -references-> p.T (scope) p/A.java:4",
			"p.A.names -references-> ?List (unresolved: external type java.util.List) p/A.java:5",
		}, Wrong: []string{"p.A.names -references-> ?String"}},
		{Form: lt.FormParam, Src: "class A {\n  void f(T t, int n, String s) {}\n}\n", Want: []string{
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}, Wrong: []string{"p.A.f -references-> ?String"}},
		{Form: lt.FormResult, Src: "class A {\n  T f() { return null; }\n}\n", Want: []string{
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}},
		{Form: lt.FormVar, Src: "class A {\n  void f() {\n    T t = null;\n  }\n}\n", Want: []string{
			"p.A.f -references-> p.T (scope) p/A.java:5",
		}},
		{Form: lt.FormConversion, Src: "class A {\n  Object f(Object o) { return (T) o; }\n}\n", Want: []string{
			"p.A.f -references-> p.T (scope) p/A.java:4",
		}},
		{Form: lt.FormAssertion, Src: "class A {\n  boolean f(Object o) { return o instanceof I; }\n}\n", Want: []string{
			"p.A.f -references-> p.I (scope) p/A.java:4",
		}},
		{Form: lt.FormTypeArg, Src: "class A<X> {\n  G<T> f(List<I> l, X x) { return null; }\n}\n", Want: []string{
			"p.A.f -references-> p.G (scope) p/A.java:4",
			"p.A.f -references-> p.T (scope) p/A.java:4",
			"p.A.f -references-> p.I (scope) p/A.java:4",
		}, Wrong: []string{"p.A.f -references-> ?X"}},
		{Form: lt.FormExtends, Src: "class A extends T {}\n", Want: []string{
			"p.A -extends-> p.T (scope) p/A.java:3",
		}, Wrong: []string{"p.A -references-> p.T"}},
		{Form: lt.FormImplements, Src: "class A implements I {}\n", Want: []string{
			"p.A -implements-> p.I (scope) p/A.java:3",
		}, Wrong: []string{"p.A -references-> p.I"}},
		{Form: lt.FormAnnotation, Src: "@Ann\nclass A {}\n", Want: []string{
			"p.A -references-> p.Ann (scope) p/A.java:3",
		}},
		{Form: lt.FormThrows, Src: "class A {\n  void f() throws E {\n    try {} catch (E e) {}\n  }\n}\n", Want: []string{
			"p.A.f -references-> p.E (scope) p/A.java:4",
			"p.A.f -references-> p.E (scope) p/A.java:5",
		}},
	}
	lt.TypeUses(t, setting, records, uses, New())
}
