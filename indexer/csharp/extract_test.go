package csharp

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
)

func FuzzExtract(f *testing.F) {
	seeds := []string{
		"", "\x00", "class", "class A {", "namespace ;", "namespace A.B; class C {}", "using ;", "using static ;",
		"using X = ;", "global using A.B;", "class A { void f( { } }", "record R(int A);", "record struct P(int X, int Y);",
		"class A { int a, b = c.d(); event E e; public int P { get; } = Q(); }", "enum E { A = 1, B }",
		"class A { void f() { var x = x.g(); x.h(); } }", "class A { void f() { int L() => L(); L(); } }",
		"class A { A() : this(1) {} A(int x) : base() {} ~A() {} }", "delegate void D(int x);",
		"class A { void f() { a?.b(); (a as B).c(); ((B)a).c(); await a.b(); new() ; } }",
		"/// <summary>x</summary>\n[A, B(1)] public static partial class C<T> : B<T>, I where T : new() {}",
		"class A { void f() { foreach (var (a, b) in x) a.f(); if (o is B b) b.g(); } }",
		"namespace A { namespace B { class C { class D {} } } }", "class A { void f() { x => x.g(); (int y) => y.h(); } }",
	}
	languagetest.FuzzExtract(f, New(), nil, "p/A.cs", seeds, checkNamed, "../../testdata/csharp/shop/*/*/*/*.cs", "../../testdata/csharp/shop/*/*/*.cs")
}

// checkNamed holds a C# extraction to having named every node and placed
// every ref.
func checkNamed(t *testing.T, _ []byte, res *indexer.Result) {
	for _, n := range res.Nodes {
		if n.Name == "" || n.QualifiedName == "" {
			t.Fatalf("node without a name: %+v", n)
		}
	}
	for _, r := range res.Refs {
		if r.Line == 0 || r.Col == 0 {
			t.Fatalf("bad ref position %+v", r)
		}
	}
}
