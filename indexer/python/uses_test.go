package python

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
)

// pyUse is a snippet of m.py, beside t.py declaring classes T, U and E
// (an exception) and a decorator function deco.
func pyUse(form, src string, want []string, wrong ...string) lt.TypeUse {
	return lt.TypeUse{Form: form, Want: want, Wrong: wrong, Files: map[string]string{
		"t.py": "class T:\n    pass\n\nclass U:\n    pass\n\nclass E(Exception):\n    pass\n\ndef deco(f):\n    return f\n",
		"m.py": "import t\nfrom t import T, U, E, deco\n\n" + src,
	}}
}

func TestTypeUses(t *testing.T) {
	records := []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormVar,
		lt.FormAssertion, lt.FormTypeArg, lt.FormExtends, lt.FormAnnotation, lt.FormThrows,
	}
	uses := []lt.TypeUse{
		pyUse(lt.FormConstruct, "def f():\n    return T()\n", []string{
			"m.f -instantiates-> t.T (import) m.py:5",
		}),
		pyUse(lt.FormField, "class C:\n    t: T\n    u: \"U\" = None\n", []string{
			"m.C.t -references-> t.T (import) m.py:5",
		}, "m.C.u -references->"),
		pyUse(lt.FormParam, "def f(a: T, b: t.U | None = None, n: int = 0):\n    pass\n", []string{
			"m.f -references-> t.T (import) m.py:4",
			"m.f -references-> t.U (import) m.py:4",
		}, "m.f -references-> ?int", "m.f -references-> ?None"),
		pyUse(lt.FormResult, "def f() -> T:\n    pass\n", []string{
			"m.f -references-> t.T (import) m.py:4",
		}),
		pyUse(lt.FormVar, "def f():\n    x: T = g()\n\nv: U = None\n\ntype Alias = list[T]\n", []string{
			"m.f -references-> t.T (import) m.py:5",
			"m.v -references-> t.U (import) m.py:7",
			"m -references-> t.T (import) m.py:9",
		}, "m -references-> m.Alias", "m -references-> ?Alias"),
		pyUse(lt.FormAssertion, "def f(x):\n    return isinstance(x, (T, t.U)) or issubclass(x, E)\n", []string{
			"m.f -references-> t.T (import) m.py:5",
			"m.f -references-> t.U (import) m.py:5",
			"m.f -references-> t.E (import) m.py:5",
		}),
		pyUse(lt.FormTypeArg, "def f(a: list[T], b: dict[str, Annotated[U, meta(x=1)]]):\n    pass\n", []string{
			"m.f -references-> t.T (import) m.py:4",
			"m.f -references-> t.U (import) m.py:4",
		}, "m.f -references-> ?list", "m.f -references-> ?meta", "m.f -references-> ?x"),
		pyUse(lt.FormExtends, "class C(T):\n    pass\n", []string{
			"m.C -extends-> t.T (import) m.py:4",
		}, "m.C -references-> t.T"),
		pyUse(lt.FormAnnotation, "@deco\ndef f():\n    pass\n\n@T\nclass C:\n    pass\n", []string{
			"m -references-> t.deco (import) m.py:4",
			"m -references-> t.T (import) m.py:8",
		}),
		pyUse(lt.FormThrows, "def f():\n    try:\n        pass\n    except (E, t.U) as e:\n        pass\n    except T:\n        pass\n", []string{
			"m.f -references-> t.E (import) m.py:7",
			"m.f -references-> t.U (import) m.py:7",
			"m.f -references-> t.T (import) m.py:9",
		}, "m.f -references-> ?e"),
	}
	lt.TypeUses(t, records, uses, New())
}
