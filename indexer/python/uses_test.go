package python

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
)

func TestTypeUses(t *testing.T) {
	// Each snippet is in m.py, beside t.py declaring classes T, U and E
	// (an exception) and a decorator function deco.
	setting := lt.Setting{
		Files:  map[string]string{"t.py": "class T:\n    pass\n\nclass U:\n    pass\n\nclass E(Exception):\n    pass\n\ndef deco(f):\n    return f\n"},
		File:   "m.py",
		Before: "import t\nfrom t import T, U, E, deco\n\n",
	}
	records := []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormAnnotation, lt.FormThrows,
	}
	uses := []lt.TypeUse{
		{Form: lt.FormConstruct, Src: "def f():\n    return T()\n", Want: []string{
			"m.f -instantiates-> t.T (import) m.py:5",
		}},
		{Form: lt.FormField, Src: "class C:\n    t: T\n    u: \"U\" = None\n", Want: []string{
			"m.C.t -references-> t.T (import) m.py:5",
		}, Wrong: []string{"m.C.u -references->"}},
		{Form: lt.FormParam, Src: "def f(a: T, b: t.U | None = None, n: int = 0):\n    pass\n", Want: []string{
			"m.f -references-> t.T (import) m.py:4",
			"m.f -references-> t.U (import) m.py:4",
		}, Wrong: []string{"m.f -references-> ?int", "m.f -references-> ?None"}},
		{Form: lt.FormResult, Src: "def f() -> T:\n    pass\n", Want: []string{
			"m.f -references-> t.T (import) m.py:4",
		}},
		{Form: lt.FormVar, Src: "def f():\n    x: T = g()\n\nv: U = None\n\ntype Alias = list[T]\n", Want: []string{
			"m.f -references-> t.T (import) m.py:5",
			"m.v -references-> t.U (import) m.py:7",
			"m -references-> t.T (import) m.py:9",
		}, Wrong: []string{"m -references-> m.Alias", "m -references-> ?Alias"}},
		{Form: lt.FormAssertion, Src: "def f(x):\n    return isinstance(x, (T, t.U)) or issubclass(x, E)\n", Want: []string{
			"m.f -references-> t.T (import) m.py:5",
			"m.f -references-> t.U (import) m.py:5",
			"m.f -references-> t.E (import) m.py:5",
		}},
		{Form: lt.FormTypeArg, Src: "def f(a: list[T], b: dict[str, Annotated[U, meta(x=1)]]):\n    pass\n", Want: []string{
			"m.f -references-> t.T (import) m.py:4",
			"m.f -references-> t.U (import) m.py:4",
		}, Wrong: []string{"m.f -references-> ?list", "m.f -references-> ?meta", "m.f -references-> ?x"}},
		{Form: lt.FormExtends, Src: "class C(T):\n    pass\n", Want: []string{
			"m.C -extends-> t.T (import) m.py:4",
		}, Wrong: []string{"m.C -references-> t.T"}},
		{Form: lt.FormAnnotation, Src: "@deco\ndef f():\n    pass\n\n@T\nclass C:\n    pass\n", Want: []string{
			"m -references-> t.deco (import) m.py:4",
			"m -references-> t.T (import) m.py:8",
		}},
		{Form: lt.FormThrows, Src: "def f():\n    try:\n        pass\n    except (E, t.U) as e:\n        pass\n    except T:\n        pass\n", Want: []string{
			"m.f -references-> t.E (import) m.py:7",
			"m.f -references-> t.U (import) m.py:7",
			"m.f -references-> t.T (import) m.py:9",
		}, Wrong: []string{"m.f -references-> ?e"}},
	}
	lt.TypeUses(t, setting, records, uses, New())
}
