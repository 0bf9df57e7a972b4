package golang_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/golang"
	lt "github.com/graphsnap/snap/indexer/languagetest"
)

func TestTypeUses(t *testing.T) {
	// Each snippet is in use.go, beside decl.go declaring T, U, an
	// interface I and a generic L, and package m/p declaring P.
	setting := lt.Setting{
		Files: map[string]string{
			"go.mod":  "module m\n\ngo 1.22\n",
			"decl.go": "package m\n\ntype T struct{ n int }\n\ntype U int\n\ntype I interface{ M() }\n\ntype L[E any] struct{ e E }\n",
			"p/p.go":  "package p\n\ntype P struct{}\n",
		},
		File:   "use.go",
		Before: "package m\n\nimport \"m/p\"\n\nvar _ = p.P{}\n\n",
	}
	records := []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar,
		lt.FormConversion, lt.FormAssertion, lt.FormTypeArg, lt.FormEmbed, lt.FormExtends,
	}
	uses := []lt.TypeUse{
		{Form: lt.FormConstruct, Src: "func f() {\n\t_ = T{}\n\t_ = &p.P{}\n\t_ = new(U)\n\t_ = []T{{n: 1}}\n\t_ = []*T{nil}\n}\n", Want: []string{
			"m.f -instantiates-> m.T (scope) use.go:8",
			"m.f -instantiates-> m/p.P (import) use.go:9",
			"m.f -instantiates-> m.U (scope) use.go:10",
			"m.f -instantiates-> m.T (scope) use.go:11",
			"m.f -references-> m.T (scope) use.go:12",
		}, Wrong: []string{"m.f -instantiates-> m.T (scope) use.go:12"}},
		{Form: lt.FormField, Src: "type S struct {\n\tt *T\n\tm map[string][]p.P\n}\n", Want: []string{
			"m.S.t -references-> m.T (scope) use.go:8",
			"m.S.m -references-> m/p.P (import) use.go:9",
		}},
		{Form: lt.FormParam, Src: "func f(t T, c chan *p.P) {}\n", Want: []string{
			"m.f -references-> m.T (scope) use.go:7",
			"m.f -references-> m/p.P (import) use.go:7",
		}},
		{Form: lt.FormResult, Src: "func f() (*T, error) { return nil, nil }\n", Want: []string{
			"m.f -references-> m.T (scope) use.go:7",
		}},
		{Form: lt.FormVar, Src: "var v *T\n\nfunc f() {\n\tvar u U\n\t_ = u\n}\n", Want: []string{
			"m.v -references-> m.T (scope) use.go:7",
			"m.f -references-> m.U (scope) use.go:10",
		}},
		{Form: lt.FormConversion, Src: "func f(x int) {\n\t_ = U(x)\n\t_ = (*T)(nil)\n}\n", Want: []string{
			"m.f -references-> m.U (scope) use.go:8",
			"m.f -references-> m.T (scope) use.go:9",
		}, Wrong: []string{"m.f -calls-> m.U"}},
		{Form: lt.FormAssertion, Src: "func f(x any) {\n\t_ = x.(I)\n\tswitch x.(type) {\n\tcase *T, p.P:\n\t}\n}\n", Want: []string{
			"m.f -references-> m.I (scope) use.go:8",
			"m.f -references-> m.T (scope) use.go:10",
			"m.f -references-> m/p.P (import) use.go:10",
		}},
		{Form: lt.FormTypeArg, Src: "func f(l L[T]) {\n\t_ = L[p.P]{}\n}\n", Want: []string{
			"m.f -references-> m.L (scope) use.go:7",
			"m.f -references-> m.T (scope) use.go:7",
			"m.f -instantiates-> m.L (scope) use.go:8",
			"m.f -references-> m/p.P (import) use.go:8",
		}},
		{Form: lt.FormEmbed, Src: "type S struct {\n\t*T\n\tp.P\n}\n", Want: []string{
			"m.S.T -references-> m.T (scope) use.go:8",
			"m.S.P -references-> m/p.P (import) use.go:9",
		}},
		{Form: lt.FormExtends, Src: "type J interface {\n\tI\n}\n", Want: []string{
			"m.J -extends-> m.I (structural) use.go:8",
		}, Wrong: []string{"m.J -references-> m.I"}},
	}
	lt.TypeUses(t, setting, records, uses, golang.New())
}

// TestTypeUsesUnproven: a name that is no type of the snapshot, a type
// declared in a function, builtins and type parameters make no edge to a
// package-level type.
func TestTypeUsesUnproven(t *testing.T) {
	edges := lt.Edges(t, map[string]string{
		"go.mod":  "module m\n\ngo 1.22\n",
		"decl.go": "package m\n\ntype T struct{}\n",
		"use.go": "package m\n\nimport \"os\"\n\n" +
			"func f[E any](e E, s string) *os.File {\n\ttype T int\n\tvar t T\n\t_ = t\n\treturn nil\n}\n",
	}, golang.New())
	lt.Expect(t, edges, []string{
		"m.f -references-> ?os.File (unresolved: package os not in snapshot) use.go:5",
		"m.f -references-> ?T (unresolved: type declared in a function) use.go:7",
	}, "m.f -references-> m.T", "m.f -references-> ?E", "m.f -references-> ?string")
}

// TestGenericCallee: G[A](x) is a call of a generic function or a
// conversion to a generic type, one edge either way.
func TestGenericCallee(t *testing.T) {
	edges := lt.Edges(t, map[string]string{
		"go.mod": "module m\n\ngo 1.22\n",
		"m.go": "package m\n\ntype T struct{}\n\ntype L[E any] []E\n\nfunc F[E any](e E) E { return e }\n\n" +
			"func f(x []T) {\n\t_ = F[T](T{})\n\t_ = L[T](x)\n}\n",
	}, golang.New())
	lt.Expect(t, edges, []string{
		"m.f -calls-> m.F (scope) m.go:10",
		"m.f -references-> m.T (scope) m.go:10",
		"m.f -instantiates-> m.T (scope) m.go:10",
		"m.f -references-> m.L (scope) m.go:11",
		"m.f -references-> m.T (scope) m.go:11",
	}, "m.f -references-> ?F", "m.f -calls-> m.L")
}
