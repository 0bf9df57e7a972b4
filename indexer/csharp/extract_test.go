package csharp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphsnap/snap/indexer"
)

func FuzzExtract(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/csharp/shop/*/*/*/*.cs")
	more, _ := filepath.Glob("../../testdata/csharp/shop/*/*/*.cs")
	for _, name := range append(files, more...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "\x00", "class", "class A {", "namespace ;", "namespace A.B; class C {}", "using ;", "using static ;",
		"using X = ;", "global using A.B;", "class A { void f( { } }", "record R(int A);", "record struct P(int X, int Y);",
		"class A { int a, b = c.d(); event E e; public int P { get; } = Q(); }", "enum E { A = 1, B }",
		"class A { void f() { var x = x.g(); x.h(); } }", "class A { void f() { int L() => L(); L(); } }",
		"class A { A() : this(1) {} A(int x) : base() {} ~A() {} }", "delegate void D(int x);",
		"class A { void f() { a?.b(); (a as B).c(); ((B)a).c(); await a.b(); new() ; } }",
		"/// <summary>x</summary>\n[A, B(1)] public static partial class C<T> : B<T>, I where T : new() {}",
		"class A { void f() { foreach (var (a, b) in x) a.f(); if (o is B b) b.g(); } }",
		"namespace A { namespace B { class C { class D {} } } }", "class A { void f() { x => x.g(); (int y) => y.h(); } }",
	} {
		f.Add([]byte(s))
	}
	x, err := New().NewExtractor(&indexer.Tree{Paths: map[string]bool{}})
	if err != nil {
		f.Fatal(err)
	}
	defer x.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		timer := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		res, err := x.Extract(context.Background(), "p/A.cs", src)
		if err != nil {
			return
		}
		ids := make(map[uint64]bool)
		for _, n := range res.Nodes {
			if ids[n.ID] {
				t.Fatalf("duplicate id: %+v", n)
			}
			ids[n.ID] = true
			if n.StartByte > n.EndByte || int(n.EndByte) > len(src) || n.StartLine == 0 || n.StartLine > n.EndLine {
				t.Fatalf("bad range %+v", n)
			}
			if n.Name == "" || n.QualifiedName == "" {
				t.Fatalf("node without a name: %+v", n)
			}
		}
		for _, r := range res.Refs {
			if r.Line == 0 || r.Col == 0 {
				t.Fatalf("bad ref position %+v", r)
			}
		}
		// Resolution of one file must not fail either.
		resolve(res.Nodes, res.Refs)
	})
}
